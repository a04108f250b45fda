package branching

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
)

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
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		members, err := st.MemberDocs(ctx, tx, sess, res.Group)
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
