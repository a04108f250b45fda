package contradict

// Antonymy through adjective clusters. WordNet pairs the heads of two
// clusters ("concise" / "prolix") and the builder of the embedded lexicon
// adds head–satellite pairs ("terse" / "prolix"); two satellites of opposed
// heads ("terse" / "verbose") are opposed as well, which this file derives
// at run time from the heads of the words' adjective senses.

// adjective lexicographer files: adj.all, adj.pert, adj.ppl.
func isAdjField(f uint8) bool { return f == 0 || f == 1 || f == 44 }

// maxClusterSenses bounds how many of a word's adjective senses are
// followed to their cluster heads: rare senses oppose too much.
const maxClusterSenses = 3

// headLemmas returns the lemmas of the adjective cluster heads of w's most
// likely adjective senses (a head is its own head).
func (c *Contradictor) headLemmas(w string) []string {
	c.headsOnce.Do(c.buildHeads)
	var out []string
	n := 0
	for _, s := range c.lex().Senses(w) {
		if !isAdjField(s.Field) {
			continue
		}
		if n++; n > maxClusterSenses {
			break
		}
		heads := c.lex().Hypernyms(s.Synset)
		if len(heads) == 0 {
			heads = []int32{s.Synset}
		}
		for _, h := range heads {
			for _, l := range c.heads[h] {
				if !contains(out, l) {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// buildHeads indexes the lemmas of every adjective synset that heads a
// cluster, by synset.
func (c *Contradictor) buildHeads() {
	c.heads = map[int32][]string{}
	lx := c.lex()
	lx.EachWord(func(l string) {
		for _, s := range lx.Senses(l) {
			if isAdjField(s.Field) && len(lx.Hypernyms(s.Synset)) == 0 {
				c.heads[s.Synset] = append(c.heads[s.Synset], l)
			}
		}
	})
}

// headsOpposed reports whether two words' cluster heads (see headLemmas)
// are direct antonyms while sharing no head ("terse" and "verbose":
// concise/prolix).
func (c *Contradictor) headsOpposed(ha, hb []string) bool {
	if len(ha) == 0 || len(hb) == 0 {
		return false
	}
	for _, x := range ha {
		for _, y := range hb {
			if x == y {
				return false // the two words share a cluster
			}
		}
	}
	for _, x := range ha {
		for _, y := range hb {
			if conf, ok := c.lex().Antonyms(x, y); ok && conf == 1 { // a direct pair
				return true
			}
		}
	}
	return false
}
