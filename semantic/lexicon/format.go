// Package lexicon defines the binary image of thinkgraph's WordNet-derived
// lexicon: the generator (scripts/gen-lexicon) writes it with a Builder and
// package semantic reads it in place with Open, without parsing it or
// copying it to the heap. The image of the embedded lexicon is lexicon.bin
// in this directory; WordNet's license is in LICENSE-WordNet. The same
// generator writes wordvec.bin here too: dense word vectors derived from
// WordNet, which package semantic reads (its wordvec.go documents that
// format). glove.bin, in the same format, holds distributional word vectors
// (GloVe's), written by scripts/gen-lexicon/glove; their license is in
// LICENSE-GloVe.
//
// # Format (version 1)
//
// All integers are little-endian. The image starts with a header:
//
//	0   [8]byte  magic "TGLEXIMG"
//	8   u32      format version (1)
//	12  u32      length of the whole image in bytes
//	16  u32      number of synsets (ids are 0..n-1)
//	20  u32      number of glosses in the background corpus
//	24  8×(u32 offset, u32 length)  the sections, in this order:
//	    pool     the bytes of every string the tables refer to
//	    senses   Sense records, 12 bytes: i32 synset, f32 weight in (0,1],
//	             u8 field (lexicographer file, 0..44), 3 zero bytes; the
//	             layout of the Sense type, so that it can be read in place
//	    hyperIdx u32 × (synsets+1): synset i's direct hypernyms are
//	             hyperIDs[hyperIdx[i]:hyperIdx[i+1]]
//	    hyperIDs i32 synset ids
//	    words    hash table: lemma → its senses (val = first Sense record,
//	             small = number of senses, ≥ 1)
//	    exc      hash table: irregular form → lemma (val = pool offset of
//	             the lemma, small = its length)
//	    df       hash table: Porter stem → gloss document frequency (val)
//	    anto     hash table: "a\x00b" (a < b) → small = 1 for a direct
//	             antonym pair, 2 for an indirect one
//	88  u32      CRC-32C (Castagnoli) of the whole image without these 4 bytes
//
// Every section starts at a multiple of 8 and sections follow one another
// without overlapping. A hash table is a power-of-two number of 12-byte
// slots using linear probing from slot hash(key) & (slots-1):
//
//	0   u32  pool offset of the key
//	4   u8   key length (0: empty slot, whose 12 bytes are all zero)
//	5   u8   tag: hash(key) >> 24
//	6   u8   small value (see above)
//	7   u8   zero
//	8   u32  value (see above)
//
// hash(key), for a key of n bytes, starts from h = n·0x9e3779b97f4a7c15;
// while more than 8 bytes remain, it takes the next little-endian 64-bit
// word w: h = (h^w)·0xff51afd7ed558ccd, h ^= h>>32; then it takes a last
// word w, h = (h^w)·0xff51afd7ed558ccd, and finishes with murmur3's fmix64,
// truncated to 32 bits. The last word is the key's last 8 bytes when n ≥ 8,
// le32(key[0:4]) | le32(key[n-4:n])<<32 when 4 ≤ n < 8, and key[0] |
// key[n/2]<<8 | key[n-1]<<16 when n < 4 (see hashKey). At most half of a
// table's slots are used.
//
// Open validates all of it (magic, version, lengths, checksum, section
// bounds, every record's offsets, ids and values, and that every key is
// found by a lookup), so a corrupt image is an error when it is opened and
// the lookups of an opened Image never read out of bounds.
package lexicon

import (
	"hash/crc32"
	"sync"
	"unsafe"
)

// Magic starts every image.
const Magic = "TGLEXIMG"

// Version is the format version written by Builder and read by Open.
const Version = 1

// MaxField is the largest WordNet lexicographer file number.
const MaxField = 44

const (
	crcAt     = 24 + 8*numSections
	headerLen = crcAt + 4
	senseLen  = 12
	slotLen   = 12
	maxKeyLen = 255
)

// Sections, in image order.
const (
	secPool = iota
	secSenses
	secHyperIdx
	secHyperIDs
	secWords
	secExc
	secDF
	secAnto
	numSections
)

var sectionNames = [numSections]string{"pool", "senses", "hyperIdx", "hyperIDs", "words", "exc", "df", "anto"}

// Antonym kinds (the small value of an anto slot).
const (
	antoDirect   = 1
	antoIndirect = 2
)

// Sense is one WordNet synset a word may denote, with a weight in (0,1]
// (1 for the word's most frequent sense).
type Sense struct {
	Synset int32
	Weight float32
	// Field is the WordNet lexicographer file of the synset, a coarse
	// semantic field (0-44: noun.person, verb.motion, ...).
	Field uint8
}

// hashKey hashes a key (see the package comment).
func hashKey[T string | []byte](s T) uint32 {
	n := len(s)
	h := uint64(n) * 0x9e3779b97f4a7c15
	var w uint64
	switch {
	case n >= 8:
		for i := 0; n-i > 8; i += 8 {
			h = (h ^ le64(s, i)) * 0xff51afd7ed558ccd
			h ^= h >> 32
		}
		w = le64(s, n-8)
	case n >= 4:
		w = uint64(le32(s, 0)) | uint64(le32(s, n-4))<<32
	case n > 0:
		w = uint64(s[0]) | uint64(s[n>>1])<<8 | uint64(s[n-1])<<16
	}
	h = (h ^ w) * 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return uint32(h)
}

// hash3 is the hash of the concatenation a+b+c.
func hash3(a, b, c string) uint32 {
	if b == "" && c == "" {
		return hashKey(a)
	}
	var buf [64]byte
	if len(a)+len(b)+len(c) > len(buf) {
		return hashKey(a + b + c)
	}
	n := copy(buf[:], a)
	n += copy(buf[n:], b)
	n += copy(buf[n:], c)
	return hashKey(buf[:n])
}

// castagnoli is built on first use, not at package initialisation, which
// every start of the server pays.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// checksum is the CRC-32C of an image without its checksum field.
func checksum(img string) uint32 {
	// crc32 only reads its input: view the string's bytes without a copy.
	b := unsafe.Slice(unsafe.StringData(img), len(img))
	tab := castagnoli()
	return crc32.Update(crc32.Update(0, tab, b[:crcAt]), tab, b[crcAt+4:])
}

func le32[T string | []byte](s T, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func le64[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
