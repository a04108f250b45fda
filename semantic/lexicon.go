package semantic

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// lexiconData is generated from WordNet 3.0 by scripts/gen-lexicon; the
// format is documented there. WordNet's license is in lexicon/LICENSE-WordNet.
//
//go:embed lexicon/lexicon.txt.gz
var lexiconData []byte

// LexiconVersion changes whenever the generated lexicon or the way it is
// read changes; it is part of the lexical embedder's model id.
const LexiconVersion = "wn30-3"

// Sense is one WordNet synset a word may denote, with a weight in (0,1]
// (1 for the word's most frequent sense).
type Sense struct {
	Synset int32
	Weight float32
	// Field is the WordNet lexicographer file of the synset, a coarse
	// semantic field (0-44: noun.person, verb.motion, ...).
	Field uint8
}

// Lexicon holds WordNet-derived tables: the likely senses of common English
// lemmas, hypernym links between synsets, antonym pairs, irregular
// inflections and background document frequencies (from WordNet glosses).
// A Lexicon is immutable and safe for concurrent use.
type Lexicon struct {
	senses  map[string][]Sense
	hyper   [][]int32
	antonym map[string]float64 // "a\x00b" (a<b) -> 1 direct, 0.6 indirect
	exc     map[string]string
	df      map[string]int32
	ndocs   int
}

var loadLexicon = sync.OnceValues(func() (*Lexicon, error) {
	return parseLexicon(lexiconData)
})

// lexiconOr returns lx, or a function that parses the embedded lexicon on
// its first call. The embedded data is checked by the package's tests, so a
// failure to parse it is a broken build: it panics with the cause.
func lexiconOr(lx *Lexicon) func() *Lexicon {
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

// DefaultLexicon returns the lexicon embedded in the binary. It is parsed
// on first use (about 50 ms) and shared afterwards.
func DefaultLexicon() (*Lexicon, error) { return loadLexicon() }

func parseLexicon(gz []byte) (*Lexicon, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	lx := &Lexicon{
		senses:  make(map[string][]Sense, 32768),
		antonym: make(map[string]float64, 12000),
		exc:     make(map[string]string, 3000),
		df:      make(map[string]int32, 22000),
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		bad := func() error { return fmt.Errorf("lexicon: malformed line %q", line) }
		switch f[0] {
		case "S":
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, bad()
			}
			lx.hyper = make([][]int32, n)
		case "W":
			if len(f) != 3 {
				return nil, bad()
			}
			parts := strings.Split(f[2], ",")
			ss := make([]Sense, 0, len(parts))
			for _, p := range parts {
				x := strings.Split(p, ":")
				if len(x) != 3 {
					return nil, bad()
				}
				id, err1 := strconv.Atoi(x[0])
				w, err2 := strconv.Atoi(x[1])
				f, err3 := strconv.Atoi(x[2])
				if err1 != nil || err2 != nil || err3 != nil {
					return nil, bad()
				}
				ss = append(ss, Sense{Synset: int32(id), Weight: float32(w) / 9, Field: uint8(f)})
			}
			lx.senses[f[1]] = ss
		case "H":
			id, err := strconv.Atoi(f[1])
			if err != nil || id >= len(lx.hyper) || len(f) != 3 {
				return nil, bad()
			}
			for _, p := range strings.Split(f[2], ",") {
				pid, err := strconv.Atoi(p)
				if err != nil {
					return nil, bad()
				}
				lx.hyper[id] = append(lx.hyper[id], int32(pid))
			}
		case "A", "I":
			if len(f) != 3 {
				return nil, bad()
			}
			conf := 1.0
			if f[0] == "I" {
				conf = 0.6
			}
			lx.antonym[pairKey(f[1], f[2])] = conf
		case "X":
			if len(f) != 3 {
				return nil, bad()
			}
			if _, ok := lx.exc[f[1]]; !ok {
				lx.exc[f[1]] = f[2]
			}
		case "N":
			lx.ndocs, _ = strconv.Atoi(f[1])
		case "D":
			n, err := strconv.Atoi(f[2])
			if err != nil {
				return nil, bad()
			}
			lx.df[f[1]] = int32(n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	if lx.ndocs == 0 || len(lx.senses) == 0 {
		return nil, fmt.Errorf("lexicon: empty")
	}
	return lx, nil
}

func pairKey(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "\x00" + b
}

// Senses returns the likely WordNet senses of lemma, most frequent first.
func (lx *Lexicon) Senses(lemma string) []Sense { return lx.senses[lemma] }

// Hypernyms returns the direct hypernyms of a synset (for adjective
// satellites: the head of their cluster).
func (lx *Lexicon) Hypernyms(synset int32) []int32 {
	if synset < 0 || int(synset) >= len(lx.hyper) {
		return nil
	}
	return lx.hyper[synset]
}

// Antonyms reports whether lemmas a and b are antonyms in WordNet, with a
// confidence: 1 for a direct antonym pair, lower for a pair that opposes
// through an adjective cluster (e.g. "scorching" and "cold").
func (lx *Lexicon) Antonyms(a, b string) (float64, bool) {
	c, ok := lx.antonym[pairKey(a, b)]
	return c, ok
}

// IDF returns the inverse document frequency of a Porter stem in the
// background corpus (WordNet glosses), smoothed: log((N+1)/(df+1)) + 1.
func (lx *Lexicon) IDF(stem string) float64 {
	return math.Log(float64(lx.ndocs+1)/float64(lx.df[stem]+1)) + 1
}

// DocFreq returns the background document frequency of a stem and the size
// of the background corpus.
func (lx *Lexicon) DocFreq(stem string) (df, n int) { return int(lx.df[stem]), lx.ndocs }

// Lemma returns the WordNet base form of a lower-case word ("children" →
// "child", "running" → "run", "mice" → "mouse") using WordNet's exception
// lists and detachment rules (morphy), or "" when no form is known.
func (lx *Lexicon) Lemma(w string) string {
	if l, ok := lx.exc[w]; ok {
		return l
	}
	if _, ok := lx.senses[w]; ok {
		return w
	}
	for _, r := range morphRules {
		if !strings.HasSuffix(w, r.suffix) || len(w)-len(r.suffix) < 2 {
			continue
		}
		base := w[:len(w)-len(r.suffix)] + r.repl
		if _, ok := lx.senses[base]; ok {
			return base
		}
		// running -> runn -> run
		if r.repl == "" && (r.suffix == "ing" || r.suffix == "ed" || r.suffix == "er" || r.suffix == "est") {
			n := len(base)
			if n >= 3 && base[n-1] == base[n-2] {
				if _, ok := lx.senses[base[:n-1]]; ok {
					return base[:n-1]
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
	if l, ok := lx.exc[w]; ok {
		add(l)
	}
	if _, ok := lx.senses[w]; ok {
		add(w)
	}
	for _, r := range morphRules {
		if !strings.HasSuffix(w, r.suffix) || len(w)-len(r.suffix) < 2 {
			continue
		}
		base := w[:len(w)-len(r.suffix)] + r.repl
		if _, ok := lx.senses[base]; ok {
			add(base)
		} else if n := len(base); r.repl == "" && n >= 3 && base[n-1] == base[n-2] {
			if _, ok := lx.senses[base[:n-1]]; ok {
				add(base[:n-1])
			}
		}
	}
	return out
}
