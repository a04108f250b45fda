package analyze

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// tstDim is the dimension of the test embedder's vectors.
const tstDim = 256

// tstEmbed is a tiny test-only embedder: a bag of lower-cased words with a
// trailing "s" removed, each hashed to one dimension, L2-normalised.
func tstEmbed(text string) semantic.Vector {
	v := make(semantic.Vector, tstDim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) > 3 {
			w = strings.TrimSuffix(w, "s")
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%tstDim]++
	}
	return semantic.Normalize(v)
}

// tstRandUnit returns n random unit vectors of length dim (as the index
// tests of package semantic draw them).
func tstRandUnit(n, dim int, seed uint64) []semantic.Vector {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]semantic.Vector, n)
	for i := range out {
		v := make(semantic.Vector, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = semantic.Normalize(v)
	}
	return out
}
