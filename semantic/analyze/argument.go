package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/claims"
)

// This file reads the argument structure of thoughts: which claim is offered
// as support for which, across the thoughts of a session. DetectCircular
// uses it to find claims that are supported, directly or through a chain,
// by a restatement of themselves.

// argUnit is one claim: a clause of a thought between connectives.
type argUnit struct {
	doc   int    // position of its thought in the docs
	text  string // the clause as written (lower case)
	words []argWord
	neg   bool // the clause is negated (an odd number of negators)
	// pronoun is set when the clause refers back with a pronoun ("it is
	// accurate"): it may stand for a fuller subject said elsewhere.
	pronoun bool
	// figures are the figures and formulas the clause states ("12",
	// claims.FormulasAsNames gives a formula's token): a step of a
	// computation, from which "so" derives rather than argues. Two claims
	// restate each other only if they state the same figures.
	figures []string
	at      int // its index in the graph's units: claims are read in order
}

// argWord is a content word of a claim.
type argWord struct {
	lemma, stem string
	senses      []semantic.Sense
	id          int32 // the lemma's number in its argReader
	tok         int32 // the token's number in its argReader
}

// argEdge says that claim from is offered as support for claim to.
type argEdge struct {
	from, to int
	// how names the connective or the reading that gave the edge.
	how string
	// implicit edges come from the order of thoughts, not from a connective.
	implicit bool
}

// argGraph is the argument structure of a set of thoughts.
type argGraph struct {
	units []argUnit
	edges []argEdge
	heads [][]int // per doc: the claims it asserts that none of its own claims support
	// near lists per doc the docs whose claims its claims are compared
	// with: itself, its ancestors through ParentID (up to argWindow) and
	// the thoughts it builds upon (DependsOn).
	near [][]int
}

// argWindow bounds how many ancestors of a thought its claims are compared
// with: circular arguments are a few thoughts long, and the bound keeps
// the comparison linear in the session's size.
const argWindow = 8

// Connectives. A backward connective puts the premise after it ("X because
// Y"), a forward one before it ("X, so Y"). Markers are matched on whole
// tokens; longer markers are listed first.
var (
	backwardMarkers = append(semantic.ReasonMarkers,
		// What a claim rests on: "X requires Y" makes Y a condition of X.
		[]string{"requires"}, []string{"require"}, []string{"presupposes"}, []string{"presuppose"},
		[]string{"depends", "on"}, []string{"depend", "on"}, []string{"relies", "on"}, []string{"rely", "on"},
	)
	forwardMarkers = [][]string{
		{"which", "is", "exactly", "why"}, {"which", "is", "precisely", "why"}, {"which", "is", "why"},
		{"that", "is", "exactly", "why"}, {"that", "is", "why"}, {"this", "is", "why"},
		{"it", "follows", "that"}, {"which", "means", "that"}, {"which", "means"}, {"which", "proves", "that"},
		{"and", "so"}, {"therefore"}, {"thus"}, {"hence"}, {"consequently"}, {"accordingly"}, {"so"},
	}
	// leadingMarkers open a sentence with its premise: "Since Y, X".
	leadingMarkers = [][]string{{"given", "that"}, {"because"}, {"since"}}
)

// frameWords report or stress a claim without adding to what it says ("we
// know that", "precisely because", "the reason"); they are left out of a
// claim's content together with the stop words.
var frameWords = map[string]bool{
	"know": true, "knew": true, "known": true, "tell": true, "see": true, "seen": true, "clear": true,
	"evident": true, "obvious": true, "obviously": true, "clearly": true, "show": true, "shows": true,
	"shown": true, "showing": true, "prove": true, "proves": true, "proof": true, "proven": true,
	"fact": true, "reason": true, "precisely": true, "exactly": true, "indeed": true, "really": true,
	"simply": true, "ought": true, "thing": true, "way": true, "therefore": true, "thus": true,
	"hence": true, "consequently": true, "accordingly": true, "say": true, "says": true, "said": true,
	"why": true, "case": true, "true": true, "certainly": true, "surely": true, "just": true,
	// Light verbs: "makes the team productive" says "the team is productive".
	"make": true, "cause": true, "become": true, "remain": true, "seem": true,
}

