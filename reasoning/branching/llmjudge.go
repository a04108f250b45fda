package branching

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// llmJudgeGroups bounds the review groups the language-model judge answers
// per findContradictions call (one model call each).
const llmJudgeGroups = 5

// maxLLMVerdicts bounds the answers remembered by group text (emptied when
// full; the verdicts stay stored as links).
const maxLLMVerdicts = 4096

// llmVerdicts remembers the model's answers per group of claim texts, so
// the same claims (in this session or another) are never asked twice.
type llmVerdicts struct {
	mu sync.Mutex
	m  map[[32]byte]llmVerdict
}

// llmVerdict is the model's answer on a group: conflicts as pairs of
// indexes into the group's claims (none: consistent).
type llmVerdict struct {
	conflicts [][2]int
	reason    string
}

// groupText is the key of a group's claim texts, in order.
func groupText(claims []string) [32]byte {
	return sha256.Sum256([]byte(strings.Join(claims, "\x00")))
}

func (c *llmVerdicts) get(k [32]byte) (llmVerdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *llmVerdicts) put(k [32]byte, v llmVerdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxLLMVerdicts {
		c.m = map[[32]byte]llmVerdict{}
	}
	c.m[k] = v
}

const groupJudgePrompt = `You check numbered statements taken from one line of reasoning: can they all be true at once, read in the same context?
Answer with JSON only: {"verdict": "consistent"} when they can, else {"verdict": "contradiction", "conflicts": [[i, j]], "reason": "<one sentence>"} where each pair names two statements, by number, that cannot both be true.`

// settleWithLLM asks the configured provider about up to llmJudgeGroups
// review groups and stores each answer as judge would. Each call is an
// invocation of the session; a failed call leaves the group open.
func (bt *BranchThinking) settleWithLLM(ctx context.Context, ref reasoning.SessionRef, sessionID string, groups []reviewed) *LLMJudgeReport {
	rep := &LLMJudgeReport{}
	p, err := bt.svc.Provider("branch-thinking.judge", reasoning.SessionRef{ID: sessionID, Explicit: true, Tenant: ref.Tenant}, false, reasoning.LLMCall{})
	if err != nil {
		rep.Error = "no language-model provider: " + thinkgraph.AsError(err).Message + "; the groups stay open"
		return rep
	}
	type settled struct {
		g reviewed
		v llmVerdict
	}
	var done []settled
	var errs []string
	for _, g := range groups[:min(llmJudgeGroups, len(groups))] {
		rep.Asked++
		k := groupText(g.claims)
		if v, ok := bt.llmVerdicts.get(k); ok {
			rep.Cached++
			done = append(done, settled{g, v})
			continue
		}
		var b strings.Builder
		for i, c := range g.claims {
			fmt.Fprintf(&b, "%d. %s\n", i+1, c)
		}
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: groupJudgePrompt}, {Role: llm.RoleUser, Content: b.String()}}, MaxTokens: 300}
		resp, err := bt.svc.Complete(ctx, p, reasoning.LLMCall{}, req)
		if err != nil {
			rep.Failed++
			errs = append(errs, thinkgraph.AsError(err).Message)
			continue
		}
		v, err := readGroupAnswer(resp.Content, len(g.claims))
		if err != nil {
			rep.Failed++
			errs = append(errs, err.Error())
			continue
		}
		if name := strings.TrimSpace(resp.Provider + " " + resp.Model); name != "" {
			v.reason = strings.TrimSpace("judged by " + name + ": " + v.reason)
		}
		bt.llmVerdicts.put(k, v)
		done = append(done, settled{g, v})
	}
	if len(errs) > 0 {
		rep.Error = strings.Join(errs, "; ") + "; those groups stay open"
	}
	if len(done) == 0 {
		return rep
	}
	err = bt.write(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *btState) error {
		for _, d := range done {
			// The group as it is now: its thoughts are still the session's
			// (thoughts are never deleted), and the key names them by step.
			var members []analyze.Doc
			if err := bt.svc.DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
				var err error
				members, err = groupMembers(docs, d.g.key)
				return err
			}); err != nil {
				return err
			}
			if _, err := storeGroupVerdict(ctx, tx, sess, members, d.v.conflicts, reasoning.Clip(d.v.reason, maxReason-1), bt.svc.Now()); err != nil {
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

// readGroupAnswer reads the model's answer on a group of n claims.
func readGroupAnswer(content string, n int) (llmVerdict, error) {
	var out struct {
		Verdict   string  `json:"verdict"`
		Conflicts [][]int `json:"conflicts"`
		Reason    string  `json:"reason"`
	}
	if err := llm.ExtractJSON(content, &out); err != nil {
		return llmVerdict{}, fmt.Errorf("the model's answer is not JSON: %q", reasoning.Clip(content, 80))
	}
	v := llmVerdict{reason: reasoning.Clip(strings.TrimSpace(out.Reason), maxReason-100)}
	switch out.Verdict {
	case "consistent":
		return v, nil
	case "contradiction":
		for _, c := range out.Conflicts {
			if len(c) != 2 || c[0] < 1 || c[1] < 1 || c[0] > n || c[1] > n || c[0] == c[1] {
				return llmVerdict{}, fmt.Errorf("the model named a conflict %v outside the group's %d statements", c, n)
			}
			v.conflicts = append(v.conflicts, [2]int{c[0] - 1, c[1] - 1})
		}
		if len(v.conflicts) == 0 {
			return llmVerdict{}, fmt.Errorf("the model said contradiction but named no conflicting pair")
		}
		return v, nil
	}
	return llmVerdict{}, fmt.Errorf("the model's answer is not a verdict: %q", reasoning.Clip(content, 80))
}
