package advice

import (
	"fmt"
	"math/rand/v2"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

func tstF(x float64) *float64 { return &x }

func tstIDs(refs []analyze.ThoughtRef) []string {
	var ids []string
	for _, r := range refs {
		ids = append(ids, r.ID)
	}
	return ids
}

// tstRandUnit returns n random unit vectors of dim dimensions.
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

// tstSession is n thoughts on 50 branches with random vectors, each
// branch a chain forking from the first thought.
func tstSession(n int) []analyze.Doc {
	vs := tstRandUnit(n, 512, 5)
	last := map[string]string{}
	docs := make([]analyze.Doc, n)
	for i := range docs {
		b := fmt.Sprintf("b%d", i%50)
		parent := last[b]
		if parent == "" && i > 0 {
			parent = docs[0].ID
		}
		docs[i] = analyze.Doc{ID: fmt.Sprintf("d%05d", i), Branch: b, ParentID: parent, Step: i + 1, Type: "analysis",
			Confidence: tstF(float64(i%10) / 10), Content: fmt.Sprintf("thought %d", i), Vector: vs[i]}
		last[b] = docs[i].ID
	}
	return docs
}