// argReader builds argument graphs with a lexicon.
type argReader struct {
	lex   *semantic.Lexicon
	words map[string]argWord // analysed tokens
	// same remembers sameWord's answer on two lemmas (by id): a long
	// thought compares the same words many times, and word vectors are
	// costly.
	same map[[2]int32]bool
	ids  map[string]int32
	// saying remembers what sameWord finds of two tokens (by tok), kept
	// across the calls of an ArgCache; same is not (see sameWord).
	saying map[[2]int32]bool
}

// ArgCache keeps what reading thoughts into arguments (DetectCircular)
// learns that does not depend on the other thoughts: each text's
// sentences, split into tokens, and the analysis of each word and of
// pairs of words. Later calls on the same session (thoughts never change
// their text) then read only the new thoughts' texts. It is not safe for
// concurrent use.
type ArgCache struct {
	reader *argReader
	tokens map[string][][]string // a thought's text: its sentences' tokens
}

// NewArgCache returns an empty cache.
func NewArgCache() *ArgCache { return &ArgCache{tokens: map[string][][]string{}} }

// readerFor returns the cache's reader for lx (nil: the embedded lexicon),
// a new one when the cache is nil or its reader reads with another lexicon.
func (c *ArgCache) readerFor(lx *semantic.Lexicon) *argReader {
	if c == nil {
		return newArgReader(lx)
	}
	if lx == nil {
		lx = semantic.LexiconOr(nil)()
	}
	if c.reader == nil || c.reader.lex != lx {
		c.reader = newArgReader(lx)
	}
	// A fresh memo of lemma pairs: sameWord's answers as a new reader
	// would give them.
	r := *c.reader
	r.same = map[[2]int32]bool{}
	return &r
}

// sentences returns the tokens of each sentence of text (argTokens of
// claims.Sentences); the slices are shared and must not be modified.
func (c *ArgCache) sentences(text string) [][]string {
	if c != nil {
		if s, ok := c.tokens[text]; ok {
			return s
		}
	}
	var out [][]string
	for _, s := range claims.Sentences(text) {
		out = append(out, argTokens(claims.FormulasAsNames(s)))
	}
	if c != nil {
		c.tokens[text] = out
	}
	return out
}

func newArgReader(lx *semantic.Lexicon) *argReader {
	if lx == nil {
		lx = semantic.LexiconOr(nil)()
	}
	return &argReader{lex: lx, words: map[string]argWord{}, same: map[[2]int32]bool{}, ids: map[string]int32{}, saying: map[[2]int32]bool{}}
}

// assents are the words of a reply that agrees ("Right.", "That's
// correct."): a clause whose only content word is one of them, not after
// an article ("the right one" names a thing), asserts nothing of its own.
var assents = map[string]bool{"right": true, "correct": true, "ok": true, "okay": true, "yes": true, "yeah": true, "sure": true, "agreed": true, "agree": true}

// argTokens splits a sentence into lower-case tokens, with "," for every
// clause break (comma, colon, dash, parenthesis).
func argTokens(sentence string) []string {
	var toks []string
	seg := 0
	flush := func(end int) {
		toks = semantic.AppendTokens(toks, sentence[seg:end])
	}
	for i, r := range sentence {
		switch r {
		case ',', ':', '—', '–', '(', ')':
			flush(i)
			if len(toks) > 0 && toks[len(toks)-1] != "," {
				toks = append(toks, ",")
			}
			seg = i + len(string(r))
		}
	}
	flush(len(sentence))
	return toks
}

// hasPrefixAt reports whether toks[i:] starts with m.
func hasPrefixAt(toks []string, i int, m []string) bool {
	if i+len(m) > len(toks) {
		return false
	}
	for k, w := range m {
		if toks[i+k] != w {
			return false
		}
	}
	return true
}

