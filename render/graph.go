// Package render turns a reasoning session into documents people read: a
// Markdown report, Mermaid and Graphviz DOT drawings of the thought graph,
// an SVG layout of it, and a self-contained HTML page.
//
// Every renderer works on a Graph, a read model of one session loaded in one
// read transaction (see Loader), and escapes all user text for its format: a
// thought may contain markup, quotes, backticks, newlines or the format's own
// metacharacters, and renders as text.
package render

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Graph is the read model of one session: its branches, thoughts (in step
// order) and links, with the findings of the semantic analyses when they
// were run.
type Graph struct {
	Session  thinkgraph.Session
	Branches []thinkgraph.Branch
	Thoughts []thinkgraph.Thought
	Links    []thinkgraph.Link
	// Feedback is what people said about the thoughts, oldest first.
	Feedback []thinkgraph.Feedback
	// Analysis is nil when the analyses were not asked for.
	Analysis *Analysis
	// Threshold is the confidence below which a thought is a branch point.
	Threshold float64
	// Note, when set, is a line the SVG drawing shows above the graph
	// (Latest says what it leaves out there).
	Note string

	once sync.Once
	ix   *index
}

// Analysis is the session's judgement (analysis.Report: what
// findContradictions, detectCircular, evaluate and detectDrift say, the open
// review groups and the conclusion), or why there is none.
type Analysis struct {
	// Unavailable says why no analysis was run ("" when it was).
	Unavailable string `json:"unavailable,omitempty"`
	analysis.Report
	// ContradictionsFound is how many contradictions were found; only the
	// most confident Loader.MaxContradictions are kept in Contradictions.
	ContradictionsFound int `json:"contradictionsFound"`
}

// BranchEvaluation is the evaluation of one branch.
type BranchEvaluation = analysis.BranchEvaluation

// index holds what the renderers derive from a Graph.
type index struct {
	byID     map[string]int      // thought id -> position in Thoughts
	children map[string][]string // thought id -> child ids, in step order
	onPath   map[string]bool     // thoughts on the path to the current thought
	depth    []int               // per thought: distance from its root
	branches []string            // branch ids: main first, then in creation order, then unknown ones
	// contradicts marks thoughts in a contradiction; circular those in a
	// circular chain.
	contradicts map[string]bool
	circular    map[string]bool
	// refuted marks the thoughts a person refuted (reasoning.Refuted).
	refuted map[string]bool
}

func (g *Graph) index() *index {
	g.once.Do(func() {
		ix := &index{byID: map[string]int{}, children: map[string][]string{}, onPath: map[string]bool{},
			depth: make([]int, len(g.Thoughts)), contradicts: map[string]bool{}, circular: map[string]bool{}}
		for i, t := range g.Thoughts {
			ix.byID[t.ID] = i
		}
		for i, t := range g.Thoughts {
			if p, ok := ix.byID[t.ParentID]; ok && p < i {
				ix.children[t.ParentID] = append(ix.children[t.ParentID], t.ID)
				ix.depth[i] = ix.depth[p] + 1
			}
		}
		for id, n := g.Session.CurrentThoughtID, 0; id != "" && n <= len(g.Thoughts); n++ {
			i, ok := ix.byID[id]
			if !ok || ix.onPath[id] {
				break
			}
			ix.onPath[id] = true
			id = g.Thoughts[i].ParentID
		}
		seen := map[string]bool{}
		add := func(b string) {
			if b != "" && !seen[b] {
				seen[b] = true
				ix.branches = append(ix.branches, b)
			}
		}
		add(thinkgraph.DefaultBranch)
		bs := slices.Clone(g.Branches)
		slices.SortStableFunc(bs, func(a, b thinkgraph.Branch) int { return a.CreatedAt.Compare(b.CreatedAt) })
		for _, b := range bs {
			add(b.ID)
		}
		for _, t := range g.Thoughts {
			add(t.BranchID)
		}
		if len(g.Thoughts) > 0 && !slices.ContainsFunc(g.Thoughts, func(t thinkgraph.Thought) bool { return t.BranchID == thinkgraph.DefaultBranch }) &&
			!slices.ContainsFunc(g.Branches, func(b thinkgraph.Branch) bool { return b.ID == thinkgraph.DefaultBranch }) {
			ix.branches = ix.branches[1:]
		}
		ix.refuted = reasoning.Refuted(g.Feedback)
		if g.Analysis != nil {
			for _, c := range g.Analysis.Contradictions {
				ix.contradicts[c.ThoughtA.ID] = true
				ix.contradicts[c.ThoughtB.ID] = true
			}
			for _, c := range g.Analysis.Circular {
				for _, r := range c.Thoughts {
					ix.circular[r.ID] = true
				}
			}
		}
		g.ix = ix
	})
	return g.ix
}

// thought returns the thought with id, or nil.
func (g *Graph) thought(id string) *thinkgraph.Thought {
	if i, ok := g.index().byID[id]; ok {
		return &g.Thoughts[i]
	}
	return nil
}

// branch returns the branch with id, or nil.
func (g *Graph) branch(id string) *thinkgraph.Branch {
	for i := range g.Branches {
		if g.Branches[i].ID == id {
			return &g.Branches[i]
		}
	}
	return nil
}

// unexplored reports whether t is an alternative that was never selected.
func unexplored(t *thinkgraph.Thought) bool { return t.Alternative && !t.Selected }

// isBranchPoint reports whether t is a branch point: marked so, or with
// more than one child.
func (g *Graph) isBranchPoint(t *thinkgraph.Thought) bool {
	return t.BranchPoint || len(g.index().children[t.ID]) > 1
}

// Loader loads sessions into Graphs through the reasoning service, which
// enforces tenancy: a session of another tenant does not exist.
type Loader struct {
	Svc *reasoning.Service
	// Analyst is the judgement the analyses are read from: the one the
	// tools read (NewLoader makes one of its own when nil).
	Analyst *analysis.Analyst
	// MaxContradictions caps the contradictions kept, most confident first
	// (default 200): a session of many numeric claims can have thousands,
	// and a drawing or report of all of them helps nobody.
	MaxContradictions int
	// NoEvaluation skips the branch evaluations.
	NoEvaluation bool
	// MaxAnalysed is the largest session (in thoughts) whose analyses Load
	// runs; a larger one gets an Analysis that says why it has none (0:
	// no bound). Analysing costs time and memory that grow faster than
	// the session.
	MaxAnalysed int
	// MaxAnalysedLongText bounds, the same way, the weight of its long
	// thoughts (thinkgraph.SessionSize.LongText; 0: no bound).
	MaxAnalysedLongText int64
	// Limiter, if set, bounds the heavy renders of Render.
	Limiter *Limiter
}

// NewLoader returns a loader on svc reading the judgement of an (nil: an
// analyst of its own), with no bound on the sessions it analyses and no
// limiter (a server sets both).
func NewLoader(svc *reasoning.Service, an *analysis.Analyst) *Loader {
	if an == nil {
		an = analysis.New(svc)
	}
	return &Loader{Svc: svc, Analyst: an}
}

// Load reads the session of ref. With analyze, the semantic analyses
// (contradictions, circular reasoning, branch evaluations) are run when the
// semantic engine is enabled; otherwise Analysis says why they are missing.
func (l *Loader) Load(ctx context.Context, ref reasoning.SessionRef, analyze bool) (*Graph, error) {
	g := &Graph{Threshold: l.Svc.Config().ConfidenceThreshold}
	err := l.Svc.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		g.Session = *sess
		var err error
		if g.Branches, err = tx.Branches(ctx, sess.Key); err != nil {
			return err
		}
		if g.Thoughts, err = tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key}); err != nil {
			return err
		}
		if g.Links, err = tx.Links(ctx, sess.Key); err != nil {
			return err
		}
		g.Links = review.Latest(g.Links) // a verdict replaced by a later one is not drawn or counted
		if g.Feedback, err = tx.Feedback(ctx, sess.Key); err != nil {
			return err
		}
		switch why := l.notAnalysed(sizeOf(g.Thoughts)); {
		case analyze && why != "":
			g.Analysis = &Analysis{Unavailable: why}
		case analyze:
			g.Analysis = l.analyze(ctx, tx, sess)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// analyze reads the session's judgement from the analyst the tools read
// (analysis.Report): the same contradictions as findContradictions, the
// same findings as detectCircular and detectDrift and the same evaluation as
// evaluate, so an export agrees with the commands.
func (l *Loader) analyze(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) *Analysis {
	if l.Svc.Semantic() == nil {
		return &Analysis{Unavailable: thinkgraph.AsError(reasoning.ErrNoSemantic).Message}
	}
	an := l.Analyst
	if an == nil {
		an = analysis.New(l.Svc)
	}
	r, err := an.Report(ctx, tx, sess, !l.NoEvaluation)
	if err != nil {
		return &Analysis{Unavailable: thinkgraph.AsError(err).Message}
	}
	a := &Analysis{Report: *r, ContradictionsFound: len(r.Contradictions)}
	limit := l.MaxContradictions
	if limit <= 0 {
		limit = 200
	}
	if len(a.Contradictions) > limit {
		a.Contradictions = a.Contradictions[:limit:limit]
	}
	return a
}

// Latest returns the graph of g's latest n thoughts (by step), with their
// links, feedback and the analyses' findings among them, and a Note
// saying what is left out; g itself when it has at most n thoughts. A kept
// thought whose parent is left out starts a tree of its own.
func (g *Graph) Latest(n int) *Graph {
	if n <= 0 || len(g.Thoughts) <= n {
		return g
	}
	cut := g.Thoughts[len(g.Thoughts)-n:] // in step order
	kept := make(map[string]bool, n)
	for _, t := range cut {
		kept[t.ID] = true
	}
	has := func(id string) bool { return id == "" || kept[id] }
	out := &Graph{Session: g.Session, Branches: g.Branches, Thoughts: cut, Threshold: g.Threshold,
		Note: fmt.Sprintf("The latest %d of %d thoughts (steps %d–%d); the viewer and the SVG export draw them all.",
			n, len(g.Thoughts), cut[0].Step, cut[len(cut)-1].Step)}
	for _, l := range g.Links {
		if has(l.FromThought) && has(l.ToThought) {
			out.Links = append(out.Links, l)
		}
	}
	for _, f := range g.Feedback {
		if kept[f.ThoughtID] {
			out.Feedback = append(out.Feedback, f)
		}
	}
	if a := g.Analysis; a != nil {
		b := *a
		b.Contradictions, b.Circular = nil, nil
		for _, c := range a.Contradictions {
			if kept[c.ThoughtA.ID] && kept[c.ThoughtB.ID] {
				b.Contradictions = append(b.Contradictions, c)
			}
		}
		for _, c := range a.Circular {
			if !slices.ContainsFunc(c.Thoughts, func(r analyze.ThoughtRef) bool { return !kept[r.ID] }) {
				b.Circular = append(b.Circular, c)
			}
		}
		out.Analysis = &b
	}
	return out
}

// feedbackStep is the step of the thought feedback f is about (0 if it is
// not in the graph).
func (g *Graph) feedbackStep(f thinkgraph.Feedback) int {
	if t := g.thought(f.ThoughtID); t != nil {
		return t.Step
	}
	return 0
}

// delivery says whether feedback reached the model.
func delivery(f thinkgraph.Feedback) string {
	if f.DeliveredAt == nil {
		return "not delivered to the model yet"
	}
	return "delivered " + f.DeliveredAt.UTC().Format("2006-01-02 15:04:05Z")
}

// branchThoughts returns the thoughts of each branch, in step order.
func (g *Graph) branchThoughts() map[string][]*thinkgraph.Thought {
	m := map[string][]*thinkgraph.Thought{}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		m[t.BranchID] = append(m[t.BranchID], t)
	}
	return m
}

// confidence formats a confidence, "—" when unknown.
func confidence(c *float64) string {
	if c == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *c)
}

// clip shortens s to n runes (with an ellipsis), on one line.
func clip(s string, n int) string {
	out := make([]rune, 0, min(len(s), n+1))
	space := false
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' || r == ' ' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if len(out) > n {
			return string(out[:n-1]) + "…"
		}
	}
	return string(out)
}

// validUTF8 replaces invalid bytes so every format gets valid text.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// sortedLinks returns links in creation order (then id).
func (g *Graph) sortedLinks() []thinkgraph.Link {
	ls := slices.Clone(g.Links)
	slices.SortStableFunc(ls, func(a, b thinkgraph.Link) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return ls
}
