package semantic

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"testing"
)

// gloveVec is the distributional vector of a word, scaled, or nil.
func gloveVec(g *wordVectors, w string) []float64 {
	i := g.find(w)
	if i < 0 {
		return nil
	}
	out := make([]float64, g.dim)
	for j := range out {
		out[j] = float64(g.scale(i)) * float64(int8(g.rows[i*g.dim+j]))
	}
	return out
}

func TestGloveEmbedded(t *testing.T) {
	// Opened without its checksum, scales and ranks checked at run time:
	// they are checked here.
	g, err := openWordVectors(gloveData, true)
	if err != nil {
		t.Fatalf("the embedded distributional vectors: %v", err)
	}
	if g.dim != gloveDim || g.n != 100000 || g.scales == "" {
		t.Fatalf("dim %d, %d words, ranked %v", g.dim, g.n, g.scales != "")
	}
	the, db := g.find("the"), g.find("database")
	if the < 0 || db < 0 || g.rank(the) != 1 || g.rank(db) < 100 {
		t.Fatalf("ranks: the %d, database %d", g.rank(the), g.rank(db))
	}
	if g.find("zzzzqx") >= 0 {
		t.Error("vector for an unknown word")
	}
	// Relatedness in running text, including what WordNet does not link.
	cosine := func(a, b string) float64 {
		x, y := gloveVec(g, a), gloveVec(g, b)
		if x == nil || y == nil {
			t.Fatalf("%q or %q has no vector", a, b)
		}
		var d, nx, ny float64
		for i := range x {
			d, nx, ny = d+x[i]*y[i], nx+x[i]*x[i], ny+y[i]*y[i]
		}
		return d / math.Sqrt(nx*ny)
	}
	for _, c := range [][4]string{
		{"invoice", "billing", "invoice", "guitar"},
		{"latency", "throughput", "latency", "recipe"},
		{"lawyer", "attorney", "lawyer", "tomato"},
		{"oven", "bake", "oven", "senate"},
	} {
		if near, far := cosine(c[0], c[1]), cosine(c[2], c[3]); near <= far+0.2 {
			t.Errorf("cos(%s,%s)=%.3f not above cos(%s,%s)=%.3f", c[0], c[1], near, c[2], c[3], far)
		}
	}
}

func TestRankedWordVectorsRoundTripAndCorruption(t *testing.T) {
	words, vecs := tstWVWords, tstWVVecs
	scales := []float32{0.5, 2, 0.01}
	ranks := []uint32{7, 3, 1000}
	img, wv := tstImage(t, scales, ranks)
	for i, w := range words {
		j := wv.find(w)
		if j != i || wv.scale(j) != scales[i] || wv.rank(j) != int(ranks[i]) || int8(wv.vector(w)[2]) != vecs[i][2] {
			t.Fatalf("%q: row %d, scale %v, rank %d", w, j, wv.scale(j), wv.rank(j))
		}
	}
	// A version 1 image has neither: scale 1, rank unknown.
	if _, wv1 := tstImage(t, nil, nil); wv1.scale(0) != 1 || wv1.rank(0) != 0 {
		t.Fatalf("version 1: scale %v, rank %d", wv1.scale(0), wv1.rank(0))
	}
	for name, c := range map[string]struct {
		s []float32
		r []uint32
	}{
		"zero scale":    {[]float32{0.5, 0, 1}, ranks},
		"NaN scale":     {[]float32{0.5, float32(math.NaN()), 1}, ranks},
		"zero rank":     {scales, []uint32{1, 0, 2}},
		"missing ranks": {scales, ranks[:2]},
	} {
		if _, err := EncodeRankedWordVectors(words, vecs, c.s, c.r); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	// A bad scale with a valid checksum is still rejected on opening.
	body := append([]byte(nil), img[wordVecHeader:]...)
	scalesAt := len(body) - 8*len(words)
	binary.LittleEndian.PutUint32(body[scalesAt+4:], math.Float32bits(-1))
	hdr := binary.LittleEndian.AppendUint32(append([]byte(nil), img[:24]...), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	if _, err := openWordVectors(string(append(hdr, body...)), true); err == nil {
		t.Error("image with a negative scale accepted")
	}
	for name, data := range map[string]string{
		"truncated": string(img[:len(img)-4]),
		"version":   string(img[:8]) + "\x03\x00\x00\x00" + string(img[12:]),
	} {
		if _, err := openWordVectors(data, true); err == nil {
			t.Errorf("%s: corrupt image accepted", name)
		}
	}
}

func TestLexicalDistributionalRelatesParaphrases(t *testing.T) {
	// Texts that share no content word and whose words WordNet does not
	// link: the distributional part relates them.
	on := newLex(t)
	w := DefaultLexicalWeights()
	w.Distributional = 0
	off, err := NewLexical(LexicalOptions{Weights: &w})
	if err != nil {
		t.Fatal(err)
	}
	if on.Model() == off.Model() {
		t.Fatal("weights without the distributional part keep the model id")
	}
	for _, c := range [][3]string{
		{"Bake the bread at 200 degrees.", "Put the loaf in a hot oven.", "The lawyer filed the appeal."},
		{"The lawyer filed the appeal.", "The attorney submitted a motion to the court.", "Put the loaf in a hot oven."},
	} {
		gain := func(e *Lexical) float64 {
			return cos(e.EmbedText(c[0]), e.EmbedText(c[1])) - cos(e.EmbedText(c[0]), e.EmbedText(c[2]))
		}
		if g1, g0 := gain(on), gain(off); g1 < g0+0.1 {
			t.Errorf("%q: related minus unrelated: %.3f with the distributional part, %.3f without", c[0], g1, g0)
		}
	}
	if _, err := NewLexical(LexicalOptions{Weights: &LexicalWeights{Distributional: 1}}); err == nil {
		t.Error("Distributional 1 accepted (no dimension left for the features)")
	}
	if _, err := NewLexical(LexicalOptions{Dim: 110}); err == nil {
		t.Error("a dimension leaving 10 to the features accepted")
	}
}

// BenchmarkGloveOpen is what the first text embedded after start-up pays to
// open the distributional vectors (the offsets and word order are checked).
func BenchmarkGloveOpen(b *testing.B) {
	for b.Loop() {
		if _, err := openWordVectors(gloveData, false); err != nil {
			b.Fatal(err)
		}
	}
}
