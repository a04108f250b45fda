package semantic

import "math"

// Dot returns the dot product of a and b over their common length. For
// L2-normalised vectors it is their cosine similarity.
func Dot(a, b Vector) float32 {
	if len(b) < len(a) {
		a = a[:len(b)]
	}
	return dotF32(a, b)
}

// dotGeneric is the portable dot product: eight independent accumulators so
// that the CPU can overlap the multiply-adds.
func dotGeneric(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= n; i += 8 {
		aa := a[i : i+8 : i+8]
		bb := b[i : i+8 : i+8]
		s0 += aa[0] * bb[0]
		s1 += aa[1] * bb[1]
		s2 += aa[2] * bb[2]
		s3 += aa[3] * bb[3]
		s4 += aa[4] * bb[4]
		s5 += aa[5] * bb[5]
		s6 += aa[6] * bb[6]
		s7 += aa[7] * bb[7]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// Cosine returns the cosine similarity of a and b, computed with their norms
// so that it is correct for vectors that are not normalised. It returns 0 when
// either vector is empty or zero, or when their lengths differ.
func Cosine(a, b Vector) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var ab, aa, bb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		ab += x * y
		aa += x * x
		bb += y * y
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	c := ab / math.Sqrt(aa*bb)
	if c > 1 {
		c = 1
	} else if c < -1 {
		c = -1
	}
	return c
}

// Normalize returns a copy of v scaled to unit L2 norm. A zero or empty vector
// is returned as a zero vector of the same length.
func Normalize(v Vector) Vector {
	out := make(Vector, len(v))
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return out
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// isUnitNorm reports whether v has L2 norm 1 within float32 rounding.
func isUnitNorm(v Vector) bool {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	return math.Abs(ss-1) < 1e-4
}

// AsUnit returns v itself when it is already normalised, a normalised copy
// otherwise.
func AsUnit(v Vector) Vector {
	if isUnitNorm(v) {
		return v
	}
	return Normalize(v)
}

// Centroid returns the normalised mean of the non-empty vectors in vs whose
// length is that of the first non-empty one, or nil when there is none. Its
// cosine with a vector is the cosine with the group's mean direction.
func Centroid(vs []Vector) Vector {
	var sum []float64
	for _, v := range vs {
		if len(v) == 0 {
			continue
		}
		if sum == nil {
			sum = make([]float64, len(v))
		}
		if len(v) != len(sum) {
			continue
		}
		for i, x := range v {
			sum[i] += float64(x)
		}
	}
	if sum == nil {
		return nil
	}
	out := make(Vector, len(sum))
	for i, x := range sum {
		out[i] = float32(x)
	}
	return Normalize(out)
}

// dotBatchGeneric sets out[r] to the dot product of q with row r of the
// len(out) consecutive rows of len(q) values in rows.
func dotBatchGeneric(q, rows []float32, out []float32) {
	d := len(q)
	for r := range out {
		out[r] = dotGeneric(q, rows[r*d:(r+1)*d])
	}
}
