package semantic

// dotU8I8BatchAVX2 sets out[r] to the dot product of the dim uint8 values
// at q with the int8 values of row r of the n consecutive rows at rows; dim
// must be a multiple of 32, q's values at most 127 and the rows' at most
// 63 in magnitude (cosine_i8_amd64.s).
//
//go:noescape
func dotU8I8BatchAVX2(q *uint8, rows *int8, dim, n int, out *int32)

// dotU8I8Batch sets out[r] to the dot product of q (values ≤ 127) with row r
// of the len(out) consecutive rows of len(q) values in rows (|values| ≤
// i8Max).
func dotU8I8Batch(q []uint8, rows []int8, out []int32) {
	d := len(q)
	if len(out) == 0 {
		return
	}
	_ = rows[len(out)*d-1]
	if hasAVX2FMA && d > 0 && d%32 == 0 {
		dotU8I8BatchAVX2(&q[0], &rows[0], d, len(out), &out[0])
		return
	}
	dotU8I8BatchGeneric(q, rows, out)
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

// quantizeRow writes round(x·i8Max/max|x|) into dst and returns
// max|x|/i8Max.
func quantizeRow(dst []int8, x []float32) float32 {
	if !hasAVX2FMA || len(x) == 0 || len(x)%32 != 0 {
		return quantizeRowGeneric(dst, x)
	}
	dst = dst[:len(x)]
	mx := maxAbsAVX2(&x[0], len(x))
	if mx == 0 || mx != mx {
		return quantizeRowGeneric(dst, x)
	}
	quantizeAVX2(&dst[0], &x[0], len(x), i8Max/mx)
	return mx / i8Max
}
