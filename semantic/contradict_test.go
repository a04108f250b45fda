package semantic

import (
	"strings"
	"testing"
)

func TestContradictionReasoningPairs(t *testing.T) {
	c, err := NewContradictor(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		a, b   string
		want   bool
		reason string // substring of Reason when want is true
	}{
		// Design decisions.
		{"Use PostgreSQL for the store", "Do not use PostgreSQL for the store", true, "negation"},
		{"We will cache the session list", "We won't cache the session list", true, "negation"},
		{"The API should never expose internal IDs", "The API should expose internal IDs", true, "negation"},
		{"Use PostgreSQL for the store", "Use SQLite for the store", false, ""},
		{"Do not use PostgreSQL for the store", "Do not use MySQL for the store", false, ""},
		{"We don't use PostgreSQL", "We never use PostgreSQL", false, ""},
		// Numbers.
		{"The p99 latency is 20 ms", "The p99 latency is 200 ms", true, "numbers"},
		{"The cluster has three replicas", "The cluster has five replicas", true, "numbers"},
		{"The p99 latency is 20 ms", "The p99 latency is 20 ms under load", false, ""},
		{"The p99 latency is 20 ms", "The build takes 200 seconds", false, ""},
		// Comparatives.
		{"Redis is faster than PostgreSQL", "Redis is slower than PostgreSQL", true, "antonyms"},
		{"Redis is faster than PostgreSQL", "PostgreSQL is slower than Redis", false, ""},
		{"Redis is faster than PostgreSQL", "PostgreSQL is faster than Redis", true, "comparatives"},
		{"Memory usage will increase after the change", "Memory usage will decrease after the change", true, "antonyms"},
		{"Memory usage will increase after the change", "Memory usage will increase after the upgrade", false, ""},
		// Antonyms in predicate position.
		{"The queue is empty", "The queue is full", true, "antonyms"},
		{"The cache is cold", "The cache is hot", true, "antonyms"},
		{"The migration succeeded", "The migration failed", true, "antonyms"},
		// Attributive adjectives pick out different things.
		{"A large table holds the logs", "A small table holds the logs", false, ""},
		// Negated paraphrases that are NOT contradictions.
		{"We should not ignore caching", "Caching matters", false, ""},
		{"There is no reason to doubt the benchmark", "The benchmark is reliable", false, ""},
		{"Nothing prevents us from sharding later", "We can shard later", false, ""},
		// Unrelated negations.
		{"The tests do not cover the parser", "The deployment uses Kubernetes", false, ""},
		{"There is no man playing a guitar", "A woman is slicing an onion", false, ""},
		// SICK-style.
		{"A man is playing a guitar", "There is no man playing a guitar", true, "negation"},
		{"A kid is playing in the yard", "No child is playing in the yard", true, "negation"},
		{"A man is running", "There is no man running down the road", false, ""},
		{"A man is riding a horse", "Nobody is riding a horse", true, "negation"},
		{"A man is riding a horse", "There is no person riding a horse", true, "negation"},
		{"A dog is running", "There is no puppy running", false, ""},
		{"A man is talking", "A woman is talking", false, ""},
		{"A man with no shirt is holding a football", "A man with a shirt is holding a football", false, ""},
	}
	for _, tc := range cases {
		v := c.Contradiction(tc.a, tc.b)
		if v.Contradicts != tc.want {
			t.Errorf("Contradiction(%q, %q) = %v (%s), want %v", tc.a, tc.b, v.Contradicts, v.Reason, tc.want)
			continue
		}
		// The decision must not depend on argument order.
		if r := c.Contradiction(tc.b, tc.a); r.Contradicts != tc.want {
			t.Errorf("Contradiction(%q, %q) = %v (%s) in reverse order, want %v", tc.b, tc.a, r.Contradicts, r.Reason, tc.want)
		}
		if tc.want {
			if !strings.HasPrefix(v.Reason, tc.reason) {
				t.Errorf("Contradiction(%q, %q).Reason = %q, want prefix %q", tc.a, tc.b, v.Reason, tc.reason)
			}
			if v.Confidence <= 0.5 || v.Confidence > 1 {
				t.Errorf("Contradiction(%q, %q).Confidence = %v", tc.a, tc.b, v.Confidence)
			}
		} else if v.Confidence != 0 {
			t.Errorf("Contradiction(%q, %q): no contradiction but confidence %v", tc.a, tc.b, v.Confidence)
		}
	}
}

func TestContradictionReason(t *testing.T) {
	c, _ := NewContradictor(nil)
	v := c.Contradiction("A man is playing guitar", "There is no man playing guitar")
	want := `negation: B negates "man playing guitar" ("no"), which A asserts`
	if v.Reason != want {
		t.Fatalf("Reason = %q, want %q", v.Reason, want)
	}
}

func TestContradictionMultiSentence(t *testing.T) {
	c, _ := NewContradictor(nil)
	a := "We benchmarked three stores. Use PostgreSQL for the store. The p99 latency is 20 ms."
	b := "We reviewed it again. Do not use PostgreSQL for the store! SQLite is simpler."
	v := c.Contradiction(a, b)
	if !v.Contradicts || !strings.Contains(v.Reason, "negation") || !strings.Contains(v.Reason, "Use PostgreSQL for the store") {
		t.Fatalf("verdict = %+v", v)
	}
	if v := c.Contradiction(a, "We benchmarked three stores. SQLite is simpler."); v.Contradicts {
		t.Fatalf("false contradiction: %+v", v)
	}
	if got := splitSentences("Latency is 3.5 ms. Fine!  Next; last"); len(got) != 4 || got[0] != "Latency is 3.5 ms" {
		t.Fatalf("splitSentences = %q", got)
	}
}

func BenchmarkContradiction(b *testing.B) {
	c, _ := NewContradictor(nil)
	for b.Loop() {
		c.Contradiction("We should not use PostgreSQL for the session store", "Use PostgreSQL for the session store because it is durable")
	}
}
