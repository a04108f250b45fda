package semantic

import "golang.org/x/sys/cpu"

// dotAVX2 is the AVX2/FMA dot product of n float32s (cosine_amd64.s).
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

// hasAVX2FMA reports whether the CPU and the OS support AVX2 and FMA.
var hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotF32 is the hot loop of every similarity computation: a vectorised
// kernel when the CPU has AVX2 and FMA, portable Go otherwise. len(b) must be
// at least len(a).
func dotF32(a, b []float32) float32 {
	if hasAVX2FMA && len(a) >= 16 {
		return dotAVX2(&a[0], &b[:len(a)][0], len(a))
	}
	return dotGeneric(a, b)
}

// dotBatchAVX2 sets out[r] to the dot product of the dim float32s at q with
// row r of the n consecutive rows at rows; dim must be a multiple of 32
// (cosine_amd64.s).
//
//go:noescape
func dotBatchAVX2(q, rows *float32, dim, n int, out *float32)

// DotBatch sets out[r] to the dot product of q with row r of the len(out)
// consecutive rows of len(q) values in rows (len(rows) ≥ len(out)·len(q)),
// with the vectorised kernel of Dot when the length allows it.
func DotBatch(q, rows []float32, out []float32) {
	d := len(q)
	if len(out) == 0 {
		return
	}
	_ = rows[len(out)*d-1]
	if hasAVX2FMA && d > 0 && d%32 == 0 {
		dotBatchAVX2(&q[0], &rows[0], d, len(out), &out[0])
		return
	}
	dotBatchGeneric(q, rows, out)
}
