package branching

import (
	"context"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
)

// llmJudgeGroups bounds the review groups the language-model judge answers
// per findContradictions call (one model call each).
const llmJudgeGroups = 5

// settleWithLLM asks the configured provider about up to llmJudgeGroups
// review groups and stores each answer as judge would. Each call is an
// invocation of the session; a failed call leaves the group open.
func (bt *BranchThinking) settleWithLLM(ctx context.Context, ref reasoning.SessionRef, sessionID string, groups []analysis.Reviewed) *LLMJudgeReport {
	rep := &LLMJudgeReport{}
	p, err := bt.svc.Provider("branch-thinking.judge", reasoning.SessionRef{ID: sessionID, Explicit: true, Tenant: ref.Tenant}, false, reasoning.LLMCall{})
	if err != nil {
		rep.Error = "no language-model provider: " + thinkgraph.AsError(err).Message + "; the groups stay open"
		return rep
	}
	type settled struct {
		g analysis.Reviewed
		v review.Reply
	}
	var done []settled
	var errs []string
	for _, g := range groups[:min(llmJudgeGroups, len(groups))] {
		rep.Asked++
		if v, ok := bt.answers.Get(g.Claims); ok {
			rep.Cached++
			done = append(done, settled{g, v})
			continue
		}
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: review.Prompt}, {Role: llm.RoleUser, Content: review.Numbered(g.Claims)}}, MaxTokens: 300}
		resp, err := bt.svc.Complete(ctx, p, reasoning.LLMCall{}, req)
		if err != nil {
			rep.Failed++
			errs = append(errs, thinkgraph.AsError(err).Message)
			continue
		}
		v, err := review.ReadReply(resp.Content, len(g.Claims))
		if err != nil {
			rep.Failed++
			errs = append(errs, err.Error())
			continue
		}
		if name := strings.TrimSpace(resp.Provider + " " + resp.Model); name != "" {
			v.Reason = strings.TrimSpace("judged by " + name + ": " + v.Reason)
		}
		bt.answers.Put(g.Claims, v)
		done = append(done, settled{g, v})
	}
	if len(errs) > 0 {
		rep.Error = strings.Join(errs, "; ") + "; those groups stay open"
	}
	if len(done) == 0 {
		return rep
	}
	err = bt.write(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		for _, d := range done {
			// The group as it is now: its thoughts are still the session's
			// (thoughts are never deleted), and the key names them by step.
			members, err := st.MemberDocs(ctx, tx, sess, d.g.Key)
			if err != nil {
				return err
			}
			if _, err := review.StoreGroup(ctx, tx, sess, members, d.v.Conflicts, nil, reasoning.Clip(d.v.Reason, review.MaxReason-1), bt.svc.Now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		rep.Error = "storing the verdicts failed: " + thinkgraph.AsError(err).Message + "; the groups stay open"
		return rep
	}
	rep.Settled = len(done)
	return rep
}
