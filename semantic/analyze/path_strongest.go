package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// StrongPath is one root-to-leaf path of the thought tree with its score.
type StrongPath struct {
	Thoughts []ThoughtRef `json:"thoughts"`
	Score    float64      `json:"score"`
	// MeanConfidence is the mean of the known confidences on the path (nil
	// when none is known).
	MeanConfidence *float64 `json:"meanConfidence"`
	// Coherence is the mean of max(0, cosine) of consecutive thoughts on the
	// path that both have vectors (nil when there is no such pair).
	Coherence *float64 `json:"coherence"`
	// Basis says which factors the score is made of.
	Basis string `json:"basis"`
	// Circular lists the thoughts of the path that support each other in
	// a circular argument (DetectCircular's circular_support): the links
	// between them add nothing to coherence.
	Circular []string `json:"circular,omitempty"`
}

// StrongestPaths returns the k best root-to-leaf paths of the thought tree
// formed by ParentID (a thought whose parent is not among docs is a root).
//
// Score = mean confidence × coherence, where mean confidence averages the
// known confidences on the path and coherence is the mean of max(0, cosine)
// of consecutive thoughts. A factor that cannot be computed (no confidence
// recorded on the path; fewer than two thoughts with vectors) is left out of
// the product and Basis says so; a path with neither scores 0. Paths are
// walked once with running sums, O(n) cosines. Thoughts caught in a parent
// cycle are not reachable from a root and are skipped (DetectCircular reports
// them). Ties are broken by the leaf's step. Circular support earns no
// bonus: a link between two consecutive thoughts of the same circular
// argument (circularSupport) counts 0 in coherence, and Circular names them.
// A refuted thought (Doc.Refuted) and the thoughts below it are on no path:
// its parent ends a path when no other child goes on.
func StrongestPaths(docs []Doc, k int) []StrongPath {
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
	vd := vectorsOf(docs, nil)
	// circle[i] lists the circular arguments thought i is part of.
	circle := make([][]int, len(docs))
	for c, f := range circularSupport(docs, nil) {
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
		conf     float64
		nConf    int
		sim      float64
		nSim     int
		circular int // links inside a circular argument
		parent   int
		lastVect int // position of the nearest ancestor-or-self with a vector
	}
	state := make([]acc, len(docs))
	type leaf struct {
		i     int
		score float64
		path  StrongPath
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
		if c := docs[i].Confidence; c != nil {
			st.conf += *c
			st.nConf++
		}
		if _, ok := vd.row[i]; ok {
			if st.lastVect >= 0 {
				if s, ok := vd.sim(st.lastVect, i); ok {
					if sameCircle(st.lastVect, i) {
						st.circular++
					} else {
						st.sim += max(0, s)
					}
					st.nSim++
				}
			}
			st.lastVect = i
		}
		state[i] = st
		for _, c := range children[i] {
			state[c] = acc{conf: st.conf, nConf: st.nConf, sim: st.sim, nSim: st.nSim, circular: st.circular, parent: i, lastVect: st.lastVect}
			stack = append(stack, c)
		}
		if len(children[i]) > 0 {
			continue
		}
		p := StrongPath{}
		var basis []string
		score := 1.0
		if st.nConf > 0 {
			m := st.conf / float64(st.nConf)
			p.MeanConfidence = &m
			score *= m
			basis = append(basis, "mean confidence")
		}
		if st.nSim > 0 {
			c := st.sim / float64(st.nSim)
			p.Coherence = &c
			score *= c
			basis = append(basis, "coherence")
		}
		switch len(basis) {
		case 0:
			score = 0
			p.Basis = "nothing to score: no confidence recorded and fewer than two thoughts with vectors"
		case 1:
			p.Basis = basis[0] + " only"
			if st.nConf == 0 {
				p.Basis += " (no confidence recorded on this path)"
			} else {
				p.Basis += " (fewer than two thoughts with vectors)"
			}
		default:
			p.Basis = "mean confidence × coherence"
		}
		if st.circular > 0 {
			p.Basis += fmt.Sprintf("; %d link(s) between thoughts of a circular argument count 0 in coherence", st.circular)
			for j := i; j >= 0; j = state[j].parent {
				if len(circle[j]) > 0 {
					p.Circular = append(p.Circular, docs[j].ID)
				}
			}
			slices.Reverse(p.Circular)
		}
		p.Score = score
		leaves = append(leaves, leaf{i: i, score: score, path: p})
	}
	slices.SortStableFunc(leaves, func(a, b leaf) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
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
		var rev []ThoughtRef
		for i := l.i; i >= 0; i = state[i].parent {
			rev = append(rev, Ref(docs[i]))
		}
		slices.Reverse(rev)
		l.path.Thoughts = rev
		out[n] = l.path
	}
	return out
}
