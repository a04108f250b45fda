package analyze

import (
	"cmp"
	"slices"
	"testing"
)

// TestCandidatePairsUnion checks candidatePairs against the union of the
// neighbour lists built the plain way: every edge, sorted, duplicates
// dropped.
func TestCandidatePairsUnion(t *testing.T) {
	for _, n := range []int{200, 3000} {
		vd := vectored{m: newMatrix(tstClustered(n, 64, n/50, 1.0, 21), 64)}
		g := knnGraph(vd.m, 10, 0.3)
		var want []rowPair
		for i, nbs := range g {
			for _, nb := range nbs {
				lo, hi := int32(i), nb.j
				want = append(want, rowPair{min(lo, hi), max(lo, hi), nb.s})
			}
		}
		slices.SortFunc(want, func(a, b rowPair) int {
			if c := cmp.Compare(a.lo, b.lo); c != 0 {
				return c
			}
			return cmp.Compare(a.hi, b.hi)
		})
		want = slices.CompactFunc(want, func(a, b rowPair) bool { return a.lo == b.lo && a.hi == b.hi })
		if got := candidatePairs(vd, 10, 0.3); !slices.Equal(got, want) {
			t.Fatalf("n=%d: %d pairs, want %d", n, len(got), len(want))
		}
	}
}
