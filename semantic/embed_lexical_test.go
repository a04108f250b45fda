package semantic

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
)

func cos(a, b Vector) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func newLex(t testing.TB) *Lexical {
	t.Helper()
	e, err := NewLexical(LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestLexicalBasics(t *testing.T) {
	e := newLex(t)
	if e.Dim() != DefaultLexicalDim || e.Model() != "thinkgraph-lexical-v4+wn30-3+wv1+gv1/512" {
		t.Fatalf("Dim=%d Model=%q", e.Dim(), e.Model())
	}
	texts := []string{"A man is playing a guitar", "", "!!!", "The p99 latency is 20 ms"}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if len(v) != e.Dim() {
			t.Fatalf("len = %d", len(v))
		}
		if n := cos(v, v); math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d (%q) has |v|²=%v", i, texts[i], n)
		}
	}
	// Deterministic across instances.
	e2 := newLex(t)
	v2 := e2.EmbedText(texts[0])
	for i := range v2 {
		if v2[i] != vs[0][i] {
			t.Fatal("embedding not deterministic")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, texts); err == nil {
		t.Fatal("cancelled context accepted")
	}
	if _, err := NewLexical(LexicalOptions{Dim: 4}); err == nil {
		t.Fatal("tiny dimension accepted")
	}
}

func TestLexicalSimilarityOrdering(t *testing.T) {
	e := newLex(t)
	sim := func(a, b string) float64 { return cos(e.EmbedText(a), e.EmbedText(b)) }
	cases := []struct{ a, close, far string }{
		{"A kid is playing in the yard", "A child is playing in the yard", "A woman is slicing an onion"},
		{"The man is talking on the phone", "The man is speaking on the telephone", "The man is riding a horse"},
		{"Use PostgreSQL for the session store", "Store sessions in PostgreSQL", "The frontend needs a dark mode"},
		{"A man is playing a guitar", "There is no man playing a guitar", "A cat is sleeping on a sofa"},
		{"Caching reduces latency", "The cache lowers latency", "Write the release notes"},
	}
	for _, c := range cases {
		if s1, s2 := sim(c.a, c.close), sim(c.a, c.far); s1 <= s2+0.1 {
			t.Errorf("sim(%q, %q)=%.3f not clearly above sim(..., %q)=%.3f", c.a, c.close, s1, c.far, s2)
		}
	}
	// A paraphrase is closer than the negation, which is closer than an unrelated text.
	p := sim("A man is playing a guitar", "A man plays the guitar")
	n := sim("A man is playing a guitar", "A man is not playing a guitar")
	u := sim("A man is playing a guitar", "Two dogs run on the beach")
	if !(p > n && n > u) {
		t.Errorf("paraphrase %.3f, negation %.3f, unrelated %.3f: want decreasing", p, n, u)
	}
	// Two unrelated negated sentences do not look alike through "not".
	if s := sim("There is no man playing a guitar", "Nobody is slicing an onion"); s > 0.2 {
		t.Errorf("unrelated negations sim = %.3f", s)
	}
}

func TestLexicalObserve(t *testing.T) {
	e := newLex(t)
	before := cos(e.EmbedText("thinkgraph stores thoughts"), e.EmbedText("thinkgraph indexes vectors"))
	var texts []string
	for i := 0; i < 50; i++ {
		texts = append(texts, "thinkgraph session note")
	}
	e.Observe(texts...)
	after := cos(e.EmbedText("thinkgraph stores thoughts"), e.EmbedText("thinkgraph indexes vectors"))
	if after >= before {
		t.Fatalf("a word frequent in the session should weigh less: before %.3f after %.3f", before, after)
	}
}

func TestLexicalConcurrent(t *testing.T) {
	e := newLex(t)
	want := e.EmbedText("A dog is chasing a ball in the park")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				v := e.EmbedText("A dog is chasing a ball in the park")
				if v[0] != want[0] {
					t.Error("concurrent embedding differs")
					return
				}
				e.EmbedText("some other text number " + string(rune('a'+i%26)))
			}
		}()
	}
	wg.Wait()
}

// BenchmarkEmbedLexical embeds one typical thought (warm token cache, as in
// a running session).
func BenchmarkEmbedLexical(b *testing.B) {
	e := newLex(b)
	text := "We should not use PostgreSQL for the session store because the p99 latency of 20 ms is too high for interactive tools."
	e.EmbedText(text)
	b.ReportAllocs()
	for b.Loop() {
		e.EmbedText(text)
	}
}

// BenchmarkEmbedLexicalCold embeds texts whose words were never seen, so
// every token goes through lemmatisation, WordNet lookup and hashing.
func BenchmarkEmbedLexicalCold(b *testing.B) {
	e := newLex(b)
	text := "We should not use PostgreSQL for the session store because the p99 latency of 20 ms is too high for interactive tools."
	b.ReportAllocs()
	for b.Loop() {
		e.mu.Lock()
		clear(e.cache)
		e.mu.Unlock()
		e.EmbedText(text)
	}
}

func TestLexicalModelNamesWeights(t *testing.T) {
	w := DefaultLexicalWeights()
	a, _ := NewLexical(LexicalOptions{Weights: &w})
	if a.Model() != newLex(t).Model() {
		t.Fatalf("default weights renamed the model: %q", a.Model())
	}
	w.Negation = 0.5
	b, _ := NewLexical(LexicalOptions{Weights: &w})
	if b.Model() == a.Model() || !strings.HasPrefix(b.Model(), a.Model()+"~") {
		t.Fatalf("custom weights model = %q", b.Model())
	}
}
