package render

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// box is a rectangle of the drawing.
type box struct{ x, y, w, h int }

func (a box) overlaps(b box) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// drawing is what the geometry checks read back from an SVG.
type drawing struct {
	nodes  map[string]box      // thought id -> box
	lines  map[string][]string // thought id -> text lines (header first)
	labels []box
	names  map[string]box // branch -> column, with the drawn name in text
	text   map[string]string
}

var (
	nodeRE   = regexp.MustCompile(`<g class="node[^"]*" data-id="([^"]*)" data-step="\d+" transform="translate\((\d+),(\d+)\)"[^>]*>.*?<rect width="(\d+)" height="(\d+)"(.*?)</g>\n`)
	lineRE   = regexp.MustCompile(`<text x="\d+" y="15" font-weight="bold">([^<]*)</text>|<tspan x="\d+" dy="\d+">([^<]*)</tspan>`)
	labelRE  = regexp.MustCompile(`<rect class="label" x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"`)
	branchRE = regexp.MustCompile(`<g class="branch" data-branch="([^"]*)"><rect x="(\d+)" y="\d+" width="(\d+)"[^>]*/><text[^>]*>([^<]*)</text>`)
)

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

func readDrawing(t *testing.T, g *Graph) drawing {
	t.Helper()
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	d := drawing{nodes: map[string]box{}, lines: map[string][]string{}, names: map[string]box{}, text: map[string]string{}}
	for _, m := range nodeRE.FindAllStringSubmatch(out, -1) {
		id := unescape(m[1])
		d.nodes[id] = box{atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4]), atoi(t, m[5])}
		for _, l := range lineRE.FindAllStringSubmatch(m[6], -1) {
			d.lines[id] = append(d.lines[id], unescape(l[1]+l[2]))
		}
	}
	if len(d.nodes) != len(g.Thoughts) {
		t.Fatalf("read %d nodes of %d", len(d.nodes), len(g.Thoughts))
	}
	for _, m := range labelRE.FindAllStringSubmatch(out, -1) {
		d.labels = append(d.labels, box{atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4])})
	}
	for _, m := range branchRE.FindAllStringSubmatch(out, -1) {
		d.names[unescape(m[1])] = box{x: atoi(t, m[2]), w: atoi(t, m[3])}
		d.text[unescape(m[1])] = unescape(m[4])
	}
	return d
}

