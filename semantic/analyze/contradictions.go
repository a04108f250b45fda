package analyze

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic/claims"
)

// Contradiction is a pair of thoughts the judge found to contradict each
// other. ThoughtA is the earlier one.
type Contradiction struct {
	ThoughtA   ThoughtRef `json:"thoughtA"`
	ThoughtB   ThoughtRef `json:"thoughtB"`
	Similarity float64    `json:"similarity"` // topical overlap (cosine)
	Confidence float64    `json:"confidence"` // the judge's
	Reason     string     `json:"reason"`
	// Source is "declared" for a contradiction that was stated rather than
	// found: a cross-reference of type contradictory, or a verdict given
	// to a candidate pair; "" for the judge's own.
	Source string `json:"source,omitempty"`
}

// ContradictionReport is the result of FindContradictions.
type ContradictionReport struct {
	Contradictions []Contradiction `json:"contradictions"`
	// Thoughts is the number of thoughts with vectors that were considered.
	Thoughts int `json:"thoughtsChecked"`
	// CandidatePairs is the number of distinct pairs given to the judge.
	CandidatePairs int `json:"candidatePairs"`
	// Exact is false when the candidate neighbours were found approximately
	// (more than knnExactMax thoughts).
	Exact bool `json:"exactCandidates"`
}

// rowPair is a candidate pair of matrix rows (lo < hi) with its cosine.
type rowPair struct {
	lo, hi int32
	s      float32
}

// candidatePairs returns the distinct pairs (i, j) where j is among i's k
// nearest rows with cosine ≥ minSim or i among j's, sorted by (lo, hi).
func candidatePairs(vd vectored, k int, minSim float32) []rowPair {
	g := knnGraph(vd.m, k, minSim)
	// up[i] lists the rows h > i that have i as a neighbour, through a
	// counting pass instead of sorting every edge.
	start := make([]int32, len(g)+1)
	edges := 0
	for h, nbs := range g {
		for _, nb := range nbs {
			if int(nb.j) < h {
				start[nb.j+1]++
			}
		}
		edges += len(nbs)
	}
	for i := range g {
		start[i+1] += start[i]
	}
	up := make([]neighbor, start[len(g)])
	fill := slices.Clone(start[:len(g)])
	for h, nbs := range g {
		for _, nb := range nbs {
			if int(nb.j) < h {
				up[fill[nb.j]] = neighbor{j: int32(h), s: nb.s}
				fill[nb.j]++
			}
		}
	}
	pairs := make([]rowPair, 0, edges)
	var row []neighbor
	for i, nbs := range g {
		row = row[:0]
		for _, nb := range nbs {
			if int(nb.j) > i {
				row = append(row, nb)
			}
		}
		for _, nb := range up[start[i]:start[i+1]] {
			if !slices.ContainsFunc(nbs, func(x neighbor) bool { return x.j == nb.j }) {
				row = append(row, nb)
			}
		}
		slices.SortFunc(row, func(a, b neighbor) int { return cmp.Compare(a.j, b.j) })
		for _, nb := range row {
			pairs = append(pairs, rowPair{int32(i), nb.j, nb.s})
		}
	}
	return pairs
}

// judgePairs runs judge over pairs and returns the contradictions found,
// sorted most confident first.
func judgePairs(docs []Doc, vd vectored, pairs []rowPair, judge PairJudge, minConf float64) []Contradiction {
	if judge == nil || len(pairs) == 0 {
		return nil
	}
	var mu sync.Mutex
	var out []Contradiction
	parallelRows(len(pairs), func(lo, hi int) {
		var local []Contradiction
		for _, p := range pairs[lo:hi] {
			a, b := docs[vd.rows[p.lo]], docs[vd.rows[p.hi]]
			if b.Step < a.Step || (b.Step == a.Step && b.ID < a.ID) {
				a, b = b, a
			}
			ok, conf, reason := judge(a, b)
			if !ok || conf < minConf {
				continue
			}
			local = append(local, Contradiction{ThoughtA: Ref(a), ThoughtB: Ref(b), Similarity: float64(p.s), Confidence: conf, Reason: reason})
		}
		mu.Lock()
		out = append(out, local...)
		mu.Unlock()
	})
	slices.SortFunc(out, func(x, y Contradiction) int {
		if c := cmp.Compare(y.Confidence, x.Confidence); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Similarity, x.Similarity); c != 0 {
			return c
		}
		if c := strings.Compare(x.ThoughtA.ID, y.ThoughtA.ID); c != 0 {
			return c
		}
		return strings.Compare(x.ThoughtB.ID, y.ThoughtB.ID)
	})
	return out
}

// correctionWindow bounds how many thoughts before the later one of a pair
// Corrected reads for a retraction: a correction follows the step it takes
// back closely, and the bound keeps the cost of a pair constant however
// far apart its thoughts are.
const correctionWindow = 16

// Corrected reports whether the later of two thoughts (indexes into docs)
// continues the earlier one's line (the earlier is an ancestor of it) and
// it, or one of the correctionWindow thoughts before it on that line after
// the earlier one, takes back a step of the reasoning ("We made an error,
// the formula should be …": claims.Retracts): the later thought then
// corrects what the earlier said, and a conflict between them is that
// correction, which the session states itself, not a contradiction to
// assert.
func Corrected(docs []Doc, a, b int) bool { return Corrections(docs)(a, b) }

// Corrections returns Corrected on docs for many pairs, reading each
// thought's text at most once.
func Corrections(docs []Doc) func(a, b int) bool {
	var pos map[string]int
	parents := make([]int32, len(docs)) // each thought's parent + 2, once read; 0 before
	parent := func(i int) int {
		if parents[i] == 0 {
			if pos == nil {
				pos = make(map[string]int, len(docs))
				for k, d := range docs {
					pos[d.ID] = k
				}
			}
			p, ok := pos[docs[i].ParentID]
			if !ok || docs[i].ParentID == "" || docs[p].Step >= docs[i].Step {
				p = -1 // a thought's parent is written before it
			}
			parents[i] = int32(p + 2)
		}
		return int(parents[i]) - 2
	}
	return func(a, b int) bool {
		if docs[b].Step < docs[a].Step {
			a, b = b, a
		}
		i, found := b, false
		for n := 0; i >= 0 && docs[i].Step > docs[a].Step && n < correctionWindow && !found; n++ {
			found = claims.Retracts(docs[i].Content)
			i = parent(i)
		}
		for found && i >= 0 && docs[i].Step > docs[a].Step { // is a on that line?
			i = parent(i)
		}
		return found && i == a
	}
}
