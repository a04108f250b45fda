package semantic

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestLexicon(t *testing.T) {
	lx, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	lemmas := map[string]string{
		"children": "child", "mice": "mouse", "running": "run", "fed": "feed",
		"women": "woman", "plays": "play", "guitars": "guitar", "better": "good",
		"qwertyuiop": "",
	}
	for w, want := range lemmas {
		if got := lx.Lemma(w); got != want {
			t.Errorf("Lemma(%q) = %q, want %q", w, got, want)
		}
	}
	// Synonyms share their first sense.
	shares := func(a, b string) bool {
		for _, x := range lx.Senses(a) {
			for _, y := range lx.Senses(b) {
				if x.Synset == y.Synset {
					return true
				}
			}
		}
		return false
	}
	for _, p := range [][2]string{{"kid", "child"}, {"phone", "telephone"}, {"talk", "speak"}, {"car", "automobile"}} {
		if !shares(p[0], p[1]) {
			t.Errorf("%q and %q share no sense", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"fast", "slow"}, {"empty", "full"}, {"increase", "decrease"}, {"good", "bad"}} {
		if _, ok := lx.Antonyms(p[0], p[1]); !ok {
			t.Errorf("%q/%q not antonyms", p[0], p[1])
		}
	}
	if _, ok := lx.Antonyms("fast", "guitar"); ok {
		t.Error("fast/guitar antonyms")
	}
	if lx.IDF(Stem("guitar")) <= lx.IDF(Stem("use")) {
		t.Errorf("IDF(guitar) should exceed IDF(use)")
	}
	// Hypernyms: a boy is (two levels up) a person-like thing shared with child.
	if len(lx.Hypernyms(lx.Senses("boy")[0].Synset)) == 0 {
		t.Error("boy has no hypernym")
	}
	got := lx.Lemmas("cutting")
	if len(got) < 2 || (got[0] != "cut" && got[1] != "cut") {
		t.Errorf("Lemmas(cutting) = %v, want both cut and cutting", got)
	}
}

// BenchmarkOpenLexicon measures the one-time cost of opening the embedded
// lexicon (done lazily on first use): validating the image.
func BenchmarkOpenLexicon(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openLexicon(lexiconData); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLexiconLookups measures the lookups of the embedder and the
// contradiction decider on a typical sentence.
func BenchmarkLexiconLookups(b *testing.B) {
	lx, err := DefaultLexicon()
	if err != nil {
		b.Fatal(err)
	}
	toks := Tokenize("We should not use PostgreSQL for the session store because the p99 latency " +
		"of 20 ms is too high for interactive tools; the children were slicing geese.")
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range toks {
			for _, l := range lx.Lemmas(t) {
				for _, s := range lx.Senses(l) {
					lx.Hypernyms(s.Synset)
				}
			}
			lx.DocFreq(Stem(lx.Lemma(t)))
			lx.Antonyms(t, "cold")
		}
	}
}

// TestOpenLexiconInPlace checks that opening the lexicon copies nothing to
// the heap and that a damaged image is an error, not a panic later.
func TestOpenLexiconInPlace(t *testing.T) {
	if n := testing.AllocsPerRun(3, func() {
		if _, err := openLexicon(lexiconData); err != nil {
			t.Fatal(err)
		}
	}); n > 2 {
		t.Errorf("opening the lexicon allocates %v times", n)
	}
	lx, _ := DefaultLexicon()
	if n := testing.AllocsPerRun(10, func() {
		lx.Senses("child")
		lx.Hypernyms(lx.Senses("boy")[0].Synset)
		lx.Lemma("children")
		lx.DocFreq("child")
		lx.Antonyms("hot", "cold")
	}); n > 0 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		// Big-endian machines copy the records they return.
		t.Errorf("lookups allocate %v times", n)
	}
	for _, bad := range []string{"", lexiconData[:len(lexiconData)-1], "X" + lexiconData[1:],
		lexiconData[:100] + strings.Repeat("\xff", 8) + lexiconData[108:]} {
		if _, err := openLexicon(bad); err == nil {
			t.Errorf("a damaged image of %d bytes opened", len(bad))
		}
	}
}
