package branching

import (
	"context"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Counterfactuals and dialectical synthesis are computed offline, from the
// branches' own thoughts, vectors and the contradiction decider. The method
// field of their results says so ("offline"); an LLM-backed variant plugs in
// through Generator.

// Generator writes counterfactuals or a dialectical synthesis with a
// language model (see BranchThinking.SetGenerator). None is wired in yet (a
// later issue); the offline results are its input and its fallback. An
// implementation sets Method to name what it used (e.g. "llm:anthropic").
type Generator interface {
	Counterfactuals(ctx context.Context, branch []analyze.Doc, offline *CounterfactualsResult) (*CounterfactualsResult, error)
	Dialectical(ctx context.Context, offline *DialecticalResult) (*DialecticalResult, error)
}

// CounterfactualsResult is the answer of generateCounterfactuals.
type CounterfactualsResult struct {
	Header
	BranchID        string                  `json:"branchId"`
	Counterfactuals []advice.Counterfactual `json:"counterfactuals"`
	Method          string                  `json:"method"`
	How             string                  `json:"how"`
	Note            string                  `json:"note,omitempty"`
	Omitted         map[string]int          `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) counterfactuals(ctx context.Context, in CommandInput) (*CounterfactualsResult, error) {
	count, err := intOr(in.Count, 3, 1, 20, "count")
	if err != nil {
		return nil, err
	}
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return nil, err
		}
	}
	res := &CounterfactualsResult{Header: Header{Command: "generateCounterfactuals"}, Counterfactuals: []advice.Counterfactual{}, Method: "offline",
		How: "the branch's claims that most later thoughts rest on and least evidence supports (fragility = confidence × dependents/(dependents+1) / (1 + support)), " +
			"each as a question to answer; dependents = later thoughts descending from it or building on it, supporting = validation/example/observation thoughts " +
			"linked to it or with cosine ≥ 0.4, challenging = counterexample/critique thoughts likewise"}
	var branchDocs []analyze.Doc
	err = bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		id := in.BranchID
		if id == "" {
			id = activeOf(sess)
		} else if _, err := branchOf(ctx, tx, sess, "branchId", id); err != nil {
			return err
		}
		docs, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		res.SessionID, res.BranchID = sess.ID, id
		var branch []analyze.Doc
		for _, d := range docs {
			if d.Branch == id {
				branch = append(branch, d)
			}
		}
		res.Counterfactuals = advice.Counterfactuals(branch, docs, count)
		for i := range res.Counterfactuals {
			cf := &res.Counterfactuals[i]
			path := fmt.Sprintf("counterfactuals[%d].", i)
			cf.Supporting = head(&res.Omitted, path+"supportingSteps", cf.Supporting, fewSteps)
			cf.Challenging = head(&res.Omitted, path+"challengingSteps", cf.Challenging, fewSteps)
			cf.Dependent = head(&res.Omitted, path+"dependentSteps", cf.Dependent, fewSteps)
		}
		if len(res.Counterfactuals) == 0 {
			res.Note = "no claim of this branch has a later thought resting on it"
		}
		branchDocs = branch
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bt.gen != nil {
		out, err := bt.gen.Counterfactuals(ctx, branchDocs, res)
		if err == nil && out != nil {
			return out, nil
		}
		res.Note = fmt.Sprintf("the language model failed (%v); these are the offline counterfactuals", err)
	}
	return res, nil
}

// DialecticalResult is the answer of synthesizeDialectical.
type DialecticalResult struct {
	Header
	advice.Dialectic
	Method string `json:"method"`
	How    string `json:"how"`
	Note   string `json:"note,omitempty"`
	// Answer says how to settle an open tension.
	Answer  string         `json:"answer,omitempty"`
	Omitted map[string]int `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

// fewSteps bounds a list of steps in a result.
const fewSteps = 10

// bound keeps a few items of each list of a synthesis (the tensions
// asserted and stated come first, then the open ones).
func (res *DialecticalResult) bound() {
	sides := []*advice.Side{&res.Thesis}
	for i := range res.Antitheses {
		sides = append(sides, &res.Antitheses[i])
	}
	for i, s := range sides {
		path := "thesis."
		if i > 0 {
			path = fmt.Sprintf("antitheses[%d].", i-1)
		}
		s.KeyPoints = head(&res.Omitted, path+"keyPoints", s.KeyPoints, 8)
		s.Evidence = head(&res.Omitted, path+"evidenceSteps", s.Evidence, fewSteps)
		s.Challenges = head(&res.Omitted, path+"challengeSteps", s.Challenges, fewSteps)
	}
	res.Tensions = head(&res.Omitted, "tensions", res.Tensions, 6)
	res.Thoughts = slices.DeleteFunc(res.Thoughts, func(r analyze.ThoughtRef) bool {
		return !slices.ContainsFunc(res.Tensions, func(t advice.Tension) bool { return slices.Contains(t.Steps, r.Step) })
	})
	res.CommonGround.SharedKeyPoints = head(&res.Omitted, "commonGround.sharedKeyPoints", res.CommonGround.SharedKeyPoints, 8)
	res.CommonGround.Agreements = head(&res.Omitted, "commonGround.agreements", res.CommonGround.Agreements, 5)
	res.Synthesis.OpenQuestions = head(&res.Omitted, "synthesis.openQuestions", res.Synthesis.OpenQuestions, 5)
}

// dialecticHow says how synthesizeDialectical works.
const dialecticHow = "a side's position: its most confident hypothesis or synthesis; evidence: its validation, example and observation thoughts; challenges: counterexamples and critiques aimed at it. " +
	"Tensions: asserted (the offline judge is certain), stated (a verdict or contradictory cross-reference), open (a review group with claims of both sides). " +
	"Agreements: pairs stated compatible. Stronger side: mean confidence + 0.15 × (evidence − challenges)"

func (bt *BranchThinking) dialectical(ctx context.Context, in CommandInput) (*DialecticalResult, error) {
	for i, b := range in.Branches {
		if err := reasoning.ValidateBranchID(fmt.Sprintf("branches[%d]", i), b); err != nil {
			return nil, err
		}
	}
	if len(in.Branches) == 1 || len(in.Branches) > 8 {
		return nil, thinkgraph.Invalid("branches", "2 to 8 branch ids: the thesis first, then the antitheses", fmt.Sprint(len(in.Branches)),
			"'branches' needs 2 to 8 branch ids (thesis first), got %d", len(in.Branches))
	}
	res := &DialecticalResult{Header: Header{Command: "synthesizeDialectical"}, Method: "offline", How: dialecticHow}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		ids := slices.Clone(in.Branches)
		for i, id := range ids {
			if _, err := branchOf(ctx, tx, sess, fmt.Sprintf("branches[%d]", i), id); err != nil {
				return err
			}
		}
		docs, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			if ids, err = bt.defaultDialectic(ctx, tx, sess, st); err != nil {
				return err
			}
		}
		res.SessionID = sess.ID
		byBranch := map[string][]analyze.Doc{}
		for _, d := range docs {
			byBranch[d.Branch] = append(byBranch[d.Branch], d)
		}
		res.Thesis = advice.SideOf(ids[0], byBranch[ids[0]], docs)
		res.Antitheses = []advice.Side{}
		for _, id := range ids[1:] {
			res.Antitheses = append(res.Antitheses, advice.SideOf(id, byBranch[id], docs))
		}
		across := func(a, b string) bool {
			return (a == ids[0] && slices.Contains(ids[1:], b)) || (b == ids[0] && slices.Contains(ids[1:], a))
		}
		if res.Tensions, err = st.Tensions(ctx, tx, sess, docs, across); err != nil {
			return err
		}
		res.CommonGround.Agreements = st.StatedCompatible(docs, across)
		res.Compose()
		res.bound()
		if slices.ContainsFunc(res.Tensions, func(t advice.Tension) bool { return t.Status == advice.TensionOpen }) {
			res.Answer = "an open tension is a review group: " + review.Answer
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bt.gen != nil {
		out, err := bt.gen.Dialectical(ctx, res)
		if err == nil && out != nil {
			return out, nil
		}
		res.Note = fmt.Sprintf("the language model failed (%v); this is the offline synthesis", err)
	}
	return res, nil
}

// defaultDialectic picks the two branches to synthesise when none are
// named: the ends of the strongest contradictory cross-reference, else the
// pair of branches with the most contradictions between their thoughts.
func (bt *BranchThinking) defaultDialectic(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) ([]string, error) {
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	var best *thinkgraph.Link
	for i, l := range links {
		if l.Type == "contradictory" && l.FromBranch != l.ToBranch && (best == nil || l.Strength > best.Strength) {
			best = &links[i]
		}
	}
	if best != nil {
		return []string{best.ToBranch, best.FromBranch}, nil
	}
	rep, err := st.Contradictions(ctx, tx, sess)
	if err != nil {
		return nil, err
	}
	count := map[[2]string]int{}
	var top [2]string
	for _, c := range rep.Contradictions {
		if c.ThoughtA.Branch == c.ThoughtB.Branch {
			continue
		}
		k := [2]string{c.ThoughtA.Branch, c.ThoughtB.Branch}
		count[k]++
		if count[k] > count[top] {
			top = k
		}
	}
	if top[0] != "" {
		return top[:], nil
	}
	if pair, err := st.RiskiestBranchPair(ctx, tx, sess); err != nil || pair[0] != "" {
		return pair[:], err
	}
	return nil, thinkgraph.Invalid("branches", "2 to 8 branch ids: the thesis first, then the antitheses", "none",
		"'synthesizeDialectical' needs 'branches' in command.data: no contradiction and no open review group across two branches says which branches oppose each other")
}