// unit analyses a clause into a claim (no content: ok is false).
func (r *argReader) unit(doc int, toks []string) (argUnit, bool) {
	u := argUnit{doc: doc}
	var parts []string
	assent := false
	for i, t := range toks {
		if assents[t] {
			assent = i == 0 || toks[i-1] != "the" && toks[i-1] != "a" && toks[i-1] != "an"
		}
		if t == "," {
			continue
		}
		if strings.HasPrefix(t, claims.FormulaMark) || semantic.IsNumber(t) {
			// A figure or a formula: the clause computes; its figures are
			// not words it says.
			u.figures = append(u.figures, t)
			if !strings.HasPrefix(t, claims.FormulaMark) {
				parts = append(parts, t)
			}
			continue
		}
		parts = append(parts, t)
		if semantic.IsNegator(t) {
			u.neg = !u.neg
			continue
		}
		if semantic.IsAnaphor(t) {
			u.pronoun = true
		}
		if semantic.IsStopWord(t) || frameWords[t] {
			continue
		}
		if w := r.word(t); !frameWords[w.lemma] {
			u.words = append(u.words, w)
		}
	}
	u.text = strings.Join(parts, " ")
	if len(u.words) == 1 && assent && assents[u.words[0].lemma] {
		return u, false // "That's right."
	}
	return u, len(u.words) > 0
}

func (r *argReader) word(t string) argWord {
	if w, ok := r.words[t]; ok {
		return w
	}
	w := argWord{lemma: t, stem: semantic.Stem(t), tok: int32(len(r.words))}
	if l := r.lex.Lemma(t); l != "" {
		w.lemma = l
	}
	id, ok := r.ids[w.lemma]
	if !ok {
		id = int32(len(r.ids))
		r.ids[w.lemma] = id
	}
	w.id = id
	for _, l := range r.lex.Lemmas(t) {
		w.senses = append(w.senses, r.lex.Senses(l)...)
	}
	r.words[t] = w
	return w
}

// sameWord reports whether two content words say the same: the same lemma
// or stem, a shared WordNet sense, or word vectors at least argWordSim apart.
func (r *argReader) sameWord(a, b argWord) bool {
	if a.lemma == b.lemma || sameStem(a.stem, b.stem) {
		return true
	}
	k := [2]int32{min(a.id, b.id), max(a.id, b.id)}
	if v, ok := r.same[k]; ok {
		return v
	}
	// The memo is by lemma, but the senses are the token's: two tokens
	// of one lemma may answer differently, and the first pair asked
	// decides (the pair's own answer is kept in saying).
	t := [2]int32{min(a.tok, b.tok), max(a.tok, b.tok)}
	v, ok := r.saying[t]
	if !ok {
		v = semantic.WordCosine(a.lemma, b.lemma) >= argWordSim
		for _, x := range a.senses {
			for _, y := range b.senses {
				v = v || x.Synset == y.Synset
			}
		}
		r.saying[t] = v
	}
	r.same[k] = v
	return v
}

// sameStem reports whether two Porter stems are one word's: equal, or
// differing only in a final letter that Porter's steps treat differently
// ("deploi" of "deploy", "deploy" of "deployment").
func sameStem(a, b string) bool {
	if a == b {
		return true
	}
	n := len(a)
	if len(b) != n || n < 4 || a[:n-1] != b[:n-1] {
		return false
	}
	x, y := a[n-1], b[n-1]
	return x == 'i' && y == 'y' || x == 'y' && y == 'i'
}

// argWordSim is the word-vector cosine from which two words count as saying
// the same in a restatement ("choice"/"option", "trust"/"reliable").
const argWordSim = 0.45

// restates reports whether one claim says what the other says: the same
// polarity, every content word of the claim with fewer of them matched
// (sameWord) in the other and every figure of it stated there too, and at
// most one word or figure of the other left over unless the shorter claim
// refers back with a pronoun to the other, said before it (a pronoun may
// stand for any subject): "it is accurate" restates "our estimate of six
// weeks is accurate", but "the contract is void" does not restate "the
// statute voids contracts signed by minors", and in "that is a quadratic,
// so we use the quadratic formula" the pronoun stands for something said
// before, not for the formula.
func (r *argReader) restates(a, b argUnit) bool {
	if a.neg != b.neg {
		return false
	}
	if len(a.words) > len(b.words) {
		a, b = b, a
	}
	refers := a.pronoun && a.at > b.at
	// Each word of a matches a word of b, and at most one of b is left:
	// b far longer than a cannot be, unless a refers back ("it").
	if !refers && len(b.words) > 2*len(a.words)+1 {
		return false
	}
	left := 0
	for _, f := range a.figures {
		if !slices.Contains(b.figures, f) {
			return false
		}
	}
	for _, f := range b.figures {
		if !slices.Contains(a.figures, f) {
			left++
		}
	}
	matched := make([]bool, len(b.words))
	for _, w := range a.words {
		found := false
		for k, v := range b.words {
			if r.sameWord(w, v) {
				found = true
				matched[k] = true
			}
		}
		if !found {
			return false
		}
	}
	for _, m := range matched {
		if !m {
			left++
		}
	}
	return left <= 1 || refers
}

