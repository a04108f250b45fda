package render

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func f(v float64) *float64 { return &v }

// smallGraph is a session with two branches, a branch point, an
// alternative left unexplored, a cross-reference and a contradiction, whose
// text holds markup and every format's metacharacters.
func smallGraph(analysed bool) *Graph {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	g := &Graph{
		Threshold: 0.6,
		Session: thinkgraph.Session{ID: "s-1", Goal: "Decide <b>\"cache\"</b> & `store`", Mode: "think",
			CreatedAt: t0, UpdatedAt: t0.Add(time.Minute), CurrentThoughtID: "c", ActiveBranch: "alt \"x\"", StepCount: 4},
		Branches: []thinkgraph.Branch{
			{ID: "main", State: "active", CreatedAt: t0},
			{ID: "alt \"x\"", State: "active", ParentBranchID: "main", ForkThoughtID: "b", CreatedAt: t0.Add(time.Second)},
		},
		Thoughts: []thinkgraph.Thought{
			{ID: "a", BranchID: "main", Step: 1, Content: "Start: is the cache `fast`?", Type: "analysis", Confidence: f(0.9), CreatedAt: t0},
			{ID: "b", BranchID: "main", ParentID: "a", Step: 2, Content: "It is <script>alert(1)</script>\n# not a heading\n1. nor a list", Confidence: f(0.4), BranchPoint: true, CreatedAt: t0},
			{ID: "c", BranchID: "alt \"x\"", ParentID: "b", Step: 3, Content: "Use Redis; [link](x) | pipe \\N", Confidence: f(0.7), Alternative: true, Selected: true, CreatedAt: t0},
			{ID: "d", BranchID: "main", ParentID: "b", Step: 4, Content: "A {b} %% c # d --> e", Alternative: true, CreatedAt: t0},
		},
		Links: []thinkgraph.Link{{ID: "l1", FromBranch: "alt \"x\"", ToBranch: "main", FromThought: "c", ToThought: "a", Type: "builds_upon",
			Reason: "because -> \"quoted\"", Strength: 0.7, CreatedAt: t0}},
	}
	if analysed {
		g.Analysis = &Analysis{Report: analysis.Report{Checked: 4,
			Contradictions: []analyze.Contradiction{{ThoughtA: analyze.ThoughtRef{ID: "a", Branch: "main", Step: 1, Content: "Start: is the cache `fast`?"},
				ThoughtB: analyze.ThoughtRef{ID: "b", Branch: "main", Step: 2, Content: "It is <script>"}, Confidence: 0.9, Reason: "negation <x>"}},
			Circular:   []analyze.CircularReasoning{},
			Drift:      []advice.BranchDrift{{Branch: "alt \"x\"", Thoughts: 3, Drifting: true, OffGoal: true, Reason: "each of its 3 thoughts is 1.40 sd <far> from the goal"}},
			OpenGroups: []analysis.OpenGroup{{Key: "1.1-3.1", Signs: "different figures", Claims: []review.Claim{{Step: 1, Text: "Start: is the cache `fast`?"}, {Step: 3, Text: "It is *slow*"}}}},
			Open:       2,
			Conclusion: &analyze.ThoughtRef{ID: "c", Branch: "alt \"x\"", Step: 3}}}
	}
	return g
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./render -update to accept):\n%s", name, got)
	}
}

func TestFormatsGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(*bytes.Buffer, *Graph) error
	}{
		{"small.md", func(b *bytes.Buffer, g *Graph) error { return Markdown(b, g) }},
		{"small.mmd", func(b *bytes.Buffer, g *Graph) error { return Mermaid(b, g) }},
		{"small.dot", func(b *bytes.Buffer, g *Graph) error { return DOT(b, g) }},
		{"small.svg", func(b *bytes.Buffer, g *Graph) error { return SVG(b, g) }},
		{"small.html", func(b *bytes.Buffer, g *Graph) error { return HTML(b, g) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.fn(&b, smallGraph(true)); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
}

// TestNoRawUserMarkup checks that no format lets user text through raw.
func TestNoRawUserMarkup(t *testing.T) {
	for name, fn := range map[string]func(*bytes.Buffer, *Graph) error{
		"markdown": func(b *bytes.Buffer, g *Graph) error { return Markdown(b, g) },
		"svg":      func(b *bytes.Buffer, g *Graph) error { return SVG(b, g) },
		"html":     func(b *bytes.Buffer, g *Graph) error { return HTML(b, g) },
		"mermaid":  func(b *bytes.Buffer, g *Graph) error { return Mermaid(b, g) },
	} {
		var b bytes.Buffer
		if err := fn(&b, smallGraph(true)); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<script>", "<b>", "<x>"} {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s: raw %q in output", name, bad)
			}
		}
	}
	var b bytes.Buffer
	if err := DOT(&b, smallGraph(true)); err != nil {
		t.Fatal(err)
	}
	// Every line of DOT is a statement: a newline inside a string would
	// break it, and a quote would end the string.
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		in := false
		for i := 0; i < len(line); i++ {
			switch {
			case in && line[i] == '\\':
				i++
			case line[i] == '"':
				in = !in
			}
		}
		if in {
			t.Errorf("unterminated string: %s", line)
		}
	}
}

