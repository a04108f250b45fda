package semantic

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// wordVecData holds dense word vectors derived from the WordNet graph by
// scripts/gen-lexicon (PPMI of each lemma's synset and gloss neighbourhood,
// reduced by a truncated SVD; scripts/gen-lexicon/wordvec.go documents it).
// WordNet's license is in lexicon/LICENSE-WordNet.
//
// Format (version 1 or 2), little-endian:
//
//	0   [8]byte  magic "TGWORDVC"
//	8   u32      format version (1 or 2)
//	12  u32      dimension d (1..128)
//	16  u32      number of words n
//	20  u32      length of the word pool in bytes
//	24  u32      CRC-32C (Castagnoli) of the bytes from 28 on
//	28  u32 × (n+1)  offsets into the pool: word i is pool[off[i]:off[i+1]];
//	                 the words are distinct and sorted in byte order
//	    pool     the words' bytes
//	    n × d int8   the vectors, one row per word, in the words' order
//
// Version 2 adds, after the vectors:
//
//	n × f32  each row's scale: word i's vector is scale[i] × row i
//	n × u32  each word's frequency rank in the source corpus (1 = the
//	         most frequent), which weights it in a text (see glove.go)
//
// In version 1 a vector's scale is arbitrary: users normalise it. The words are the
// lemmas of the lexicon (lexicon.bin). Opening an image checks the header,
// lengths, offsets and order, so lookups never read out of bounds, and for
// an image from outside the checksum too. The embedded one's checksum is
// checked by TestWordVectorsEmbedded rather than at run time: it is part of
// the executable, and summing it would page in its 2 MB of vectors, of
// which a process reads only the rows of the words it meets.
//
//go:embed lexicon/wordvec.bin
var wordVecData string

// WordVectorsVersion changes whenever the generated word vectors change; it
// is part of the lexical embedder's model id.
const WordVectorsVersion = "wv1"

const (
	wordVecMagic   = "TGWORDVC"
	wordVecVersion = 1 // without scales and ranks
	// wordVecRanked is the version with a scale and a rank per row.
	wordVecRanked = 2
	wordVecHeader = 28
	// maxWordVecDim bounds the dimension of an image.
	maxWordVecDim = 128
)

// wordVectors is an opened word-vector image, read in place.
type wordVectors struct {
	dim, n int
	offs   string // (n+1) u32
	pool   string
	rows   string
	scales string // n f32 (version 2) or ""
	ranks  string // n u32 (version 2) or ""
}

// defaultWordVectors returns the embedded WordNet word vectors.
var defaultWordVectors = embeddedWordVectors(wordVecData, "word vectors")

// embeddedWordVectors returns a function that opens an embedded image on
// first use; a broken image is a broken build (the package's tests open
// every one), so it panics.
func embeddedWordVectors(data, what string) func() *wordVectors {
	load := sync.OnceValues(func() (*wordVectors, error) { return openWordVectors(data, false) })
	return func() *wordVectors {
		wv, err := load()
		if err != nil {
			panic("semantic: the embedded " + what + " cannot be read: " + err.Error())
		}
		return wv
	}
}

func openWordVectors(data string, verifySum bool) (*wordVectors, error) {
	if len(data) < wordVecHeader || data[:8] != wordVecMagic {
		return nil, errors.New("word vectors: not a word-vector image")
	}
	u32 := func(i int) int { return int(le32(data, i)) }
	version := u32(8)
	if version != wordVecVersion && version != wordVecRanked {
		return nil, fmt.Errorf("word vectors: format version %d, want %d or %d", version, wordVecVersion, wordVecRanked)
	}
	dim, n, plen := u32(12), u32(16), u32(20)
	if dim < 1 || dim > maxWordVecDim || n > len(data) || plen > len(data) {
		return nil, errors.New("word vectors: bad header")
	}
	extra := 0
	if version == wordVecRanked {
		extra = 8 * n
	}
	want := wordVecHeader + 4*(n+1) + plen + n*dim + extra
	if want != len(data) {
		return nil, fmt.Errorf("word vectors: image is %d bytes, header says %d", len(data), want)
	}
	if verifySum {
		// Read in place: []byte(data) would copy the whole image to the heap.
		body := unsafe.Slice(unsafe.StringData(data[wordVecHeader:]), len(data)-wordVecHeader)
		if sum := crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)); sum != uint32(u32(24)) {
			return nil, errors.New("word vectors: bad checksum")
		}
	}
	wv := &wordVectors{dim: dim, n: n}
	wv.offs = data[wordVecHeader : wordVecHeader+4*(n+1)]
	wv.pool = data[wordVecHeader+4*(n+1) : wordVecHeader+4*(n+1)+plen]
	rowsAt := wordVecHeader + 4*(n+1) + plen
	wv.rows = data[rowsAt : rowsAt+n*dim]
	if version == wordVecRanked {
		wv.scales = data[rowsAt+n*dim : rowsAt+n*dim+4*n]
		wv.ranks = data[rowsAt+n*dim+4*n:]
		if verifySum {
			// The embedded image's are checked by its test, as its sum is.
			for i := range n {
				if s := wv.scale(i); !(s > 0) || math.IsInf(float64(s), 0) || wv.rank(i) == 0 {
					return nil, fmt.Errorf("word vectors: bad scale or rank of word %d", i)
				}
			}
		}
	}
	prev := ""
	for i := 0; i <= n; i++ {
		o := wv.off(i)
		if (i == 0 && o != 0) || (i > 0 && o <= wv.off(i-1)) || o > plen || (i == n && o != plen) {
			return nil, fmt.Errorf("word vectors: bad offset of word %d", i)
		}
		if i > 0 {
			w := wv.word(i - 1)
			if i > 1 && w <= prev {
				return nil, fmt.Errorf("word vectors: word %d out of order", i-1)
			}
			prev = w
		}
	}
	return wv, nil
}

