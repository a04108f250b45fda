package lexicon

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Image is an opened lexicon image. Its lookups read the image in place:
// they neither parse nor copy it, and the slices they return point into it
// when the machine allows (little-endian, aligned image), so they must not
// be modified. An Image is immutable and safe for concurrent use.
type Image struct {
	pool, senses, hyperIdx, hyperIDs string
	words, exc, df, anto             table
	nsyn, ndocs                      int
	inPlace                          bool // []Sense and []int32 results alias the image
}

type table struct {
	slots string
	mask  uint32
}

// Open validates an image and returns a reader of it. data must stay
// unchanged while the Image is in use (a string guarantees it).
func Open(data string) (*Image, error) {
	im, err := open(data, true)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	return im, nil
}

// open is Open, optionally without verifying the checksum (for fuzzing the
// structural checks).
func open(data string, verifySum bool) (*Image, error) {
	if len(data) < headerLen || data[:len(Magic)] != Magic {
		return nil, errors.New("not a lexicon image")
	}
	if v := le32(data, 8); v != Version {
		return nil, fmt.Errorf("image format version %d, want %d", v, Version)
	}
	if n := le32(data, 12); uint64(n) != uint64(len(data)) {
		return nil, fmt.Errorf("image is %d bytes, header says %d", len(data), n)
	}
	if verifySum {
		if sum := checksum(data); sum != le32(data, crcAt) {
			return nil, fmt.Errorf("checksum %08x, header says %08x", sum, le32(data, crcAt))
		}
	}
	nsyn, ndocs := le32(data, 16), le32(data, 20)
	if nsyn == 0 || nsyn >= math.MaxInt32 || ndocs == 0 || ndocs > math.MaxInt32 {
		return nil, fmt.Errorf("bad counts: %d synsets, %d documents", nsyn, ndocs)
	}
	var sec [numSections]string
	end := uint64(headerLen)
	for i := range sec {
		off, n := uint64(le32(data, 24+8*i)), uint64(le32(data, 28+8*i))
		if off%8 != 0 || off < end || off+n > uint64(len(data)) {
			return nil, fmt.Errorf("section %s [%d,+%d) out of bounds", sectionNames[i], off, n)
		}
		sec[i] = data[off : off+n]
		end = off + n
	}
	im := &Image{
		pool: sec[secPool], senses: sec[secSenses], hyperIdx: sec[secHyperIdx], hyperIDs: sec[secHyperIDs],
		nsyn: int(nsyn), ndocs: int(ndocs),
	}
	if len(im.senses)%senseLen != 0 {
		return nil, errors.New("senses: truncated record")
	}
	for i := 0; i < len(im.senses); i += senseLen {
		id, w := le32(im.senses, i), math.Float32frombits(le32(im.senses, i+4))
		if id >= nsyn || !(w > 0 && w <= 1) || im.senses[i+8] > MaxField || im.senses[i+9:i+12] != "\x00\x00\x00" {
			return nil, fmt.Errorf("senses: bad record %d", i/senseLen)
		}
	}
	if uint64(len(im.hyperIdx)) != 4*(uint64(nsyn)+1) || len(im.hyperIDs)%4 != 0 {
		return nil, errors.New("hypernyms: bad lengths")
	}
	prev := uint32(0)
	for i := 0; i < len(im.hyperIdx); i += 4 {
		x := le32(im.hyperIdx, i)
		if x < prev || (i == 0 && x != 0) {
			return nil, fmt.Errorf("hypernyms: bad index of synset %d", i/4)
		}
		prev = x
	}
	if uint64(prev)*4 != uint64(len(im.hyperIDs)) {
		return nil, errors.New("hypernyms: index does not cover the ids")
	}
	for i := 0; i < len(im.hyperIDs); i += 4 {
		if le32(im.hyperIDs, i) >= nsyn {
			return nil, fmt.Errorf("hypernyms: id %d out of range", le32(im.hyperIDs, i))
		}
	}
	nsenses := uint64(len(im.senses) / senseLen)
	tables := []struct {
		t     *table
		sec   int
		check func(small byte, val uint32) bool
	}{
		{&im.words, secWords, func(small byte, val uint32) bool {
			return small > 0 && uint64(val)+uint64(small) <= nsenses
		}},
		{&im.exc, secExc, func(small byte, val uint32) bool {
			return small > 0 && uint64(val)+uint64(small) <= uint64(len(im.pool))
		}},
		{&im.df, secDF, func(small byte, val uint32) bool { return small == 0 && val <= math.MaxInt32 }},
		{&im.anto, secAnto, func(small byte, val uint32) bool {
			return (small == antoDirect || small == antoIndirect) && val == 0
		}},
	}
	for _, tc := range tables {
		if err := im.openTable(tc.t, sec[tc.sec], tc.check); err != nil {
			return nil, fmt.Errorf("%s: %w", sectionNames[tc.sec], err)
		}
	}
	if im.words.count() == 0 {
		return nil, errors.New("no words")
	}
	im.inPlace = nativeLittleEndian() && senseLayoutOK &&
		uintptr(unsafe.Pointer(unsafe.StringData(data)))%8 == 0
	return im, nil
}

