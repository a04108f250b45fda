package semantic

import (
	"math"
	"slices"
)

// RerankPool is how many of an index search's best candidates Rerank is
// meant to re-order: a search asks the index for max(limit, RerankPool)
// hits, re-ranks them and keeps the first limit.
const RerankPool = 32

// The word alignment's constants. They were chosen on the reasoning dev
// set's retrieval sessions and checked on sessions about cooking, contract
// law, lab work and personal finance written for the purpose; each is a
// plain reading of the lexicon, not a fit to particular words.
const (
	// rerankShare is the share of the word alignment in a re-ranked
	// similarity, the rest being the index's (centred) cosine. From 0.4 to
	// 0.6 top-1 on the dev set moves by a query either way; alone (1.0) the
	// alignment is worse than the cosine, together they are better.
	rerankShare = 0.5
	// alignSenses is how many of a word's likely WordNet senses link it to
	// synonyms and hypernyms. Paraphrases reach for less frequent senses
	// ("ship" the code), so more than the embedder's one.
	alignSenses = 4
	// alignHypernym is the similarity of a word and a direct hypernym of
	// one of its senses ("poultry" and "chicken"); sharing a sense (a
	// synonym) or the stem counts 1.
	alignHypernym = 0.8
	// searchSameStem is what the same stem counts in a search's alignment
	// (Rerank), where WordAlignment counts 1: below a synonym, because the
	// thoughts of a session repeat their topic's words, so a word a query
	// shares with a thought tells less about which thought it means than a
	// word of the same sense chosen apart from it. Against 1: 0.85 to 0.9
	// moves 5 of the 122 queries of the reasoning and scenario dev sets up
	// a rank and none down; 0.8 moves one down, 0.95 only one up.
	searchSameStem = 0.9
)

// alignWord is a content word of a text, as the alignment sees it.
type alignWord struct {
	stem   string
	vec    []float32 // unit distributional vector (GloVe), nil when none
	w      float32   // weight: smooth inverse frequency × background IDF
	senses []int32   // likely WordNet senses
	hypers []int32   // their direct hypernyms
}

// alignWords returns the content words of a text (function words and
// negators are skipped, as the embedder skips them).
func alignWords(lx *Lexicon, text string) []alignWord {
	g := defaultGlove()
	toks := Tokenize(text)
	out := make([]alignWord, 0, len(toks))
	for _, tok := range toks {
		if stopWords[tok] || negators[tok] {
			continue
		}
		aw := alignWord{w: 1}
		lemma := ""
		if !IsNumber(tok) {
			lemma = lx.Lemma(tok)
		}
		if lemma != "" {
			aw.stem = Stem(lemma)
		} else {
			aw.stem = Stem(tok)
		}
		i := g.find(tok)
		if i < 0 && lemma != "" && lemma != tok {
			i = g.find(lemma)
		}
		if i >= 0 {
			aw.vec = unitRow(g.rows[i*g.dim : (i+1)*g.dim])
			r := float32(g.rank(i))
			aw.w = r / (r + sifRank)
		}
		aw.w *= float32(lx.IDF(aw.stem))
		if lemma != "" {
			ss := lx.Senses(lemma)
			for _, s := range ss[:min(len(ss), alignSenses)] {
				aw.senses = append(aw.senses, s.Synset)
				aw.hypers = append(aw.hypers, lx.Hypernyms(s.Synset)...)
			}
		}
		out = append(out, aw)
	}
	return out
}

// unitRow returns an int8 row (a view of a word-vector image) as a unit
// float32 vector, or nil for a zero row.
func unitRow(row string) []float32 {
	v := make([]float32, len(row))
	var n float64
	for k := range v {
		v[k] = float32(int8(row[k]))
		n += float64(v[k]) * float64(v[k])
	}
	if n == 0 {
		return nil
	}
	inv := float32(1 / math.Sqrt(n))
	for k := range v {
		v[k] *= inv
	}
	return v
}

// wordSimilarity is how close two words are, in [0, 1]: same for the same
// stem (1 but in a search), 1 for a shared WordNet sense (synonyms),
// alignHypernym when a sense of one is a direct hypernym of a sense of the
// other, else the cosine of their distributional vectors (0 when negative
// or unknown), whichever is highest.
func wordSimilarity(a, b *alignWord, same float32) float32 {
	if a.stem == b.stem {
		return same
	}
	best := float32(0)
	if a.vec != nil && b.vec != nil {
		best = max(best, dotF32(a.vec, b.vec))
	}
	if best < 1 && sharesSynset(a.senses, b.senses) {
		return 1
	}
	if best < alignHypernym && (sharesSynset(a.senses, b.hypers) || sharesSynset(a.hypers, b.senses)) {
		best = alignHypernym
	}
	return min(best, 1)
}

