// Command gen-lexicon reads the WordNet 3.0 database files (Debian package
// wordnet-base, /usr/share/wordnet) and writes the compact lexical tables the
// offline embedder and the contradiction decider use into
// semantic/lexicon/lexicon.bin, next to WordNet's license.
//
// Usage (from the repository root):
//
//	apt-get install -y wordnet-base
//	go run ./scripts/gen-lexicon [-wordnet /usr/share/wordnet] [-out semantic/lexicon]
//
// The output is deterministic: the same WordNet files give byte-identical
// output. The generated file is committed, so building thinkgraph never needs
// WordNet installed.
//
// The output is a binary image (package semantic/lexicon documents the
// format) holding:
//
//   - the number of synsets (ids are 0..n-1);
//   - each kept lemma's most likely senses (and the first sense of each other
//     part of speech), with a weight w/9 (w = 1..9) and the synset's WordNet
//     lexicographer file (semantic field, e.g. 18 noun.person, 38
//     verb.motion);
//   - direct hypernyms (nouns, verbs) or the head of an adjective
//     satellite's cluster, per synset;
//   - direct antonyms (WordNet "!" pointers) and indirect ones (through an
//     adjective cluster head);
//   - irregular inflections (morphological exception lists);
//   - the number of glosses in the background corpus and the gloss document
//     frequency of each Porter stem.
//
// It also writes semantic/lexicon/wordvec.bin, dense word vectors of the
// same lemmas derived from the WordNet graph (see wordvec.go here for how,
// and semantic/wordvec.go for the format).
package main

import (
	"bufio"
	"flag"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/lexicon"
)

type ptr struct {
	sym    string
	target string // "pos:offset"
	src    int    // 1-based source word index, 0 for semantic pointers
	dst    int
}

type synset struct {
	key   string
	lex   int // lexicographer file number
	pos   byte
	words []string
	ptrs  []ptr
	gloss string
}

var minQ int

// sense is one synset a lemma may denote ("pos:offset") and its score:
// tagged frequency plus a small prior for the rank in the index.
type sense struct {
	key   string
	score float64
}

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "directory holding WordNet 3.0 data.* and index.* files")
	out := flag.String("out", "semantic/lexicon", "output directory")
	maxSenses := flag.Int("senses", 4, "senses kept per word")
	flag.IntVar(&minQ, "minq", 2, "drop senses (after the first) whose weight 1..9 is below this")
	flag.Parse()
	if err := run(*wn, *out, *maxSenses); err != nil {
		log.Fatal(err)
	}
}

var posFiles = []struct {
	name string
	pos  byte
}{{"noun", 'n'}, {"verb", 'v'}, {"adj", 'a'}, {"adv", 'r'}}

