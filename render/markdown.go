package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// mdEscaper backslash-escapes the characters that have a meaning inside a
// line of Markdown (CommonMark and GFM), and writes <, > and & as entities
// so no HTML passes through.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `|`, `\|`, `~`, `\~`,
	`<`, `&lt;`, `>`, `&gt;`, `&`, `&amp;`,
)

// md escapes user text for Markdown, on one line.
func md(s string) string {
	return mdEscaper.Replace(strings.Join(strings.Fields(validUTF8(s)), " "))
}

// mdLineStart escapes what would start a block at the beginning of a line:
// a heading, list item, setext underline or ordered list marker.
func mdLineStart(line string) string {
	if line == "" {
		return line
	}
	switch line[0] {
	case '#', '-', '+', '=':
		return `\` + line
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		return line[:i] + `\` + line[i:]
	}
	return line
}

// mdBlock escapes multi-line user text as a block quote indented by indent.
func mdBlock(s, indent string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(strings.ReplaceAll(validUTF8(s), "\r\n", "\n"), "\n") {
		// Leading spaces would make an indented code block.
		line = strings.TrimSpace(line)
		b.WriteString(indent + ">")
		if line != "" {
			b.WriteString(" " + mdLineStart(mdEscaper.Replace(line)))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Markdown writes the session as a report: goal, branches, the thoughts of
// each branch with their confidence, cross-references, contradictions,
// circular reasoning and the branch evaluations.
func Markdown(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	ix := g.index()
	s := &g.Session
	fmt.Fprintf(bw, "# Reasoning session %s\n\n", md(s.ID))
	if s.Goal != "" {
		fmt.Fprintf(bw, "**Goal:** %s\n\n", md(s.Goal))
	} else {
		fmt.Fprintf(bw, "**Goal:** none stated\n\n")
	}
	mode := s.Mode
	if mode == "" {
		mode = "—"
	}
	fmt.Fprintf(bw, "- Mode: %s\n- Thoughts: %d in %s\n- Created: %s · updated: %s\n",
		md(mode), len(g.Thoughts), thinkgraph.Count(len(ix.branches), "branch", "branches"), s.CreatedAt.UTC().Format(time.RFC3339), s.UpdatedAt.UTC().Format(time.RFC3339))
	if t := g.thought(s.CurrentThoughtID); t != nil {
		fmt.Fprintf(bw, "- Current thought: step %d on branch %s (path of %s)\n", t.Step, md(t.BranchID), thinkgraph.Count(len(ix.onPath), "thought", ""))
	}
	if s.ActiveBranch != "" {
		fmt.Fprintf(bw, "- Active branch: %s\n", md(s.ActiveBranch))
	}
	if a := g.Analysis; a != nil && a.Conclusion != nil {
		fmt.Fprintf(bw, "- Conclusion: step %d on branch %s (where the strongest path leads)\n", a.Conclusion.Step, md(a.Conclusion.Branch))
	}

	evals := map[string]*BranchEvaluation{}
	if g.Analysis != nil {
		for i := range g.Analysis.Evaluations {
			evals[g.Analysis.Evaluations[i].Branch] = &g.Analysis.Evaluations[i]
		}
	}
	byBranch := g.branchThoughts()
	fmt.Fprintf(bw, "\n## Branches\n\n| Branch | State | Thoughts | Forked from | Evaluation |\n|---|---|---|---|---|\n")
	for _, id := range ix.branches {
		state, fork := "—", "—"
		if b := g.branch(id); b != nil {
			state = md(b.State)
			if t := g.thought(b.ForkThoughtID); t != nil {
				fork = fmt.Sprintf("step %d (%s)", t.Step, md(t.BranchID))
			} else if b.ParentBranchID != "" {
				fork = md(b.ParentBranchID)
			}
		}
		eval := "—"
		if e := evals[id]; e != nil {
			eval = md(e.Quality)
			if e.OverallScore != nil {
				eval += fmt.Sprintf(" (%.2f)", *e.OverallScore)
			}
		}
		fmt.Fprintf(bw, "| %s | %s | %d | %s | %s |\n", md(id), state, len(byBranch[id]), fork, eval)
	}

	fmt.Fprintf(bw, "\n## Thoughts\n\n")
	if len(g.Thoughts) == 0 {
		fmt.Fprintf(bw, "No thoughts yet.\n\n")
	}
	for _, id := range ix.branches {
		ts := byBranch[id]
		if len(ts) == 0 {
			continue
		}
		fmt.Fprintf(bw, "### Branch %s\n\n", md(id))
		for _, t := range ts {
			var tags []string
			if t.Type != "" {
				tags = append(tags, md(t.Type))
			}
			tags = append(tags, "confidence "+confidence(t.Confidence))
			if g.isBranchPoint(t) {
				tags = append(tags, "branch point")
			}
			if t.Alternative {
				if t.Selected {
					tags = append(tags, "selected alternative")
				} else {
					tags = append(tags, "unexplored alternative")
				}
			}
			if r := g.thought(t.RevisesID); r != nil {
				tags = append(tags, fmt.Sprintf("revises step %d", r.Step))
			}
			if p := g.thought(t.ParentID); p != nil && p.BranchID != t.BranchID {
				tags = append(tags, fmt.Sprintf("follows step %d (%s)", p.Step, md(p.BranchID)))
			}
			if ix.onPath[t.ID] {
				tags = append(tags, "on the current path")
			}
			if t.ID == s.CurrentThoughtID {
				tags = append(tags, "**current**")
			}
			if ix.contradicts[t.ID] {
				tags = append(tags, "⚠ contradiction")
			}
			if ix.circular[t.ID] {
				tags = append(tags, "⟳ circular")
			}
			if ix.refuted[t.ID] {
				tags = append(tags, "✗ refuted by a person")
			}
			fmt.Fprintf(bw, "- **Step %d** · %s\n\n%s", t.Step, strings.Join(tags, " · "), mdBlock(t.Content, "  "))
			if len(t.KeyPoints) > 0 {
				fmt.Fprintf(bw, "\n  Key points:\n")
				for _, k := range t.KeyPoints {
					fmt.Fprintf(bw, "  - %s\n", md(k))
				}
			}
			fmt.Fprintln(bw)
		}
	}

	if len(g.Links) > 0 {
		fmt.Fprintf(bw, "## Cross-references\n\n")
		for _, l := range g.sortedLinks() {
			fmt.Fprintf(bw, "- %s → %s: %s (strength %.2f)", g.mdEnd(l.FromThought, l.FromBranch), g.mdEnd(l.ToThought, l.ToBranch), md(l.Type), l.Strength)
			if l.Reason != "" {
				fmt.Fprintf(bw, " — %s", md(l.Reason))
			}
			fmt.Fprintln(bw)
		}
		fmt.Fprintln(bw)
	}

	if len(g.Feedback) > 0 {
		fmt.Fprintf(bw, "## Human feedback\n\n")
		for _, f := range g.Feedback {
			fmt.Fprintf(bw, "- Step %d · %s by %s, %s (%s): %s\n", g.feedbackStep(f), md(f.Kind), md(f.Author),
				f.CreatedAt.UTC().Format("2006-01-02 15:04:05Z"), delivery(f), md(f.Text))
		}
		fmt.Fprintln(bw)
	}

	fmt.Fprintf(bw, "## Contradictions\n\n")
	switch {
	case g.Analysis == nil:
		fmt.Fprintf(bw, "Not analysed.\n")
	case g.Analysis.Unavailable != "":
		fmt.Fprintf(bw, "Not analysed: %s\n", md(g.Analysis.Unavailable))
	case len(g.Analysis.Contradictions) == 0:
		fmt.Fprintf(bw, "None found among %s.\n", thinkgraph.Count(g.Analysis.Checked, "thought", ""))
	default:
		if n := g.Analysis.ContradictionsFound; n > len(g.Analysis.Contradictions) {
			fmt.Fprintf(bw, "The %d most confident of %d found:\n\n", len(g.Analysis.Contradictions), n)
		}
		for _, c := range g.Analysis.Contradictions {
			fmt.Fprintf(bw, "- %s ↔ %s (confidence %.2f): %s\n", mdRef(c.ThoughtA), mdRef(c.ThoughtB), c.Confidence, md(c.Reason))
		}
	}
	if g.Analysis != nil && g.Analysis.Unavailable == "" {
		fmt.Fprintf(bw, "\n## Circular reasoning\n\n")
		if len(g.Analysis.Circular) == 0 {
			fmt.Fprintf(bw, "None found.\n")
		}
		for _, c := range g.Analysis.Circular {
			refs := make([]string, len(c.Thoughts))
			for i, r := range c.Thoughts {
				refs[i] = mdRef(r)
			}
			fmt.Fprintf(bw, "- %s: %s — %s\n", md(c.Kind), strings.Join(refs, " → "), md(c.Reason))
		}
		writeMarkdownAsked(bw, g.Analysis)
		fmt.Fprintf(bw, "\n## Evaluation\n")
		if len(g.Analysis.Evaluations) == 0 {
			fmt.Fprintf(bw, "\nNo branch evaluated.\n")
		}
		for _, e := range g.Analysis.Evaluations {
			score := "—"
			if e.OverallScore != nil {
				score = fmt.Sprintf("%.2f", *e.OverallScore)
			}
			fmt.Fprintf(bw, "\n### Branch %s: %s (overall %s)\n\n", md(e.Branch), md(e.Quality), score)
			fmt.Fprintf(bw, "| Metric | Value |\n|---|---|\n")
			for _, m := range metricRows(e.Metrics) {
				fmt.Fprintf(bw, "| %s | %s |\n", m[0], m[1])
			}
			for _, is := range e.Issues {
				fmt.Fprintf(bw, "- Issue: %s\n", md(is))
			}
			for _, su := range e.Suggestions {
				fmt.Fprintf(bw, "- Suggestion: %s\n", md(su))
			}
		}
	}
	return bw.Flush()
}

// writeMarkdownAsked writes what the session's judgement flags beyond
// contradictions and circular reasoning: the branches away from the goal
// (detectDrift's reasons) and the open review groups the model is asked
// about (findContradictions' question, claims by step).
func writeMarkdownAsked(bw io.Writer, a *Analysis) {
	fmt.Fprintf(bw, "\n## Away from the goal\n\n")
	n := 0
	for _, d := range a.Drift {
		if !d.Drifting {
			continue
		}
		n++
		how := "drifting"
		if d.OffGoal {
			how = "off the goal from its first thought"
		}
		fmt.Fprintf(bw, "- Branch %s, %s: %s\n", md(d.Branch), how, md(d.Reason))
	}
	if n == 0 {
		fmt.Fprintf(bw, "No branch drifts.\n")
	}
	fmt.Fprintf(bw, "\n## Questions for the model\n\n")
	if len(a.OpenGroups) == 0 {
		fmt.Fprintf(bw, "None open.\n")
		return
	}
	fmt.Fprintf(bw, "%s The model answers each group with %s.", review.AskConsistent, md(review.Answer))
	if a.Open > len(a.OpenGroups) {
		fmt.Fprintf(bw, " The %d riskiest of %d open groups:", len(a.OpenGroups), a.Open)
	}
	fmt.Fprintf(bw, "\n\n")
	for _, q := range a.OpenGroups {
		fmt.Fprintf(bw, "- Group %s", md(q.Key))
		if q.Signs != "" {
			fmt.Fprintf(bw, " (%s)", md(q.Signs))
		}
		fmt.Fprintf(bw, ":\n")
		for _, c := range q.Claims {
			fmt.Fprintf(bw, "  - step %d: %s\n", c.Step, md(c.Text))
		}
	}
}

// metricRows lists the metrics of an evaluation by name and value.
func metricRows(m analyze.Metrics) [][2]string {
	f := func(p *float64) string {
		if p == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", *p)
	}
	return [][2]string{
		{"coherence", f(m.CoherenceScore)}, {"contradiction", f(m.ContradictionScore)},
		{"information gain", f(m.InformationGain)}, {"goal alignment", f(m.GoalAlignment)},
		{"confidence gradient", f(m.ConfidenceGradient)}, {"redundancy", f(m.RedundancyScore)},
	}
}

func mdRef(r analyze.ThoughtRef) string {
	return fmt.Sprintf("step %d (%s) “%s”", r.Step, md(r.Branch), md(clip(r.Content, 80)))
}

// mdEnd names a link end: a thought by step, else a branch.
func (g *Graph) mdEnd(thought, branch string) string {
	if t := g.thought(thought); t != nil {
		return fmt.Sprintf("step %d (%s)", t.Step, md(t.BranchID))
	}
	if branch == "" {
		return "—"
	}
	return "branch " + md(branch)
}
