package semantic

import (
	"math"
	"slices"
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

// TestDotI8KernelsAgree checks the int8 batch kernel against the portable
// one, at the extreme values too, and the quantised cosine against the
// float32 one.
func TestDotI8KernelsAgree(t *testing.T) {
	for _, dim := range []int{32, 64, 96, 512, 40} {
		vs := tstRandUnit(7, dim, uint64(dim))
		q := make([]int8, dim)
		qs := quantizeRow(q, vs[0])
		rows := make([]int8, 6*dim)
		scale := make([]float32, 6)
		for r := range 6 {
			scale[r] = quantizeRow(rows[r*dim:(r+1)*dim], vs[r+1])
		}
		qu := make([]uint8, dim)
		offsetI8(qu, q)
		ext := slices.Clone(rows)
		for t := range ext {
			ext[t] = int8(-i8Max + 2*i8Max*(t%2))
		}
		extq := slices.Clone(qu)
		for t := range extq {
			extq[t] = 127
		}
		got, want := make([]int32, 6), make([]int32, 6)
		for _, c := range []struct {
			q    []uint8
			rows []int8
		}{{qu, rows}, {extq, ext}, {qu, ext}, {extq, rows}} {
			dotU8I8Batch(c.q, c.rows, got)
			dotU8I8BatchGeneric(c.q, c.rows, want)
			if !slices.Equal(got, want) {
				t.Fatalf("dim %d: kernel %v, generic %v", dim, got, want)
			}
		}
		dotU8I8Batch(qu, rows, got)
		for r := range 6 {
			d := got[r] - i8Off*sumI8(rows[r*dim:(r+1)*dim])
			approx := float64(d) * float64(qs) * float64(scale[r])
			if exact := float64(dotF32(vs[0], vs[r+1])); math.Abs(approx-exact) > 0.02 {
				t.Fatalf("dim %d row %d: int8 cosine %v, float32 %v", dim, r, approx, exact)
			}
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
		dotBatch(vs[0], rows, got)
		for r := range 5 {
			if want := dotF32(vs[0], vs[r+1]); math.Abs(float64(got[r]-want)) > 1e-5 {
				t.Fatalf("dim %d row %d: batch %v, dotF32 %v", dim, r, got[r], want)
			}
		}
	}
}

// TestQuantizeRowKernelsAgree checks the vectorised quantisation against the
// portable one (they may differ by one where x·f is a tie).
func TestQuantizeRowKernelsAgree(t *testing.T) {
	for _, dim := range []int{32, 64, 512, 40} {
		for seed := range uint64(5) {
			v := tstRandUnit(1, dim, seed+100)[0]
			got, want := make([]int8, dim), make([]int8, dim)
			gs, ws := quantizeRow(got, v), quantizeRowGeneric(want, v)
			if gs != ws {
				t.Fatalf("dim %d: scale %v, generic %v", dim, gs, ws)
			}
			for i := range got {
				if d := int(got[i]) - int(want[i]); d < -1 || d > 1 {
					t.Fatalf("dim %d [%d]: %d, generic %d", dim, i, got[i], want[i])
				}
				if math.Abs(float64(got[i])*float64(gs)-float64(v[i])) > float64(gs)/2+1e-6 {
					t.Fatalf("dim %d [%d]: %d·%v is not within half a step of %v", dim, i, got[i], gs, v[i])
				}
			}
		}
	}
}

// TestFold128KernelsAgree checks the vectorised fold against the portable
// one.
func TestFold128KernelsAgree(t *testing.T) {
	for _, dim := range []int{128, 512, 1536} {
		vs := tstRandUnit(2, dim, uint64(dim)+7)
		sign := make([]float32, dim)
		for i := range sign {
			sign[i] = 1
			if vs[1][i] < 0 {
				sign[i] = -1
			}
		}
		got, want := make([]float32, 128), make([]float32, 128)
		got[3] = 42 // overwritten
		fold128(got, vs[0], sign)
		fold128Generic(want, vs[0], sign)
		for u := range got {
			if math.Abs(float64(got[u]-want[u])) > 1e-5 {
				t.Fatalf("dim %d [%d]: %v, generic %v", dim, u, got[u], want[u])
			}
		}
	}
}
