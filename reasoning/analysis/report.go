package analysis

import (
	"context"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Report is a session's judgement as the exports, resources, prompts and
// the viewer show it: the same contradictions as findContradictions, the
// same circular arguments as detectCircular, the same evaluation per branch
// as evaluate, the same drift as detectDrift, the open review groups the
// model is asked about, and the conclusion findStrongestPaths leads to.
type Report struct {
	Contradictions []analyze.Contradiction `json:"contradictions"`
	// Checked is the number of thoughts with vectors searched.
	Checked  int                         `json:"thoughtsChecked"`
	Circular []analyze.CircularReasoning `json:"circular"`
	// Evaluations are per branch, in the order of the branches' first
	// thoughts; nil unless asked for.
	Evaluations []BranchEvaluation `json:"evaluations"`
	// Drift is the drift of every branch with a verdict or a reason.
	Drift []advice.BranchDrift `json:"drift"`
	// OpenGroups are the open review groups, riskiest first (at most 50);
	// Open counts them all.
	OpenGroups []OpenGroup `json:"openGroups"`
	Open       int         `json:"openGroupCount"`
	// Conclusion is the thought the reasoning leads to, nil when none.
	Conclusion *analyze.ThoughtRef `json:"conclusion,omitempty"`
}

// BranchEvaluation is the evaluation of one branch.
type BranchEvaluation struct {
	Branch string `json:"branch"`
	analyze.Evaluation
}

// Report returns the session's report (see Report), with the branch
// evaluations when evaluate is set.
func (st *State) Report(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, evaluate bool) (*Report, error) {
	rep, err := st.Contradictions(ctx, tx, sess)
	if err != nil {
		return nil, err
	}
	a, err := st.Assess(ctx, tx, sess)
	if err != nil {
		return nil, err
	}
	r := &Report{Contradictions: rep.Contradictions, Checked: rep.Thoughts, Circular: a.Circular(), Drift: a.Drift}
	if r.Contradictions == nil {
		r.Contradictions = []analyze.Contradiction{}
	}
	r.OpenGroups, r.Open = st.openGroups(a.Docs, a.byID)
	if i, ok := a.byID[a.Conclusion]; ok {
		ref := analyze.Ref(a.Docs[i])
		r.Conclusion = &ref
	}
	if !evaluate {
		return r, nil
	}
	var order []string
	for _, d := range a.Docs {
		if !slices.Contains(order, d.Branch) {
			order = append(order, d.Branch)
		}
	}
	for _, b := range order {
		if err := st.ensureTracker(a.Docs, b); err != nil {
			return nil, err
		}
		ev := a.judged(st.branches[b].tracker.Evaluation(), b, st.th)
		r.Evaluations = append(r.Evaluations, BranchEvaluation{Branch: b, Evaluation: ev})
	}
	return r, nil
}

// Report returns the report of a session already read in tx (see
// State.Report): exports and the viewer load a session and its judgement in
// one transaction.
func (an *Analyst) Report(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, evaluate bool) (*Report, error) {
	var r *Report
	err := an.ReadSession(tx, sess, func(st *State) error {
		var err error
		r, err = st.Report(ctx, tx, sess, evaluate)
		return err
	})
	return r, err
}
