package semantic

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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
// Format (version 1), little-endian:
//
//	0   [8]byte  magic "TGWORDVC"
//	8   u32      format version (1)
//	12  u32      dimension d (1..128)
//	16  u32      number of words n
//	20  u32      length of the word pool in bytes
//	24  u32      CRC-32C (Castagnoli) of the bytes from 28 on
//	28  u32 × (n+1)  offsets into the pool: word i is pool[off[i]:off[i+1]];
//	                 the words are distinct and sorted in byte order
//	    pool     the words' bytes
//	    n × d int8   the vectors, one row per word, in the words' order
//
// A vector's scale is arbitrary: users normalise it. The words are the
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
	wordVecVersion = 1
	wordVecHeader  = 28
	// maxWordVecDim bounds the dimension of an image.
	maxWordVecDim = 128
)

// wordVectors is an opened word-vector image, read in place.
type wordVectors struct {
	dim, n int
	offs   string // (n+1) u32
	pool   string
	rows   string
}

var loadWordVectors = sync.OnceValues(func() (*wordVectors, error) {
	return openWordVectors(wordVecData, false)
})

// defaultWordVectors returns the embedded word vectors; a broken image is a
// broken build (the package's tests open it), so it panics.
func defaultWordVectors() *wordVectors {
	wv, err := loadWordVectors()
	if err != nil {
		panic("semantic: the embedded word vectors cannot be read: " + err.Error())
	}
	return wv
}

func openWordVectors(data string, verifySum bool) (*wordVectors, error) {
	if len(data) < wordVecHeader || data[:8] != wordVecMagic {
		return nil, errors.New("word vectors: not a word-vector image")
	}
	u32 := func(i int) int { return int(le32(data, i)) }
	if v := u32(8); v != wordVecVersion {
		return nil, fmt.Errorf("word vectors: format version %d, want %d", v, wordVecVersion)
	}
	dim, n, plen := u32(12), u32(16), u32(20)
	if dim < 1 || dim > maxWordVecDim || n > len(data) || plen > len(data) {
		return nil, errors.New("word vectors: bad header")
	}
	want := wordVecHeader + 4*(n+1) + plen + n*dim
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
	wv.rows = data[wordVecHeader+4*(n+1)+plen:]
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
	i := sort.Search(wv.n, func(i int) bool { return wv.word(i) >= lemma })
	if i == wv.n || wv.word(i) != lemma {
		return ""
	}
	return wv.rows[i*wv.dim : (i+1)*wv.dim]
}

// EncodeWordVectors writes a word-vector image (the format of wordVecData)
// of words, sorted and distinct, and their int8 vectors of one dimension.
// scripts/gen-lexicon uses it.
func EncodeWordVectors(words []string, vecs [][]int8) ([]byte, error) {
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
	out := []byte(wordVecMagic)
	out = binary.LittleEndian.AppendUint32(out, wordVecVersion)
	out = binary.LittleEndian.AppendUint32(out, uint32(dim))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(words)))
	out = binary.LittleEndian.AppendUint32(out, uint32(pool.Len()))
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	return append(out, body...), nil
}
