package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/thinkgraph/thinkgraph"
)

// Graphviz reads a quoted string's backslashes as escapes (\N is the
// node's name, \n a line break, \\ a backslash) and decodes HTML entities
// (&amp;, &#60;) in labels and tooltips; tooltips go through the backslash
// escapes twice. So user text has its backslashes doubled (quadrupled in
// tooltips), its ampersands written &amp; and its quotes escaped; newlines
// become \n line breaks and other control characters spaces.
var (
	dotEscaper        = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "&", "&amp;", "\r\n", `\n`, "\n", `\n`, "\r", `\n`, "\t", " ")
	dotTooltipEscaper = strings.NewReplacer(`\`, `\\\\`, `"`, `\"`, "&", "&amp;", "\r\n", `\n`, "\n", `\n`, "\r", `\n`, "\t", " ")
)

// dq quotes user text as a DOT label.
func dq(s string) string { return dotString(s, dotEscaper) }

// dqTip quotes user text as a DOT tooltip.
func dqTip(s string) string { return dotString(s, dotTooltipEscaper) }

func dotString(s string, esc *strings.Replacer) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
			return ' '
		}
		return r
	}, validUTF8(s))
	return `"` + esc.Replace(s) + `"`
}

// DOT writes the thought graph for Graphviz: branches as clusters, thoughts
// filled by confidence, branch points as hexagons, the path to the current
// thought in bold, unexplored alternatives dashed, cross-references as
// labelled dashed edges and contradictions as red edges. Every node has the
// full thought as its tooltip.
func DOT(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	ix := g.index()
	node := func(t *thinkgraph.Thought) string { return fmt.Sprintf(`"t%d"`, t.Step) }
	fmt.Fprintf(bw, "digraph %s {\n", dq(g.Session.ID))
	fmt.Fprintf(bw, "  graph [rankdir=TB, fontname=\"Helvetica\", label=%s, labelloc=t];\n", dq(clip(g.Session.Goal, 120)))
	fmt.Fprintf(bw, "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n")
	fmt.Fprintf(bw, "  edge [fontname=\"Helvetica\", fontsize=9];\n")
	byBranch := g.branchThoughts()
	for bi, b := range ix.branches {
		ts := byBranch[b]
		if len(ts) == 0 {
			continue
		}
		fmt.Fprintf(bw, "  subgraph \"cluster_%d\" {\n    label=%s; color=%q; fontcolor=%q;\n", bi, dq(b), branchColor(bi), branchColor(bi))
		for _, t := range ts {
			attrs := []string{
				"label=" + dq(fmt.Sprintf("#%d · %s\n%s", t.Step, confidence(t.Confidence), clip(t.Content, 40))),
				"tooltip=" + dqTip(t.Content),
				fmt.Sprintf("fillcolor=%q", confColor(t.Confidence)),
			}
			style := "rounded,filled"
			if g.isBranchPoint(t) {
				attrs = append(attrs, "shape=hexagon")
				style = "filled"
			}
			if unexplored(t) {
				style += ",dashed"
			}
			attrs = append(attrs, fmt.Sprintf("style=%q", style))
			switch {
			case t.ID == g.Session.CurrentThoughtID:
				attrs = append(attrs, fmt.Sprintf("color=%q, penwidth=3", pathColor))
			case ix.circular[t.ID]:
				attrs = append(attrs, fmt.Sprintf("color=%q, penwidth=2", circularColor))
			}
			if ix.refuted[t.ID] {
				attrs = append(attrs, `xlabel="✗ refuted"`, fmt.Sprintf("fontcolor=%q", refutedColor))
			}
			fmt.Fprintf(bw, "    %s [%s];\n", node(t), strings.Join(attrs, ", "))
		}
		fmt.Fprintf(bw, "  }\n")
	}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		p := g.thought(t.ParentID)
		if p == nil {
			continue
		}
		attr := ""
		switch {
		case ix.onPath[t.ID]:
			attr = fmt.Sprintf(" [color=%q, penwidth=3]", pathColor)
		case unexplored(t):
			attr = " [style=dashed]"
		}
		fmt.Fprintf(bw, "  %s -> %s%s;\n", node(p), node(t), attr)
	}
	for _, l := range g.sortedLinks() {
		from, to := g.linkEnd(l.FromThought, l.FromBranch), g.linkEnd(l.ToThought, l.ToBranch)
		if from == nil || to == nil {
			continue
		}
		color := "#555555"
		if l.Type == "contradictory" {
			color = contradictionColor
		}
		fmt.Fprintf(bw, "  %s -> %s [style=dashed, constraint=false, color=%q, fontcolor=%q, label=%s, tooltip=%s];\n",
			node(from), node(to), color, color, dq(l.Type), dqTip(l.Reason))
	}
	if g.Analysis != nil {
		for _, c := range g.Analysis.Contradictions {
			a, b := g.thought(c.ThoughtA.ID), g.thought(c.ThoughtB.ID)
			if a == nil || b == nil {
				continue
			}
			fmt.Fprintf(bw, "  %s -> %s [dir=both, arrowhead=tee, arrowtail=tee, constraint=false, color=%q, fontcolor=%q, penwidth=2, label=%s, tooltip=%s];\n",
				node(a), node(b), contradictionColor, contradictionColor, dq(fmt.Sprintf("contradicts %.2f", c.Confidence)), dqTip(c.Reason))
		}
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}
