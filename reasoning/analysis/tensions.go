package analysis

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Tensions are the consistency checks' findings between the sides of a
// synthesis (across(a, b) says whether branches a and b face each other):
// the contradictions the offline judge asserts and those stated, then the
// open review groups (findContradictions' review, declared questions
// included) holding claims of both sides, riskiest first.
func (st *State) Tensions(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, docs []analyze.Doc, across func(a, b string) bool) ([]advice.Tension, error) {
	rep, err := st.Contradictions(ctx, tx, sess)
	if err != nil {
		return nil, err
	}
	out := []advice.Tension{}
	for _, c := range rep.Contradictions {
		if !across(c.ThoughtA.Branch, c.ThoughtB.Branch) {
			continue
		}
		status := advice.TensionAsserted
		if c.Source != "" {
			status = advice.TensionStated
		}
		out = append(out, advice.Tension{Status: status, Thoughts: []analyze.ThoughtRef{c.ThoughtA, c.ThoughtB}, Reason: c.Reason})
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	plan := st.plan(docs, byID, review.Budget{Claims: 1 << 30, Groups: 1 << 30}, true)
	sides := map[string]bool{}
	for _, d := range docs {
		if across(d.Branch, d.Branch) {
			continue
		}
		for _, o := range docs {
			if across(d.Branch, o.Branch) {
				sides[d.Branch] = true
				break
			}
		}
	}
	for _, g := range plan.Groups {
		// The group's claims of the facing sides; the whole group is judged.
		var refs []analyze.ThoughtRef
		faces := false
		for i, c := range g.Claims {
			d := docs[c.Doc]
			for _, o := range g.Claims[:i] {
				faces = faces || across(docs[o.Doc].Branch, d.Branch)
			}
			if sides[d.Branch] && !slices.ContainsFunc(refs, func(r analyze.ThoughtRef) bool { return r.ID == d.ID }) {
				refs = append(refs, analyze.Ref(d))
			}
		}
		if !faces {
			continue
		}
		out = append(out, advice.Tension{Status: advice.TensionOpen, Thoughts: refs, Signs: strings.Join(g.Signs, "; "), Group: analyze.GroupKey(docs, g.Claims)})
	}
	return out, nil
}

// StatedCompatible are the pairs of thoughts of facing branches the model
// stated compatible (judge).
func (st *State) StatedCompatible(docs []analyze.Doc, across func(a, b string) bool) []analyze.ThoughtPair {
	out := []analyze.ThoughtPair{}
	if st.stated == nil {
		return out
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	st.stated.Compatible(func(k review.PairKey, _ thinkgraph.Link) {
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if !okA || !okB || !across(docs[i].Branch, docs[j].Branch) {
			return
		}
		a, b := docs[i], docs[j]
		if b.Step < a.Step {
			a, b = b, a
		}
		out = append(out, analyze.ThoughtPair{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: semantic.Cosine(a.Vector, b.Vector)})
	})
	slices.SortFunc(out, func(x, y analyze.ThoughtPair) int {
		return cmp.Or(cmp.Compare(x.ThoughtA.Step, y.ThoughtA.Step), cmp.Compare(x.ThoughtB.Step, y.ThoughtB.Step))
	})
	return out
}
