package lexicon

import (
	"encoding/binary"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// small builds a little lexicon exercising every table.
func small(t testing.TB) []byte {
	t.Helper()
	b := NewBuilder(6, 100)
	b.AddWord("child", []Sense{{Synset: 0, Weight: 1, Field: 18}, {Synset: 1, Weight: float32(3) / 9, Field: 18}})
	b.AddWord("kid", []Sense{{Synset: 0, Weight: 1, Field: 18}})
	b.AddWord("run", []Sense{{Synset: 2, Weight: 1, Field: 38}})
	b.AddWord("hot", []Sense{{Synset: 3, Weight: 1, Field: 0}})
	b.AddWord("cold", []Sense{{Synset: 4, Weight: 1, Field: 0}})
	b.AddWord("scorching", []Sense{{Synset: 5, Weight: 1, Field: 0}})
	b.AddHypernyms(0, []int32{1})
	b.AddHypernyms(5, []int32{3, 1})
	b.AddAntonyms("hot", "cold", true)
	b.AddAntonyms("scorching", "cold", false)
	b.AddException("children", "child")
	b.AddException("ran", "run")
	b.AddException("ran", "rank") // the first lemma wins
	b.AddDocFreq("child", 7)
	b.AddDocFreq("run", 12)
	img, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func checkSmall(t *testing.T, im *Image) {
	t.Helper()
	if got, want := im.Senses("child"), []Sense{{0, 1, 18}, {1, float32(3) / 9, 18}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Senses(child) = %v, want %v", got, want)
	}
	if got := im.Senses("nope"); got != nil {
		t.Errorf("Senses(nope) = %v", got)
	}
	if w, ok := im.Word("ki", "d"); !ok || w != "kid" {
		t.Errorf("Word(ki, d) = %q, %v", w, ok)
	}
	if _, ok := im.Word("ki", ""); ok {
		t.Error("Word(ki)")
	}
	if _, ok := im.Word("", ""); ok {
		t.Error("Word()")
	}
	if got := im.Hypernyms(5); !reflect.DeepEqual(got, []int32{3, 1}) {
		t.Errorf("Hypernyms(5) = %v", got)
	}
	for _, id := range []int32{-1, 1, 2, 6, 1 << 30} {
		if got := im.Hypernyms(id); got != nil {
			t.Errorf("Hypernyms(%d) = %v", id, got)
		}
	}
	for _, c := range []struct {
		a, b       string
		direct, ok bool
	}{{"hot", "cold", true, true}, {"cold", "hot", true, true}, {"cold", "scorching", false, true},
		{"hot", "scorching", false, false}, {"hot", "hot", false, false}, {"hot\x00cold", "", false, false}, {"", "hot\x00cold", false, false}} {
		if d, ok := im.Antonyms(c.a, c.b); d != c.direct || ok != c.ok {
			t.Errorf("Antonyms(%q, %q) = %v, %v", c.a, c.b, d, ok)
		}
	}
	if l, ok := im.Exception("ran"); !ok || l != "run" {
		t.Errorf("Exception(ran) = %q, %v", l, ok)
	}
	if _, ok := im.Exception("run"); ok {
		t.Error("Exception(run)")
	}
	if im.DocFreq("run") != 12 || im.DocFreq("child") != 7 || im.DocFreq("kid") != 0 || im.Docs() != 100 || im.Synsets() != 6 {
		t.Error("DocFreq")
	}
	if _, ok := im.Word(strings.Repeat("x", 300), ""); ok || im.Senses(strings.Repeat("x", 256)) != nil {
		t.Error("long keys")
	}
}

func TestBuildOpen(t *testing.T) {
	img := small(t)
	im, err := Open(string(img))
	if err != nil {
		t.Fatal(err)
	}
	checkSmall(t, im)
	im.inPlace = !im.inPlace
	checkSmall(t, im)
	again := small(t)
	if string(again) != string(img) {
		t.Error("Builder is not deterministic")
	}
}

// TestEmbeddedImage checks the committed image and that reading records in
// place and copying them agree.
func TestEmbeddedImage(t *testing.T) {
	data, err := os.ReadFile("lexicon.bin")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if !a.inPlace && nativeLittleEndian() {
		t.Error("the image is not read in place")
	}
	b := *a
	b.inPlace = !a.inPlace
	n := 0
	forKeys(a, &a.words, func(w string) {
		n++
		if !reflect.DeepEqual(a.Senses(w), b.Senses(w)) || len(a.Senses(w)) == 0 {
			t.Fatalf("Senses(%q): %v / %v", w, a.Senses(w), b.Senses(w))
		}
	})
	if n < 20000 {
		t.Errorf("%d words", n)
	}
	for id := range int32(a.Synsets()) {
		if !reflect.DeepEqual(a.Hypernyms(id), b.Hypernyms(id)) {
			t.Fatalf("Hypernyms(%d)", id)
		}
	}
}

// forKeys calls f with every key of a table.
func forKeys(im *Image, t *table, f func(string)) {
	for i := 0; i < len(t.slots); i += slotLen {
		if kl := int(t.slots[i+4]); kl > 0 {
			off := int(le32(t.slots, i))
			f(im.pool[off : off+kl])
		}
	}
}

func TestBuilderRejects(t *testing.T) {
	for name, f := range map[string]func(b *Builder){
		"synset":    func(b *Builder) { b.AddWord("x", []Sense{{Synset: 6, Weight: 1}}) },
		"weight":    func(b *Builder) { b.AddWord("x", []Sense{{Synset: 1, Weight: 0}}) },
		"field":     func(b *Builder) { b.AddWord("x", []Sense{{Synset: 1, Weight: 1, Field: 45}}) },
		"no senses": func(b *Builder) { b.AddWord("x", nil) },
		"long key":  func(b *Builder) { b.AddDocFreq(strings.Repeat("x", 256), 1) },
		"empty key": func(b *Builder) { b.AddDocFreq("", 1) },
		"hypernym":  func(b *Builder) { b.AddHypernyms(1, []int32{6}) },
		"hyponym":   func(b *Builder) { b.AddHypernyms(-1, []int32{1}) },
		"df":        func(b *Builder) { b.AddDocFreq("x", -1) },
	} {
		b := NewBuilder(6, 10)
		b.AddWord("ok", []Sense{{Synset: 1, Weight: 1}})
		f(b)
		if _, err := b.Bytes(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := NewBuilder(6, 10).Bytes(); err == nil {
		t.Error("empty lexicon: no error")
	}
}

func TestOpenRejects(t *testing.T) {
	img := small(t)
	sec := func(i int) (off, n int) {
		return int(binary.LittleEndian.Uint32(img[24+8*i:])), int(binary.LittleEndian.Uint32(img[28+8*i:]))
	}
	firstSlot := func(s int) int {
		off, n := sec(s)
		for i := off; i < off+n; i += slotLen {
			if img[i+4] != 0 {
				return i
			}
		}
		panic("empty table")
	}
	for name, corrupt := range map[string]func(b []byte) []byte{
		"truncated":  func(b []byte) []byte { return b[:len(b)-1] },
		"short":      func(b []byte) []byte { return b[:headerLen-1] },
		"magic":      func(b []byte) []byte { b[0] = 'X'; return b },
		"version":    func(b []byte) []byte { b[8] = 2; return b },
		"no synsets": func(b []byte) []byte { clear(b[16:20]); return b },
		"section":    func(b []byte) []byte { binary.LittleEndian.PutUint32(b[28+8*secDF:], 1<<20); return b },
		"misaligned": func(b []byte) []byte { binary.LittleEndian.PutUint32(b[24+8*secAnto:], uint32(len(b)-4)); return b },
		"overlap": func(b []byte) []byte {
			o, _ := sec(secPool)
			binary.LittleEndian.PutUint32(b[24+8*secSenses:], uint32(o))
			return b
		},
		"sense synset":  func(b []byte) []byte { o, _ := sec(secSenses); b[o] = 6; return b },
		"sense weight":  func(b []byte) []byte { o, _ := sec(secSenses); b[o+7] = 0x7f; return b },
		"sense field":   func(b []byte) []byte { o, _ := sec(secSenses); b[o+8] = 45; return b },
		"hyper index":   func(b []byte) []byte { o, _ := sec(secHyperIdx); b[o+4] = 9; return b },
		"hyper id":      func(b []byte) []byte { o, _ := sec(secHyperIDs); b[o] = 6; return b },
		"key offset":    func(b []byte) []byte { i := firstSlot(secWords); b[i+3] = 1; return b },
		"key tag":       func(b []byte) []byte { i := firstSlot(secWords); b[i+5]++; return b },
		"senses range":  func(b []byte) []byte { i := firstSlot(secWords); b[i+6] = 200; return b },
		"exc range":     func(b []byte) []byte { i := firstSlot(secExc); b[i+11] = 1; return b },
		"anto kind":     func(b []byte) []byte { i := firstSlot(secAnto); b[i+6] = 3; return b },
		"dirty empty":   func(b []byte) []byte { o, _ := sec(secDF); b[o+11] ^= 1; b[o+23] ^= 1; return b },
		"reserved byte": func(b []byte) []byte { i := firstSlot(secDF); b[i+7] = 1; return b },
		"table size":    func(b []byte) []byte { binary.LittleEndian.PutUint32(b[28+8*secAnto:], 12*3); return b },
		"full table": func(b []byte) []byte {
			o, n := sec(secExc)
			for i := o; i < o+n; i += slotLen {
				copy(b[i:i+slotLen], b[firstSlot(secExc):])
			}
			return b
		},
		"unreachable": func(b []byte) []byte {
			// Move a key to a slot before its home.
			o, n := sec(secWords)
			i := firstSlot(secWords)
			j := o + (i-o+n-slotLen)%n
			if b[j+4] != 0 {
				return nil
			}
			copy(b[j:j+slotLen], b[i:i+slotLen])
			clear(b[i : i+slotLen])
			return b
		},
	} {
		b := corrupt(append([]byte(nil), img...))
		if b == nil {
			continue
		}
		if _, err := Open(string(b)); err == nil {
			t.Errorf("%s: no error", name)
		}
		// Structural checks catch it even when the checksum is right.
		if len(b) >= headerLen {
			binary.LittleEndian.PutUint32(b[crcAt:], checksum(string(b)))
		}
		if _, err := Open(string(b)); err == nil {
			t.Errorf("%s (resealed): no error", name)
		}
	}
	// A changed value that the structure allows is caught by the checksum.
	b := append([]byte(nil), img...)
	i := firstSlot(secDF)
	b[i+8]++
	if _, err := open(string(b), false); err != nil {
		t.Fatalf("changed document frequency: %v", err)
	}
	if _, err := Open(string(b)); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("changed document frequency: %v", err)
	}
}

// TestOpenFlippedBytes flips every byte of a small image in turn: Open
// either fails or returns an image whose lookups stay in bounds.
func TestOpenFlippedBytes(t *testing.T) {
	img := small(t)
	for i := range img {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := append([]byte(nil), img...)
			b[i] ^= x
			exercise(t, string(b), "child", "ran")
		}
	}
}

// exercise opens data (without verifying its checksum, so that damaged
// images reach the structural checks) and, when it opens, looks up every
// key it holds and the given ones, through both the in-place and the
// copying readers.
func exercise(t *testing.T, data string, keys ...string) {
	im, err := open(data, false)
	if err != nil {
		return
	}
	for _, inPlace := range []bool{false, im.inPlace} {
		im.inPlace = inPlace
		all := append([]string(nil), keys...)
		for _, tb := range []*table{&im.words, &im.exc, &im.df, &im.anto} {
			forKeys(im, tb, func(k string) { all = append(all, k) })
		}
		for _, k := range all {
			a, b, _ := strings.Cut(k, "\x00")
			im.Senses(k)
			im.Word(k, k)
			im.Word(k, "")
			im.Exception(k)
			im.DocFreq(k)
			im.Antonyms(a, b)
			im.Antonyms(k, k)
		}
		for id := -1; id <= im.Synsets(); id++ {
			im.Hypernyms(int32(id))
		}
	}
	_ = fmt.Sprint(im.Docs())
}

func FuzzOpen(f *testing.F) {
	img := small(f)
	f.Add(img, "child", "cold")
	for _, i := range []int{0, 9, 16, 30, 100, len(img) / 2, len(img) - 5} {
		b := append([]byte(nil), img...)
		b[i] ^= 0x5a
		f.Add(b, "hot", "kid")
	}
	f.Fuzz(func(t *testing.T, data []byte, a, b string) {
		exercise(t, string(data), a, b, a+b)
	})
}