func TestMarkdownWithoutAnalysis(t *testing.T) {
	var b bytes.Buffer
	g := smallGraph(false)
	if err := Markdown(&b, g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "## Contradictions\n\nNot analysed.\n") {
		t.Errorf("got %q", b.String()[max(0, b.Len()-80):])
	}
	g = smallGraph(false)
	g.Analysis = &Analysis{Unavailable: "the semantic engine is not enabled on this server"}
	b.Reset()
	_ = Markdown(&b, g)
	if !strings.HasSuffix(b.String(), "Not analysed: the semantic engine is not enabled on this server\n") {
		t.Errorf("got %q", b.String()[max(0, b.Len()-80):])
	}
}

func TestEscapers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{md("a *b* <i>x</i> & `c` | [d](e)"), "a \\*b\\* &lt;i&gt;x&lt;/i&gt; &amp; \\`c\\` \\| \\[d\\](e)"},
		{mdBlock("# h\n  - item\n12) x\n", ""), "> \\# h\n> \\- item\n> 12\\) x\n>\n"},
		{mmd(`a "b" #c; d|e <f> %% {g}`), "a #34;b#34; #35;c#59; d#124;e #60;f#62; #37;#37; #123;g#125;"},
		{dq("a \"b\" \\N\nc &amp;"), `"a \"b\" \\N\nc &amp;amp;"`},
		{dqTip("a \"b\" \\N\nc &amp;"), `"a \"b\" \\\\N\nc &amp;amp;"`},
		{clip("one\ntwo   three", 8), "one two…"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestLayoutLayersAndColumns(t *testing.T) {
	g := smallGraph(false)
	l, _ := g.layout()
	// depth: a 0, b 1, c and d 2; columns: main (a, b, d) then alt (c).
	if l.Y["a"] >= l.Y["b"] || l.Y["c"] != l.Y["d"] {
		t.Errorf("layers: %v", l.Y)
	}
	if l.X["a"] != l.X["b"] || l.X["c"] <= l.X["d"] {
		t.Errorf("columns: %v", l.X)
	}
}

func TestSVGBands(t *testing.T) {
	g := &Graph{Session: thinkgraph.Session{ID: "b"}}
	for i := 1; i <= 50; i++ {
		th := thinkgraph.Thought{ID: fmt.Sprint(i), BranchID: "main", Step: i, Content: fmt.Sprint("thought ", i)}
		if i > 1 {
			th.ParentID = fmt.Sprint(i - 1)
		}
		g.Thoughts = append(g.Thoughts, th)
	}
	g.Session.CurrentThoughtID = "50"
	var b bytes.Buffer
	if err := SVGBands(&b, g, 20); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// 50 layers in bands of 20: 20, 20 and 10.
	if n := strings.Count(out, `class="tg-band"`); n != 3 {
		t.Errorf("%d bands", n)
	}
	if n := strings.Count(out, `data-step=`); n != 50 {
		t.Errorf("%d nodes", n)
	}
	if n := strings.Count(out, `<g class="branch"`); n != 1 {
		t.Errorf("%d branch headers", n)
	}
	// The edge from layer 19 to 20 crosses the band boundary and is drawn
	// in both bands (each clips its half).
	l, _ := g.layout()
	seg := fmt.Sprintf("M%d,%dV%d", l.X["20"]+nodeW/2, l.Y["20"]+nodeH, l.Y["21"])
	if n := strings.Count(out, seg); n != 2 {
		t.Errorf("crossing edge drawn %d times", n)
	}
	if !strings.HasSuffix(out, "</svg>\n</div>\n") || !strings.Contains(out, `class="tg-overlay"`) {
		t.Error("no overlay")
	}
}

func TestCircularChainsDrawn(t *testing.T) {
	g := smallGraph(true)
	refs := []analyze.ThoughtRef{{ID: "a", Step: 1}, {ID: "b", Step: 2}, {ID: "c", Step: 3}}
	g.Analysis.Circular = []analyze.CircularReasoning{{Kind: analyze.CircularDependencyCycle, Thoughts: refs, Reason: "a <cycle>"}}
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// Three edges close the cycle a → b → c → a; the three thoughts are marked.
	if n := strings.Count(out, `<g class="circular-chain">`); n != 3 {
		t.Errorf("%d circular edges", n)
	}
	if n := strings.Count(out, ` circular" data-id=`); n != 3 {
		t.Errorf("%d circular nodes", n)
	}
	if strings.Contains(out, "<cycle>") {
		t.Error("raw reason")
	}
}
