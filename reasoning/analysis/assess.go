package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Assessment is what the analyses say of a session's branches: which are
// closed and why, which drift or are off the goal, the circular arguments
// (found, and stated with judge), the session's conclusion and its
// knowledge gaps. It is a function of the stored session (thoughts, links,
// feedback, branch states, goal and settings) and is shared: callers must
// not modify it.
type Assessment struct {
	// Docs are the session's thoughts, in step order, those a person
	// refuted marked (Doc.Refuted).
	Docs []analyze.Doc
	byID map[string]int
	// Closed are the closed branches and why (advice.Closures).
	Closed map[string]advice.Closure
	// Drift is every branch's drift, most drifting first
	// (advice.DetectDrift); Drifting marks those away from the goal,
	// drifting or off it from their first thought.
	Drift    []advice.BranchDrift
	Drifting map[string]bool
	// Conclusion is the id of the thought the session's reasoning leads to
	// (advice.Conclusion), "" when there is none.
	Conclusion string

	stated *review.Stated
	// circular are the session's circular arguments, found on first use:
	// on long sessions they cost more than the rest together.
	circular     []analyze.CircularReasoning
	circularDone bool
	args         *analyze.ArgCache
	// gaps are the knowledge gaps of the open branches, found on first use.
	gaps     []analyze.KnowledgeGap
	gapsDone bool
}

// Circular returns the session's circular arguments: those DetectCircular
// finds and those stated with judge (review.Stated.CircularWith). The
// slice is shared.
func (a *Assessment) Circular() []analyze.CircularReasoning {
	if !a.circularDone {
		found := analyze.DetectCircular(a.Docs, analyze.CircularOptions{Cache: a.args})
		a.circular, a.circularDone = a.withStated(found), true
		if a.circular == nil {
			a.circular = []analyze.CircularReasoning{}
		}
	}
	return a.circular
}

// KnowledgeGaps returns the session's knowledge gaps, leaving out the
// closed branches. The slice is shared.
func (a *Assessment) KnowledgeGaps() []analyze.KnowledgeGap {
	if !a.gapsDone {
		closed := make(map[string]bool, len(a.Closed))
		for b := range a.Closed {
			closed[b] = true
		}
		a.gaps, a.gapsDone = analyze.DetectKnowledgeGaps(a.Docs, analyze.GapOptions{Closed: closed}), true
	}
	return a.gaps
}

// DriftOf returns the drift of a branch, and false when the branch has no
// thought with a vector.
func (a *Assessment) DriftOf(branch string) (advice.BranchDrift, bool) {
	for _, d := range a.Drift {
		if d.Branch == branch {
			return d, true
		}
	}
	return advice.BranchDrift{}, false
}

// Findings are the session-level verdicts on one branch that its
// evaluation counts (analyze.Evaluation.WithFindings): closed, drifting or
// off the goal, circular. A circular argument counts when the evaluation
// found it among the branch's latest thoughts (found: its metrics' own
// reading, analyze.Evaluation.Circular) or when a verdict stated it
// (judge); detectCircular searches the whole session, which costs too much
// to do on every write of a long session.
func (a *Assessment) Findings(branch string, found []analyze.CircularReasoning) []analyze.Finding {
	var fs []analyze.Finding
	if c, ok := a.Closed[branch]; ok {
		fs = append(fs, analyze.Finding{Kind: analyze.FindingClosed, Reason: c.Reason})
	}
	if d, ok := a.DriftOf(branch); ok && d.Drifting {
		kind := analyze.FindingDrifting
		if d.OffGoal {
			kind = analyze.FindingOffGoal
		}
		fs = append(fs, analyze.Finding{Kind: kind, Reason: d.Reason})
	}
	for _, c := range a.withStated(found) {
		var steps []string
		for _, t := range c.Thoughts {
			if t.Branch == branch {
				steps = append(steps, fmt.Sprintf("#%d", t.Step))
			}
		}
		if len(steps) > 0 {
			fs = append(fs, analyze.Finding{Kind: analyze.FindingCircular, Reason: "thoughts " + strings.Join(steps, ", ") + " support a claim with a restatement of it"})
			break
		}
	}
	return fs
}

// withStated are the circular arguments found, less those judge stated
// not circular, and those it stated circular.
func (a *Assessment) withStated(found []analyze.CircularReasoning) []analyze.CircularReasoning {
	if a.stated == nil {
		return found
	}
	return a.stated.CircularWith(found, a.Docs, a.byID)
}

// judged is a branch's evaluation as every surface shows it: the
// tracker's metrics with the session's findings applied, and a quality of
// Good or Excellent only where the branch's focus on the goal is known
// (see focus).
func (a *Assessment) judged(ev analyze.Evaluation, branch string, th analyze.Thresholds) analyze.Evaluation {
	ev = ev.WithFindings(a.Findings(branch, ev.Circular), th)
	if why := a.focus(ev, branch); why != "" {
		ev = ev.AtMost("Moderate", why)
	}
	return ev
}

