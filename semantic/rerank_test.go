package semantic

import (
	"slices"
	"strconv"
	"testing"
)

func rerankLexicon(t *testing.T) *Lexicon {
	t.Helper()
	lx, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	return lx
}

func TestWordSimilarity(t *testing.T) {
	lx := rerankLexicon(t)
	sim := func(a, b string) float32 {
		t.Helper()
		wa, wb := alignWords(lx, a), alignWords(lx, b)
		if len(wa) != 1 || len(wb) != 1 {
			t.Fatalf("%q, %q: want one content word each, got %d and %d", a, b, len(wa), len(wb))
		}
		s, back := wordSimilarity(&wa[0], &wb[0], 1), wordSimilarity(&wb[0], &wa[0], 1)
		if s != back || s < 0 || s > 1 {
			t.Fatalf("sim(%q, %q) = %v, sim(%q, %q) = %v: want one value in [0, 1]", a, b, s, b, a, back)
		}
		return s
	}
	for _, c := range []struct {
		a, b   string
		lo, hi float32
	}{
		{"baking", "baked", 1, 1},           // one stem
		{"physician", "doctor", 1, 1},       // one WordNet sense
		{"attorney", "lawyer", 1, 1},        // one WordNet sense
		{"chicken", "poultry", 0.8, 0.8},    // direct hypernym, no closer cosine
		{"salary", "wages", 0.5, 0.99},      // distributional neighbours
		{"judge", "banana", 0, 0.3},         // unrelated
		{"fermentation", "tuesday", 0, 0.3}, // unrelated
	} {
		if s := sim(c.a, c.b); s < c.lo || s > c.hi {
			t.Errorf("sim(%q, %q) = %.3f, want in [%.2f, %.2f]", c.a, c.b, s, c.lo, c.hi)
		}
	}
}

func TestWordAlignment(t *testing.T) {
	lx := rerankLexicon(t)
	for _, c := range []struct{ a, para, other string }{
		{"The physician prescribed medicine.", "The doctor gave the patient drugs.", "The farmer planted wheat in spring."},
		{"The tenant must give notice before leaving.", "A renter has to warn the owner before moving out.", "The court awarded damages to the plaintiff."},
		{"Sell the shares before the merger.", "Get rid of the stock ahead of the acquisition.", "Water the tomatoes every evening."},
	} {
		p, o := WordAlignment(lx, c.a, c.para), WordAlignment(lx, c.a, c.other)
		if p <= o+0.1 {
			t.Errorf("%q: aligns %.3f with its paraphrase %q, %.3f with %q: want the paraphrase well ahead", c.a, p, c.para, o, c.other)
		}
		if back := WordAlignment(lx, c.para, c.a); back != p {
			t.Errorf("alignment not symmetric: %v vs %v", p, back)
		}
		for _, x := range []float64{p, o} {
			if x < 0 || x > 1 {
				t.Errorf("alignment %v outside [0, 1]", x)
			}
		}
	}
	if a := WordAlignment(lx, "Stain the slides.", "stain the SLIDES"); a != 1 {
		t.Errorf("a text aligns %v with itself, want 1", a)
	}
	if a := WordAlignment(lx, "it is what it was", "Stain the slides."); a != 0 {
		t.Errorf("a text without content words aligns %v, want 0", a)
	}
}

