package semantic

import _ "embed"

// gloveData holds distributional word vectors: GloVe's (Pennington, Socher
// and Manning 2014; 6B tokens of Wikipedia 2014 + Gigaword 5, 100
// dimensions) for its 100,000 most frequent words, centred and quantised
// by scripts/gen-lexicon/glove, in the ranked word-vector format of
// wordvec.go (version 2: a scale and a frequency rank per word). The data
// is under the PDDL, the npm package it is taken from under the MIT
// license: lexicon/LICENSE-GloVe. Like the WordNet vectors it is read in
// place; the embedded image's checksum is checked by TestGloveEmbedded.
//
//go:embed lexicon/glove.bin
var gloveData string

// gloveDim is the dimension of the embedded image (checked by
// TestGloveEmbedded), known without opening it: NewLexical runs at start-up,
// the image is opened by the first text embedded.
const gloveDim = 100

// GloveVersion changes whenever the generated distributional vectors
// change; it is part of the lexical embedder's model id.
const GloveVersion = "gv1"

// defaultGlove returns the embedded distributional vectors.
var defaultGlove = embeddedWordVectors(gloveData, "distributional word vectors")

// sifRank is the frequency rank at which a word weighs one half in a text's
// distributional vector: a word of rank r weighs r/(r+sifRank). This is the
// smooth inverse frequency a/(a+p(w)) of Arora, Liang and Ma (2017) with
// their a = 10⁻³ and p(w) read off the rank by Zipf's law over GloVe's
// 400,000 words (p = 1/(r·13.5)): "the" (rank 1) weighs 0.01, "database"
// (rank 2,000 or so) 0.96.
const sifRank = 74

// gloveRow returns the distributional vector of a token (a view of the
// image: dim int8 values) and its weight in a text (the row's scale times
// its frequency weight), or "" when the token has none. lemma is tried when
// the token itself is not in the vocabulary ("" for none).
func gloveRow(tok, lemma string) (string, float32) {
	g := defaultGlove()
	i := g.find(tok)
	if i < 0 && lemma != "" && lemma != tok {
		i = g.find(lemma)
	}
	if i < 0 {
		return "", 0
	}
	r := float32(g.rank(i))
	return g.rows[i*g.dim : (i+1)*g.dim], g.scale(i) * r / (r + sifRank)
}
