package semantic

// dotI8BatchAVX2 sets out[r] to the dot product of the dim int16 values at q
// with the int8 values of row r of the n consecutive rows at rows; dim must
// be a multiple of 32 (cosine_i8_amd64.s).
//
//go:noescape
func dotI8BatchAVX2(q *int16, rows *int8, dim, n int, out *int32)

// dotI8Batch sets out[r] to the dot product of q (int8 values widened to
// int16) with row r of the len(out) consecutive rows of len(q) values in
// rows.
func dotI8Batch(q []int16, rows []int8, out []int32) {
	d := len(q)
	if len(out) == 0 {
		return
	}
	_ = rows[len(out)*d-1]
	if hasAVX2FMA && d > 0 && d%32 == 0 {
		dotI8BatchAVX2(&q[0], &rows[0], d, len(out), &out[0])
		return
	}
	dotI8BatchGeneric(q, rows, out)
}

// maxAbsAVX2 returns max |x[t]| over n float32s, n a multiple of 8
// (cosine_i8_amd64.s).
//
//go:noescape
func maxAbsAVX2(x *float32, n int) float32

// quantizeAVX2 sets dst[t] to x[t]·f rounded, for n a multiple of 32 and
// |x[t]·f| ≤ 127 (cosine_i8_amd64.s).
//
//go:noescape
func quantizeAVX2(dst *int8, x *float32, n int, f float32)

// quantizeRow writes round(x·127/max|x|) into dst and returns max|x|/127.
func quantizeRow(dst []int8, x []float32) float32 {
	if !hasAVX2FMA || len(x) == 0 || len(x)%32 != 0 {
		return quantizeRowGeneric(dst, x)
	}
	dst = dst[:len(x)]
	mx := maxAbsAVX2(&x[0], len(x))
	if mx == 0 || mx != mx {
		return quantizeRowGeneric(dst, x)
	}
	quantizeAVX2(&dst[0], &x[0], len(x), 127/mx)
	return mx / 127
}
