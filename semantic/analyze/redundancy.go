package analyze

import (
	"cmp"
	"slices"
)

// DefaultNearDuplicate is the cosine at or above which two thoughts are
// near-duplicates.
const DefaultNearDuplicate = 0.9

// RedundantPair is two thoughts of one branch that say nearly the same thing.
// ThoughtA is the earlier one.
type RedundantPair struct {
	Branch     string     `json:"branchId"`
	ThoughtA   ThoughtRef `json:"thoughtA"`
	ThoughtB   ThoughtRef `json:"thoughtB"`
	Similarity float64    `json:"similarity"`
}

// FindRedundancy returns the near-duplicate pairs within each branch: two
// thoughts of the same branch whose cosine is ≥ minSim (values outside
// (0, 1] mean DefaultNearDuplicate). Candidates are each thought's 5 nearest
// thoughts of its branch (exact for small branches, approximate above a few
// hundred thoughts; see knnGraph). Sorted by similarity, descending.
func FindRedundancy(docs []Doc, minSim float64) []RedundantPair {
	if minSim <= 0 || minSim > 1 {
		minSim = DefaultNearDuplicate
	}
	var out []RedundantPair
	for _, br := range GroupBranches(docs) {
		vd := vectorsOf(br.Docs, nil)
		for _, p := range candidatePairs(vd, 5, float32(minSim)) {
			a, b := br.Docs[vd.rows[p.lo]], br.Docs[vd.rows[p.hi]]
			out = append(out, RedundantPair{Branch: br.ID, ThoughtA: Ref(a), ThoughtB: Ref(b), Similarity: float64(p.s)})
		}
	}
	slices.SortStableFunc(out, func(x, y RedundantPair) int { return cmp.Compare(y.Similarity, x.Similarity) })
	return out
}
