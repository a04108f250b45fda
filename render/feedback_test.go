package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// TestFeedbackRendered: a refuted thought is marked as refuted in every
// drawing, and the feedback is listed (escaped) in the reports; a
// confirmed thought is not marked.
func TestFeedbackRendered(t *testing.T) {
	g := smallGraph(false)
	at := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	g.Feedback = []thinkgraph.Feedback{
		{ID: "f1", ThoughtID: "d", Kind: "refute", Text: "Wrong: <b>no</b>", Author: "human", CreatedAt: at, DeliveredAt: &at},
		{ID: "f2", ThoughtID: "a", Kind: "confirm", Text: "Right", Author: "human", CreatedAt: at},
	}
	for _, c := range []struct {
		name string
		fn   func(*bytes.Buffer, *Graph) error
		want []string
	}{
		{"markdown", func(b *bytes.Buffer, g *Graph) error { return Markdown(b, g) },
			[]string{"✗ refuted by a person", "## Human feedback", "Step 4 · refute by human", "not delivered to the model yet"}},
		{"html", func(b *bytes.Buffer, g *Graph) error { return HTML(b, g) },
			[]string{"refuted by a person", "<h2>Human feedback</h2>", "Wrong: &lt;b&gt;no&lt;/b&gt;", "Step 1 · confirm"}},
		{"svg", func(b *bytes.Buffer, g *Graph) error { return SVG(b, g) }, []string{`refuted" data-id="d"`, "refuted-mark"}},
		{"mermaid", func(b *bytes.Buffer, g *Graph) error { return Mermaid(b, g) }, []string{"classDef refuted", "class t4 refuted"}},
		{"dot", func(b *bytes.Buffer, g *Graph) error { return DOT(b, g) }, []string{"✗ refuted"}},
	} {
		var b bytes.Buffer
		if err := c.fn(&b, g); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: %q missing", c.name, w)
			}
		}
		if strings.Count(b.String(), "refuted by a person") > 1 || strings.Count(b.String(), "refuted-mark") > 1 {
			t.Errorf("%s: more than the one refuted thought marked", c.name)
		}
		if strings.Contains(b.String(), "<b>no</b>") {
			t.Errorf("%s: feedback text not escaped", c.name)
		}
	}
}
