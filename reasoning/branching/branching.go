// Package branching is the branch-thinking tool (docs/branch-thinking.md)
// on the reasoning core: thoughts on named branches with cross-references,
// its commands (one table, BranchCommands), stated verdicts, the
// language-model judge, the offline generator, tool suggestions, and export
// and import of a session. What the analyses say of a session is the
// analyst's (reasoning/analysis): every command reads that one judgement.
package branching

import (
	"context"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// BranchThinking runs the branch-thinking tool on a Service. The
// assessment of each session (its running analysis state) is the
// analyst's, shared with the exports and the viewer.
type BranchThinking struct {
	svc *reasoning.Service
	an  *analysis.Analyst
	// gen writes counterfactuals and syntheses with a language model; nil
	// (the default) keeps the offline results.
	gen Generator
	// answers are the language-model judge's answers by group of claim
	// texts (Config.Judge = JudgeLLM).
	answers review.Replies
}

// SetGenerator makes generateCounterfactuals and synthesizeDialectical
// use g, with the offline result as its input and as the fallback when it
// fails. Call it before serving.
func (bt *BranchThinking) SetGenerator(g Generator) { bt.gen = g }

// NewBranchThinking returns the branch-thinking tool on svc, reading the
// judgement of an (nil: an analyst of its own).
func NewBranchThinking(svc *reasoning.Service, an *analysis.Analyst) *BranchThinking {
	if an == nil {
		an = analysis.New(svc)
	}
	return &BranchThinking{svc: svc, an: an}
}

// Service returns the service the tool runs on.
func (bt *BranchThinking) Service() *reasoning.Service { return bt.svc }

// Analyst returns the analyst whose judgement the tool reads.
func (bt *BranchThinking) Analyst() *analysis.Analyst { return bt.an }

// read runs fn on the session in a read transaction with its analysis state
// locked; a connection session not created yet reads as empty.
func (bt *BranchThinking) read(ctx context.Context, ref reasoning.SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error) error {
	return bt.an.Read(ctx, ref, fn)
}

// write runs fn on the session in a write transaction and saves the
// session afterwards. A session_id nobody used (a typo) is
// SessionNotFoundError rather than a new empty session; the connection's
// own session starts on first use.
func (bt *BranchThinking) write(ctx context.Context, ref reasoning.SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error) error {
	return bt.an.Update(ctx, ref, !ref.Explicit, "branch", bt.saved(ctx, fn))
}

// writeOrStart is write for a command that may start a session under a new
// session_id (setGoal, which the original's sessions begin with).
func (bt *BranchThinking) writeOrStart(ctx context.Context, ref reasoning.SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error) error {
	return bt.an.Update(ctx, ref, true, "branch", bt.saved(ctx, fn))
}

// saved is fn followed by saving the session.
func (bt *BranchThinking) saved(ctx context.Context, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error) func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
	return func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		if err := fn(tx, sess, st); err != nil {
			return err
		}
		sess.UpdatedAt = bt.svc.Now()
		return tx.UpdateSession(ctx, sess)
	}
}

// docs returns the session's analyzer docs after syncing the state.
func (bt *BranchThinking) docs(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) ([]analyze.Doc, error) {
	docs, _, err := st.Docs(ctx, tx, sess)
	return docs, err
}

// AutoEvalConfig is the auto-evaluation setting of a session.
type AutoEvalConfig = analysis.AutoEval

// AutoEvalThresholds are the quality thresholds of auto-evaluation.
type AutoEvalThresholds = analysis.AutoEvalThresholds