// parse reads a clause (tokens) into claims and support edges, returning
// its head claims (what the clause concludes). prev are the claims that an
// empty side of a connective refers to ("We should therefore X": the
// premise is what was said before).
func (r *argReader) parse(g *argGraph, doc int, toks []string, prev []int, depth int) []int {
	// Trim clause breaks and a leading "and"/"but".
	for len(toks) > 0 && (toks[0] == "," || toks[0] == "and" || toks[0] == "but") {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1] == "," {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return nil
	}
	if depth < 4 {
		// "Since Y, X": the premise runs to the first clause break.
		for _, m := range leadingMarkers {
			if !hasPrefixAt(toks, 0, m) {
				continue
			}
			rest := toks[len(m):]
			cut := -1
			for i, t := range rest {
				if t == "," {
					cut = i
					break
				}
			}
			// "Since going remote, ..." and "since 2020" tell a time.
			if m[0] == "since" && len(rest) > 0 && (strings.HasSuffix(rest[0], "ing") || semantic.IsNumber(rest[0]) || rest[0] == "then" || rest[0] == "last") {
				break
			}
			if cut > 0 {
				prem := r.parse(g, doc, rest[:cut], prev, depth+1)
				concl := r.parse(g, doc, rest[cut+1:], prev, depth+1)
				g.link(prem, concl, strings.Join(m, " "))
				return concl
			}
		}
		for i := 1; i < len(toks); i++ {
			for _, m := range backwardMarkers {
				if !hasPrefixAt(toks, i, m) {
					continue
				}
				// "the reason X is that Y" reads as "X because Y".
				left := toks[:i]
				if m[0] == "since" && i+1 < len(toks) && (semantic.IsNumber(toks[i+1]) || strings.HasSuffix(toks[i+1], "ing")) {
					continue
				}
				concl := r.parse(g, doc, left, prev, depth+1)
				if concl == nil {
					concl = prev
				}
				prem := r.parse(g, doc, toks[i+len(m):], prev, depth+1)
				g.link(prem, concl, strings.Join(m, " "))
				return concl
			}
			for _, m := range forwardMarkers {
				if !hasPrefixAt(toks, i, m) {
					continue
				}
				// "so" joins clauses only after a break ("X, so Y").
				if m[0] == "so" && toks[i-1] != "," {
					continue
				}
				prem := r.parse(g, doc, toks[:i], prev, depth+1)
				if prem == nil {
					prem = prev
				}
				concl := r.parse(g, doc, toks[i+len(m):], prev, depth+1)
				if !g.computes(prem) {
					g.link(prem, concl, strings.Join(m, " "))
				}
				return concl
			}
		}
		// "To X, you must Y": Y is a condition of X.
		if toks[0] == "to" {
			for i := 1; i+1 < len(toks); i++ {
				if toks[i] != "," {
					continue
				}
				for _, t := range toks[i+1:] {
					if t == "must" || t == "need" || t == "needs" || t == "have" || t == "has" || t == "should" {
						concl := r.parse(g, doc, toks[1:i], prev, depth+1)
						prem := r.parse(g, doc, toks[i+1:], prev, depth+1)
						g.link(prem, concl, "to … must")
						return concl
					}
				}
				break
			}
		}
		// "The reason X is that Y".
		if hasPrefixAt(toks, 0, []string{"the", "reason"}) {
			for i := 2; i+1 < len(toks); i++ {
				if toks[i] == "is" && toks[i+1] == "that" {
					concl := r.parse(g, doc, toks[2:i], prev, depth+1)
					prem := r.parse(g, doc, toks[i+2:], prev, depth+1)
					g.link(prem, concl, "the reason … is that")
					return concl
				}
			}
		}
	}
	// "X, and Y": two claims.
	for i := 1; i+1 < len(toks); i++ {
		if toks[i] == "," && (toks[i+1] == "and" || toks[i+1] == "but" || toks[i+1] == "while") {
			return append(r.parse(g, doc, toks[:i], prev, depth+1), r.parse(g, doc, toks[i+2:], prev, depth+1)...)
		}
	}
	u, ok := r.unit(doc, toks)
	if !ok {
		return nil
	}
	u.at = len(g.units)
	g.units = append(g.units, u)
	return []int{len(g.units) - 1}
}

