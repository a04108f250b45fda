package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// synonymPairs reads files of lines "word word" (the format of the lexical
// paraphrase lists named in the command's comment) and returns the pairs
// whose two words are both in idx, as indices, each pair once (the smaller
// index first) in the order first read. Lines of another form (phrases,
// comments) are skipped.
func synonymPairs(paths []string, idx map[string]int32) ([][2]int32, error) {
	seen := map[[2]int32]bool{}
	var out [][2]int32
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(strings.ToLower(sc.Text()))
			if len(fs) != 2 {
				continue
			}
			a, okA := idx[fs[0]]
			b, okB := idx[fs[1]]
			if !okA || !okB || a == b {
				continue
			}
			k := [2]int32{min(a, b), max(a, b)}
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return out, nil
}

// retrofit moves each word's vector towards its synonyms' (Faruqui et al.,
// "Retrofitting word vectors to semantic lexicons", NAACL 2015): iters
// rounds of
//
//	q_i = (alpha·q̂_i + mean of q_j over the synonyms j of i) / (alpha + 1)
//
// where q̂_i is the word's own vector, updated in place in index order (as
// the paper's reference code does); words without a synonym keep theirs.
// The result depends only on the vectors, the pairs and their order.
func retrofit(vecs [][]float64, pairs [][2]int32, iters int, alpha float64) {
	adj := make([][]int32, len(vecs))
	for _, p := range pairs {
		adj[p[0]] = append(adj[p[0]], p[1])
		adj[p[1]] = append(adj[p[1]], p[0])
	}
	orig := make([][]float64, len(vecs))
	for i, nb := range adj {
		if len(nb) > 0 {
			orig[i] = append([]float64(nil), vecs[i]...)
		}
	}
	if len(vecs) == 0 {
		return
	}
	mean := make([]float64, len(vecs[0]))
	for range iters {
		for i, nb := range adj {
			if len(nb) == 0 {
				continue
			}
			clear(mean)
			for _, j := range nb {
				for k, x := range vecs[j] {
					mean[k] += x
				}
			}
			for k := range mean {
				vecs[i][k] = (alpha*orig[i][k] + mean[k]/float64(len(nb))) / (alpha + 1)
			}
		}
	}
}
