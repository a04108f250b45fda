package branching

import (
	"math/rand/v2"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// TestClosestBranchesAsCompareProfiles: closestBranches names the pair
// analyze.CompareProfiles lists first, with its similarity, ties included
// (branches with identical centroids).
func TestClosestBranchesAsCompareProfiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	base := make([]semantic.Vector, 4)
	for i := range base {
		base[i] = make(semantic.Vector, 16)
		for k := range base[i] {
			base[i][k] = float32(r.NormFloat64())
		}
	}
	for trial := range 200 {
		var docs []analyze.Doc
		nb := 1 + r.IntN(6)
		for step := 1; step <= 3+r.IntN(20); step++ {
			d := analyze.Doc{ID: string(rune('a' + step)), Step: step, Branch: string(rune('p' + r.IntN(nb)))}
			if r.IntN(5) > 0 {
				d.Vector = base[r.IntN(len(base))] // few distinct vectors: equal centroids happen
			}
			docs = append(docs, d)
		}
		cs := analyze.CompareProfiles(analyze.Profiles(docs))
		a, b, sim, ok := closestBranches(docs)
		if ok != (len(cs) > 0) {
			t.Fatalf("trial %d: closestBranches ok=%v, CompareProfiles lists %d pairs", trial, ok, len(cs))
		}
		if ok && (a != cs[0].BranchA || b != cs[0].BranchB || sim != cs[0].Similarity) {
			t.Fatalf("trial %d: closestBranches %s, %s %v; CompareProfiles first %s, %s %v", trial, a, b, sim, cs[0].BranchA, cs[0].BranchB, cs[0].Similarity)
		}
	}
}