// computes reports whether one of the claims us states a figure or a
// formula: "X, so Y" then derives Y in a computation ("the width is 10, so
// the area is 80"), which is not an argument for Y.
func (g *argGraph) computes(us []int) bool {
	for _, u := range us {
		if len(g.units[u].figures) > 0 {
			return true
		}
	}
	return false
}

func (g *argGraph) link(from, to []int, how string) {
	for _, f := range from {
		for _, t := range to {
			if f != t {
				g.edges = append(g.edges, argEdge{from: f, to: t, how: how})
			}
		}
	}
}

// readArguments builds the argument graph of docs. Each thought is split
// into sentences and clauses at connectives; a thought that opens with a
// forward connective ("So X", "We should therefore X") or closes its
// parent's claim ("That is because Y") links to its parent's claims. A
// thought with no such link is read as support for its parent thought (a
// claim, then the reasons for it), unless it repeats something said
// before, its own reasons restate the parent's claim (then the parent
// supports it), or it is a conclusion (type synthesis, answer or
// conclusion), which its parent supports. Steps of a computation (claims
// that state figures or formulas) neither give nor take that implicit
// support, and "So X" after one links nothing: X is derived, not argued.
func readArguments(docs []Doc, lx *semantic.Lexicon, cache *ArgCache) (*argGraph, *argReader) {
	r := cache.readerFor(lx)
	g := &argGraph{heads: make([][]int, len(docs))}
	pos := make(map[string]int, len(docs))
	for i, d := range docs {
		if _, dup := pos[d.ID]; !dup {
			pos[d.ID] = i
		}
	}
	g.near = make([][]int, len(docs))
	for i, d := range docs {
		g.near[i] = append(g.near[i], i)
		seen := map[int]bool{i: true}
		cur := d
		for k := 0; k < argWindow; k++ {
			p, ok := pos[cur.ParentID]
			if !ok || cur.ParentID == "" || seen[p] {
				break
			}
			seen[p] = true
			g.near[i] = append(g.near[i], p)
			cur = docs[p]
		}
		for _, id := range d.DependsOn {
			if p, ok := pos[id]; ok && !seen[p] {
				seen[p] = true
				g.near[i] = append(g.near[i], p)
			}
		}
	}
	unitsOf := make([][]int, len(docs))
	order := byStepIndex(docs)
	explicitParent := make([]bool, len(docs))
	for _, i := range order {
		d := docs[i]
		var parentHeads []int
		if p, ok := pos[d.ParentID]; ok && d.ParentID != "" && p != i {
			parentHeads = g.heads[p]
		}
		firstUnit, firstEdge := len(g.units), len(g.edges)
		prev := parentHeads
		var heads []int
		for _, toks := range cache.sentences(d.Content) {
			for len(toks) > 0 && (toks[0] == "and" || toks[0] == "but" || toks[0] == ",") {
				toks = toks[1:]
			}
			// "That is because Y": Y supports what came before.
			for _, m := range [][]string{{"that", "is", "because"}, {"this", "is", "because"}, {"that", "is", "precisely", "because"}} {
				if hasPrefixAt(toks, 0, m) {
					prem := r.parse(g, i, toks[len(m):], prev, 1)
					g.link(prem, prev, strings.Join(m, " "))
					toks = nil
					if len(heads) == 0 {
						explicitParent[i] = true
					}
				}
			}
			// "So X", "Therefore X": what came before supports X, unless
			// it is a computation, which X continues.
			for _, m := range forwardMarkers {
				if len(toks) > 0 && hasPrefixAt(toks, 0, m) {
					concl := r.parse(g, i, toks[len(m):], prev, 1)
					if !g.computes(prev) {
						g.link(prev, concl, strings.Join(m, " "))
					}
					heads = append(heads, concl...)
					prev = concl
					toks = nil
					if len(heads) == len(concl) {
						explicitParent[i] = true
					}
				}
			}
			if toks == nil {
				continue
			}
			first := len(g.edges)
			h := r.parse(g, i, toks, prev, 0)
			// A connective with an empty side that fell back on the parent
			// ("We should therefore X") links this thought explicitly.
			for _, e := range g.edges[first:] {
				for _, p := range parentHeads {
					if e.from == p || e.to == p {
						explicitParent[i] = true
					}
				}
			}
			heads = append(heads, h...)
			if len(h) > 0 {
				prev = h
			}
		}
		g.heads[i] = heads
		// A thought that makes its own argument (B because A) states it:
		// it is not also read as a reason for the thought before it.
		ownArgument := len(g.edges) > firstEdge
		for u := range g.units[firstUnit:] {
			unitsOf[i] = append(unitsOf[i], firstUnit+u)
		}
		// A thought that builds upon another is supported by it.
		for _, id := range d.DependsOn {
			if p, ok := pos[id]; ok && p != i && d.ID != docs[p].ParentID {
				g.link(g.heads[p], heads, "builds upon")
			}
		}
		if explicitParent[i] || len(parentHeads) == 0 {
			continue
		}
		if ownArgument && !thinkgraph.RoleOf(strings.ToLower(d.Type)).Concludes && !r.aboutSame(g, heads, parentHeads) {
			continue
		}
		if thinkgraph.RoleOf(strings.ToLower(d.Type)).Concludes {
			g.implicit(parentHeads, heads)
			continue
		}
		// A claim, then its reasons: this thought supports its parent,
		// unless it repeats an earlier claim. A step of a computation (a
		// claim that states a figure or a formula) is no reason offered for
		// the step before it, nor that step a claim argued for: each
		// follows from the last.
		var support []int
		for _, h := range heads {
			if len(g.units[h].figures) > 0 {
				continue
			}
			repeat := false
			for _, o := range g.near[i][1:] {
				for _, u := range unitsOf[o] {
					repeat = repeat || r.restates(g.units[h], g.units[u])
				}
			}
			if !repeat {
				support = append(support, h)
			}
		}
		g.implicit(support, slices.DeleteFunc(slices.Clone(parentHeads), func(p int) bool { return len(g.units[p].figures) > 0 }))
	}
	return g, r
}