func sharesSynset(a, b []int32) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// alignFrom is the weighted mean, over the words of a, of each word's
// best similarity to a word of b (0 when a has no words); same is what the
// same stem counts.
func alignFrom(a, b []alignWord, same float32) float64 {
	var num, den float64
	for i := range a {
		best := float32(0)
		for j := range b {
			best = max(best, wordSimilarity(&a[i], &b[j], same))
		}
		num += float64(a[i].w) * float64(best)
		den += float64(a[i].w)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// AlignedText is a text's content words as WordAlignment reads them, for
// comparing one text with many without reading it again.
type AlignedText []alignWord

// AlignText reads a text for Alignment.
func AlignText(lx *Lexicon, text string) AlignedText { return alignWords(lx, text) }

// Alignment is WordAlignment of two read texts.
func (a AlignedText) Alignment(b AlignedText) float64 {
	return (alignFrom(a, b, 1) + alignFrom(b, a, 1)) / 2
}

// WordAlignment is a soft word-alignment similarity of two texts, in
// [0, 1]: each content word of one text is matched to its most similar
// word of the other (see wordSimilarity), the matches are averaged with
// the words' weights (rare words count more: smooth inverse frequency
// times the lexicon's IDF), and the two directions are averaged. A
// paraphrase that shares no word with a text still aligns with it through
// synonyms, hypernyms and distributional neighbours.
func WordAlignment(lx *Lexicon, a, b string) float64 {
	wa, wb := alignWords(lx, a), alignWords(lx, b)
	return (alignFrom(wa, wb, 1) + alignFrom(wb, wa, 1)) / 2
}

// Rerank re-orders the hits of a search for query (text returns a hit's
// text) by a blend of their similarity and the word alignment of their
// text with the query (WordAlignment's, but the same stem counts
// searchSameStem, below a synonym):
//
//	similarity' = (1-s) × similarity + s × (alignment − mean alignment)
//
// with s = 0.5 and the mean taken over the hits, so a hit aligned as well
// as the average candidate keeps half its similarity. The result stays in
// [-1, 1] and is sorted by it, highest first (ties keep the hits' order).
// A query without content words, or fewer than two hits, leaves the hits
// as they are. hits is not modified.
func Rerank(lx *Lexicon, query string, hits []Hit, text func(Hit) string) []Hit {
	out, _ := RerankTexts(lx, query, hits, func(h Hit) []string { return []string{text(h)} })
	return out
}

// RerankTexts is Rerank where a hit has several texts (a thought's
// claims): its alignment is that of its best-aligned text. best[i] is the
// index of that text for out[i] (-1 when nothing was re-ranked).
func RerankTexts(lx *Lexicon, query string, hits []Hit, texts func(Hit) []string) (out []Hit, best []int) {
	out = slices.Clone(hits)
	best = make([]int, len(hits))
	for i := range best {
		best[i] = -1
	}
	q := alignWords(lx, query)
	if len(q) == 0 || len(hits) < 2 {
		return out, best
	}
	type scored struct {
		h    Hit
		best int
	}
	sc := make([]scored, len(hits))
	al := make([]float64, len(hits))
	mean := 0.0
	for i, h := range hits {
		sc[i] = scored{h, -1}
		for k, t := range texts(h) {
			d := alignWords(lx, t)
			if a := (alignFrom(q, d, searchSameStem) + alignFrom(d, q, searchSameStem)) / 2; sc[i].best < 0 || a > al[i] {
				al[i], sc[i].best = a, k
			}
		}
		mean += al[i]
	}
	mean /= float64(len(al))
	for i := range sc {
		sc[i].h.Similarity = (1-rerankShare)*sc[i].h.Similarity + rerankShare*(al[i]-mean)
	}
	slices.SortStableFunc(sc, func(a, b scored) int {
		switch {
		case a.h.Similarity > b.h.Similarity:
			return -1
		case a.h.Similarity < b.h.Similarity:
			return 1
		}
		return 0
	})
	for i, x := range sc {
		out[i], best[i] = x.h, x.best
	}
	return out, best
}
