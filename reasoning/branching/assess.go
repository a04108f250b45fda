package branching

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// assessment is what the advice commands (findStrongestPaths, evaluate,
// prune, suggestTools) know of a session's branches: which are closed and
// why, which drift, which hold circular arguments, and the session's
// conclusion.
type assessment struct {
	docs       []analyze.Doc
	closed     map[string]advice.Closure
	drift      []advice.BranchDrift
	drifting   map[string]bool
	circular   []analyze.CircularReasoning
	conclusion string // thought id, "" when none
}

// driftOptions are the drift options of the session: the offline engine
// adds its word alignment to the vectors.
func (bt *BranchThinking) driftOptions(sess *thinkgraph.Session, threshold float64) advice.DriftOptions {
	o := advice.DriftOptions{Threshold: threshold, GoalText: sess.Goal}
	if lex, ok := bt.svc.Semantic().Embedder.(*semantic.Lexical); ok {
		lx := lex.Lexicon()
		o.TextSimilarity = func(a, b string) float64 { return semantic.WordAlignment(lx, a, b) }
	}
	return o
}

// assess reads the session's branches (see assessment). Refuted thoughts
// (a person's feedback) are marked on the returned docs.
func (bt *BranchThinking) assess(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) (*assessment, error) {
	docs, _, err := bt.docs(ctx, tx, sess, st)
	if err != nil {
		return nil, err
	}
	fb, err := tx.Feedback(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	if refuted := reasoning.Refuted(fb); len(refuted) > 0 {
		// A copy: docs may be the session's cached documents.
		docs = slices.Clone(docs)
		for i := range docs {
			docs[i].Refuted = refuted[docs[i].ID]
		}
	}
	bs, err := tx.Branches(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	reasons := settingsOf(sess).Closed
	marked := map[string]string{}
	for _, b := range bs {
		if b.State == "pruned" {
			marked[b.ID] = reasons[b.ID]
		}
	}
	rep, err := st.contradictions(ctx, bt, tx, sess.Key)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	a := &assessment{docs: docs, drifting: map[string]bool{}}
	a.closed = advice.Closures(docs, advice.ClosureOptions{Marked: marked, Contradictions: rep.Contradictions})
	a.drift = advice.DetectDrift(docs, st.goalVec, bt.driftOptions(sess, 0))
	for _, d := range a.drift {
		if d.Drifting {
			a.drifting[d.Branch] = true
		}
	}
	a.circular = st.circularWithStated(analyze.DetectCircular(docs, analyze.CircularOptions{}), docs, byID)
	skip := map[string]bool{}
	for b, c := range a.closed {
		if c.By == "marked" {
			skip[b] = true
		}
	}
	if c, ok := advice.Conclusion(docs, skip); ok {
		a.conclusion = c.ID
	}
	return a, nil
}

// findings are the session-level verdicts on one branch that its
// evaluation counts (analyze.Evaluation.WithFindings).
func (a *assessment) findings(branch string) []analyze.Finding {
	var fs []analyze.Finding
	if c, ok := a.closed[branch]; ok {
		fs = append(fs, analyze.Finding{Kind: "closed", Reason: c.Reason})
	}
	for _, d := range a.drift {
		if d.Branch == branch && d.Drifting {
			fs = append(fs, analyze.Finding{Kind: "drifting", Reason: d.Reason})
		}
	}
	for _, c := range a.circular {
		var steps []string
		for _, t := range c.Thoughts {
			if t.Branch == branch {
				steps = append(steps, fmt.Sprintf("#%d", t.Step))
			}
		}
		if len(steps) > 0 {
			fs = append(fs, analyze.Finding{Kind: "circular", Reason: "thoughts " + strings.Join(steps, ", ") + " support a claim with a restatement of it"})
			break
		}
	}
	return fs
}
