package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
)

// HTML pages are written by hand, not with html/template: text/template's
// reflective method calls make the linker keep every exported method of
// every type in the binary (it more than doubled thinkgraph's executable).
// Every piece of user text goes through esc; the SVG is built by SVG, which
// escapes its own; the remaining values are numbers and colours this package
// computes.

// EscapeHTML escapes s for HTML text and quoted attribute values (invalid
// UTF-8 replaced).
func EscapeHTML(s string) string { return esc(s) }

// htmlHead is the start of the self-contained HTML export: no script or
// style is loaded from anywhere else.
const htmlHead = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
`

const htmlStyle = `<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em;color:#222}
.graph{overflow:auto;border:1px solid #ddd;border-radius:6px;max-height:80vh}
.graph .node{cursor:default}
.thought{border-left:6px solid #ccc;padding:.3em .8em;margin:.6em 0;background:#fafafa}
.thought pre{white-space:pre-wrap;font:inherit;margin:.3em 0}
.meta{color:#555;font-size:.9em}
.tag{display:inline-block;border-radius:3px;padding:0 .35em;margin-right:.3em;background:#eee}
.tag.contra{background:#d62728;color:#fff}.tag.circ{background:#ff7f0e;color:#fff}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left}
.legend span{display:inline-block;margin-right:1em}
.sw{display:inline-block;width:1em;height:1em;vertical-align:middle;border:1px solid #999;margin-right:.3em}
</style></head><body>
`

type htmlTag struct{ Class, Text string }

// HTML writes a self-contained HTML page of the session: the SVG graph, the
// branches, every thought with its tags, cross-references and the analyses.
func HTML(w io.Writer, g *Graph) error {
	ix := g.index()
	var svg bytes.Buffer
	if err := SVG(&svg, g); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	p := func(parts ...string) {
		for _, s := range parts {
			bw.WriteString(s)
		}
	}
	stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	s := &g.Session
	p(htmlHead, "<title>Reasoning session ", esc(s.ID), "</title>\n", htmlStyle)
	p("<h1>Reasoning session <code>", esc(s.ID), "</code></h1>\n<p><strong>Goal:</strong> ")
	if s.Goal != "" {
		p(esc(s.Goal))
	} else {
		p("none stated")
	}
	mode := s.Mode
	if mode == "" {
		mode = "—"
	}
	byBranch := g.branchThoughts()
	p("</p>\n<p class=\"meta\">Mode ", esc(mode), " · ", strconv.Itoa(len(g.Thoughts)), " thoughts in ", strconv.Itoa(len(ix.branches)),
		" branches · created ", stamp(s.CreatedAt), " · updated ", stamp(s.UpdatedAt), "</p>\n")
	low, high := 0.0, 1.0
	p(`<p class="legend"><span><i class="sw" style="background:`, confColor(&low), `"></i>low confidence</span><span><i class="sw" style="background:`, confColor(&high),
		`"></i>high confidence</span><span><i class="sw" style="background:`, confColor(nil), `"></i>no confidence</span><span>bold: path to the current thought</span><span>◆ branch point</span><span>dashed: unexplored alternative</span><span style="color:#d62728">red: contradiction</span><span style="color:#ff7f0e">orange: circular reasoning</span></p>
<div class="graph">`)
	bw.Write(svg.Bytes())
	p("</div>\n<h2>Branches</h2>\n<table><tr><th>Branch</th><th>State</th><th>Thoughts</th></tr>\n")
	for _, id := range ix.branches {
		state := "—"
		if b := g.branch(id); b != nil {
			state = b.State
		}
		p("<tr><td>", esc(id), "</td><td>", esc(state), "</td><td>", strconv.Itoa(len(byBranch[id])), "</td></tr>\n")
	}
	p("</table>\n<h2>Thoughts</h2>\n")
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		step := strconv.Itoa(t.Step)
		p(`<div class="thought" id="step-`, step, `" style="border-color:`, confColor(t.Confidence), "\">\n<div class=\"meta\">Step ", step, " · branch ", esc(t.BranchID))
		if t.Type != "" {
			p(" · ", esc(t.Type))
		}
		p(" · confidence ", confidence(t.Confidence))
		for _, tag := range g.htmlTags(ix, t) {
			p(` <span class="tag `, tag.Class, `">`, esc(tag.Text), "</span>")
		}
		p("</div>\n<pre>", esc(t.Content), "</pre>")
		if len(t.KeyPoints) > 0 {
			p("<ul>")
			for _, k := range t.KeyPoints {
				p("<li>", esc(k), "</li>")
			}
			p("</ul>")
		}
		p("\n</div>\n")
	}
	p("\n")
	if len(g.Links) > 0 {
		p("<h2>Cross-references</h2><ul>")
		for _, l := range g.Links {
			p("<li>", esc(l.FromBranch), " ", esc(l.FromThought), " → ", esc(l.ToBranch), " ", esc(l.ToThought), ": ", esc(l.Type), " (", fmt.Sprintf("%.2f", l.Strength), ")")
			if l.Reason != "" {
				p(" — ", esc(l.Reason))
			}
			p("</li>")
		}
		p("</ul>")
	}
	if len(g.Feedback) > 0 {
		p("<h2>Human feedback</h2><ul>")
		for _, f := range g.Feedback {
			p("<li>Step ", fmt.Sprint(g.feedbackStep(f)), " · ", esc(f.Kind), " by ", esc(f.Author), ", ", f.CreatedAt.UTC().Format("2006-01-02 15:04:05Z"),
				" (", delivery(f), "): ", esc(f.Text), "</li>")
		}
		p("</ul>")
	}
	p("\n<h2>Contradictions</h2>\n")
	writeHTMLAnalysis(p, g.Analysis)
	p("\n<p class=\"meta\">Exported by thinkgraph.</p>\n</body></html>\n")
	return bw.Flush()
}

// htmlTags are the labels of a thought in the HTML export.
func (g *Graph) htmlTags(ix *index, t *thinkgraph.Thought) []htmlTag {
	var tags []htmlTag
	if g.isBranchPoint(t) {
		tags = append(tags, htmlTag{"", "branch point"})
	}
	if unexplored(t) {
		tags = append(tags, htmlTag{"", "unexplored alternative"})
	} else if t.Alternative {
		tags = append(tags, htmlTag{"", "selected alternative"})
	}
	if r := g.thought(t.RevisesID); r != nil {
		tags = append(tags, htmlTag{"", fmt.Sprintf("revises step %d", r.Step)})
	}
	if t.ID == g.Session.CurrentThoughtID {
		tags = append(tags, htmlTag{"", "current"})
	} else if ix.onPath[t.ID] {
		tags = append(tags, htmlTag{"", "on the current path"})
	}
	if ix.contradicts[t.ID] {
		tags = append(tags, htmlTag{"contra", "contradiction"})
	}
	if ix.circular[t.ID] {
		tags = append(tags, htmlTag{"circ", "circular"})
	}
	if ix.refuted[t.ID] {
		tags = append(tags, htmlTag{"contra", "refuted by a person"})
	}
	return tags
}

// writeHTMLAnalysis writes the contradictions, circular reasoning and
// evaluation sections (the heading of the first is already written).
func writeHTMLAnalysis(p func(...string), a *Analysis) {
	if a == nil {
		p("<p>Not analysed.</p>")
		return
	}
	if a.Unavailable != "" {
		p("<p>Not analysed: ", esc(a.Unavailable), "</p>")
		return
	}
	if len(a.Contradictions) > 0 {
		p("<ul>")
		for _, c := range a.Contradictions {
			p("<li>step ", strconv.Itoa(c.ThoughtA.Step), " (", esc(c.ThoughtA.Branch), ") “", esc(c.ThoughtA.Text()), "” ↔ step ", strconv.Itoa(c.ThoughtB.Step),
				" (", esc(c.ThoughtB.Branch), ") “", esc(c.ThoughtB.Text()), "” — ", fmt.Sprintf("%.2f", c.Confidence), ": ", esc(c.Reason), "</li>")
		}
		p("</ul>")
	} else {
		p("<p>None found among ", strconv.Itoa(a.Checked), " thoughts.</p>")
	}
	p("\n<h2>Circular reasoning</h2>")
	if len(a.Circular) > 0 {
		p("<ul>")
		for _, c := range a.Circular {
			p("<li>", esc(c.Kind), ": ")
			for i, r := range c.Thoughts {
				if i > 0 {
					p(" → ")
				}
				p("step ", strconv.Itoa(r.Step))
			}
			p(" — ", esc(c.Reason), "</li>")
		}
		p("</ul>")
	} else {
		p("<p>None found.</p>")
	}
	p("\n<h2>Away from the goal</h2>")
	var away []string
	for _, d := range a.Drift {
		if d.Drifting {
			how := "drifting"
			if d.OffGoal {
				how = "off the goal from its first thought"
			}
			away = append(away, "<li>"+esc(d.Branch)+", "+how+": "+esc(d.Reason)+"</li>")
		}
	}
	if len(away) == 0 {
		p("<p>No branch drifts.</p>")
	} else {
		p("<ul>", strings.Join(away, ""), "</ul>")
	}
	p("\n<h2>Questions for the model</h2>")
	if len(a.OpenGroups) == 0 {
		p("<p>None open.</p>")
	} else {
		p("<p>", esc(review.AskConsistent), " The model answers each group with <code>", esc(review.Answer), "</code>.</p><ul>")
		for _, q := range a.OpenGroups {
			p("<li>group ", esc(q.Key))
			if q.Signs != "" {
				p(" (", esc(q.Signs), ")")
			}
			p("<ul>")
			for _, c := range q.Claims {
				p("<li>step ", strconv.Itoa(c.Step), ": ", esc(c.Text), "</li>")
			}
			p("</ul></li>")
		}
		p("</ul>")
	}
	p("\n<h2>Evaluation</h2><table><tr><th>Branch</th><th>Quality</th><th>Overall</th><th>Coherence</th><th>Contradiction</th><th>Information gain</th><th>Redundancy</th></tr>\n")
	for _, e := range a.Evaluations {
		p("<tr><td>", esc(e.Branch), "</td><td>", esc(e.Quality), "</td><td>", confidence(e.OverallScore), "</td><td>", confidence(e.CoherenceScore), "</td><td>",
			confidence(e.ContradictionScore), "</td><td>", confidence(e.InformationGain), "</td><td>", confidence(e.RedundancyScore), "</td></tr>")
	}
	p("</table>")
}
