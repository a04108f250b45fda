package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

// hardTexts are thought texts that have broken exporters: every format's
// metacharacters, control characters, unicode beyond the BMP, nothing at
// all, and far more than a label holds.
var hardTexts = []string{
	`quotes "double" and 'single' and """ three`,
	`back\slash \N \G \l \\ ends in a backslash \`,
	"braces {a} [b] (c) <d> {{e}} [[f]] ((g))",
	"<script>alert('x')</script> <b>bold</b> <br/> &amp; &#60; &lt;",
	"pipe | hash # semicolon ; percent %% c amp & colon :::",
	"line one\nline two\r\nline three\tand\ttabs",
	"emoji 🧠🤔 👨‍👩‍👧 and unicode: naïve café 日本語 ∑ → ≠ Ω",
	"",
	"#35; entity #quot; --> ==> -.-> end subgraph style class linkStyle",
	"`markdown` **bold** _it_ ~~strike~~",
	"zero\u200bwidth, right-to-left \u202etext\u202c, nbsp\u00a0here, line\u2028separator, control \x01\x7f",
	strings.Repeat("very long content, ", 600),
}

// hardGraph extends smallGraph with what real sessions hold: more
// branches (one named with special characters), branch points with
// several children, unexplored alternatives, a selected path several
// branches deep, cross-references of every type (by thought and by
// branch only), contradictions and a circular chain, all with hardTexts
// as contents, reasons and names. It returns the graph and the number of
// edges every renderer draws: parent edges, links and contradictions.
func hardGraph() (*Graph, int) {
	g := smallGraph(true)
	t0 := g.Session.CreatedAt
	weird := `weird {branch} <b>|#;\ "☃" %% end`
	g.Session.ID = "s:hard@1.x-y"
	g.Session.Goal = hardTexts[3] + "\n" + hardTexts[6]
	g.Branches = append(g.Branches,
		thinkgraph.Branch{ID: weird, State: "active", ParentBranchID: "main", ForkThoughtID: "b", CreatedAt: t0.Add(2 * time.Second)},
		thinkgraph.Branch{ID: "b3 @x/y:z", State: "active", ParentBranchID: weird, CreatedAt: t0.Add(3 * time.Second)})
	add := func(branch, parent string, conf *float64, alt, sel bool) string {
		step := len(g.Thoughts) + 1
		id := fmt.Sprint("h", step)
		g.Thoughts = append(g.Thoughts, thinkgraph.Thought{ID: id, BranchID: branch, ParentID: parent, Step: step,
			Content: hardTexts[step%len(hardTexts)], Confidence: conf, Alternative: alt, Selected: sel, CreatedAt: t0})
		return id
	}
	// c (alt "x") -> three alternatives in the weird branch, one selected,
	// which forks again into b3; d (main) goes on unexplored.
	x1 := add(weird, "c", f(0.8), true, true)
	add(weird, "c", f(0.3), true, false)
	add(weird, "c", nil, true, false)
	x2 := add(weird, x1, f(0.5), false, false)
	g.Thoughts[len(g.Thoughts)-1].BranchPoint = true
	y := x2
	for range 4 {
		y = add("b3 @x/y:z", y, f(0.65), false, false)
	}
	add(weird, x2, f(0.2), true, false)
	z := "d"
	for range len(hardTexts) {
		z = add("main", z, f(0.99), false, false)
	}
	g.Session.CurrentThoughtID = y
	types := []string{"builds_upon", "contradictory", "complementary", "alternative"}
	for i, ty := range types {
		g.Links = append(g.Links,
			thinkgraph.Link{ID: fmt.Sprint("lt", i), FromThought: y, ToThought: fmt.Sprint("h", 5+i), Type: ty,
				Reason: hardTexts[i], CreatedAt: t0.Add(time.Duration(i) * time.Second)},
			thinkgraph.Link{ID: fmt.Sprint("lb", i), FromBranch: weird, ToBranch: "main", Type: ty,
				Reason: hardTexts[len(hardTexts)-1-i], CreatedAt: t0.Add(time.Duration(i) * time.Second)})
	}
	g.Links = append(g.Links, thinkgraph.Link{ID: "self", FromThought: z, ToThought: z, Type: "builds_upon", CreatedAt: t0})
	ref := func(id string) analyze.ThoughtRef {
		th := g.thought(id)
		return analyze.ThoughtRef{ID: id, Branch: th.BranchID, Step: th.Step, Content: th.Content}
	}
	g.Analysis.Contradictions = append(g.Analysis.Contradictions,
		analyze.Contradiction{ThoughtA: ref(x1), ThoughtB: ref(z), Confidence: 0.77, Reason: hardTexts[0] + hardTexts[5]},
		analyze.Contradiction{ThoughtA: ref(y), ThoughtB: ref("a"), Confidence: 0.6, Reason: hardTexts[len(hardTexts)-1]})
	g.Analysis.Circular = []analyze.CircularReasoning{{Kind: analyze.CircularDependencyCycle,
		Thoughts: []analyze.ThoughtRef{ref(x1), ref(x2), ref(y)}, Reason: hardTexts[4]}}
	edges := len(g.Links) + len(g.Analysis.Contradictions)
	for _, th := range g.Thoughts {
		if th.ParentID != "" {
			edges++
		}
	}
	return g, edges
}