// readableGraph is a session as people write them: a main line whose
// third thought has two alternatives on main (the second continued), two
// branches that fork from the root, one from another branch, thoughts of
// several lengths and scripts, cross-references and a contradiction.
func readableGraph() *Graph {
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	g := &Graph{Threshold: 0.6, Session: thinkgraph.Session{ID: "r", Goal: "Pick a session store", CurrentThoughtID: "6"}}
	long := "Sessions are small, read on every request and written rarely, so the store must answer reads in well under a millisecond at the 99th percentile while surviving a restart of any one node"
	add := func(id, branch, parent, content string) {
		g.Thoughts = append(g.Thoughts, thinkgraph.Thought{ID: id, BranchID: branch, ParentID: parent, Step: len(g.Thoughts) + 1,
			Content: content, Confidence: f(0.5 + 0.05*float64(len(g.Thoughts)%8)), CreatedAt: t0})
	}
	add("1", "main", "", "Which store should hold the sessions of the web tier?")
	add("2", "main", "1", long)
	add("3", "main", "2", "Two candidates remain after the first review")
	add("4", "main", "3", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW mmmmmmmmmmmmmmmmmm")
	add("5", "main", "3", "Keep them in the application's memory with sticky load balancing")
	add("6", "main", "5", "Sticky sessions break when a node is drained for deployment")
	add("7", "postgres", "1", "PostgreSQL: already deployed, durable, and the team knows it well")
	add("8", "postgres", "7", "会话存储需要低延迟和持久性 — 在每个请求上读取 🚀🚀🚀 données élevées")
	add("9", "redis", "1", "Redis: fast, but one more system to operate")
	add("10", "pg-cache", "8", "PostgreSQL with an in-process cache in front of it, invalidated by LISTEN/NOTIFY")
	g.Branches = []thinkgraph.Branch{{ID: "main", CreatedAt: t0}, {ID: "postgres", ParentBranchID: "main", ForkThoughtID: "1", CreatedAt: t0.Add(1)},
		{ID: "redis", ParentBranchID: "main", ForkThoughtID: "1", CreatedAt: t0.Add(2)},
		{ID: "pg-cache with a very long branch name that cannot fit its column", ParentBranchID: "postgres", ForkThoughtID: "8", CreatedAt: t0.Add(3)}}
	g.Thoughts[9].BranchID = g.Branches[3].ID
	g.Thoughts[3].Alternative = true
	for i, l := range [][2]string{{"9", "7"}, {"9", "7"}, {"10", "6"}, {"8", "2"}, {"6", "9"}} {
		g.Links = append(g.Links, thinkgraph.Link{ID: fmt.Sprint("l", i), FromThought: l[0], ToThought: l[1], Type: []string{"alternative", "contradictory", "builds_upon", "complementary", "alternative"}[i],
			Strength: 0.5, CreatedAt: t0.Add(time.Duration(i))})
	}
	g.Analysis = &Analysis{Report: analysis.Report{Contradictions: []analyze.Contradiction{{ThoughtA: analyze.ThoughtRef{ID: "6"}, ThoughtB: analyze.ThoughtRef{ID: "5"}, Confidence: 0.8}}}}
	return g
}

// The layout rules, checked on the drawing's geometry.
func TestLayoutReadable(t *testing.T) {
	g := readableGraph()
	d := readDrawing(t, g)
	parent := map[string]string{}
	firstChild := map[string]string{}
	branch := map[string]string{}
	for _, th := range g.Thoughts {
		parent[th.ID], branch[th.ID] = th.ParentID, th.BranchID
		if p := th.ParentID; p != "" && firstChild[p] == "" && g.thought(p).BranchID == th.BranchID {
			firstChild[p] = th.ID
		}
	}
	for id, n := range d.nodes {
		// A child's box is below its parent's.
		if p := parent[id]; p != "" && n.y < d.nodes[p].y+d.nodes[p].h {
			t.Errorf("#%s at y %d is not below its parent #%s (y %d)", id, n.y, p, d.nodes[p].y)
		}
		// Boxes do not overlap.
		for other, o := range d.nodes {
			if other != id && n.overlaps(o) {
				t.Errorf("#%s overlaps #%s", id, other)
			}
		}
		// Every line of text fits its box.
		if len(d.lines[id]) < 2 {
			t.Errorf("#%s has no text: %v", id, d.lines[id])
		}
		for _, line := range d.lines[id] {
			if w := textWidth(line, fontSize); float64(padX)+w > float64(n.w-padX) {
				t.Errorf("#%s: line %q is %.0f px wide, the box %d", id, line, w, n.w)
			}
		}
	}
	// The first child in the same branch continues straight down; a child
	// of #5 is drawn under #5, not under #4.
	for p, c := range firstChild {
		if d.nodes[c].x != d.nodes[p].x {
			t.Errorf("#%s is not under its parent #%s: x %d vs %d", c, p, d.nodes[c].x, d.nodes[p].x)
		}
	}
	if d.nodes["6"].x != d.nodes["5"].x || d.nodes["6"].x == d.nodes["4"].x {
		t.Errorf("#6 at x %d, its parent #5 at %d, #4 at %d", d.nodes["6"].x, d.nodes["5"].x, d.nodes["4"].x)
	}
	// Text wraps instead of being cut: the long thought shows more than
	// one line, and nothing is lost that fits in three.
	if got := d.lines["2"]; len(got) != 4 || !strings.HasPrefix(got[1], "Sessions are small,") || !strings.HasSuffix(got[3], "…") {
		t.Errorf("#2 lines: %q", got)
	}
	if got := strings.Join(d.lines["5"][1:], " "); got != g.Thoughts[4].Content {
		t.Errorf("#5 wrapped to %q", got)
	}
	// Labels sit where no box is and do not cover each other.
	if len(d.labels) != len(g.Links)+1 {
		t.Errorf("%d labels for %d links and 1 contradiction", len(d.labels), len(g.Links))
	}
	for i, lb := range d.labels {
		for id, n := range d.nodes {
			if lb.overlaps(n) {
				t.Errorf("label %d %v overlaps #%s %v", i, lb, id, n)
			}
		}
		for j, other := range d.labels[:i] {
			if lb.overlaps(other) {
				t.Errorf("labels %d and %d overlap: %v %v", i, j, lb, other)
			}
		}
	}
	// Branch names fit their column.
	for b, col := range d.names {
		if w := textWidth(d.text[b], fontSize*1.1); 10+w > float64(col.w) {
			t.Errorf("branch name %q (%.0f px) overflows its column of %d", d.text[b], w, col.w)
		}
	}
}

// A session whose main branch has no thought draws no main column.
func TestLayoutEmptyMainTakesNoSpace(t *testing.T) {
	g := readableGraph()
	g.Thoughts = g.Thoughts[6:9] // postgres and redis only
	g.Thoughts[0].ParentID, g.Thoughts[2].ParentID = "", ""
	g.Links, g.Analysis = nil, nil
	d := readDrawing(t, g)
	if _, ok := d.names["main"]; ok {
		t.Errorf("a column for the empty main branch: %v", d.names)
	}
	if len(d.names) != 2 || d.nodes["7"].x > marginX+gapX {
		t.Errorf("columns %v, postgres's first thought at x %d", d.names, d.nodes["7"].x)
	}
}

// A declared contradictory cross-reference and the contradictions found
// between the same two thoughts (the analysis reports the declared one
// and may judge it again) are one curve with one label, not labels drawn
// side by side; every label stays off the boxes and at least 2 px from
// every other.
func TestLayoutOneLabelPerContradictoryPair(t *testing.T) {
	g := readableGraph() // links[1]: #9 contradictory to #7
	g.Analysis.Contradictions = append(g.Analysis.Contradictions,
		analyze.Contradiction{ThoughtA: analyze.ThoughtRef{ID: "7"}, ThoughtB: analyze.ThoughtRef{ID: "9"}, Confidence: 1, Reason: "declared contradictory"},
		analyze.Contradiction{ThoughtA: analyze.ThoughtRef{ID: "9"}, ThoughtB: analyze.ThoughtRef{ID: "7"}, Confidence: 0.7, Reason: "negation: one system versus none"},
		// Found twice without a declared link: one curve too.
		analyze.Contradiction{ThoughtA: analyze.ThoughtRef{ID: "5"}, ThoughtB: analyze.ThoughtRef{ID: "6"}, Confidence: 0.6})
	d := readDrawing(t, g)
	// The links, and the one #5–#6 contradiction.
	if len(d.labels) != len(g.Links)+1 {
		t.Errorf("%d labels for %d links and the #5–#6 contradiction", len(d.labels), len(g.Links))
	}
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, ">contradictory 1.00</text>"); n != 1 {
		t.Errorf("the #7–#9 label drawn %d times, want once as \"contradictory 1.00\"", n)
	}
	if !strings.Contains(out, "declared contradictory; negation: one system versus none</title>") {
		t.Errorf("the #7–#9 curve's title does not give both reasons")
	}
	if n := strings.Count(out, ">contradicts 0.80</text>"); n != 1 || strings.Contains(out, ">contradicts 0.60<") {
		t.Errorf("the #5–#6 contradiction found twice is not drawn once with its strongest confidence")
	}
	for i, lb := range d.labels {
		for id, n := range d.nodes {
			if lb.overlaps(n) {
				t.Errorf("label %d %v overlaps #%s %v", i, lb, id, n)
			}
		}
		near := box{lb.x - 2, lb.y - 2, lb.w + 4, lb.h + 4}
		for j, other := range d.labels[:i] {
			if near.overlaps(other) {
				t.Errorf("labels %d and %d touch: %v %v", i, j, lb, other)
			}
		}
	}
}

// A stated verdict that two thoughts agree (compatible, not circular) is
// no finding: its curve is drawn hidden (class verdict, display none),
// for the viewer's toggle to show; a circular verdict is drawn.
func TestQuietVerdictsHidden(t *testing.T) {
	g := readableGraph()
	g.Links = append(g.Links,
		thinkgraph.Link{ID: "v1", FromThought: "5", ToThought: "6", Type: "compatible", Reason: "both hold"},
		thinkgraph.Link{ID: "v2", FromThought: "7", ToThought: "8", Type: "not_circular", Reason: "independent evidence"},
		thinkgraph.Link{ID: "v3", FromThought: "8", ToThought: "9", Type: "circular", Reason: "restates it"})
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, `<g class="link verdict" display="none">`); n != 2 {
		t.Errorf("%d hidden verdict curves, want the compatible and the not_circular one", n)
	}
	if !strings.Contains(out, `<g class="link"><path`) || !strings.Contains(out, ">circular</text>") {
		t.Errorf("the circular verdict is not drawn")
	}
}
