package semantic

// This file holds the int8 copies of unit vectors that the approximate
// neighbour search scans (analyze_neighbors.go): a quarter of the memory of
// float32, so that a cluster's rows stay in the CPU cache, with a cosine
// error of about 2e-3 for 512-dimensional vectors. Cosines that are
// reported are recomputed from the float32 vectors.
//
// Values are in [-i8Max, i8Max] so that the AVX2 kernel can multiply the
// query, offset by i8Off into unsigned bytes, with a row and add pairs of
// products in 16 bits without saturating (2·127·63 < 2^15); the offset is
// taken back out with the row's sum.
const (
	i8Max = 63
	i8Off = 64
)

// i8Rows is n vectors of dim int8 values in one allocation; row i stands for
// the float32 vector int8 row · scale[i], and sum[i] is the sum of its values.
type i8Rows struct {
	n, dim int
	data   []int8
	scale  []float32
	sum    []int32
}

func (r *i8Rows) row(i int) []int8 { return r.data[i*r.dim : (i+1)*r.dim : (i+1)*r.dim] }

// quantizeRowGeneric writes round(x·i8Max/max|x|) into dst and returns
// max|x|/i8Max.
func quantizeRowGeneric(dst []int8, x []float32) float32 {
	var mx float32
	for _, v := range x {
		mx = max(mx, v, -v)
	}
	if mx == 0 {
		clear(dst)
		return 0
	}
	f := i8Max / mx
	dst = dst[:len(x)]
	for t, v := range x {
		// v·f is in [-i8Max, i8Max]; adding 128.5 and truncating rounds it
		// without a data-dependent branch.
		dst[t] = int8(int32(v*f+128.5) - 128)
	}
	return mx / i8Max
}

// sumI8 returns the sum of x.
func sumI8(x []int8) int32 {
	var s int32
	for _, v := range x {
		s += int32(v)
	}
	return s
}

// offsetI8 sets dst to src + i8Off.
func offsetI8(dst []uint8, src []int8) {
	dst = dst[:len(src)]
	for t, v := range src {
		dst[t] = uint8(int16(v) + i8Off)
	}
}

// dotU8I8BatchGeneric sets out[r] to the dot product of q with row r of the
// len(out) consecutive rows of len(q) values in rows.
func dotU8I8BatchGeneric(q []uint8, rows []int8, out []int32) {
	d := len(q)
	for r := range out {
		row := rows[r*d : (r+1)*d]
		var s int32
		for t, v := range q {
			s += int32(v) * int32(row[t])
		}
		out[r] = s
	}
}