// A lab session: the queries describe thoughts in other words, and the
// index's cosine alone ranks another thought first for each.
func TestRerank(t *testing.T) {
	lx := rerankLexicon(t)
	e, err := NewLexical(LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{
		"Centrifuge the samples at 4000 rpm for ten minutes.",
		"Store the antibodies at minus twenty degrees.",
		"Stain the tissue sections with hematoxylin.",
		"Count the colonies on each agar plate after two days.",
		"Sterilise the instruments in the autoclave.",
		"Record the mouse weights every morning.",
		"Dilute the stock solution tenfold with distilled water.",
		"Wear gloves and goggles when handling acids.",
		"Calibrate the pH meter before each use.",
		"Extract DNA from the leaf samples.",
		"Run the PCR products on an agarose gel.",
		"Incubate the cultures at 37 degrees overnight.",
		"Dispose of biohazard waste in the red bins.",
		"Photograph the cells under the microscope.",
		"Randomise the animals into treatment and control groups.",
		"Submit the ethics application before the study starts.",
	}
	x := NewIndex(0)
	for i, d := range docs {
		if err := x.Add(strconv.Itoa(i), e.EmbedText(d)); err != nil {
			t.Fatal(err)
		}
	}
	text := func(h Hit) string {
		i, err := strconv.Atoi(h.ID)
		if err != nil {
			t.Fatal(err)
		}
		return docs[i]
	}
	for _, c := range []struct {
		q      string
		answer int
	}{
		{"spin the tubes fast so the solids settle", 0},
		{"keep the immunoglobulins in the freezer", 1},
		{"weigh the rodents daily at dawn", 5},
		{"pull genetic material out of plant tissue", 9},
	} {
		hits, err := x.TopKCentred(e.EmbedText(c.q), RerankPool, nil)
		if err != nil {
			t.Fatal(err)
		}
		orig := slices.Clone(hits)
		got := Rerank(lx, c.q, hits, text)
		if !slices.Equal(hits, orig) {
			t.Fatal("Rerank modified its input")
		}
		if len(got) != len(docs) {
			t.Fatalf("%q: %d hits, want %d", c.q, len(got), len(docs))
		}
		if got[0].ID != strconv.Itoa(c.answer) {
			t.Errorf("%q: first %q, want %q", c.q, text(got[0]), docs[c.answer])
		}
		ids := map[string]bool{}
		for i, h := range got {
			ids[h.ID] = true
			if h.Similarity < -1 || h.Similarity > 1 || (i > 0 && h.Similarity > got[i-1].Similarity) {
				t.Fatalf("%q: similarities not in [-1, 1] or not descending: %+v", c.q, got)
			}
		}
		if len(ids) != len(docs) {
			t.Fatalf("%q: hits lost or repeated: %+v", c.q, got)
		}
	}
	// A query without content words has nothing to align: the index's
	// order and similarities stand.
	hits, err := x.TopKCentred(e.EmbedText("what is it about"), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Rerank(lx, "what is it about", hits, text); !slices.Equal(got, hits) {
		t.Errorf("query without content words: %+v, want %+v", got, hits)
	}
}

// In a search a synonym outweighs the query's own word: two hits alike
// but for that word, the one with the synonym comes first, ahead of the
// one the index put first.
func TestRerankSynonymOverSameWord(t *testing.T) {
	lx := rerankLexicon(t)
	texts := map[string]string{
		"same":    "Ask the doctors about the rash.",
		"synonym": "Ask the physician about the rash.",
		"other":   "Water the tomatoes every evening.",
	}
	hits := []Hit{{ID: "same", Similarity: 0.3}, {ID: "synonym", Similarity: 0.3}, {ID: "other", Similarity: 0.3}}
	got := Rerank(lx, "see a doctor about the rash", hits, func(h Hit) string { return texts[h.ID] })
	if got[0].ID != "synonym" || got[1].ID != "same" {
		t.Errorf("order %v, want synonym, same, other", got)
	}
	if d := got[0].Similarity - got[1].Similarity; d <= 0 || d > 0.5*(1-searchSameStem) {
		t.Errorf("synonym ahead by %.3f, want in (0, %.2f]: one word of the query at %v instead of 1", d, 0.5*(1-searchSameStem), searchSameStem)
	}
}

// BenchmarkRerank is the re-ranking stage of findSimilar: a pool of
// RerankPool candidates.
func BenchmarkRerank(b *testing.B) {
	lx, err := DefaultLexicon()
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, RerankPool)
	hits := make([]Hit, RerankPool)
	for i := range hits {
		texts[i] = "Incubate culture " + strconv.Itoa(i) + " overnight at 37 degrees before counting the colonies on the agar plates."
		hits[i] = Hit{ID: strconv.Itoa(i), Similarity: 0.5 - float64(i)/100}
	}
	text := func(h Hit) string { i, _ := strconv.Atoi(h.ID); return texts[i] }
	Rerank(lx, "keep the bacteria warm through the night", hits, text)
	b.ResetTimer()
	for range b.N {
		Rerank(lx, "keep the bacteria warm through the night", hits, text)
	}
}