func TestMain(m *testing.M) { testdeps.Main(m) }

// TestDOTThroughGraphviz lays out DOT exports with Graphviz's dot, which
// must accept them without a warning and draw every thought and edge.
func TestDOTThroughGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		testdeps.Missing(t, testdeps.Graphviz, "dot is not on PATH")
	}
	hard, hardEdges := hardGraph()
	for _, tc := range []struct {
		name     string
		g        *Graph
		branches int
		edges    int
	}{
		{"small", smallGraph(true), 2, 5},
		{"hard", hard, 4, hardEdges},
		{"empty", &Graph{Session: thinkgraph.Session{ID: "empty"}}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var src bytes.Buffer
			if err := DOT(&src, tc.g); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = &src
			var out, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			if err := cmd.Run(); err != nil || stderr.Len() > 0 {
				t.Fatalf("dot -Tsvg: %v\n%s\ninput:\n%s", err, stderr.String(), src.String())
			}
			svg := out.String()
			for what, want := range map[string]int{`class="node"`: len(tc.g.Thoughts), `class="edge"`: tc.edges, `class="cluster"`: tc.branches} {
				if n := strings.Count(svg, what); n != want {
					t.Errorf("%d %s in the SVG, want %d", n, what, want)
				}
			}
			checkDOTText(t, tc.g, svg)
		})
	}
}

// svgObject is a node, edge or cluster of Graphviz's SVG: its title (the
// node's name), its tooltip and its lines of text, as a browser shows them.
type svgObject struct {
	class, title, tooltip string
	texts                 []string
}

// svgObjects reads the nodes, edges and clusters of Graphviz's SVG, which
// must be well-formed XML. Graphviz writes the second of two spaces as a
// no-break space: svgObjects reads every no-break space as a space.
func svgObjects(t *testing.T, svg string) []svgObject {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	d.Strict = true
	nb := func(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }
	var objs []*svgObject
	// open holds the objects being read, innermost last, each with the
	// depth of its element; in is the element whose text is read.
	type opened struct {
		obj   *svgObject
		depth int
	}
	var open []opened
	depth, in := 0, ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			attr := func(name string) string {
				for _, a := range tok.Attr {
					if a.Name.Local == name {
						return a.Value
					}
				}
				return ""
			}
			if class := attr("class"); tok.Name.Local == "g" && slices.Contains([]string{"graph", "node", "edge", "cluster"}, class) {
				objs = append(objs, &svgObject{class: class})
				open = append(open, opened{objs[len(objs)-1], depth})
			} else if len(open) > 0 && tok.Name.Local == "a" && open[len(open)-1].obj.tooltip == "" {
				open[len(open)-1].obj.tooltip = nb(attr("title"))
			}
			in = tok.Name.Local
		case xml.CharData:
			if len(open) == 0 {
				continue
			}
			switch o := open[len(open)-1].obj; in {
			case "title":
				o.title += string(tok)
			case "text":
				o.texts = append(o.texts, nb(string(tok)))
			}
		case xml.EndElement:
			in = ""
			if len(open) > 0 && open[len(open)-1].depth == depth {
				open = open[:len(open)-1]
			}
			depth--
		}
	}
	out := make([]svgObject, len(objs))
	for i, o := range objs {
		out[i] = *o
	}
	return out
}

