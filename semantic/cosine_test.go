package semantic

import (
	"math"
	"testing"
)

// TestDotKernelsAgree checks the vectorised kernel against the portable one
// for every length up to 200 (all loop tails).
func TestDotKernelsAgree(t *testing.T) {
	vs := tstRandUnit(2, 200, 99)
	for n := 0; n <= 200; n++ {
		a, b := vs[0][:n], vs[1][:n]
		want := dotGeneric(a, b)
		var exact float64
		for i := range a {
			exact += float64(a[i]) * float64(b[i])
		}
		if got := dotF32(a, b); math.Abs(float64(got-want)) > 1e-5 || math.Abs(float64(got)-exact) > 1e-5 {
			t.Fatalf("n=%d: dotF32 %v, dotGeneric %v, float64 %v", n, got, want, exact)
		}
	}
}

// TestDotBatchKernelsAgree checks the float32 batch kernel against dotF32.
func TestDotBatchKernelsAgree(t *testing.T) {
	for _, dim := range []int{32, 128, 512, 40} {
		vs := tstRandUnit(6, dim, uint64(dim)+1)
		rows := make([]float32, 0, 5*dim)
		for _, v := range vs[1:] {
			rows = append(rows, v...)
		}
		got := make([]float32, 5)
		DotBatch(vs[0], rows, got)
		for r := range 5 {
			if want := dotF32(vs[0], vs[r+1]); math.Abs(float64(got[r]-want)) > 1e-5 {
				t.Fatalf("dim %d row %d: batch %v, dotF32 %v", dim, r, got[r], want)
			}
		}
	}
}
