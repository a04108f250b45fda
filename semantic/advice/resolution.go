package advice

import (
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Whether a contradiction has been resolved: suggestTools advises
// synthesizeDialectical only for contradictions no later synthesis, answer
// or critique thought speaks to.

// ResolvedMinSimilarity is the cosine a later thought needs with both
// thoughts of a contradiction to resolve it. It was 0.4 for the lexical-v3
// embedder; its distributional part (lexical-v4) raises every cosine, and
// 0.55 keeps the same shares of the reasoning dev set's thought pairs above
// it: 0.8% of two thoughts of one retrieval session (0.2% now), 76% of the
// contradiction pairs' two sides (77% now).
const ResolvedMinSimilarity = 0.55

// Resolved reports whether a later synthesis, answer or critique thought
// (closing, from Closers) is similar (cosine ≥ ResolvedMinSimilarity) to
// both thoughts of a contradiction; near measures the cosines of docs.
func Resolved(c analyze.Contradiction, docs []analyze.Doc, byID map[string]int, closing []int, near *Nearness) bool {
	a, okA := byID[c.ThoughtA.ID]
	b, okB := byID[c.ThoughtB.ID]
	if !okA || !okB {
		return false
	}
	after := max(docs[a].Step, docs[b].Step)
	k, _ := slices.BinarySearch(closing, max(a, b)+1)
	for _, i := range closing[k:] {
		if docs[i].Step <= after {
			continue
		}
		if near.AtLeast(i, a, ResolvedMinSimilarity) && near.AtLeast(i, b, ResolvedMinSimilarity) {
			return true
		}
	}
	return false
}

// Closers returns the positions of docs that may resolve a contradiction
// (thoughts whose role settles: a synthesis, an answer, a critique), in
// order: Resolved reads only these (its closing).
func Closers(docs []analyze.Doc) []int {
	var out []int
	for i := range docs {
		if thinkgraph.RoleOf(docs[i].Type).Settles() {
			out = append(out, i)
		}
	}
	return out
}

// Nearness decides semantic.Cosine(docs[i].Vector, docs[j].Vector) ≥ th
// as Cosine would, faster: a float32 dot product of unit vectors (within
// nearMargin of the cosine) decides when it is off th by more than the
// margin, Cosine otherwise. The unit vectors are made on first use.
type Nearness struct {
	docs []analyze.Doc
	unit []semantic.Vector
	made []bool
}

// nearMargin bounds the difference of the float32 dot product of two unit
// vectors of up to a few thousand dimensions from their cosine: AsUnit
// keeps a vector whose squared norm is within 1e-4 of 1, and float32
// rounding adds under 1e-4 more.
const nearMargin = 1e-3

// NewNearness returns a Nearness over docs.
func NewNearness(docs []analyze.Doc) *Nearness {
	return &Nearness{docs: docs, unit: make([]semantic.Vector, len(docs)), made: make([]bool, len(docs))}
}

func (n *Nearness) vec(i int) semantic.Vector {
	if !n.made[i] {
		n.unit[i], n.made[i] = semantic.AsUnit(n.docs[i].Vector), true
	}
	return n.unit[i]
}

// AtLeast reports whether the cosine of docs i and j is at least th.
func (n *Nearness) AtLeast(i, j int, th float64) bool {
	x, y := n.docs[i].Vector, n.docs[j].Vector
	if len(x) == 0 || len(x) != len(y) {
		return semantic.Cosine(x, y) >= th
	}
	switch dot := float64(semantic.Dot(n.vec(i), n.vec(j))); {
	case dot < th-nearMargin:
		return false
	case dot > th+nearMargin:
		return true
	}
	return semantic.Cosine(x, y) >= th
}
