package branching

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// loadStated brings the state's stated verdicts up to the session's links;
// when they changed, the branch trackers and the contradiction search start
// afresh so that every figure counts them.
func (st *btState) loadStated(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) error {
	links, err := tx.Links(ctx, session)
	if err != nil {
		return err
	}
	if st.stated != nil && st.stated.Links() == len(links) {
		return nil
	}
	st.stated = review.StatedOf(links)
	st.asserted = nil
	for _, b := range st.branches {
		b.tracker = nil
	}
	return nil
}

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

// judgeAny is the judge command: on a review group when group is given,
// else on two thoughts.
func (bt *BranchThinking) judgeAny(ctx context.Context, in CommandInput) (any, error) {
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
				"'judge' needs 'group' (a review group of findContradictions) or '%s' in command.data: the two thoughts the verdict is on", f.name)
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
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
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

// SessionAnalysis is what the analyses find in a session, computed as the
// branch-thinking commands compute it: the contradictions of
// findContradictions, the findings of detectCircular and, per branch, the
// evaluation of evaluate (the session's goal and thresholds, the same judge,
// stated verdicts counted). Exports and the viewer show it, so their figures
// agree with the commands'.
type SessionAnalysis struct {
	Contradictions []analyze.Contradiction
	// Checked is the number of thoughts with vectors searched.
	Checked  int
	Circular []analyze.CircularReasoning
	// Evaluations are per branch, in the order of the branches' first
	// thoughts; nil unless asked for.
	Evaluations []BranchEvaluation
}

// BranchEvaluation is the evaluation of one branch.
type BranchEvaluation struct {
	Branch string `json:"branch"`
	analyze.Evaluation
}

// Analyze runs the analyses of one session of s in tx (see
// SessionAnalysis); evaluate adds the branch evaluations. It keeps no state
// between calls.
func Analyze(ctx context.Context, s *reasoning.Service, tx thinkgraph.Tx, sess *thinkgraph.Session, evaluate bool) (*SessionAnalysis, error) {
	if s.Semantic() == nil {
		return nil, reasoning.ErrNoSemantic
	}
	bt := NewBranchThinking(s)
	st := bt.stateOf(reasoning.SessionRef{ID: sess.ID, Explicit: true, Tenant: sess.Tenant})
	rep, err := st.contradictions(ctx, bt, tx, sess.Key)
	if err != nil {
		return nil, err
	}
	docs, _, err := bt.docs(ctx, tx, sess, st)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(docs))
	var order []string
	for i, d := range docs {
		byID[d.ID] = i
		if !slices.Contains(order, d.Branch) {
			order = append(order, d.Branch)
		}
	}
	a := &SessionAnalysis{Contradictions: rep.Contradictions, Checked: rep.Thoughts,
		Circular: st.stated.CircularWith(analyze.DetectCircular(docs, analyze.CircularOptions{Cache: st.argCache()}), docs, byID)}
	if a.Contradictions == nil {
		a.Contradictions = []analyze.Contradiction{}
	}
	if a.Circular == nil {
		a.Circular = []analyze.CircularReasoning{}
	}
	for _, b := range order {
		if !evaluate {
			break
		}
		ev, err := bt.branchEvaluation(ctx, tx, sess, st, b)
		if err != nil {
			return nil, err
		}
		a.Evaluations = append(a.Evaluations, BranchEvaluation{Branch: b, Evaluation: ev})
	}
	return a, nil
}
