package branching

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// The consistency review of findContradictions (analyze.PlanReview): the
// session's claims grouped by what they speak of, the groups most at risk
// first, within a budget, for the model to answer each group with one judge
// call. The offline judge asserts a contradiction only where it is certain
// (contradict.Certain) on two claims of one group; everything else is the
// model's to judge.

// groupsOf returns the session's claim groups, recomputed when thoughts
// were added since the last call.
func (st *btState) groupsOf(bt *BranchThinking, docs []analyze.Doc) []analyze.ReviewGroup {
	last := 0
	if len(docs) > 0 {
		last = docs[len(docs)-1].Step
	}
	if st.groups == nil || st.groupsStep != last || st.groupsDocs != len(docs) {
		if st.grouper == nil {
			opts := review.Options
			opts.Tension = bt.svc.Semantic().Contradictor.Tension
			st.grouper = analyze.NewGrouper(opts)
		}
		st.groups = st.grouper.Update(docs)
		st.groupsStep, st.groupsDocs = last, len(docs)
		st.asserted = nil
	}
	return st.groups
}

// contradictions returns the session's contradictions: those the offline
// judge is certain of and every stated one. The review's groups are
// brought up to date on the way.
func (st *btState) contradictions(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) (analyze.ContradictionReport, error) {
	var rep analyze.ContradictionReport
	if err := st.loadStated(ctx, tx, session); err != nil {
		return rep, err
	}
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, byID map[string]int, _ *semantic.Index) error {
		groups := st.groupsOf(bt, docs)
		if st.asserted == nil || st.assertedLinks != st.stated.Links() {
			st.asserted, st.assertedLinks = st.stated.Asserted(docs, groups, bt.svc.Semantic().Contradictor, st.memo), st.stated.Links()
		}
		rep.Contradictions = st.stated.With(slices.Clone(st.asserted), docs, byID, nil)
		for _, d := range docs {
			if d.Vector != nil {
				rep.Thoughts++
			}
		}
		return nil
	})
	return rep, err
}

// review plans the review of the session's open groups.
func (st *btState) review(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) (*review.Review, []analyze.ReviewGroup, error) {
	if err := st.loadStated(ctx, tx, session); err != nil {
		return nil, nil, err
	}
	var rv *review.Review
	var shown []analyze.ReviewGroup
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
		plan := analyze.PlanReview(docs, st.groupsOf(bt, docs), st.stated.Settled(docs), review.Options)
		rv = review.Render(docs, plan)
		shown = plan.Groups
		return nil
	})
	return rv, shown, err
}

// GroupJudgeResult is the answer of judge on a review group.
type GroupJudgeResult struct {
	Header
	Group   string   `json:"group"`
	Verdict string   `json:"verdict"`
	Stored  []string `json:"stored" jsonschema:"the verdicts stored, one per pair of the group's thoughts: #a/#b contradiction or compatible"`
	Message string   `json:"message"`
}

// groupVerdicts are the verdicts judge takes on a group: consistent or
// contradiction on a group of findContradictions' review, circular or
// not_circular on one of detectCircular's.
var groupVerdicts = []string{"consistent", "contradiction", "circular", "not_circular"}

// judgeGroup stores the model's answer on a review group: a contradictory
// link for each conflicting pair, a compatible link for every other pair of
// the group's thoughts. A pair whose latest verdict already says the same
// is not stored again.
func (bt *BranchThinking) judgeGroup(ctx context.Context, in CommandInput) (*GroupJudgeResult, error) {
	if in.Verdict == "compatible" {
		in.Verdict = "consistent"
	}
	if !slices.Contains(groupVerdicts, in.Verdict) {
		received := reasoning.Clip(in.Verdict, 40)
		if in.Verdict == "" {
			received = "none"
		}
		return nil, thinkgraph.Invalid("verdict", "one of: "+strings.Join(groupVerdicts, ", "), received,
			"'verdict' on a group must be \"consistent\" (all its claims can hold together) or \"contradiction\" (with 'conflicts' naming the pairs that cannot) for findContradictions' review, \"circular\" or \"not_circular\" for detectCircular's")
	}
	if in.Verdict == "contradiction" && len(in.Conflicts) == 0 {
		return nil, thinkgraph.Invalid("conflicts", "a list of pairs of the group's steps, e.g. [[7, 13]]", "none",
			"'conflicts' must name which claims of the group conflict, as pairs of their steps, e.g. [[7, 13]]")
	}
	if in.Verdict != "contradiction" && len(in.Conflicts) > 0 {
		return nil, thinkgraph.Invalid("conflicts", "no conflicts with verdict "+in.Verdict, fmt.Sprint(len(in.Conflicts)),
			"'conflicts' goes with verdict \"contradiction\" only")
	}
	if len([]rune(in.Reason)) > review.MaxReason {
		return nil, thinkgraph.Invalid("reason", fmt.Sprintf("at most %d characters", review.MaxReason), fmt.Sprint(len([]rune(in.Reason))), "'reason' is longer than %d characters", review.MaxReason)
	}
	res := &GroupJudgeResult{Header: Header{Command: "judge"}, Group: strings.TrimSpace(in.Group), Verdict: in.Verdict, Stored: []string{}}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
		var members []analyze.Doc
		err := bt.svc.DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
			var err error
			members, err = review.Members(docs, res.Group)
			return err
		})
		if err != nil {
			return err
		}
		conflicts, err := review.Conflicts(members, in.Conflicts)
		if err != nil {
			return err
		}
		res.SessionID = sess.ID
		if in.Verdict == "circular" || in.Verdict == "not_circular" {
			res.Stored, err = review.StoreCircular(ctx, tx, sess, members, review.VerdictLink[in.Verdict], strings.TrimSpace(in.Reason), bt.svc.Now())
			return err
		}
		res.Stored, err = review.StoreGroup(ctx, tx, sess, members, conflicts, strings.TrimSpace(in.Reason), bt.svc.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	switch {
	case len(res.Stored) == 0:
		res.Message = "Nothing new: every pair of the group already had this verdict."
	case in.Verdict == "consistent":
		res.Message = "Stored: the group's claims are consistent. It is not asked again until a new claim joins it."
	case in.Verdict == "circular":
		res.Message = "Stored: the argument is circular. detectCircular reports it from now on."
	case in.Verdict == "not_circular":
		res.Message = "Stored: the argument is not circular. detectCircular no longer asks about it."
	default:
		res.Message = "Stored: the conflicting pairs are contradictions in findContradictions, evaluate, synthesizeDialectical, suggestTools and exports; the group's other pairs are compatible."
	}
	return res, nil
}

// riskiestBranchPair returns the two branches of the riskiest open review
// group that spans two branches (in the order of their first claims), or
// two empty names.
func (st *btState) riskiestBranchPair(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) ([2]string, error) {
	var pair [2]string
	if err := st.loadStated(ctx, tx, session); err != nil {
		return pair, err
	}
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
		plan := analyze.PlanReview(docs, st.groupsOf(bt, docs), st.stated.Settled(docs), analyze.ReviewOptions{MaxGroup: review.Options.MaxGroup, MaxClaims: 1 << 30})
		for _, g := range plan.Groups {
			for _, c := range g.Claims[1:] {
				if b := docs[c.Doc].Branch; b != docs[g.Claims[0].Doc].Branch {
					pair = [2]string{docs[g.Claims[0].Doc].Branch, b}
					return nil
				}
			}
		}
		return nil
	})
	return pair, err
}
