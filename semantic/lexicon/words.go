package lexicon

// EachWord calls fn with every lemma that has senses in the image, in slot
// order (no particular order).
func (im *Image) EachWord(fn func(lemma string)) {
	s := im.words.slots
	for p := 0; p+slotLen <= len(s); p += slotLen {
		kl := int(s[p+4])
		if kl == 0 {
			continue
		}
		off := int(le32(s, p))
		fn(im.pool[off : off+kl])
	}
}