func (wv *wordVectors) off(i int) int { return int(le32(wv.offs, 4*i)) }

func le32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func (wv *wordVectors) word(i int) string { return wv.pool[wv.off(i):wv.off(i+1)] }

// vector returns the int8 vector of a lemma, as a string of dim bytes, or
// "" when the lemma has none.
func (wv *wordVectors) vector(lemma string) string {
	if i := wv.find(lemma); i >= 0 {
		return wv.rows[i*wv.dim : (i+1)*wv.dim]
	}
	return ""
}

// WordCosine returns the cosine of the embedded WordNet word vectors of two
// lemmas, or 0 when either has none.
func WordCosine(a, b string) float64 {
	wv := defaultWordVectors()
	x, y := wv.vector(a), wv.vector(b)
	if x == "" || y == "" {
		return 0
	}
	var d, nx, ny float64
	for i := 0; i < len(x); i++ {
		p, q := float64(int8(x[i])), float64(int8(y[i]))
		d += p * q
		nx += p * p
		ny += q * q
	}
	if nx == 0 || ny == 0 {
		return 0
	}
	return d / math.Sqrt(nx*ny)
}

// find returns the row of a word, or -1.
func (wv *wordVectors) find(word string) int {
	i := sort.Search(wv.n, func(i int) bool { return wv.word(i) >= word })
	if i == wv.n || wv.word(i) != word {
		return -1
	}
	return i
}

// scale returns the scale of row i of a version 2 image (1 for version 1).
func (wv *wordVectors) scale(i int) float32 {
	if wv.scales == "" {
		return 1
	}
	return math.Float32frombits(le32(wv.scales, 4*i))
}

// rank returns the frequency rank of row i of a version 2 image (0 for
// version 1: unknown).
func (wv *wordVectors) rank(i int) int {
	if wv.ranks == "" {
		return 0
	}
	return int(le32(wv.ranks, 4*i))
}

// EncodeWordVectors writes a word-vector image (the format of wordVecData,
// version 1) of words, sorted and distinct, and their int8 vectors of one
// dimension. scripts/gen-lexicon uses it.
func EncodeWordVectors(words []string, vecs [][]int8) ([]byte, error) {
	return encodeWordVectors(words, vecs, nil, nil)
}

// EncodeRankedWordVectors writes a version 2 image: EncodeWordVectors' plus
// each row's scale (finite, positive) and each word's frequency rank (≥ 1).
// scripts/gen-lexicon/glove uses it.
func EncodeRankedWordVectors(words []string, vecs [][]int8, scales []float32, ranks []uint32) ([]byte, error) {
	if len(scales) != len(words) || len(ranks) != len(words) {
		return nil, errors.New("word vectors: need one scale and one rank per word")
	}
	for i := range words {
		if !(scales[i] > 0) || math.IsInf(float64(scales[i]), 0) || ranks[i] == 0 {
			return nil, fmt.Errorf("word vectors: word %d has scale %v and rank %d, want a finite scale > 0 and a rank ≥ 1", i, scales[i], ranks[i])
		}
	}
	return encodeWordVectors(words, vecs, scales, ranks)
}

func encodeWordVectors(words []string, vecs [][]int8, scales []float32, ranks []uint32) ([]byte, error) {
	if len(words) != len(vecs) || len(words) == 0 {
		return nil, errors.New("word vectors: need one vector per word")
	}
	dim := len(vecs[0])
	if dim < 1 || dim > maxWordVecDim {
		return nil, fmt.Errorf("word vectors: dimension %d", dim)
	}
	var pool strings.Builder
	offs := make([]byte, 0, 4*(len(words)+1))
	offs = binary.LittleEndian.AppendUint32(offs, 0)
	for i, w := range words {
		if w == "" || (i > 0 && w <= words[i-1]) {
			return nil, fmt.Errorf("word vectors: word %d (%q) empty or out of order", i, w)
		}
		if len(vecs[i]) != dim {
			return nil, fmt.Errorf("word vectors: vector of %q has %d values, want %d", w, len(vecs[i]), dim)
		}
		pool.WriteString(w)
		offs = binary.LittleEndian.AppendUint32(offs, uint32(pool.Len()))
	}
	body := append(offs, pool.String()...)
	for _, v := range vecs {
		for _, x := range v {
			body = append(body, byte(x))
		}
	}
	version := uint32(wordVecVersion)
	if scales != nil {
		version = wordVecRanked
		for _, x := range scales {
			body = binary.LittleEndian.AppendUint32(body, math.Float32bits(x))
		}
		for _, r := range ranks {
			body = binary.LittleEndian.AppendUint32(body, r)
		}
	}
	out := []byte(wordVecMagic)
	out = binary.LittleEndian.AppendUint32(out, version)
	out = binary.LittleEndian.AppendUint32(out, uint32(dim))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(words)))
	out = binary.LittleEndian.AppendUint32(out, uint32(pool.Len()))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	return append(out, body...), nil
}