// focus says why a branch's focus on the goal is not established, "" when
// it is: a branch of fewer than MinRatedThoughts thoughts with vectors has
// no drift verdict yet (one or two thoughts' similarity to the goal says
// little), and a branch whose latest thought is as far from the goal and
// the session as a drifting branch's late thoughts are may be starting to
// wander. Neither is a finding (the score is kept); both keep the quality
// from reading Good or Excellent, which would say the branch is sound.
func (a *Assessment) focus(ev analyze.Evaluation, branch string) string {
	if ev.Thoughts == 0 {
		return ""
	}
	if n := ev.WithVectors; n < MinRatedThoughts {
		return fmt.Sprintf("at most Moderate under %d thoughts", MinRatedThoughts)
	}
	d, ok := a.DriftOf(branch)
	if !ok || d.Drifting || len(d.Z) == 0 {
		return ""
	}
	if z := d.Z[len(d.Z)-1]; z <= -advice.DefaultDriftThreshold {
		return fmt.Sprintf("at most Moderate: its latest thought is %.2f standard deviations less related to the goal than the other branches' thoughts", -z)
	}
	return ""
}

// MinRatedThoughts is how many thoughts with vectors a branch needs before
// its evaluation may read Good or Excellent: the drift check's trend.
const MinRatedThoughts = 4

// driftOptions are the drift options of the session: the offline engine
// adds its word alignment to the vectors. Each text is read once for the
// state's life and each pair aligned once (texts never change), so a write
// aligns only the pairs it brings; a text is aligned by its first
// alignWords words (what it is about; an alignment costs the product of the
// two texts' lengths, and a 10,000-character thought aligned whole with its
// neighbours took seconds).
func (st *State) driftOptions(sess *thinkgraph.Session, threshold float64) advice.DriftOptions {
	o := advice.DriftOptions{Threshold: threshold, GoalText: sess.Goal}
	if lex, ok := st.svc().Semantic().Embedder.(*semantic.Lexical); ok {
		lx := lex.Lexicon()
		if st.aligned == nil || len(st.aligned) > maxAligned {
			st.aligned = map[string]semantic.AlignedText{}
		}
		if st.alignments == nil || len(st.alignments) > maxAlignments {
			st.alignments = map[[2]string]float64{}
		}
		aligned := func(t string) semantic.AlignedText {
			a, ok := st.aligned[t]
			if !ok {
				a = semantic.AlignText(lx, firstWords(t, alignWords))
				st.aligned[t] = a
			}
			return a
		}
		o.TextSimilarity = func(a, b string) float64 {
			k := [2]string{a, b}
			if v, ok := st.alignments[k]; ok {
				return v
			}
			v := aligned(a).Alignment(aligned(b))
			st.alignments[k] = v
			return v
		}
	}
	return o
}

// alignWords is how many of a text's first words drift's word alignment
// reads; maxAlignments bounds the pairs whose alignment the state keeps.
const (
	alignWords    = 60
	maxAlignments = 1 << 16
)

// firstWords is text cut after its first n words.
func firstWords(text string, n int) string {
	seen := 0
	inWord := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			if seen == n {
				return text[:i]
			}
			seen++
		}
		inWord = !space
	}
	return text
}

// prose returns docs as drift reads them: a thought that quotes code, logs,
// formulas or tables (what semantic/claims leaves out of its claims) is
// read by what it says in words, its claims' text and that text's vector,
// so a thought about the goal that shows a stack trace is not taken for
// one far from it. The rest are docs as they are.
func (st *State) prose(ctx context.Context, docs []analyze.Doc) []analyze.Doc {
	out := docs
	copied := false
	for i, d := range docs {
		if len(d.Claims) == 0 || d.Vector == nil {
			continue
		}
		n := 0
		for _, c := range d.Claims {
			n += len(c.Text)
		}
		if float64(n) >= proseShare*float64(len(strings.TrimSpace(d.Content))) {
			continue
		}
		if !copied {
			out, copied = slices.Clone(docs), true
		}
		text, v := st.proseOf(ctx, d)
		if v != nil {
			out[i].Content, out[i].Vector = text, v
		}
	}
	return out
}

// proseShare is the share of a thought's text its claims must hold for it
// to be read whole by drift.
const proseShare = 0.8

// proseOf is a thought's prose (its claims' text) and its vector,
// remembered per thought.
func (st *State) proseOf(ctx context.Context, d analyze.Doc) (string, semantic.Vector) {
	if p, ok := st.proseVecs[d.ID]; ok {
		return p.text, p.vec
	}
	var parts []string
	for _, c := range d.Claims {
		parts = append(parts, c.Text)
	}
	text := strings.Join(parts, " ")
	v := reasoning.VectorAt(st.svc().EmbedForWrite(ctx, text), 0)
	if st.proseVecs == nil || len(st.proseVecs) > maxAligned {
		st.proseVecs = map[string]proseVec{}
	}
	st.proseVecs[d.ID] = proseVec{text, v}
	return text, v
}

// proseVec is a thought's prose and its vector.
type proseVec struct {
	text string
	vec  semantic.Vector
}

// maxAligned bounds the texts whose alignment reading the state keeps, and
// the thoughts whose rank as a conclusion it keeps.
const maxAligned = 4096