func run(wn, out string, maxSenses int) error {
	synsets := map[string]*synset{}
	for _, pf := range posFiles {
		if err := readData(filepath.Join(wn, "data."+pf.name), pf.pos, synsets); err != nil {
			return err
		}
	}
	// index: lemma -> pos -> ordered synset keys.
	counts, err := readCounts(filepath.Join(wn, "cntlist.rev"))
	if err != nil {
		return err
	}
	// Background corpus: glosses.
	df := map[string]int{}
	glossWords := map[string]int{}
	ndocs := 0
	keys := make([]string, 0, len(synsets))
	for k := range synsets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ndocs++
		seen := map[string]bool{}
		for _, t := range semantic.Tokenize(synsets[k].gloss) {
			if semantic.IsNumber(t) {
				continue
			}
			if !seen[t] {
				glossWords[t]++
			}
			st := semantic.Stem(t)
			if !seen["\x00"+st] {
				df[st]++
				seen["\x00"+st] = true
			}
			seen[t] = true
		}
	}

	wordSenses := map[string][]sense{}
	for _, pf := range posFiles {
		f, err := os.Open(filepath.Join(wn, "index."+pf.name))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, " ") {
				continue
			}
			fs := strings.Fields(line)
			lemma := fs[0]
			if !keepWord(lemma) {
				continue
			}
			nsyn, _ := strconv.Atoi(fs[2])
			offs := fs[len(fs)-nsyn:]
			ssType := map[byte]string{'n': "1", 'v': "2", 'a': "3", 'r': "4"}[pf.pos]
			for i, off := range offs {
				c := counts[lemma+"%"+ssType+"#"+strconv.Itoa(i+1)]
				if pf.pos == 'a' {
					c += counts[lemma+"%5#"+strconv.Itoa(i+1)]
				}
				// Tagged frequency dominates; rank breaks ties and gives
				// untagged senses a small prior.
				score := float64(c) + 0.5/float64(i+1)
				wordSenses[lemma] = append(wordSenses[lemma], sense{string(pf.pos) + ":" + off, score})
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	// Keep common words: tagged in SemCor or frequent in glosses.
	words := make([]string, 0, len(wordSenses))
	for w, ss := range wordSenses {
		tagged := false
		for _, s := range ss {
			if s.score >= 1 {
				tagged = true
			}
		}
		if tagged || glossWords[w] >= 2 {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	keepSet := map[string]bool{}
	for _, w := range words {
		keepSet[w] = true
	}

	ids := map[string]int{}
	var order []string
	id := func(k string) int {
		if v, ok := ids[k]; ok {
			return v
		}
		ids[k] = len(order)
		order = append(order, k)
		return ids[k]
	}
	posSeenBefore := func(ss []sense, pos byte) bool {
		for _, s := range ss {
			if s.key[0] == pos {
				return true
			}
		}
		return false
	}
	keptSenses := map[string][]lexicon.Sense{}
	for _, w := range words {
		ss := slices.Clone(wordSenses[w])
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
		// The first maxSenses senses, and the first sense of every other
		// part of speech, so that an inflected form ("slicing") finds its
		// verb sense even when the noun is far more frequent.
		var keep []sense
		posSeen := map[byte]bool{}
		for i, s := range ss {
			if i < maxSenses || !posSeen[s.key[0]] {
				keep = append(keep, s)
			}
			posSeen[s.key[0]] = true
		}
		top := keep[0].score
		var parts []lexicon.Sense
		for i, s := range keep {
			q := int(9*s.score/top + 0.5)
			if q < 1 {
				q = 1
			}
			if i > 0 && i < maxSenses && q < minQ && posSeenBefore(keep[:i], s.key[0]) {
				continue
			}
			parts = append(parts, lexicon.Sense{Synset: int32(id(s.key)), Weight: float32(q) / 9, Field: uint8(synsets[s.key].lex)})
		}
		keptSenses[w] = parts
	}
	// Hypernym closure (bounded depth) over referenced synsets.
	parents := func(k string) []string {
		s := synsets[k]
		var ps []string
		for _, p := range s.ptrs {
			switch {
			case (s.pos == 'n' || s.pos == 'v') && (p.sym == "@" || p.sym == "@i"):
				ps = append(ps, p.target)
			case s.pos == 's' && p.sym == "&":
				ps = append(ps, p.target)
			}
		}
		return ps
	}
	hyper := map[int][]int{}
	frontier := slices.Clone(order)
	for depth := 0; depth < 6 && len(frontier) > 0; depth++ {
		var next []string
		for _, k := range frontier {
			for _, p := range parents(k) {
				_, seen := ids[p]
				pid := id(p)
				if !slices.Contains(hyper[ids[k]], pid) {
					hyper[ids[k]] = append(hyper[ids[k]], pid)
				}
				if !seen {
					next = append(next, p)
				}
			}
		}
		frontier = next
	}
	// Antonyms.
	anto := map[[2]string]byte{}
	addAnto := func(a, b string, kind byte) {
		if a == b || !keepSet[a] || !keepSet[b] {
			return
		}
		if a > b {
			a, b = b, a
		}
		if old, ok := anto[[2]string{a, b}]; ok && old == 'A' {
			return
		}
		anto[[2]string{a, b}] = kind
	}
	heads := map[string][]string{} // head synset -> satellite synsets
	for _, k := range keys {
		s := synsets[k]
		if s.pos == 's' {
			for _, p := range s.ptrs {
				if p.sym == "&" {
					heads[p.target] = append(heads[p.target], k)
				}
			}
		}
	}
	for _, k := range keys {
		s := synsets[k]
		for _, p := range s.ptrs {
			if p.sym != "!" || p.src == 0 {
				continue
			}
			t := synsets[p.target]
			if t == nil || p.src > len(s.words) || p.dst > len(t.words) {
				continue
			}
			a, b := s.words[p.src-1], t.words[p.dst-1]
			addAnto(a, b, 'A')
			// Satellites of an antonymous head pair oppose the other head.
			if s.pos == 'a' {
				for _, sat := range heads[p.target] {
					for _, w := range synsets[sat].words {
						addAnto(a, w, 'I')
					}
				}
			}
		}
	}
	// Exceptions.
	type exception struct{ form, lemma string }
	var excs []exception
	for _, pf := range posFiles {
		b, err := os.ReadFile(filepath.Join(wn, pf.name+".exc"))
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 2 || !keepSet[fs[1]] || strings.Contains(fs[0], "_") {
				continue
			}
			excs = append(excs, exception{fs[0], fs[1]})
		}
	}
	// For a form with several lemmas, the first in byte order wins.
	slices.SortFunc(excs, func(a, b exception) int {
		return strings.Compare(a.form+"\t"+a.lemma, b.form+"\t"+b.lemma)
	})
	excs = slices.Compact(excs)

	lb := lexicon.NewBuilder(len(order), ndocs)
	for w, ss := range keptSenses {
		lb.AddWord(w, ss)
	}
	for k, ps := range hyper {
		ids := make([]int32, len(ps))
		for i, p := range ps {
			ids[i] = int32(p)
		}
		lb.AddHypernyms(int32(k), ids)
	}
	nanto := 0
	for pair, kind := range anto {
		lb.AddAntonyms(pair[0], pair[1], kind == 'A')
		nanto++
	}
	for _, x := range excs {
		lb.AddException(x.form, x.lemma)
	}
	ndf := 0
	for st, n := range df {
		if n >= 2 && len(st) > 1 {
			lb.AddDocFreq(st, int32(n))
			ndf++
		}
	}
	img, err := lb.Bytes()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "lexicon.bin"), img, 0o644); err != nil {
		return err
	}
	log.Printf("words=%d synsets=%d hypernym-rows=%d antonyms=%d exceptions=%d df=%d bytes=%d",
		len(keptSenses), len(order), len(hyper), nanto, len(excs), ndf, len(img))

	vecWords := make([]string, 0, len(keptSenses))
	for w := range keptSenses {
		vecWords = append(vecWords, w)
	}
	sort.Strings(vecWords)
	vecs := wordVectors(vecWords, wordSenses, synsets)
	wv, err := semantic.EncodeWordVectors(vecWords, vecs)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "wordvec.bin"), wv, 0o644); err != nil {
		return err
	}
	log.Printf("word vectors: words=%d dim=%d bytes=%d", len(vecWords), wordVecDim, len(wv))
	return nil
}

