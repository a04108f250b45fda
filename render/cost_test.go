package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// linkedChain is a chain of n thoughts with links cross-references among
// them.
func linkedChain(n, links int) *Graph {
	g := &Graph{Session: thinkgraph.Session{ID: "s"}}
	parent := ""
	for i := 1; i <= n; i++ {
		id := fmt.Sprint("t", i)
		g.Thoughts = append(g.Thoughts, thinkgraph.Thought{ID: id, ParentID: parent, BranchID: "main", Step: i, Content: fmt.Sprintf("Step %d: the queue holds %d jobs at peak.", i, i*7%900)})
		parent = id
	}
	for i := 0; len(g.Links) < links; i++ {
		a, c := i%n+1, (i*37+11)%n+1
		if a != c {
			g.Links = append(g.Links, thinkgraph.Link{ID: fmt.Sprintf("l%05d", i), FromThought: fmt.Sprint("t", a), ToThought: fmt.Sprint("t", c), Type: "builds_upon"})
		}
	}
	return g
}

// A drawing draws the latest maxLinkCurves links and says how many it
// leaves out; the Markdown report lists them all.
func TestDrawnCurvesBounded(t *testing.T) {
	g := linkedChain(100, maxLinkCurves+100)
	var svg, md bytes.Buffer
	if err := SVG(&svg, g); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg.String(), `<g class="link"`); n != maxLinkCurves {
		t.Errorf("%d link curves drawn, want %d", n, maxLinkCurves)
	}
	if want := fmt.Sprintf("The latest %d of %d cross-references and verdicts are drawn", maxLinkCurves, maxLinkCurves+100); !strings.Contains(svg.String(), want) {
		t.Errorf("the drawing does not say %q", want)
	}
	if bs := g.Bands(20); !strings.Contains(bs.Note, "The latest 500") || strings.Count(bs.Overlay, `<g class="link"`) != maxLinkCurves {
		t.Errorf("bands: note %q, %d curves", bs.Note, strings.Count(bs.Overlay, `<g class="link"`))
	}
	if err := Markdown(&md, g); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "(strength "); n != maxLinkCurves+100 {
		t.Errorf("the report lists %d links", n)
	}
}

// BenchmarkSVGManyLinks draws a chain of 1,000 thoughts with 1,450 and
// 14,500 cross-references among them (issue 38: 0.34 and 12 s, 38 and
// 372 MB allocated, before labels were placed without listing every
// layer for each and the curves were bounded).
func BenchmarkSVGManyLinks(b *testing.B) {
	for _, links := range []int{1450, 14500} {
		g := linkedChain(1000, links)
		b.Run(fmt.Sprintf("links=%d", links), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := SVG(io.Discard, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// controls are the Unicode control characters (C0, DEL, C1), the
// noncharacters U+FFFE and U+FFFF and the line and paragraph separators:
// each in a text of its own, and all in one, as an ANSI colour code too.
func controls() []string {
	var out, all []string
	for r := rune(0); r <= 0x9F; r++ {
		if r < 0x20 || r >= 0x7F {
			out = append(out, fmt.Sprintf("a%cb", r))
			all = append(all, string(r))
		}
	}
	for _, r := range []rune{0xFFFE, 0xFFFF, 0x2028, 0x2029} {
		out = append(out, fmt.Sprintf("a%cb", r))
		all = append(all, string(r))
	}
	return append(out, "\x1b[31mred\x1b[0m "+strings.Join(all, ""))
}

// wellFormed decodes doc with Go's strict XML parser to its end.
func wellFormed(doc string) error {
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// Case 6 of issue 38: every SVG is well-formed XML whatever control
// character a text holds (ESC made the drawing unreadable), in a
// thought's text and id, the goal, a link's reason and the note; the
// character is shown by its picture (␛).
func TestSVGWellFormedWithControls(t *testing.T) {
	for _, c := range controls() {
		g := linkedChain(3, 1)
		g.Thoughts[0].Content, g.Thoughts[1].ID, g.Links[0].Reason = c, "id"+c, c
		g.Thoughts[2].ParentID = g.Thoughts[1].ID
		g.Links[0].FromThought = g.Thoughts[1].ID
		g.Session.Goal, g.Note = c, c
		var svg bytes.Buffer
		if err := SVG(&svg, g); err != nil {
			t.Fatal(err)
		}
		bs := g.Bands(20)
		for what, doc := range map[string]string{"SVG": svg.String(), "band": bs.Bands[0].SVG, "overlay": bs.Overlay} {
			if err := wellFormed(doc); err != nil {
				t.Errorf("%s of a text with %q: %v", what, c, err)
			}
		}
		if strings.HasPrefix(c, "\x1b") && !strings.Contains(svg.String(), "␛[31mred") {
			t.Errorf("ESC is not shown by its picture")
		}
	}
}
