package branching

import (
	"context"
	"fmt"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// JudgeResult is the answer of judge.
type JudgeResult struct {
	Header
	Verdict  string             `json:"verdict"`
	LinkType string             `json:"linkType"`
	ThoughtA analyze.ThoughtRef `json:"thoughtA"`
	ThoughtB analyze.ThoughtRef `json:"thoughtB"`
	Reason   string             `json:"reason,omitempty"`
	Previous string             `json:"previousVerdict,omitempty" jsonschema:"the verdict this one replaces, if any"`
	Message  string             `json:"message"`
}

// judgeAny is the judge command: on several review groups when verdicts
// is given, on one when group is, else on two thoughts.
func (bt *BranchThinking) judgeAny(ctx context.Context, in CommandInput) (any, error) {
	if in.Verdicts != nil {
		if len(in.Verdicts) == 0 {
			return nil, thinkgraph.Invalid("verdicts", "a list of answers [{group, verdict, conflicts?, reason?}]", "an empty list",
				"'verdicts' must hold at least one answer {group, verdict, conflicts?, reason?}")
		}
		return bt.judgeBatch(ctx, in)
	}
	if strings.TrimSpace(in.Group) != "" {
		return bt.judgeGroup(ctx, in)
	}
	if len(in.Conflicts) > 0 {
		return nil, thinkgraph.Invalid("group", "the key of the review group the conflicts are in", "none",
			"'conflicts' answers a review group: give its key in 'group' (from findContradictions' review)")
	}
	return bt.judgeCmd(ctx, in)
}

func (bt *BranchThinking) judgeCmd(ctx context.Context, in CommandInput) (*JudgeResult, error) {
	for _, f := range []struct{ name, v string }{{"thoughtId", in.ThoughtID}, {"otherThoughtId", in.OtherThoughtID}} {
		if f.v == "" {
			return nil, thinkgraph.Invalid(f.name, "the id of a thought in this session", "none",
				"'judge' needs 'verdicts' (answers on a review's groups), 'group' (one group) or '%s' in command.data: the two thoughts the verdict is on", f.name)
		}
	}
	if in.ThoughtID == in.OtherThoughtID {
		return nil, thinkgraph.Invalid("otherThoughtId", "a thought other than thoughtId", reasoning.Clip(in.OtherThoughtID, 64), "'otherThoughtId' must name another thought than 'thoughtId'")
	}
	link, ok := review.VerdictLink[in.Verdict]
	if !ok {
		received := reasoning.Clip(in.Verdict, 40)
		if in.Verdict == "" {
			received = "none"
		}
		return nil, thinkgraph.Invalid("verdict", "one of: "+strings.Join(review.Verdicts, ", "), received,
			"'verdict' must be one of %s (contradiction, or consistent/compatible, on whether two claims can both hold; circular/not_circular on an argument); a review group's key goes in 'group'", strings.Join(review.Verdicts, ", "))
	}
	if len([]rune(in.Reason)) > review.MaxReason {
		return nil, thinkgraph.Invalid("reason", fmt.Sprintf("at most %d characters", review.MaxReason), fmt.Sprint(len([]rune(in.Reason))), "'reason' is longer than %d characters", review.MaxReason)
	}
	res := &JudgeResult{Header: Header{Command: "judge"}, Verdict: in.Verdict, LinkType: link, Reason: strings.TrimSpace(in.Reason)}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		var ths [2]*thinkgraph.Thought
		for i, f := range []struct{ name, v string }{{"thoughtId", in.ThoughtID}, {"otherThoughtId", in.OtherThoughtID}} {
			th, err := bt.svc.Thought(ctx, tx, sess, f.name, f.v)
			if err != nil {
				return err
			}
			ths[i] = th
		}
		a, b := ths[0], ths[1]
		if b.Step < a.Step {
			a, b = b, a
		}
		links, err := tx.Links(ctx, sess.Key)
		if err != nil {
			return err
		}
		prev := review.StatedOf(links)
		_, _, l := prev.Contradicts(a.ID, b.ID)
		ok := l.ID != ""
		if link == review.LinkCircular || link == review.LinkNotCircular {
			l, ok = prev.Circular(a.ID, b.ID)
		}
		if ok {
			res.Previous = l.Type
			if l.Type == link {
				res.SessionID, res.ThoughtA, res.ThoughtB = sess.ID, analyze.Ref(reasoning.ToDoc(a)), analyze.Ref(reasoning.ToDoc(b))
				res.Message = "Nothing new: the pair already has this verdict."
				return nil
			}
		}
		nl := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.BranchID, ToBranch: a.BranchID, FromThought: b.ID, ToThought: a.ID,
			Type: link, Reason: res.Reason, Strength: 1, CreatedAt: bt.svc.Now()}
		if err := tx.AddLink(ctx, nl); err != nil {
			return err
		}
		res.SessionID, res.ThoughtA, res.ThoughtB = sess.ID, analyze.Ref(reasoning.ToDoc(a)), analyze.Ref(reasoning.ToDoc(b))
		switch link {
		case review.LinkContradictory:
			res.Message = "Stored: the two thoughts contradict each other. findContradictions, evaluate, synthesizeDialectical, suggestTools and exports count the pair from now on."
		case review.LinkCompatible:
			res.Message = "Stored: the two thoughts are compatible. The pair is no longer a contradiction or a candidate in any analysis."
		case review.LinkCircular:
			res.Message = "Stored: the argument is circular. detectCircular reports it from now on."
		default:
			res.Message = "Stored: the argument is not circular. detectCircular no longer reports or asks about the pair."
		}
		if res.Previous != "" && res.Previous != link {
			res.Message += fmt.Sprintf(" It replaces the earlier verdict %q.", res.Previous)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// LLMJudgeReport says what the server's language-model judge did in one
// analysis.
type LLMJudgeReport struct {
	Asked   int    `json:"asked" jsonschema:"review groups put to the model (cached answers included)"`
	Settled int    `json:"settled"`
	Cached  int    `json:"cached" jsonschema:"answers reused from an earlier call on the same claims"`
	Failed  int    `json:"failed"`
	Error   string `json:"error,omitempty" jsonschema:"why a call failed or the judge could not run; those groups stay open"`
}
