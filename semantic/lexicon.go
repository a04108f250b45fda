package semantic

import (
	_ "embed"
	"math"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic/lexicon"
)

// lexiconData is the image of the lexicon, generated from WordNet 3.0 by
// scripts/gen-lexicon; package semantic/lexicon documents its format.
// WordNet's license is in lexicon/LICENSE-WordNet. It lives in the
// executable's read-only data and is read in place, never parsed or copied
// to the heap; its pages are file-backed and shared (validating it on first
// use reads it once).
//
//go:embed lexicon/lexicon.bin
var lexiconData string

// LexiconVersion changes whenever the generated lexicon or the way it is
// read changes; it is part of the lexical embedder's model id.
const LexiconVersion = "wn30-3"

// Sense is one WordNet synset a word may denote, with a weight in (0,1]
// (1 for the word's most frequent sense).
type Sense = lexicon.Sense

// Lexicon holds WordNet-derived tables: the likely senses of common English
// lemmas, hypernym links between synsets, antonym pairs, irregular
// inflections and background document frequencies (from WordNet glosses).
// A Lexicon is immutable and safe for concurrent use.
type Lexicon struct {
	im *lexicon.Image
}

var loadLexicon = sync.OnceValues(func() (*Lexicon, error) {
	return openLexicon(lexiconData)
})

// LexiconOr returns lx, or a function that opens the embedded lexicon on
// its first call. The embedded image is checked by the package's tests, so
// a failure to open it is a broken build: it panics with the cause.
func LexiconOr(lx *Lexicon) func() *Lexicon {
	if lx != nil {
		return func() *Lexicon { return lx }
	}
	return func() *Lexicon {
		lx, err := DefaultLexicon()
		if err != nil {
			panic("semantic: the embedded lexicon cannot be read: " + err.Error())
		}
		return lx
	}
}

// DefaultLexicon returns the lexicon embedded in the binary. Its image is
// validated on first use (a few milliseconds, no parsing and no copy to the
// heap) and shared afterwards.
func DefaultLexicon() (*Lexicon, error) { return loadLexicon() }

// openLexicon validates a lexicon image (see package semantic/lexicon) and
// returns a Lexicon reading it in place.
func openLexicon(image string) (*Lexicon, error) {
	im, err := lexicon.Open(image)
	if err != nil {
		return nil, err
	}
	return &Lexicon{im: im}, nil
}

// Senses returns the likely WordNet senses of lemma, most frequent first.
// The result must not be modified.
func (lx *Lexicon) Senses(lemma string) []Sense { return lx.im.Senses(lemma) }

// EachWord calls f with every lemma that has senses, in the order of the
// lexicon image.
func (lx *Lexicon) EachWord(f func(lemma string)) { lx.im.EachWord(f) }

// Hypernyms returns the direct hypernyms of a synset (for adjective
// satellites: the head of their cluster). The result must not be modified.
func (lx *Lexicon) Hypernyms(synset int32) []int32 { return lx.im.Hypernyms(synset) }

// Antonyms reports whether lemmas a and b are antonyms in WordNet, with a
// confidence: 1 for a direct antonym pair, lower for a pair that opposes
// through an adjective cluster (e.g. "scorching" and "cold").
func (lx *Lexicon) Antonyms(a, b string) (float64, bool) {
	direct, ok := lx.im.Antonyms(a, b)
	switch {
	case !ok:
		return 0, false
	case direct:
		return 1, true
	default:
		return 0.6, true
	}
}

// IDF returns the inverse document frequency of a Porter stem in the
// background corpus (WordNet glosses), smoothed: log((N+1)/(df+1)) + 1.
func (lx *Lexicon) IDF(stem string) float64 {
	return math.Log(float64(lx.im.Docs()+1)/float64(lx.im.DocFreq(stem)+1)) + 1
}

// DocFreq returns the background document frequency of a stem and the size
// of the background corpus.
func (lx *Lexicon) DocFreq(stem string) (df, n int) { return lx.im.DocFreq(stem), lx.im.Docs() }

// Lemma returns the WordNet base form of a lower-case word ("children" →
// "child", "running" → "run", "mice" → "mouse") using WordNet's exception
// lists and detachment rules (morphy), or "" when no form is known.
func (lx *Lexicon) Lemma(w string) string {
	if l, ok := lx.im.Exception(w); ok {
		return l
	}
	if _, ok := lx.im.Word(w, ""); ok {
		return w
	}
	for _, r := range morphRules {
		if !strings.HasSuffix(w, r.suffix) || len(w)-len(r.suffix) < 2 {
			continue
		}
		stem := w[:len(w)-len(r.suffix)]
		if base, ok := lx.im.Word(stem, r.repl); ok {
			return base
		}
		// running -> runn -> run
		if r.repl == "" && (r.suffix == "ing" || r.suffix == "ed" || r.suffix == "er" || r.suffix == "est") {
			if n := len(stem); n >= 3 && stem[n-1] == stem[n-2] {
				if _, ok := lx.im.Word(stem[:n-1], ""); ok {
					return stem[:n-1]
				}
			}
		}
	}
	return ""
}

var morphRules = []rule{
	{"ies", "y"}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"},
	{"shes", "sh"}, {"men", "man"}, {"es", "e"}, {"es", ""}, {"s", ""},
	{"ing", "e"}, {"ing", ""}, {"ed", "e"}, {"ed", ""},
	{"est", "e"}, {"est", ""}, {"er", "e"}, {"er", ""},
}

// Lemmas returns every base form of w known to the lexicon, most likely
// first: "cutting" gives "cutting" (the noun) and "cut" (the verb).
func (lx *Lexicon) Lemmas(w string) []string {
	var out []string
	add := func(l string) {
		for _, x := range out {
			if x == l {
				return
			}
		}
		out = append(out, l)
	}
	if l, ok := lx.im.Exception(w); ok {
		add(l)
	}
	if _, ok := lx.im.Word(w, ""); ok {
		add(w)
	}
	for _, r := range morphRules {
		if !strings.HasSuffix(w, r.suffix) || len(w)-len(r.suffix) < 2 {
			continue
		}
		stem := w[:len(w)-len(r.suffix)]
		if base, ok := lx.im.Word(stem, r.repl); ok {
			add(base)
		} else if n := len(stem); r.repl == "" && n >= 3 && stem[n-1] == stem[n-2] {
			if _, ok := lx.im.Word(stem[:n-1], ""); ok {
				add(stem[:n-1])
			}
		}
	}
	return out
}
