package lexicon

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Builder collects the tables of a lexicon and writes its image. The image
// depends only on what was added, not on the order of the calls (except
// for AddException, where the first lemma given for a form wins).
type Builder struct {
	nsyn, ndocs int
	words       map[string][]Sense
	hyper       map[int32][]int32
	anto        map[string]byte
	exc         map[string]string
	df          map[string]int32
}

// NewBuilder returns a Builder for a lexicon of nsyn synsets whose document
// frequencies come from ndocs background documents.
func NewBuilder(nsyn, ndocs int) *Builder {
	return &Builder{
		nsyn: nsyn, ndocs: ndocs,
		words: map[string][]Sense{}, hyper: map[int32][]int32{},
		anto: map[string]byte{}, exc: map[string]string{}, df: map[string]int32{},
	}
}

// AddWord sets the senses of a lemma, most likely first.
func (b *Builder) AddWord(lemma string, senses []Sense) { b.words[lemma] = slices.Clone(senses) }

// AddHypernyms sets the direct hypernyms of a synset.
func (b *Builder) AddHypernyms(synset int32, parents []int32) {
	b.hyper[synset] = slices.Clone(parents)
}

// AddAntonyms records that lemmas a and c are antonyms: directly (WordNet
// "!" pointers) or indirectly (through an adjective cluster).
func (b *Builder) AddAntonyms(a, c string, direct bool) {
	kind := byte(antoIndirect)
	if direct {
		kind = antoDirect
	}
	b.anto[PairKey(a, c)] = kind
}

// AddException records an irregular inflection; the first lemma added for
// a form is kept.
func (b *Builder) AddException(form, lemma string) {
	if _, ok := b.exc[form]; !ok {
		b.exc[form] = lemma
	}
}

// AddDocFreq sets the background document frequency of a stem.
func (b *Builder) AddDocFreq(stem string, df int32) { b.df[stem] = df }

// PairKey is the key of an unordered pair of lemmas in the antonym table.
func PairKey(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "\x00" + b
}

type slot struct {
	key   string
	small byte
	val   uint32
}

