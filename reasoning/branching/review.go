package branching

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
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

// GroupVerdict is an answer on one review group: judge {group, verdict,
// conflicts?, reason?}, or one entry of judge {verdicts}.
type GroupVerdict struct {
	Group     string
	Verdict   string
	Conflicts [][]string
	Reason    string
}

// check checks an answer as far as it can be without the session: the
// group's key first (a key that names no group is the error to fix, even
// when the verdict or the conflicts are wrong too), then the verdict and
// the reason; store checks the rest. It returns the answer with its group
// key trimmed and "compatible" read as "consistent".
func (v GroupVerdict) check() (GroupVerdict, error) {
	v.Group = strings.TrimSpace(v.Group)
	if _, err := review.ParseGroupKey(v.Group); err != nil {
		return v, err
	}
	if v.Verdict == "compatible" {
		v.Verdict = "consistent"
	}
	if !slices.Contains(groupVerdicts, v.Verdict) {
		received := reasoning.Clip(v.Verdict, 40)
		if v.Verdict == "" {
			received = "none"
		}
		return v, thinkgraph.Invalid("verdict", "one of: "+strings.Join(groupVerdicts, ", "), received,
			"'verdict' on a group must be \"consistent\" (all its claims can hold together) or \"contradiction\" (with 'conflicts' naming the pairs that cannot) for findContradictions' review, \"circular\" or \"not_circular\" for detectCircular's")
	}
	if len([]rune(v.Reason)) > review.MaxReason {
		return v, thinkgraph.Invalid("reason", fmt.Sprintf("at most %d characters", review.MaxReason), fmt.Sprint(len([]rune(v.Reason))), "'reason' is longer than %d characters", review.MaxReason)
	}
	return v, nil
}

// resolve resolves a checked answer against the session: the group's
// thoughts (an error when the key names no group of it), then its
// conflicts, as indexes into them.
func (v GroupVerdict) resolve(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) ([]analyze.Doc, [][2]int, error) {
	members, err := st.MemberDocs(ctx, tx, sess, v.Group)
	if err != nil {
		return nil, nil, err
	}
	if v.Verdict == "contradiction" && len(v.Conflicts) == 0 {
		return nil, nil, thinkgraph.Invalid("conflicts", "a list of pairs of the group's steps, e.g. [[7, 13]]", "none",
			"'conflicts' must name which claims of the group conflict, as pairs of their steps, e.g. [[7, 13]]")
	}
	if v.Verdict != "contradiction" && len(v.Conflicts) > 0 {
		return nil, nil, thinkgraph.Invalid("conflicts", "no conflicts with verdict "+v.Verdict, fmt.Sprint(len(v.Conflicts)),
			"'conflicts' goes with verdict \"contradiction\" only")
	}
	conflicts, err := review.Conflicts(members, v.Conflicts)
	return members, conflicts, err
}

// store stores a checked answer in tx (see judgeGroup); a pair in keep is
// not stored compatible (another answer of the same call names it a
// conflict).
func (bt *BranchThinking) store(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State, v GroupVerdict, keep map[review.PairKey]bool) ([]string, error) {
	members, conflicts, err := v.resolve(ctx, tx, sess, st)
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(v.Reason)
	if v.Verdict == "circular" || v.Verdict == "not_circular" {
		return review.StoreCircular(ctx, tx, sess, members, review.VerdictLink[v.Verdict], reason, bt.svc.Now())
	}
	return review.StoreGroup(ctx, tx, sess, members, conflicts, keep, reason, bt.svc.Now())
}

