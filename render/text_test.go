package render

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// wrapTextQuadratic is wrapText as it was before it was made linear
// (issue 38): it measured each candidate line, and the ellipsis of the
// last, from scratch. The linear one must draw the same lines.
func wrapTextQuadratic(s string, width, size float64, lines int) []string {
	fit := func(s string) string {
		s = clip(s, len(s)+1)
		if textWidth(s, size) <= width {
			return s
		}
		rs := []rune(s)
		for len(rs) > 0 && textWidth(string(rs)+"…", size) > width {
			rs = rs[:len(rs)-1]
		}
		return strings.TrimRight(string(rs), " ") + "…"
	}
	words := strings.Fields(validUTF8(s))
	var out []string
	cur := ""
	for i := 0; i < len(words); {
		w := words[i]
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if textWidth(try, size) <= width {
			cur = try
			i++
			continue
		}
		if cur == "" {
			rs := []rune(w)
			n := 1
			for n < len(rs) && textWidth(string(rs[:n+1]), size) <= width {
				n++
			}
			cur, words[i] = string(rs[:n]), string(rs[n:])
		}
		out = append(out, cur)
		cur = ""
		if len(out) == lines {
			if rest := strings.TrimSpace(strings.Join(words[i:], " ")); rest != "" {
				out[lines-1] = fit(out[lines-1] + " " + rest)
			}
			return out
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// The linear wrapText draws what the quadratic one drew, on texts of
// every kind: words of every length (longer than a line too), wide and
// narrow characters, CJK, runs of white space, texts that fit and texts
// far too long, and on narrow boxes.
func TestWrapTextAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	alphabet := []rune("aaaaeeiilmwMW .,;'\t\n漢字字ñ€…-😀")
	for i := 0; i < 2000; i++ {
		n := r.IntN(400)
		if i%400 == 0 {
			n = 3000
		}
		rs := make([]rune, n)
		for j := range rs {
			rs[j] = alphabet[r.IntN(len(alphabet))]
		}
		if i%7 == 0 { // one long word
			rs = []rune(strings.Repeat("x", n))
		}
		s := string(rs)
		width := []float64{nodeW - 2*padX, 40, 8}[i%3]
		lines := 1 + i%4
		got, want := wrapText(s, width, fontSize, lines), wrapTextQuadratic(s, width, fontSize, lines)
		if !slices.Equal(got, want) {
			t.Fatalf("text %q (width %v, %d lines):\n got  %q\n want %q", s, width, lines, got, want)
		}
	}
}

// BenchmarkSVGLongText draws ten thoughts of 100, 1,000 and 10,000
// characters: the time per drawing grows with the text no faster than
// linearly (it grew with its square, issue 38: 9.9 s at 10,000).
func BenchmarkSVGLongText(b *testing.B) {
	words := []string{"the", "cache", "latency", "grows", "when", "queue", "depth", "passes", "limit", "and", "requests", "retry"}
	var sb strings.Builder
	for i := 0; sb.Len() < 10000; i++ {
		sb.WriteString(words[(i*7)%len(words)] + " ")
	}
	for _, n := range []int{100, 1000, 10000} {
		g := &Graph{Session: thinkgraph.Session{ID: "s"}}
		parent := ""
		for i := 1; i <= 10; i++ {
			id := fmt.Sprint("t", i)
			g.Thoughts = append(g.Thoughts, thinkgraph.Thought{ID: id, ParentID: parent, BranchID: "main", Step: i, Content: sb.String()[:n]})
			parent = id
		}
		b.Run(fmt.Sprintf("chars=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := SVG(io.Discard, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
