package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSynonymPairs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	// Unknown words, phrases, self-pairs and repeats (either way round, in
	// either file) are left out.
	os.WriteFile(a, []byte("cheap inexpensive\nCheap\tlow-cost\nmoney laundering washing\nfall fall\nfall tumble\n"), 0o644)
	os.WriteFile(b, []byte("inexpensive cheap\ntumble fall\nlorry truck\nfall unknownword\n"), 0o644)
	idx := map[string]int32{"cheap": 0, "inexpensive": 1, "low-cost": 2, "fall": 3, "tumble": 4, "truck": 5, "lorry": 6}
	got, err := synonymPairs([]string{a, b}, idx)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int32{{0, 1}, {0, 2}, {3, 4}, {5, 6}}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	if _, err := synonymPairs([]string{filepath.Join(dir, "missing.txt")}, idx); err == nil {
		t.Error("a missing file gave no error")
	}
}

func TestRetrofitMovesSynonymsTogether(t *testing.T) {
	vecs := [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}}
	before := cos(vecs[0], vecs[1])
	retrofit(vecs, [][2]int32{{0, 1}}, 10, 2)
	if after := cos(vecs[0], vecs[1]); !(after > before+0.3) {
		t.Errorf("synonyms' cosine %.3f → %.3f, want it well up", before, after)
	}
	// Each keeps more of its own vector than of the other's (alpha 2).
	if !(vecs[0][0] > vecs[0][1] && vecs[1][1] > vecs[1][0]) {
		t.Errorf("retrofitted vectors %v and %v lost their own direction", vecs[0], vecs[1])
	}
	// Words without a synonym keep their vectors.
	if !slices.Equal(vecs[2], []float64{0, 0, 1}) || !slices.Equal(vecs[3], []float64{1, 1, 0}) {
		t.Errorf("unlinked vectors changed: %v %v", vecs[2], vecs[3])
	}
	// A larger alpha moves less.
	strong := [][]float64{{1, 0, 0}, {0, 1, 0}}
	weak := [][]float64{{1, 0, 0}, {0, 1, 0}}
	retrofit(strong, [][2]int32{{0, 1}}, 10, 1)
	retrofit(weak, [][2]int32{{0, 1}}, 10, 8)
	if !(cos(strong[0], strong[1]) > cos(weak[0], weak[1])) {
		t.Errorf("alpha 1 gave cosine %.3f, alpha 8 %.3f: want the first higher", cos(strong[0], strong[1]), cos(weak[0], weak[1]))
	}
}

func cos(a, b []float64) float64 { return dot(a, b) / math.Sqrt(dot(a, a)*dot(b, b)) }
