package advice

import (
	"cmp"
	"fmt"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"slices"
	"strings"
)

// StrongPath is one root-to-leaf path of the thought tree with its score.
type StrongPath struct {
	Thoughts []analyze.ThoughtRef `json:"thoughts"`
	// Score is MeanConfidence × coherence (1 when the path has no link
	// to judge), so every path's score is made of the same factors.
	Score float64 `json:"score"`
	// MeanConfidence averages the confidences on the path, a thought
	// without one counting 0.5 and a thought of a circular argument 0.
	MeanConfidence float64 `json:"meanConfidence"`
	// Coherence is the relatedness (see analyze.Calibration) of the mean of
	// max(0, cosine) of consecutive thoughts with vectors, a link inside a
	// circular argument counting 0; nil when there is no such link.
	Coherence *float64 `json:"coherence"`
	// Basis says what the score rests on beyond the rule.
	Basis string `json:"basis,omitempty"`
	// Circular lists the thoughts of the path that support each other in
	// a circular argument.
	Circular []string `json:"circular,omitempty"`
	// Concludes marks the path to the session's conclusion (its latest
	// synthesis or answer).
	Concludes bool `json:"concludes,omitempty"`
	// Closed says why the path's last branch is closed (see Closure).
	Closed *Closure `json:"closed,omitempty"`
	// Drifting marks a path whose last branch drifts (see DetectDrift).
	Drifting bool `json:"drifting,omitempty"`
}

// PathOptions are what RankPaths reads beyond the thoughts; the zero value
// knows no closure, drift, circular argument or conclusion.
type PathOptions struct {
	Closed   map[string]Closure
	Drifting map[string]bool
	// Circular are the session's circular arguments (with stated
	// verdicts, as detectCircular reports them).
	Circular []analyze.CircularReasoning
	// Conclusion is the id of the session's conclusion (see Conclusion).
	Conclusion  string
	Calibration analyze.Calibration
}

// unknownConfidence is what a thought without a confidence counts for: as
// likely right as wrong.
const unknownConfidence = 0.5

