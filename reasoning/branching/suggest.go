package branching

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// ToolSuggestion recommends one of thinkgraph's tools or commands.
type ToolSuggestion struct {
	Tool      string         `json:"tool"`
	Command   string         `json:"command,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty" jsonschema:"a ready-to-send call"`
	Reason    string         `json:"reason"`
	Priority  string         `json:"priority" jsonschema:"high, medium or low"`
}

// SuggestResult is the answer of suggestTools.
type SuggestResult struct {
	Header
	Suggestions []ToolSuggestion `json:"suggestions"`
	// State is what the suggestions were derived from; a count of zero,
	// false and an empty list are left out.
	State map[string]any `json:"state" jsonschema:"the session figures the suggestions were derived from; those that are zero, false or empty are left out"`
}

func cmdCall(t string, data map[string]any) map[string]any {
	c := map[string]any{"type": t}
	if data != nil {
		c["data"] = data
	}
	return map[string]any{"command": c}
}

func (bt *BranchThinking) suggestTools(ctx context.Context, in CommandInput) (*SuggestResult, error) {
	res := &SuggestResult{Header: Header{Command: "suggestTools"}, Suggestions: []ToolSuggestion{}, State: map[string]any{}}
	add := func(s ToolSuggestion) { res.Suggestions = append(res.Suggestions, s) }
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res.SessionID = sess.ID
		// The session's thoughts are steps 1 to StepCount: only the latest
		// is read (reading all cost 80 ms at 10,000 thoughts).
		bs, err := tx.Branches(ctx, sess.Key)
		if err != nil {
			return err
		}
		if len(bs) == 0 {
			bs = []thinkgraph.Branch{{Session: sess.Key, ID: thinkgraph.DefaultBranch, State: "active", Priority: 1}}
		}
		latest, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, Last: 1})
		if err != nil {
			return err
		}
		n := sess.StepCount
		active := activeOf(sess)
		res.State["thoughts"], res.State["branches"], res.State["activeBranch"], res.State["goalSet"] = n, len(bs), active, sess.Goal != ""
		if len(latest) == 0 {
			if sess.Goal == "" {
				add(ToolSuggestion{Tool: "branch-thinking", Command: "setGoal", Arguments: map[string]any{"command": map[string]any{"type": "setGoal", "goal": "<what you want to decide or design>"}},
					Reason: "the session is empty and has no goal: a goal lets evaluation measure alignment and drift", Priority: "high"})
			}
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": "<break the problem down>", "type": "analysis"},
				Reason: "the session has no thoughts yet: start with an analysis thought", Priority: "high"})
			return nil
		}
		if sess.Goal == "" {
			add(ToolSuggestion{Tool: "branch-thinking", Command: "setGoal", Arguments: map[string]any{"command": map[string]any{"type": "setGoal", "goal": "<the goal>"}},
				Reason: fmt.Sprintf("%d thoughts but no goal: goal alignment and drift from the goal cannot be measured", n), Priority: "medium"})
		}
		// A low-confidence current thought: the latest of the session, with
		// nothing written after it. Once the model has gone on (another
		// thought, another branch), it has backtracked or moved on.
		last := latest[0]
		weak := last.Confidence != nil && *last.Confidence < bt.svc.Config().ConfidenceThreshold
		res.State["currentThoughtLowConfidence"] = weak
		if weak {
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": "<an alternative to #" + fmt.Sprint(last.Step) + ">", "type": "hypothesis", "branchId": "<new branch>"},
				Reason: fmt.Sprintf("the latest thought #%d has confidence %.2g, below %.2g: explore an alternative on a new branch before building on it", last.Step, *last.Confidence, bt.svc.Config().ConfidenceThreshold), Priority: "high"})
		}
		if bt.svc.Semantic() == nil {
			res.State["semanticEngine"] = false
			return nil
		}
		a, err := st.Assess(ctx, tx, sess)
		if err != nil {
			return err
		}
		docs := a.Docs
		byID := make(map[string]int, len(docs))
		for i, d := range docs {
			byID[d.ID] = i
		}
		rep, err := st.Contradictions(ctx, tx, sess)
		if err != nil {
			return err
		}
		var open []analyze.Contradiction
		near, closing := advice.NewNearness(docs), advice.Closers(docs)
		for _, c := range rep.Contradictions {
			if !advice.Resolved(c, docs, byID, closing, near) {
				open = append(open, c)
			}
		}
		res.State["contradictions"], res.State["unresolvedContradictions"] = len(rep.Contradictions), len(open)
		for _, c := range open {
			if c.ThoughtA.Branch != c.ThoughtB.Branch {
				add(ToolSuggestion{Tool: "branch-thinking", Command: "synthesizeDialectical",
					Arguments: cmdCall("synthesizeDialectical", map[string]any{"branches": []string{c.ThoughtA.Branch, c.ThoughtB.Branch}}),
					Reason:    fmt.Sprintf("%d unresolved contradiction(s); e.g. branch %s says %q and branch %s says %q", len(open), c.ThoughtA.Branch, reasoning.Clip(c.ThoughtA.Content, 60), c.ThoughtB.Branch, reasoning.Clip(c.ThoughtB.Content, 60)), Priority: "high"})
				break
			}
		}
		if len(open) > 0 && open[0].ThoughtA.Branch == open[0].ThoughtB.Branch {
			c := open[0]
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": "<which of the two holds, and why>", "type": "critique", "branchId": c.ThoughtA.Branch},
				Reason: fmt.Sprintf("branch %s contradicts itself: %q vs %q; add a critique or synthesis that resolves it", c.ThoughtA.Branch, reasoning.Clip(c.ThoughtA.Content, 60), reasoning.Clip(c.ThoughtB.Content, 60)), Priority: "high"})
		}
		if circ := a.Circular(); len(circ) > 0 {
			res.State["circularReasoning"] = len(circ)
			add(ToolSuggestion{Tool: "branch-thinking", Command: "detectCircular", Arguments: cmdCall("detectCircular", nil),
				Reason: fmt.Sprintf("%d circular argument(s), e.g. over %s", len(circ), advice.StepsOf(circ[0].Thoughts)), Priority: "high"})
		}
		closed := map[string]bool{}
		for b := range a.Closed {
			closed[b] = true
		}
		gaps := a.KnowledgeGaps()
		kinds := map[string][]analyze.KnowledgeGap{}
		for _, g := range gaps {
			kinds[g.Kind] = append(kinds[g.Kind], g)
		}
		res.State["openQuestions"], res.State["unvalidatedHypotheses"], res.State["unsupportedClaims"] = len(kinds[analyze.GapOpenQuestion]), len(kinds[analyze.GapUnvalidatedHypothesis]), len(kinds[analyze.GapUnsupportedClaim])
		res.State["unexploredAlternatives"] = len(kinds[analyze.GapUnexploredAlternative])
		if q := kinds[analyze.GapOpenQuestion]; len(q) > 0 {
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": fmt.Sprintf("<answer to #%d>", q[0].Thought.Step), "type": "answer", "branchId": q[0].Thought.Branch},
				Reason: fmt.Sprintf("%d open question(s), e.g. #%d (branch %s): answer them with an answer thought", len(q), q[0].Thought.Step, q[0].Thought.Branch), Priority: "high"})
		}
		if h := kinds[analyze.GapUnvalidatedHypothesis]; len(h) > 0 {
			add(ToolSuggestion{Tool: "branch-thinking", Command: "generateCounterfactuals",
				Arguments: cmdCall("generateCounterfactuals", map[string]any{"branchId": h[0].Thought.Branch, "count": 3}),
				Reason:    fmt.Sprintf("%d hypothesis(es) no evidence examines, e.g. #%d (branch %s): add an observation or validation, or probe them with counterfactuals", len(h), h[0].Thought.Step, h[0].Thought.Branch), Priority: "medium"})
		}
		if u := kinds[analyze.GapUnexploredAlternative]; len(u) > 0 {
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": "<the next step of this option>", "type": "analysis", "branchId": u[0].Thought.Branch},
				Reason: fmt.Sprintf("%d branch(es) opened and never followed, e.g. %s (#%d): explore it, or close it with prune {branchId, reason}", len(u), u[0].Thought.Branch, u[0].Thought.Step), Priority: "low"})
		}
		if u := kinds[analyze.GapUnsupportedClaim]; len(u) > 0 {
			add(ToolSuggestion{Tool: "branch-thinking", Command: "detectKnowledgeGaps", Arguments: cmdCall("detectKnowledgeGaps", nil),
				Reason: fmt.Sprintf("%d low-confidence claim(s) no evidence backs, e.g. #%d", len(u), u[0].Thought.Step), Priority: "low"})
		}
		var drifting []string
		for _, d := range a.Drift {
			if d.Drifting && !closed[d.Branch] {
				drifting = append(drifting, d.Branch)
			}
		}
		res.State["driftingBranches"] = drifting
		if len(drifting) > 0 {
			add(ToolSuggestion{Tool: "branch-thinking", Command: "detectDrift", Arguments: cmdCall("detectDrift", nil),
				Reason: fmt.Sprintf("branch(es) %s drift away from the goal: refocus them, or close them with prune {branchId, reason}", strings.Join(drifting, ", ")), Priority: "medium"})
		}
		ev, err := st.Evaluation(ctx, tx, sess, active)
		if err != nil {
			return err
		}
		if ev.OverallScore != nil {
			res.State["activeBranchScore"] = round3(*ev.OverallScore)
		}
		if ev.ShouldPivot {
			add(ToolSuggestion{Tool: "branch-thinking", Command: "prune", Arguments: cmdCall("prune", nil),
				Reason: fmt.Sprintf("leave the active branch %s: %s; prune it or focus on another", active, ev.PivotReason), Priority: "high"})
		}
		active2 := 0
		for _, b := range bs {
			if b.State == "active" {
				active2++
			}
		}
		if active2 >= 3 {
			if a, b, sim, ok := closestBranches(docs); ok && sim >= analyze.DefaultMergeSimilarity {
				add(ToolSuggestion{Tool: "branch-thinking", Command: "suggestMerges", Arguments: cmdCall("suggestMerges", nil),
					Reason: fmt.Sprintf("branches %s and %s cover the same ground (centroid cosine %.2f)", a, b, sim), Priority: "low"})
			}
		}
		if len(bs) == 1 && n >= 5 {
			add(ToolSuggestion{Tool: "branch-thinking", Arguments: map[string]any{"content": "<an alternative approach>", "type": "hypothesis", "branchId": "alternative-1"},
				Reason: fmt.Sprintf("%d thoughts on a single branch: explore an alternative in a new branch before committing", n), Priority: "low"})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, v := range res.State { // what is not there is zero
		switch x := v.(type) {
		case int:
			if x == 0 {
				delete(res.State, k)
			}
		case bool:
			if !x {
				delete(res.State, k)
			}
		case []string:
			if len(x) == 0 {
				delete(res.State, k)
			}
		}
	}
	return res, nil
}