func keepWord(w string) bool {
	if len(w) < 2 || len(w) > 20 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}

// readData parses one WordNet data file.
func readData(path string, pos byte, into map[string]*synset) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue
		}
		body, gloss, _ := strings.Cut(line, " | ")
		fs := strings.Fields(body)
		s := &synset{key: string(pos) + ":" + fs[0], pos: fs[2][0], gloss: gloss}
		s.lex, _ = strconv.Atoi(fs[1])
		nw64, _ := strconv.ParseInt(fs[3], 16, 0)
		nw := int(nw64)
		i := 4
		for j := 0; j < nw; j++ {
			w := strings.ToLower(fs[i])
			if p := strings.IndexByte(w, '('); p > 0 {
				w = w[:p]
			}
			s.words = append(s.words, w)
			i += 2
		}
		np, _ := strconv.Atoi(fs[i])
		i++
		for j := 0; j < np; j++ {
			sym, off, tpos, st := fs[i], fs[i+1], fs[i+2], fs[i+3]
			i += 4
			tp := tpos[0]
			if tp == 's' {
				tp = 'a'
			}
			src, _ := strconv.ParseInt(st[:2], 16, 0)
			dst, _ := strconv.ParseInt(st[2:], 16, 0)
			s.ptrs = append(s.ptrs, ptr{sym: sym, target: string(tp) + ":" + off, src: int(src), dst: int(dst)})
		}
		into[s.key] = s
	}
	return sc.Err()
}

// readCounts reads cntlist.rev into "lemma%sstype#sensenumber" -> count.
func readCounts(path string) (map[string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 {
			continue
		}
		lemma, rest, ok := strings.Cut(fs[0], "%")
		if !ok || len(rest) == 0 {
			continue
		}
		n, _ := strconv.Atoi(fs[2])
		m[strings.ToLower(lemma)+"%"+rest[:1]+"#"+fs[1]] += n
	}
	return m, nil
}