// openTable validates a hash table: at least one slot is empty, and every
// used slot's key lies in the pool, hashes to its tag and is reached by
// probing from its home slot (no empty slot lies between them).
func (im *Image) openTable(t *table, s string, check func(byte, uint32) bool) error {
	n := len(s) / slotLen
	if len(s)%slotLen != 0 || n == 0 || n&(n-1) != 0 {
		return fmt.Errorf("%d bytes is not a power-of-two number of slots", len(s))
	}
	t.slots, t.mask = s, uint32(n-1)
	empty := -1
	for i := 0; i < n; i++ {
		if s[i*slotLen+4] == 0 {
			empty = i
			break
		}
	}
	if empty < 0 {
		return errors.New("table full")
	}
	// Walk the slots once, starting after an empty one; run is the number
	// of used slots since the last empty one.
	run := uint32(0)
	for k := 1; k <= n; k++ {
		i := (empty + k) & (n - 1)
		r := s[i*slotLen : (i+1)*slotLen]
		kl := int(r[4])
		if kl == 0 {
			if r != "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" {
				return fmt.Errorf("slot %d: empty slot not zeroed", i)
			}
			run = 0
			continue
		}
		off := uint64(le32(r, 0))
		if off+uint64(kl) > uint64(len(im.pool)) || r[7] != 0 || !check(r[6], le32(r, 8)) {
			return fmt.Errorf("slot %d: bad record", i)
		}
		key := im.pool[off : off+uint64(kl)]
		h := hash3(key, "", "")
		if byte(h>>24) != r[5] {
			return fmt.Errorf("slot %d: bad tag", i)
		}
		if (uint32(i)-h)&t.mask > run {
			return fmt.Errorf("slot %d: key %q unreachable", i, key)
		}
		run++
	}
	return nil
}

func (t *table) count() int {
	c := 0
	for i := 4; i < len(t.slots); i += slotLen {
		if t.slots[i] != 0 {
			c++
		}
	}
	return c
}

// find returns the slot record of key, or "".
func (im *Image) find(t *table, key string) string { return im.find3(t, key, "", "") }

// find3 returns the slot record of the key a+b+c, or "".
func (im *Image) find3(t *table, a, b, c string) string {
	n := len(a) + len(b) + len(c)
	if n == 0 || n > maxKeyLen {
		return ""
	}
	h := hash3(a, b, c)
	tag := byte(h >> 24)
	slots := t.slots
	for i, j := h&t.mask, uint32(0); j <= t.mask; i, j = (i+1)&t.mask, j+1 {
		p := int(i) * slotLen
		if p+slotLen > len(slots) {
			return ""
		}
		kl := int(slots[p+4])
		if kl == 0 {
			return ""
		}
		if kl != n || slots[p+5] != tag {
			continue
		}
		off := int(le32(slots, p))
		key := im.pool[off : off+n]
		if key[:len(a)] == a && key[len(a):len(a)+len(b)] == b && key[len(a)+len(b):] == c {
			return slots[p : p+slotLen]
		}
	}
	return ""
}

// Synsets returns the number of synsets (ids are 0..n-1).
func (im *Image) Synsets() int { return im.nsyn }

// Docs returns the number of documents of the background corpus.
func (im *Image) Docs() int { return im.ndocs }

// Word reports whether the lemma prefix+suffix has senses and returns it
// (from the image: no allocation).
func (im *Image) Word(prefix, suffix string) (string, bool) {
	var r string
	if suffix == "" {
		r = im.find(&im.words, prefix)
	} else {
		r = im.find3(&im.words, prefix, suffix, "")
	}
	if r == "" {
		return "", false
	}
	off := int(le32(r, 0))
	return im.pool[off : off+int(r[4])], true
}

// Senses returns the senses of a lemma, most likely first, or nil.
func (im *Image) Senses(lemma string) []Sense {
	r := im.find(&im.words, lemma)
	if r == "" {
		return nil
	}
	start, n := int(le32(r, 8))*senseLen, int(r[6])
	if im.inPlace {
		return unsafe.Slice((*Sense)(unsafe.Pointer(unsafe.StringData(im.senses[start:]))), n)
	}
	out := make([]Sense, n)
	for i := range out {
		p := start + i*senseLen
		out[i] = Sense{
			Synset: int32(le32(im.senses, p)),
			Weight: math.Float32frombits(le32(im.senses, p+4)),
			Field:  im.senses[p+8],
		}
	}
	return out
}

// Hypernyms returns the direct hypernyms of a synset, or nil.
func (im *Image) Hypernyms(synset int32) []int32 {
	if synset < 0 || int(synset) >= im.nsyn {
		return nil
	}
	i := int(synset) * 4
	lo, hi := int(le32(im.hyperIdx, i))*4, int(le32(im.hyperIdx, i+4))*4
	if lo == hi {
		return nil
	}
	if im.inPlace {
		return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.StringData(im.hyperIDs[lo:]))), (hi-lo)/4)
	}
	out := make([]int32, (hi-lo)/4)
	for k := range out {
		out[k] = int32(le32(im.hyperIDs, lo+4*k))
	}
	return out
}

// Exception returns the lemma of an irregular form.
func (im *Image) Exception(form string) (string, bool) {
	r := im.find(&im.exc, form)
	if r == "" {
		return "", false
	}
	off := int(le32(r, 8))
	return im.pool[off : off+int(r[6])], true
}

// DocFreq returns the background document frequency of a stem (0 when it
// is not listed).
func (im *Image) DocFreq(stem string) int {
	r := im.find(&im.df, stem)
	if r == "" {
		return 0
	}
	return int(le32(r, 8))
}

// Antonyms reports whether two lemmas are antonyms, and whether directly.
func (im *Image) Antonyms(a, b string) (direct, ok bool) {
	if a > b {
		a, b = b, a
	}
	r := im.find3(&im.anto, a, "\x00", b)
	if r == "" {
		return false, false
	}
	return r[6] == antoDirect, true
}

func nativeLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// senseLayoutOK reports whether Sense has the layout of a sense record.
var senseLayoutOK = unsafe.Sizeof(Sense{}) == senseLen && unsafe.Alignof(Sense{}) <= 8 &&
	unsafe.Offsetof(Sense{}.Synset) == 0 && unsafe.Offsetof(Sense{}.Weight) == 4 && unsafe.Offsetof(Sense{}.Field) == 8
