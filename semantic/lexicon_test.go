package semantic

import "testing"

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

// BenchmarkParseLexicon measures the one-time cost of reading the embedded
// lexicon (done lazily on first use).
func BenchmarkParseLexicon(b *testing.B) {
	for b.Loop() {
		if _, err := parseLexicon(lexiconData); err != nil {
			b.Fatal(err)
		}
	}
}
