package semantic

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"
)

func wvCos(t *testing.T, wv *wordVectors, a, b string) float64 {
	t.Helper()
	va, vb := wv.vector(a), wv.vector(b)
	if va == "" || vb == "" {
		t.Fatalf("no vector for %q or %q", a, b)
	}
	var d, na, nb float64
	for i := range va {
		x, y := float64(int8(va[i])), float64(int8(vb[i]))
		d, na, nb = d+x*y, na+x*x, nb+y*y
	}
	return d / math.Sqrt(na*nb)
}

func TestWordVectorsEmbedded(t *testing.T) {
	// Opened without its checksum at run time: it is checked here.
	wv, err := openWordVectors(wordVecData, true)
	if err != nil {
		t.Fatalf("the embedded word vectors: %v", err)
	}
	if wv.dim != 64 || wv.n < 20000 {
		t.Fatalf("dim %d, %d words", wv.dim, wv.n)
	}
	lx, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"guitar", "eat", "man", "vegetable"} {
		if wv.vector(w) == "" || len(lx.Senses(w)) == 0 {
			t.Errorf("%q: no vector or no senses", w)
		}
	}
	if wv.vector("zzzz") != "" || wv.vector("") != "" {
		t.Error("vector for an unknown word")
	}
	// Graded similarity: related words are closer than unrelated ones.
	for _, c := range [][4]string{
		{"eat", "lunch", "eat", "guitar"},
		{"tomato", "vegetable", "tomato", "run"},
		{"cut", "slice", "cut", "woman"},
		{"guitar", "flute", "guitar", "lunch"},
	} {
		if near, far := wvCos(t, wv, c[0], c[1]), wvCos(t, wv, c[2], c[3]); near <= far+0.1 {
			t.Errorf("cos(%s,%s)=%.3f not above cos(%s,%s)=%.3f", c[0], c[1], near, c[2], c[3], far)
		}
	}
}

// A small word-vector image's words and vectors.
var (
	tstWVWords = []string{"apple", "banana", "cherry"}
	tstWVVecs  = [][]int8{{1, -2, 3}, {4, 5, -6}, {-127, 0, 127}}
)

// tstImage encodes tstWVWords and tstWVVecs (with scales and ranks unless they
// are nil) and opens the image.
func tstImage(t *testing.T, scales []float32, ranks []uint32) ([]byte, *wordVectors) {
	t.Helper()
	var img []byte
	var err error
	if scales == nil {
		img, err = EncodeWordVectors(tstWVWords, tstWVVecs)
	} else {
		img, err = EncodeRankedWordVectors(tstWVWords, tstWVVecs, scales, ranks)
	}
	if err != nil {
		t.Fatal(err)
	}
	wv, err := openWordVectors(string(img), true)
	if err != nil {
		t.Fatal(err)
	}
	return img, wv
}

func TestWordVectorsRoundTripAndCorruption(t *testing.T) {
	words, vecs := tstWVWords, tstWVVecs
	img, wv := tstImage(t, nil, nil)
	for i, w := range words {
		v := wv.vector(w)
		if len(v) != 3 {
			t.Fatalf("%q: %d values", w, len(v))
		}
		for j := range v {
			if int8(v[j]) != vecs[i][j] {
				t.Fatalf("%q[%d] = %d, want %d", w, j, int8(v[j]), vecs[i][j])
			}
		}
	}
	if wv.vector("avocado") != "" || wv.vector("zucchini") != "" {
		t.Fatal("vector for a missing word")
	}
	if _, err := EncodeWordVectors([]string{"b", "a"}, [][]int8{{1}, {2}}); err == nil {
		t.Error("unsorted words accepted")
	}
	if _, err := EncodeWordVectors([]string{"a", "b"}, [][]int8{{1}, {2, 3}}); err == nil {
		t.Error("ragged vectors accepted")
	}
	bad := map[string]string{
		"empty":     "",
		"magic":     "X" + string(img[1:]),
		"truncated": string(img[:len(img)-1]),
		"checksum":  string(img[:len(img)-1]) + string(img[len(img)-1]^1),
		"header":    string(img[:12]) + "\xff\xff\xff\xff" + string(img[16:]),
	}
	for name, data := range bad {
		if _, err := openWordVectors(data, true); err == nil {
			t.Errorf("%s: corrupt image accepted", name)
		}
	}
	// Offsets out of order (checksum fixed up, so the structural check is
	// what rejects it).
	swapped, err := EncodeWordVectors([]string{"a", "b"}, [][]int8{{1}, {2}})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(strings.Replace(string(swapped[wordVecHeader:]), "ab", "ba", 1))
	hdr := binary.LittleEndian.AppendUint32(swapped[:24:24], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	if _, err := openWordVectors(string(append(hdr, body...)), true); err == nil {
		t.Error("image with words out of order accepted")
	}
}

func TestLexicalDenseRelatesParaphrases(t *testing.T) {
	w := DefaultLexicalWeights()
	w.Dense = 0
	sparse, _ := NewLexical(LexicalOptions{Weights: &w})
	dense := newLex(t)
	a, b := "A man is having lunch", "A man is eating"
	cs := cos(sparse.EmbedText(a), sparse.EmbedText(b))
	cd := cos(dense.EmbedText(a), dense.EmbedText(b))
	if cd <= cs {
		t.Fatalf("dense vectors did not bring %q and %q closer: %.3f -> %.3f", a, b, cs, cd)
	}
}