// Bytes returns the image. It fails when a table does not fit the format
// (an empty key or one longer than 255 bytes, a synset id out of range, a
// weight outside (0,1], ...).
func (b *Builder) Bytes() ([]byte, error) {
	if b.nsyn <= 0 || b.nsyn >= math.MaxInt32 || b.ndocs <= 0 || b.ndocs > math.MaxInt32 || len(b.words) == 0 {
		return nil, fmt.Errorf("lexicon: empty or oversized lexicon")
	}
	// The pool: every key and value, sorted, each once.
	var strs []string
	for k := range b.words {
		strs = append(strs, k)
	}
	for k, v := range b.exc {
		strs = append(strs, k, v)
	}
	for k := range b.df {
		strs = append(strs, k)
	}
	for k := range b.anto {
		strs = append(strs, k)
	}
	slices.Sort(strs)
	strs = slices.Compact(strs)
	var pool strings.Builder
	at := make(map[string]uint32, len(strs))
	for _, s := range strs {
		if len(s) == 0 || len(s) > maxKeyLen {
			return nil, fmt.Errorf("lexicon: string %q: length must be 1..%d", s, maxKeyLen)
		}
		at[s] = uint32(pool.Len())
		pool.WriteString(s)
	}
	if pool.Len() > math.MaxInt32 {
		return nil, fmt.Errorf("lexicon: string pool too large")
	}

	var senses []byte
	var words []slot
	for _, w := range sortedKeys(b.words) {
		ss := b.words[w]
		if len(ss) == 0 || len(ss) > 255 {
			return nil, fmt.Errorf("lexicon: %q has %d senses, want 1..255", w, len(ss))
		}
		words = append(words, slot{w, byte(len(ss)), uint32(len(senses) / senseLen)})
		for _, s := range ss {
			if s.Synset < 0 || int(s.Synset) >= b.nsyn || !(s.Weight > 0 && s.Weight <= 1) || s.Field > MaxField {
				return nil, fmt.Errorf("lexicon: %q: bad sense %+v", w, s)
			}
			senses = binary.LittleEndian.AppendUint32(senses, uint32(s.Synset))
			senses = binary.LittleEndian.AppendUint32(senses, math.Float32bits(s.Weight))
			senses = append(senses, s.Field, 0, 0, 0)
		}
	}
	var hyperIdx, hyperIDs []byte
	n := uint32(0)
	for id := range int32(b.nsyn) {
		hyperIdx = binary.LittleEndian.AppendUint32(hyperIdx, n)
		for _, p := range b.hyper[id] {
			if p < 0 || int(p) >= b.nsyn {
				return nil, fmt.Errorf("lexicon: hypernym %d of %d out of range", p, id)
			}
			hyperIDs = binary.LittleEndian.AppendUint32(hyperIDs, uint32(p))
			n++
		}
	}
	hyperIdx = binary.LittleEndian.AppendUint32(hyperIdx, n)
	for id := range b.hyper {
		if id < 0 || int(id) >= b.nsyn {
			return nil, fmt.Errorf("lexicon: synset %d out of range", id)
		}
	}
	var exc, df, anto []slot
	for _, f := range sortedKeys(b.exc) {
		exc = append(exc, slot{f, byte(len(b.exc[f])), at[b.exc[f]]})
	}
	for _, s := range sortedKeys(b.df) {
		if b.df[s] < 0 {
			return nil, fmt.Errorf("lexicon: negative document frequency of %q", s)
		}
		df = append(df, slot{s, 0, uint32(b.df[s])})
	}
	for _, p := range sortedKeys(b.anto) {
		anto = append(anto, slot{p, b.anto[p], 0})
	}

	sections := [numSections][]byte{
		secPool:     []byte(pool.String()),
		secSenses:   senses,
		secHyperIdx: hyperIdx,
		secHyperIDs: hyperIDs,
		secWords:    buildTable(words, at),
		secExc:      buildTable(exc, at),
		secDF:       buildTable(df, at),
		secAnto:     buildTable(anto, at),
	}
	out := make([]byte, headerLen, 4<<20)
	copy(out, Magic)
	binary.LittleEndian.PutUint32(out[8:], Version)
	binary.LittleEndian.PutUint32(out[16:], uint32(b.nsyn))
	binary.LittleEndian.PutUint32(out[20:], uint32(b.ndocs))
	for i, s := range sections {
		for len(out)%8 != 0 {
			out = append(out, 0)
		}
		binary.LittleEndian.PutUint32(out[24+8*i:], uint32(len(out)))
		binary.LittleEndian.PutUint32(out[28+8*i:], uint32(len(s)))
		out = append(out, s...)
	}
	if len(out) > math.MaxInt32 {
		return nil, fmt.Errorf("lexicon: image too large")
	}
	binary.LittleEndian.PutUint32(out[12:], uint32(len(out)))
	binary.LittleEndian.PutUint32(out[crcAt:], checksum(string(out)))
	return out, nil
}

// buildTable lays out a hash table of slots, inserted in the given order.
func buildTable(entries []slot, at map[string]uint32) []byte {
	n := 8
	for n < 2*len(entries) {
		n *= 2
	}
	out := make([]byte, n*slotLen)
	mask := uint32(n - 1)
	for _, e := range entries {
		h := hash3(e.key, "", "")
		i := h & mask
		for out[int(i)*slotLen+4] != 0 {
			i = (i + 1) & mask
		}
		r := out[int(i)*slotLen:]
		binary.LittleEndian.PutUint32(r, at[e.key])
		r[4] = byte(len(e.key))
		r[5] = byte(h >> 24)
		r[6] = e.small
		binary.LittleEndian.PutUint32(r[8:], e.val)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