// RankPaths returns the k best root-to-leaf paths of the thought tree
// formed by ParentID (a thought whose parent is not among docs is a root).
//
// Score = mean confidence × coherence: every thought counts in the mean
// confidence, one without a confidence as 0.5 and one that is part of a
// circular argument as 0 (circular support adds no confidence); coherence
// is the relatedness of the mean cosine of consecutive thoughts, a link
// inside a circular argument counting 0, and 1 for a path with no link to
// judge. Paths are ranked in three tiers, by score within each (ties by
// the leaf's step): first the path to the session's conclusion when it is
// sound (not closed, not drifting, no circular argument, mean confidence
// ≥ 0.5), then the paths whose last branch is open, then those whose last
// branch drifts, then those whose last branch is closed. Paths are walked once with running sums, O(n)
// cosines. Thoughts caught in a parent cycle are not reachable from a root
// and are skipped (DetectCircular reports them). A refuted thought
// (Doc.Refuted) and the thoughts below it are on no path: its parent ends
// a path when no other child goes on.
func RankPaths(docs []analyze.Doc, k int, opts PathOptions) []StrongPath {
	if k <= 0 {
		return nil
	}
	docs = byStep(docs)
	pos := make(map[string]int, len(docs))
	for i, d := range docs {
		pos[d.ID] = i
	}
	children := make([][]int, len(docs))
	var roots []int
	for i, d := range docs {
		switch p, ok := pos[d.ParentID]; {
		case d.Refuted:
		case ok && d.ParentID != "" && p != i:
			children[p] = append(children[p], i)
		default:
			roots = append(roots, i)
		}
	}
	vd := vectorsOf(docs)
	circ := opts.Circular
	// circle[i] lists the circular arguments thought i is part of.
	circle := make([][]int, len(docs))
	for c, f := range circ {
		for _, t := range f.Thoughts {
			if p, ok := pos[t.ID]; ok {
				circle[p] = append(circle[p], c)
			}
		}
	}
	sameCircle := func(i, j int) bool {
		for _, c := range circle[i] {
			if slices.Contains(circle[j], c) {
				return true
			}
		}
		return false
	}
	type acc struct {
		conf      float64
		n         int
		unknown   int
		sim       float64
		nSim      int
		circular  int // thoughts of a circular argument
		concludes bool
		parent    int
		lastVect  int // position of the nearest ancestor-or-self with a vector
	}
	state := make([]acc, len(docs))
	type leaf struct {
		i, tier int
		path    StrongPath
	}
	var leaves []leaf
	visited := make([]bool, len(docs))
	stack := slices.Clone(roots)
	for _, r := range roots {
		state[r] = acc{parent: -1, lastVect: -1}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[i] {
			continue
		}
		visited[i] = true
		st := state[i]
		st.n++
		switch c := docs[i].Confidence; {
		case len(circle[i]) > 0:
			st.circular++
		case c != nil:
			st.conf += *c
		default:
			st.conf += unknownConfidence
			st.unknown++
		}
		st.concludes = st.concludes || (opts.Conclusion != "" && docs[i].ID == opts.Conclusion)
		if _, ok := vd.row[i]; ok {
			if st.lastVect >= 0 {
				if s, ok := vd.sim(st.lastVect, i); ok {
					if !sameCircle(st.lastVect, i) {
						st.sim += max(0, s)
					}
					st.nSim++
				}
			}
			st.lastVect = i
		}
		state[i] = st
		for _, c := range children[i] {
			next := st
			next.parent = i
			state[c] = next
			stack = append(stack, c)
		}
		if len(children[i]) > 0 {
			continue
		}
		p := StrongPath{MeanConfidence: st.conf / float64(st.n), Concludes: st.concludes}
		h := 1.0
		var basis []string
		if st.nSim > 0 {
			c := opts.Calibration.Relatedness(st.sim / float64(st.nSim))
			p.Coherence, h = &c, c
		} else {
			basis = append(basis, "no link between thoughts with vectors: coherence counts 1")
		}
		if st.unknown > 0 {
			basis = append(basis, fmt.Sprintf("%d thought(s) without a confidence count %.1f", st.unknown, unknownConfidence))
		}
		if st.circular > 0 {
			basis = append(basis, fmt.Sprintf("%d thought(s) of a circular argument count 0 in confidence and in coherence", st.circular))
			for j := i; j >= 0; j = state[j].parent {
				if len(circle[j]) > 0 {
					p.Circular = append(p.Circular, docs[j].ID)
				}
			}
			slices.Reverse(p.Circular)
		}
		p.Basis = strings.Join(basis, "; ")
		p.Score = p.MeanConfidence * h
		b := docs[i].Branch
		if c, ok := opts.Closed[b]; ok {
			p.Closed = &c
		}
		p.Drifting = opts.Drifting[b]
		tier := 1
		switch {
		case p.Closed != nil:
			tier = 3
		case p.Drifting:
			tier = 2
		case p.Concludes && !p.Drifting && st.circular == 0 && p.MeanConfidence >= 0.5:
			tier = 0
		}
		leaves = append(leaves, leaf{i: i, tier: tier, path: p})
	}
	slices.SortStableFunc(leaves, func(a, b leaf) int {
		if c := cmp.Compare(a.tier, b.tier); c != 0 {
			return c
		}
		if c := cmp.Compare(b.path.Score, a.path.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(docs[a.i].Step, docs[b.i].Step); c != 0 {
			return c
		}
		return strings.Compare(docs[a.i].ID, docs[b.i].ID)
	})
	leaves = leaves[:min(k, len(leaves))]
	out := make([]StrongPath, len(leaves))
	for n, l := range leaves {
		var rev []analyze.ThoughtRef
		for i := l.i; i >= 0; i = state[i].parent {
			rev = append(rev, analyze.Ref(docs[i]))
		}
		slices.Reverse(rev)
		l.path.Thoughts = rev
		out[n] = l.path
	}
	return out
}
