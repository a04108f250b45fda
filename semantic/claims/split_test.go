package claims

import (
	"slices"
	"strings"
	"testing"
)

func texts(cs []Claim) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text
	}
	return out
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"one sentence", "The pool is capped at 20 connections.", []string{"The pool is capped at 20 connections."}},
		{"abbreviations", "We use e.g. PostgreSQL for the U.S. region. Dr. Smith agreed.",
			[]string{"We use e.g. PostgreSQL for the U.S. region.", "Dr. Smith agreed."}},
		{"number ends a sentence", "It opened in 1998. It closed in 2004.", []string{"It opened in 1998.", "It closed in 2004."}},
		{"decimal", "Latency is 3.5 ms on average.", []string{"Latency is 3.5 ms on average."}},
		{"clock time and thousands", "The shops open at 7:00, and 1,900 litres were used by the boiler.",
			[]string{"The shops open at 7:00,", "and 1,900 litres were used by the boiler."}},
		{"contrast", "The primary handles the load comfortably, but the replicas lag behind at peak.",
			[]string{"The primary handles the load comfortably,", "but the replicas lag behind at peak."}},
		{"reason", "We pick SQLite because the data fits on one disk.", []string{"We pick SQLite", "because the data fits on one disk."}},
		{"semicolon", "Backups run nightly; restores were tested in March.", []string{"Backups run nightly;", "restores were tested in March."}},
		{"list stays whole", "It is made from rye flour, water, and salt.", []string{"It is made from rye flour, water, and salt."}},
		{"and with own clause", "The cache is warm, and the database is idle most nights.",
			[]string{"The cache is warm,", "and the database is idle most nights."}},
		{"short side stays whole", "Yes, but slowly.", []string{"Yes, but slowly."}},
		{"line breaks", "- first point is here\n- second point is there", []string{"first point is here", "second point is there"}},
		{"blank", "  \n ", nil},
		{"because of stays", "The job failed because of a timeout in the loader.", []string{"The job failed because of a timeout in the loader."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := texts(Split(tc.in))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Split(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// The claims are spans of the text, in order, without overlap.
func TestSplitSpans(t *testing.T) {
	in := "First, we measured it; the p99 was 40 ms. Then, because the cache was cold, it rose to 90 ms, but only once.\nDone."
	at := 0
	for _, c := range Split(in) {
		if c.Start < at || c.End > len(in) || in[c.Start:c.End] != c.Text {
			t.Fatalf("claim %+v is not an ordered span of the text", c)
		}
		at = c.End
	}
}

func TestSplitBounded(t *testing.T) {
	in := strings.Repeat("The connection pool is capped at 20 connections. ", 400)
	cs := Split(in)
	if len(cs) != MaxClaims {
		t.Fatalf("%d claims, want %d", len(cs), MaxClaims)
	}
	if cs[len(cs)-1].End != len(strings.TrimSpace(in)) {
		t.Fatalf("the last claim does not hold the rest: ends at %d of %d", cs[len(cs)-1].End, len(in))
	}
}

func BenchmarkSplit10k(b *testing.B) {
	in := strings.Repeat("The connection pool is capped at 20 connections, but it grows under load. ", 135)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Split(in)
	}
}
