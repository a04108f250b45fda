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
)

// llmJudgeCalls bounds the candidates the language-model judge settles per
// findContradictions call.
const llmJudgeCalls = 5

// maxLLMVerdicts bounds the verdicts remembered by text pair (emptied when
// full; the verdicts stay stored as links).
const maxLLMVerdicts = 4096

// llmVerdicts remembers the model's verdicts per pair of texts, so the same
// two texts (in this session or another) are never asked twice.
type llmVerdicts struct {
	mu sync.Mutex
	m  map[[32]byte]llmVerdict
}

type llmVerdict struct{ verdict, reason string }

// textPair is the key of two texts, in either order.
func textPair(a, b string) [32]byte {
	if b < a {
		a, b = b, a
	}
	return sha256.Sum256([]byte(a + "\x00" + b))
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

const judgePrompt = `You decide whether two statements from one line of reasoning contradict each other: whether they cannot both be true at once, read in the same context.
Answer with JSON only: {"verdict": "contradiction" or "compatible", "reason": "<one sentence>"}.`

// settleWithLLM asks the configured provider about up to llmJudgeCalls
// candidates and stores each verdict as a link (as the judge command
// would). Each call is an invocation of the session; a failed call leaves
// the pair to the offline verdict.
func (bt *BranchThinking) settleWithLLM(ctx context.Context, ref reasoning.SessionRef, sessionID string, cands []Candidate) *LLMJudgeReport {
	rep := &LLMJudgeReport{}
	p, err := bt.svc.Provider("branch-thinking.judge", reasoning.SessionRef{ID: sessionID, Explicit: true, Tenant: ref.Tenant}, false, reasoning.LLMCall{})
	if err != nil {
		rep.Error = "no language-model provider: " + thinkgraph.AsError(err).Message + "; the offline verdicts stand"
		return rep
	}
	type settled struct {
		c Candidate
		v llmVerdict
	}
	var done []settled
	var errs []string
	for _, c := range cands[:min(llmJudgeCalls, len(cands))] {
		rep.Asked++
		k := textPair(c.ThoughtA.Text(), c.ThoughtB.Text())
		if v, ok := bt.llmVerdicts.get(k); ok {
			rep.Cached++
			done = append(done, settled{c, v})
			continue
		}
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: judgePrompt},
			{Role: llm.RoleUser, Content: fmt.Sprintf("Statement A: %s\nStatement B: %s", c.ThoughtA.Text(), c.ThoughtB.Text())}}, MaxTokens: 200}
		resp, err := bt.svc.Complete(ctx, p, reasoning.LLMCall{}, req)
		if err != nil {
			rep.Failed++
			errs = append(errs, thinkgraph.AsError(err).Message)
			continue
		}
		var out struct {
			Verdict string `json:"verdict"`
			Reason  string `json:"reason"`
		}
		if err := llm.ExtractJSON(resp.Content, &out); err != nil || (out.Verdict != "contradiction" && out.Verdict != "compatible") {
			rep.Failed++
			errs = append(errs, fmt.Sprintf("the model's answer is not a verdict: %q", reasoning.Clip(resp.Content, 80)))
			continue
		}
		v := llmVerdict{out.Verdict, reasoning.Clip(strings.TrimSpace(out.Reason), maxReason-100)}
		if name := strings.TrimSpace(resp.Provider + " " + resp.Model); name != "" {
			v.reason = "judged by " + name + ": " + v.reason
		}
		bt.llmVerdicts.put(k, v)
		done = append(done, settled{c, v})
	}
	if len(errs) > 0 {
		rep.Error = strings.Join(errs, "; ") + "; those pairs keep the offline verdict"
	}
	if len(done) == 0 {
		return rep
	}
	err = bt.write(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *btState) error {
		now := bt.svc.Now()
		for _, d := range done {
			a, b := d.c.ThoughtA, d.c.ThoughtB
			l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.Branch, ToBranch: a.Branch, FromThought: b.ID, ToThought: a.ID,
				Type: verdictLink[d.v.verdict], Reason: d.v.reason, Strength: 1, CreatedAt: now}
			if err := tx.AddLink(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		rep.Error = "storing the verdicts failed: " + thinkgraph.AsError(err).Message + "; the offline verdicts stand"
		return rep
	}
	rep.Settled = len(done)
	return rep
}
