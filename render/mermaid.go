package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph"
)

// mermaidEscaper writes every character that could end a quoted Mermaid
// string, start a comment or be read as markup as a Mermaid entity code.
var mermaidEscaper = strings.NewReplacer(
	`"`, "#34;", "#", "#35;", "&", "#38;", "<", "#60;", ">", "#62;", "`", "#96;",
	";", "#59;", "|", "#124;", "%", "#37;", "\\", "#92;", "{", "#123;", "}", "#125;",
)

// mmd escapes user text for a quoted Mermaid string, on one line.
func mmd(s string) string {
	return mermaidEscaper.Replace(strings.Join(strings.Fields(validUTF8(s)), " "))
}

// Mermaid writes the thought graph as a Mermaid flowchart: branches as
// subgraphs, thoughts filled by confidence, branch points as hexagons, the
// path to the current thought in thick edges, unexplored alternatives
// dashed, cross-references as labelled dotted edges and contradictions as
// red edges.
func Mermaid(w io.Writer, g *Graph) error {
	bw := bufio.NewWriter(w)
	ix := g.index()
	fmt.Fprintf(bw, "flowchart TD\n")
	byBranch := g.branchThoughts()
	node := func(t *thinkgraph.Thought) string { return fmt.Sprintf("t%d", t.Step) }
	for bi, b := range ix.branches {
		ts := byBranch[b]
		if len(ts) == 0 {
			continue
		}
		fmt.Fprintf(bw, "  subgraph b%d[\"%s\"]\n", bi, mmd(b))
		for _, t := range ts {
			label := fmt.Sprintf("#35;%d · %s<br/>%s", t.Step, confidence(t.Confidence), mmd(clip(t.Content, 60)))
			open, close := "[\"", "\"]"
			if g.isBranchPoint(t) {
				open, close = "{{\"", "\"}}"
			}
			fmt.Fprintf(bw, "    %s%s%s%s\n", node(t), open, label, close)
		}
		fmt.Fprintf(bw, "  end\n")
		fmt.Fprintf(bw, "  style b%d stroke:%s\n", bi, branchColor(bi))
	}
	edges := 0
	var red []string
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		p := g.thought(t.ParentID)
		if p == nil {
			continue
		}
		arrow := "-->"
		switch {
		case ix.onPath[t.ID]:
			arrow = "==>"
		case unexplored(t):
			arrow = "-.->"
		}
		fmt.Fprintf(bw, "  %s %s %s\n", node(p), arrow, node(t))
		edges++
	}
	for _, l := range g.sortedLinks() {
		from, to := g.linkEnd(l.FromThought, l.FromBranch), g.linkEnd(l.ToThought, l.ToBranch)
		if from == nil || to == nil {
			continue
		}
		fmt.Fprintf(bw, "  %s -.->|\"%s\"| %s\n", node(from), mmd(l.Type), node(to))
		if l.Type == "contradictory" {
			red = append(red, strconv.Itoa(edges))
		}
		edges++
	}
	if g.Analysis != nil {
		for _, c := range g.Analysis.Contradictions {
			a, b := g.thought(c.ThoughtA.ID), g.thought(c.ThoughtB.ID)
			if a == nil || b == nil {
				continue
			}
			fmt.Fprintf(bw, "  %s x-.-x|\"contradicts %.2f\"| %s\n", node(a), c.Confidence, node(b))
			red = append(red, strconv.Itoa(edges))
			edges++
		}
	}
	fmt.Fprintf(bw, "  classDef current stroke:%s,stroke-width:4px\n", pathColor)
	fmt.Fprintf(bw, "  classDef unexplored stroke-dasharray:5 5,opacity:0.7\n")
	fmt.Fprintf(bw, "  classDef circular stroke:%s,stroke-width:3px\n", circularColor)
	if len(ix.refuted) > 0 {
		fmt.Fprintf(bw, "  classDef refuted stroke:%s,stroke-width:3px,stroke-dasharray:2 2,color:%s\n", refutedColor, refutedColor)
	}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		fmt.Fprintf(bw, "  style %s fill:%s\n", node(t), confColor(t.Confidence))
	}
	var current, unexp, circ, refuted []string
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		switch {
		case t.ID == g.Session.CurrentThoughtID:
			current = append(current, node(t))
		case unexplored(t):
			unexp = append(unexp, node(t))
		}
		if ix.circular[t.ID] {
			circ = append(circ, node(t))
		}
		if ix.refuted[t.ID] {
			refuted = append(refuted, node(t))
		}
	}
	for _, c := range []struct {
		class string
		nodes []string
	}{{"unexplored", unexp}, {"circular", circ}, {"refuted", refuted}, {"current", current}} {
		if len(c.nodes) > 0 {
			fmt.Fprintf(bw, "  class %s %s\n", strings.Join(c.nodes, ","), c.class)
		}
	}
	// One linkStyle for all red edges: a session can have hundreds, and
	// mermaid refuses a diagram of more than 50,000 characters by default.
	if len(red) > 0 {
		fmt.Fprintf(bw, "  linkStyle %s stroke:%s,stroke-width:2px,color:%s\n", strings.Join(red, ","), contradictionColor, contradictionColor)
	}
	return bw.Flush()
}

// linkEnd is the thought a link end is drawn at: the thought it names,
// else the first thought of its branch; nil if neither exists.
func (g *Graph) linkEnd(thought, branch string) *thinkgraph.Thought {
	if t := g.thought(thought); t != nil {
		return t
	}
	for i := range g.Thoughts {
		if branch != "" && g.Thoughts[i].BranchID == branch {
			return &g.Thoughts[i]
		}
	}
	return nil
}