// aboutSame reports whether a claim of heads speaks of what a claim of
// others speaks of: it refers back with a pronoun, or shares a content word.
// Only then may a thought that argues for its own claim ("B because A")
// also be a reason offered for the claim before it.
func (r *argReader) aboutSame(g *argGraph, heads, others []int) bool {
	for _, h := range heads {
		if g.units[h].pronoun {
			return true
		}
		for _, o := range others {
			for _, a := range g.units[h].words {
				for _, b := range g.units[o].words {
					if r.sameWord(a, b) {
						return true
					}
				}
			}
		}
	}
	return false
}

func (g *argGraph) implicit(from, to []int) {
	for _, f := range from {
		for _, t := range to {
			if f != t {
				g.edges = append(g.edges, argEdge{from: f, to: t, how: "offered as support", implicit: true})
			}
		}
	}
}

// byStepIndex returns the positions of docs in step order (then id).
func byStepIndex(docs []Doc) []int {
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, stepOrder(docs))
	return idx
}

// stepOrder compares two positions of docs by step, then id, then position.
func stepOrder(docs []Doc) func(a, b int) int {
	return func(a, b int) int {
		return cmp.Or(cmp.Compare(docs[a].Step, docs[b].Step), strings.Compare(docs[a].ID, docs[b].ID), cmp.Compare(a, b))
	}
}
