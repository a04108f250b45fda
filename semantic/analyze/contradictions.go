package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// ContradictionOptions tunes FindContradictions; zero values mean the
// defaults.
type ContradictionOptions struct {
	// Neighbors is how many nearest thoughts of each thought are candidates
	// (default 10).
	Neighbors int
	// MinOverlap is the cosine a pair needs to be a candidate: thoughts that
	// do not talk about the same thing cannot contradict each other
	// (default 0.3).
	MinOverlap float64
	// MinConfidence drops verdicts of the judge below it (default 0: keep all).
	MinConfidence float64
	// Limit caps the number of results, most confident first (0: no cap).
	Limit int
}

func (o ContradictionOptions) withDefaults() ContradictionOptions {
	if o.Neighbors <= 0 {
		o.Neighbors = 10
	}
	if o.MinOverlap <= 0 {
		o.MinOverlap = 0.3
	}
	return o
}

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

// FindContradictions finds pairs of thoughts that contradict each other.
//
// Candidates: for every thought with a vector (taken from the Doc, or from
// idx when the Doc has none), its opts.Neighbors most similar thoughts among
// docs with cosine ≥ opts.MinOverlap; the union of these pairs, each counted
// once. Pairs are never enumerated exhaustively: up to a few hundred thoughts
// the neighbours are exact, above that they come from a clustered search
// (see knnGraph). Decision: judge(a, b) for every candidate, run on several
// goroutines, so judge must be safe for concurrent use; verdicts with
// confidence below opts.MinConfidence are dropped. Results are sorted by
// confidence, then similarity, descending.
func FindContradictions(docs []Doc, idx *semantic.Index, judge PairJudge, opts ContradictionOptions) ContradictionReport {
	opts = opts.withDefaults()
	vd := vectorsOf(docs, idx)
	pairs := candidatePairs(vd, opts.Neighbors, float32(opts.MinOverlap))
	rep := ContradictionReport{Thoughts: vd.m.n, CandidatePairs: len(pairs), Exact: vd.m.n <= knnExactMax}
	rep.Contradictions = judgePairs(docs, vd, pairs, judge, opts.MinConfidence)
	if opts.Limit > 0 && len(rep.Contradictions) > opts.Limit {
		rep.Contradictions = rep.Contradictions[:opts.Limit]
	}
	return rep
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

// ContradictionsWith checks one thought against the session as indexed in
// idx: its opts.Neighbors most similar indexed thoughts (itself excluded)
// with cosine ≥ opts.MinOverlap are looked up with lookup (ids it does not
// know are skipped) and given to judge with the earlier thought first. It
// costs one TopK and at most opts.Neighbors judge calls, so it suits
// checking each thought as it is added. The thought's vector is d.Vector, or
// the indexed one when d has none (ErrNoVector when neither exists).
func ContradictionsWith(d Doc, idx *semantic.Index, lookup func(id string) (Doc, bool), judge PairJudge, opts ContradictionOptions) ([]Contradiction, error) {
	opts = opts.withDefaults()
	v := d.Vector
	if len(v) == 0 {
		var ok bool
		if v, ok = idx.Vector(d.ID); !ok {
			return nil, fmt.Errorf("semantic: contradictions with %q: %w", d.ID, ErrNoVector)
		}
	}
	hits, err := idx.TopK(v, opts.Neighbors, semantic.ExcludeIDs(d.ID))
	if err != nil {
		return nil, err
	}
	var out []Contradiction
	for _, h := range hits {
		if h.Similarity < opts.MinOverlap {
			break
		}
		o, ok := lookup(h.ID)
		if !ok {
			continue
		}
		a, b := o, d
		if b.Step < a.Step || (b.Step == a.Step && b.ID < a.ID) {
			a, b = b, a
		}
		if yes, conf, reason := judge(a, b); yes && conf >= opts.MinConfidence {
			out = append(out, Contradiction{ThoughtA: Ref(a), ThoughtB: Ref(b), Similarity: h.Similarity, Confidence: conf, Reason: reason})
		}
	}
	slices.SortStableFunc(out, func(x, y Contradiction) int { return cmp.Compare(y.Confidence, x.Confidence) })
	if opts.Limit > 0 && len(out) > opts.Limit {
		out = out[:opts.Limit]
	}
	return out, nil
}