// checkDOTText checks that Graphviz shows the user's text as it was
// written: thoughts in their labels (clipped) and tooltips (whole), branch
// names on their clusters, link types and reasons on their edges. Graphviz
// reads backslash escapes (\N is the node's name) and HTML entities in
// both, and backslash escapes twice in tooltips.
func checkDOTText(t *testing.T, g *Graph, svg string) {
	t.Helper()
	oneLine := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\t", " ", "\u00a0", " ")
	plain := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' {
				return ' '
			}
			return r
		}, oneLine.Replace(s))
	}
	byName := map[string]*thinkgraph.Thought{}
	for i := range g.Thoughts {
		byName[fmt.Sprint("t", g.Thoughts[i].Step)] = &g.Thoughts[i]
	}
	var clusters, edges []string
	for _, o := range svgObjects(t, svg) {
		switch o.class {
		case "graph":
			if want := []string{plain(clip(g.Session.Goal, 120))}; want[0] != "" && !slices.Equal(o.texts, want) {
				t.Errorf("the graph's label is %q, want %q", o.texts, want)
			}
		case "cluster":
			clusters = append(clusters, strings.Join(o.texts, "\n"))
		case "edge":
			if len(o.texts) > 0 {
				edges = append(edges, strings.Join(o.texts, "\n")+" | "+o.tooltip)
			}
		case "node":
			th := byName[o.title]
			if th == nil {
				t.Errorf("node %q is no thought", o.title)
				continue
			}
			want := []string{fmt.Sprintf("#%d · %s", th.Step, confidence(th.Confidence))}
			if c := clip(th.Content, 40); c != "" {
				want = append(want, plain(c))
			}
			if !slices.Equal(o.texts, want) {
				t.Errorf("node %s shows %q, want %q", o.title, o.texts, want)
			}
			if th.Content != "" && o.tooltip != plain(th.Content) {
				t.Errorf("node %s has the tooltip %q, want %q", o.title, o.tooltip, plain(th.Content))
			}
		}
	}
	var wantClusters, wantEdges []string
	for _, b := range g.index().branches {
		if slices.ContainsFunc(g.Thoughts, func(th thinkgraph.Thought) bool { return th.BranchID == b }) {
			wantClusters = append(wantClusters, b)
		}
	}
	for _, l := range g.Links {
		wantEdges = append(wantEdges, l.Type+" | "+plain(l.Reason))
	}
	if g.Analysis != nil {
		for _, c := range g.Analysis.Contradictions {
			wantEdges = append(wantEdges, fmt.Sprintf("contradicts %.2f | %s", c.Confidence, plain(c.Reason)))
		}
	}
	slices.Sort(clusters)
	slices.Sort(wantClusters)
	slices.Sort(edges)
	slices.Sort(wantEdges)
	if !slices.Equal(clusters, wantClusters) {
		t.Errorf("clusters %q, want %q", clusters, wantClusters)
	}
	if !slices.Equal(edges, wantEdges) {
		t.Errorf("labelled edges:\n%q\nwant\n%q", edges, wantEdges)
	}
}
