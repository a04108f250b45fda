package semantic

// This file holds the int8 copies of unit vectors that the approximate
// neighbour search scans (analyze_neighbors.go): a quarter of the memory of
// float32, so that a cluster's rows stay in the CPU cache, with a cosine
// error of about 1e-3 for 512-dimensional vectors. Cosines that are
// reported are recomputed from the float32 vectors.

// i8Rows is n vectors of dim int8 values in one allocation; row i stands for
// the float32 vector int8 row · scale[i].
type i8Rows struct {
	n, dim int
	data   []int8
	scale  []float32
}

func (r *i8Rows) row(i int) []int8 { return r.data[i*r.dim : (i+1)*r.dim : (i+1)*r.dim] }

// quantizeRowGeneric writes round(x·127/max|x|) into dst and returns
// max|x|/127.
func quantizeRowGeneric(dst []int8, x []float32) float32 {
	var mx float32
	for _, v := range x {
		mx = max(mx, v, -v)
	}
	if mx == 0 {
		clear(dst)
		return 0
	}
	f := 127 / mx
	dst = dst[:len(x)]
	for t, v := range x {
		// v·f is in [-127, 127]; adding 128.5 and truncating rounds it
		// without a data-dependent branch.
		dst[t] = int8(int32(v*f+128.5) - 128)
	}
	return mx / 127
}

// dotI8Generic is the portable int8 dot product (a widened to int16).
func dotI8Generic(a []int16, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// dotI8BatchGeneric sets out[r] to the dot product of q with row r of the
// len(out) consecutive rows of len(q) values in rows.
func dotI8BatchGeneric(q []int16, rows []int8, out []int32) {
	d := len(q)
	for r := range out {
		out[r] = dotI8Generic(q, rows[r*d:(r+1)*d])
	}
}

// widenI8 sets dst to src widened to int16.
func widenI8(dst []int16, src []int8) {
	dst = dst[:len(src)]
	for t, v := range src {
		dst[t] = int16(v)
	}
}
