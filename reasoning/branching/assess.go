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
	conclusion string // thought id, "" when none
	// circular are the session's circular arguments (detectCircular's,
	// stated verdicts included), found on first use: on long sessions
	// they cost more than the rest together.
	circular     []analyze.CircularReasoning
	circularDone bool
	loadCircular func() []analyze.CircularReasoning
	// gaps are the knowledge gaps of the open branches, found on first use
	// (detectKnowledgeGaps and suggestTools); read-only.
	gaps     []analyze.KnowledgeGap
	gapsDone bool
}

// knowledgeGaps returns the session's knowledge gaps, leaving out the
// closed branches. The slice is shared: callers must not modify it.
func (a *assessment) knowledgeGaps() []analyze.KnowledgeGap {
	if !a.gapsDone {
		closed := make(map[string]bool, len(a.closed))
		for b := range a.closed {
			closed[b] = true
		}
		a.gaps, a.gapsDone = analyze.DetectKnowledgeGaps(a.docs, analyze.GapOptions{Closed: closed}), true
	}
	return a.gaps
}

// circularArgs returns the session's circular arguments.
func (a *assessment) circularArgs() []analyze.CircularReasoning {
	if !a.circularDone {
		a.circular, a.circularDone = a.loadCircular(), true
	}
	return a.circular
}

// driftOptions are the drift options of the session: the offline engine
// adds its word alignment to the vectors.
func (bt *BranchThinking) driftOptions(sess *thinkgraph.Session, threshold float64) advice.DriftOptions {
	o := advice.DriftOptions{Threshold: threshold, GoalText: sess.Goal}
	if lex, ok := bt.svc.Semantic().Embedder.(*semantic.Lexical); ok {
		lx := lex.Lexicon()
		// Each text is read once for all its comparisons.
		read := map[string]semantic.AlignedText{}
		aligned := func(t string) semantic.AlignedText {
			a, ok := read[t]
			if !ok {
				a = semantic.AlignText(lx, t)
				read[t] = a
			}
			return a
		}
		o.TextSimilarity = func(a, b string) float64 { return aligned(a).Alignment(aligned(b)) }
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
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	// Everything the assessment reads: thoughts (only ever added), links,
	// feedback, branch states, the closing reasons and the goal.
	var key strings.Builder
	fmt.Fprintf(&key, "%d/%d/%d/%d/%q/%s", sess.StepCount, len(docs), len(links), len(fb), sess.Goal, sess.Settings)
	for _, b := range bs {
		fmt.Fprintf(&key, "/%s=%s", b.ID, b.State)
	}
	if st.assessed != nil && st.assessedKey == key.String() {
		return st.assessed, nil
	}
	reasons := settingsOf(sess).Closed
	marked := map[string]string{}
	for _, b := range bs {
		if b.State == "pruned" {
			marked[b.ID] = reasons[b.ID]
		}
	}
	if err := st.loadStated(ctx, tx, sess.Key); err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	a := &assessment{docs: docs, drifting: map[string]bool{}}
	// A branch contradicted by its own later critique: by a stated
	// contradiction (the offline judge's certain ones are rare, and
	// finding them costs a review of the whole session).
	sameBranch := func(a, b analyze.Doc) bool { return a.Branch == b.Branch }
	a.closed = advice.Closures(docs, advice.ClosureOptions{Marked: marked, Contradictions: st.stated.Contradictions(docs, byID, sameBranch)})
	a.drift = advice.DetectDrift(docs, st.goalVec, bt.driftOptions(sess, 0))
	for _, d := range a.drift {
		if d.Drifting {
			a.drifting[d.Branch] = true
		}
	}
	a.loadCircular = func() []analyze.CircularReasoning {
		return st.stated.CircularWith(analyze.DetectCircular(docs, analyze.CircularOptions{Cache: st.argCache()}), docs, byID)
	}
	skip := map[string]bool{}
	for b, c := range a.closed {
		if c.By == "marked" {
			skip[b] = true
		}
	}
	if c, ok := advice.Conclusion(docs, skip); ok {
		a.conclusion = c.ID
	}
	st.assessed, st.assessedKey = a, key.String()
	return a, nil
}

// findings are the session-level verdicts on one branch that its
// evaluation counts (analyze.Evaluation.WithFindings); circ are the
// circular arguments among the branch's thoughts (the evaluation's own).
func (a *assessment) findings(branch string, circ []analyze.CircularReasoning) []analyze.Finding {
	var fs []analyze.Finding
	if c, ok := a.closed[branch]; ok {
		fs = append(fs, analyze.Finding{Kind: "closed", Reason: c.Reason})
	}
	for _, d := range a.drift {
		if d.Branch == branch && d.Drifting {
			fs = append(fs, analyze.Finding{Kind: "drifting", Reason: d.Reason})
		}
	}
	for _, c := range circ {
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