// conclusionRank is advice.ConclusionRank, remembered per thought of a
// concluding type (its text and type never change; the others rank 0 at
// once).
func (st *State) conclusionRank(d analyze.Doc) int {
	if !thinkgraph.RoleOf(d.Type).Concludes {
		return 0
	}
	if st.ranks == nil || len(st.ranks) > maxAligned {
		st.ranks = map[string]int{}
	}
	r, ok := st.ranks[d.ID]
	if !ok {
		r = advice.ConclusionRank(d)
		st.ranks[d.ID] = r
	}
	return r
}

// DriftAt is the session's drift with threshold and the options it was
// measured with: the assessment's own at the default threshold, and for
// another what it would be, on the same reading of the thoughts.
func (st *State) DriftAt(ctx context.Context, sess *thinkgraph.Session, a *Assessment, threshold float64) ([]advice.BranchDrift, advice.DriftOptions) {
	o := st.driftOptions(sess, threshold)
	if threshold == advice.DefaultDriftThreshold {
		return a.Drift, o
	}
	return advice.DetectDrift(st.prose(ctx, a.Docs), st.goalVec, o), o
}

// Assess returns the session's assessment as stored, after syncing the
// state.
func (st *State) Assess(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) (*Assessment, error) {
	docs, _, err := st.Docs(ctx, tx, sess)
	if err != nil {
		return nil, err
	}
	return st.assess(ctx, tx, sess, docs)
}

// assess reads the session's branches (see Assessment) over docs, the
// session's thoughts: as stored, or, in a write, as they will be once it is
// committed. It is kept while nothing it reads changes.
func (st *State) assess(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, docs []analyze.Doc) (*Assessment, error) {
	fb, err := tx.Feedback(ctx, sess.Key)
	if err != nil {
		return nil, err
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
	if refuted := reasoning.Refuted(fb); len(refuted) > 0 {
		// A copy: docs may be shared.
		docs = slices.Clone(docs)
		for i := range docs {
			docs[i].Refuted = refuted[docs[i].ID]
		}
	}
	st.applyLinks(links)
	reasons := SettingsOf(sess).Closed
	marked := map[string]string{}
	for _, b := range bs {
		if b.State == "pruned" {
			marked[b.ID] = reasons[b.ID]
		}
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	if st.args == nil {
		st.args = analyze.NewArgCache()
	}
	a := &Assessment{Docs: docs, byID: byID, Drifting: map[string]bool{}, stated: st.stated, args: st.args}
	// A branch contradicted by its own later critique: by a stated
	// contradiction (the offline judge's certain ones are rare, and
	// finding them costs a review of the whole session).
	sameBranch := func(a, b analyze.Doc) bool { return a.Branch == b.Branch }
	a.Closed = advice.Closures(docs, advice.ClosureOptions{Marked: marked, Contradictions: st.stated.Contradictions(docs, byID, sameBranch), Rank: st.conclusionRank})
	a.Drift = advice.DetectDrift(st.prose(ctx, docs), st.goalVec, st.driftOptions(sess, 0))
	for _, d := range a.Drift {
		if d.Drifting {
			a.Drifting[d.Branch] = true
		}
	}
	skip := map[string]bool{}
	for b, c := range a.Closed {
		if c.By == "marked" {
			skip[b] = true
		}
	}
	if c, ok := advice.Conclusion(docs, skip, st.conclusionRank); ok {
		a.Conclusion = c.ID
	}
	st.assessed, st.assessedKey = a, key.String()
	return a, nil
}

// Evaluation is the evaluation of a branch as every surface shows it
// (evaluate, the evaluation a write carries, exports, the viewer): its
// metrics (analyze.BranchTracker), the session's findings on it, and its
// quality (see Assessment.judged).
func (st *State) Evaluation(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, branch string) (analyze.Evaluation, error) {
	a, err := st.Assess(ctx, tx, sess)
	if err != nil {
		return analyze.Evaluation{}, err
	}
	if err := st.ensureTracker(a.Docs, branch); err != nil {
		return analyze.Evaluation{}, err
	}
	return a.judged(st.branches[branch].tracker.Evaluation(), branch, st.th), nil
}

// EvaluationAfterWrite is Evaluation in the transaction that wrote d (the
// thought is absorbed here): over docs, the session's thoughts as stored
// before the write, and d; the figures are those evaluate gives once the
// write is committed.
func (st *State) EvaluationAfterWrite(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, docs []analyze.Doc, d analyze.Doc) (analyze.Evaluation, error) {
	// The thought's cross-references are read with the links by assess:
	// trackers they reset are rebuilt below from every thought, d included.
	st.absorb(d)
	all := append(slices.Clip(docs), d)
	a, err := st.assess(ctx, tx, sess, all)
	if err != nil {
		return analyze.Evaluation{}, err
	}
	if err := st.ensureTracker(a.Docs, d.Branch); err != nil {
		return analyze.Evaluation{}, err
	}
	return a.judged(st.branches[d.Branch].tracker.Evaluation(), d.Branch, st.th), nil
}