// closestBranches returns the two branches whose centroids are most
// similar, as suggestMerges lists first (analyze.MergeCandidates: profiles
// in order of their first step, pairs by centroid cosine, the earlier pair
// first on a tie), from the centroids alone: neither the profiles' key
// terms nor the merge's evidence (pairing the thoughts of every similar
// pair of branches cost a second at 2,000 thoughts).
func closestBranches(docs []analyze.Doc) (a, b string, sim float64, ok bool) {
	brs := analyze.GroupBranches(docs)
	cents := make([]semantic.Vector, len(brs))
	for i, br := range brs {
		var vs []semantic.Vector
		for _, d := range br.Docs {
			if d.Vector != nil {
				vs = append(vs, d.Vector)
			}
		}
		cents[i] = semantic.Centroid(vs)
	}
	for i := range brs {
		for j := i + 1; j < len(brs); j++ {
			if cents[i] == nil || cents[j] == nil || len(cents[i]) != len(cents[j]) {
				continue
			}
			// NaN never wins, as it sorts last in CompareProfiles.
			if s := semantic.Cosine(cents[i], cents[j]); !ok || s > sim || (math.IsNaN(sim) && !math.IsNaN(s)) {
				a, b, sim, ok = brs[i].ID, brs[j].ID, s, true
			}
		}
	}
	return a, b, sim, ok
}