// judgeGroup stores the model's answer on a review group: a contradictory
// link for each conflicting pair, a compatible link for every other pair of
// the group's thoughts. A pair whose latest verdict already says the same
// is not stored again.
func (bt *BranchThinking) judgeGroup(ctx context.Context, in CommandInput) (*GroupJudgeResult, error) {
	v, err := GroupVerdict{Group: in.Group, Verdict: in.Verdict, Conflicts: in.Conflicts, Reason: in.Reason}.check()
	if err != nil {
		return nil, err
	}
	res := &GroupJudgeResult{Header: Header{Command: "judge"}, Group: v.Group, Verdict: v.Verdict}
	err = bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res.SessionID = sess.ID
		var err error
		res.Stored, err = bt.store(ctx, tx, sess, st, v, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	switch {
	case len(res.Stored) == 0:
		res.Message = "Nothing new: every pair of the group already had this verdict."
	case v.Verdict == "consistent":
		res.Message = "Stored: the group's claims are consistent. It is not asked again until a new claim joins it."
	case v.Verdict == "circular":
		res.Message = "Stored: the argument is circular. detectCircular reports it from now on."
	case v.Verdict == "not_circular":
		res.Message = "Stored: the argument is not circular. detectCircular no longer asks about it."
	default:
		res.Message = "Stored: the conflicting pairs are contradictions in findContradictions, evaluate, synthesizeDialectical, suggestTools and exports; the group's other pairs are compatible."
	}
	return res, nil
}

// BatchJudgeResult is the answer of judge {verdicts}.
type BatchJudgeResult struct {
	Header
	Groups         int      `json:"groups" jsonschema:"the review groups answered"`
	Stored         int      `json:"stored" jsonschema:"verdicts stored, one per pair of thoughts of a group; a pair that already had its verdict is not stored again"`
	Contradictions []string `json:"contradictions,omitempty" jsonschema:"the pairs stored as contradictions: #a/#b"`
	Circular       []string `json:"circular,omitempty" jsonschema:"the pairs stored as circular: #a/#b"`
	Message        string   `json:"message"`
}

// maxVerdicts bounds the entries of one judge {verdicts} call.
const maxVerdicts = 100

// judgeBatch stores the answers on several review groups in one
// transaction, each as judgeGroup stores it; an error names the entry
// (verdicts[2].conflicts[0]) and stores nothing. A pair that one answer
// names a conflict is not stored compatible by another.
func (bt *BranchThinking) judgeBatch(ctx context.Context, in CommandInput) (*BatchJudgeResult, error) {
	for _, f := range []struct {
		name  string
		given bool
	}{{"group", strings.TrimSpace(in.Group) != ""}, {"verdict", in.Verdict != ""}, {"conflicts", len(in.Conflicts) > 0}, {"thoughtId", in.ThoughtID != ""}, {"otherThoughtId", in.OtherThoughtID != ""}, {"reason", in.Reason != ""}} {
		if f.given {
			return nil, thinkgraph.Invalid(f.name, "either 'verdicts' or one answer, not both", f.name,
				"'%s' answers one group or two thoughts, 'verdicts' a whole review: put it in an entry of 'verdicts' ({group, verdict, conflicts?, reason?})", f.name)
		}
	}
	if len(in.Verdicts) > maxVerdicts {
		return nil, thinkgraph.Invalid("verdicts", fmt.Sprintf("at most %d answers", maxVerdicts), fmt.Sprint(len(in.Verdicts)),
			"'verdicts' has %d entries; at most %d are allowed: send the rest in another call", len(in.Verdicts), maxVerdicts)
	}
	checked := make([]GroupVerdict, len(in.Verdicts))
	for i, v := range in.Verdicts {
		var err error
		if checked[i], err = v.check(); err != nil {
			return nil, entryError(i, err)
		}
	}
	res := &BatchJudgeResult{Header: Header{Command: "judge"}, Groups: len(checked)}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res.SessionID = sess.ID
		res.Stored, res.Contradictions, res.Circular = 0, nil, nil // a retried transaction starts again
		// The conflicts of every answer, so that no other answer stores
		// one of them compatible.
		conflicts := map[review.PairKey]bool{}
		for i, v := range checked {
			members, pairs, err := v.resolve(ctx, tx, sess, st)
			if err != nil {
				return entryError(i, err)
			}
			for _, p := range pairs {
				conflicts[review.KeyOf(members[p[0]].ID, members[p[1]].ID)] = true
			}
		}
		for i, v := range checked {
			stored, err := bt.store(ctx, tx, sess, st, v, conflicts)
			if err != nil {
				return entryError(i, err)
			}
			res.Stored += len(stored)
			for _, s := range stored {
				pair, kind, _ := strings.Cut(s, " ")
				switch kind {
				case "contradiction":
					res.Contradictions = append(res.Contradictions, pair)
				case "circular":
					res.Circular = append(res.Circular, pair)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Message = fmt.Sprintf("Stored %d verdicts on %d groups. Call findContradictions (or detectCircular) again: the review is finished when it shows no group.", res.Stored, res.Groups)
	if res.Stored == 0 {
		res.Message = "Nothing new: every pair of these groups already had its verdict. Call findContradictions (or detectCircular) again: the review is finished when it shows no group."
	}
	return res, nil
}

// entryError names entry i of judge's verdicts in an error about one of its
// fields.
func entryError(i int, err error) error {
	te := thinkgraph.AsError(err)
	if te.Code != thinkgraph.CodeValidation {
		return err
	}
	prefix := fmt.Sprintf("verdicts[%d]", i)
	te.Field = prefix + "." + cmp.Or(te.Field, "group")
	te.Message = prefix + ": " + te.Message
	return te
}
