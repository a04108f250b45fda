package semantic

// dotAVX2 is the AVX2/FMA dot product of n float32s (cosine_amd64.s).
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasAVX2FMA reports whether the CPU and the OS support AVX2 and FMA.
var hasAVX2FMA = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&fma == 0 || ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state saved by the OS
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

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

// dotBatch sets out[r] to the dot product of q with row r of the len(out)
// consecutive rows of len(q) values in rows.
func dotBatch(q, rows []float32, out []float32) {
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

// foldAVX2 sets dst[u] to Σ_b sign[b·128+u]·x[b·128+u] over the dim/128
// slices of 128 values, dim a multiple of 128 (cosine_amd64.s).
//
//go:noescape
func foldAVX2(dst, x, sign *float32, dim int)

// fold128 sets dst (128 values) to the signed sum of the consecutive
// 128-value slices of x; len(x) = len(sign) is a multiple of 128.
func fold128(dst, x, sign []float32) {
	if hasAVX2FMA && len(dst) == 128 && len(x) > 0 && len(x)%128 == 0 && len(sign) >= len(x) {
		foldAVX2(&dst[0], &x[0], &sign[0], len(x))
		return
	}
	fold128Generic(dst, x, sign)
}
