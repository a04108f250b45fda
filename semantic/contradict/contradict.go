// Package contradict is thinkgraph's contradiction judge: the Contradictor
// decides whether two short texts contradict each other, offline, from the
// words of each clause, the WordNet lexicon of package semantic (synonyms,
// hypernyms, antonyms), quantities and numbers, and the claims a sentence
// makes besides itself. The analyzers of semantic/analyze take it through
// their PairJudge, adapted by the caller.
package contradict

import (
	"fmt"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/claims"
)

// Verdict is the contradiction decider's answer for one pair of texts.
type Verdict struct {
	Contradicts bool
	Confidence  float64 // in [0,1]; 0 when the texts do not contradict
	Reason      string  // human-readable explanation
}

// Contradictor decides whether two short texts contradict each other. It
// holds the WordNet lexicon it uses for synonyms, hypernyms and antonyms and
// is safe for concurrent use.
//
// How it decides. Each sentence is read once (and cached): tokens, lemmas
// and WordNet senses of its content words, its negation, quantifier,
// modality, temporal connective, time frame, leading condition, hedge and
// the quantities it states. Two texts can only contradict when they are
// about the same thing: their content words match (same lemma, a shared
// WordNet sense, or a hypernym within three levels), and unmatched words
// that are different things of one kind ("staging" / "production", two
// names, two modifiers) mean different subjects. Before any rule:
//
//   - a text that is a formula without a stated subject (claims.Readable:
//     "So S_{14} = 7 * 301") is read by no rule; a formula's figures are
//     no quantities (numberToks);
//   - hedges (might, could, probably, usually, seems, may …) make a claim
//     tentative: a hedged text never contradicts;
//   - a leading time or condition phrase the other text lacks ("Before the
//     fix, …", "With a warm cache, …") or two different time frames ("last
//     year" / "this year") mean different times, not a contradiction. A
//     condition the other text states anywhere is shared, also in a short
//     form: a number-prefix compound ("monorepo" = one repo) or a clipped
//     word ("repo" / "repository"; see shortFor).
//
// A sentence is judged as written and by each claim it makes (claimsOf):
// a reason, consequence or relative clause attached to a main clause
// ("because", "since", "given that", ", so", ", which") is a claim of its
// own, and "X makes Y V" claims "Y V" under the condition X.
//
// The rules, each naming itself and its words in Verdict.Reason:
//
//   - requirement: one text requires something (must, needs, requires,
//     mandatory, has to), the other says it is not required (optional, not
//     required, needs no, can … without, may skip, "unsigned … accepted",
//     "up to each"), about the same thing;
//   - order: "X before Y" against "Y before X" or "X after Y" (events
//     matched by their words and numbers); "X during Y" (or "still
//     running when Y") against "X after Y", or against "X finished before
//     Y"; "already" against "planned", "scheduled", "next year" or "not
//     yet";
//   - quantifier: all/every/always, some/several/a few/sometimes/
//     occasionally/at least one, most, none/no/never and "not every" read as
//     (quantity, polarity) of the same subject: "all P" contradicts "not
//     every P", "some not P" and "no P"; "never P" contradicts "occasionally
//     P"; an antonym or an opposed comparator ("within" / "longer than")
//     flips the polarity. The subject's noun group must be shared ("every
//     square is a rectangle" / "not every rectangle is a square" agree);
//   - numbers: quantities with units converted (ms/s/min/h/days…, bytes,
//     percent and fractions, currency, metres, grams, clock times, months)
//     and comparators read as intervals (over, under, at least, at most,
//     between … and …, about ±25%); limits ("capped at", "up to", "limit
//     of") as exact values. A quantity that fits no quantity of the same
//     unit on the other side contradicts when the rest of the content
//     matches; "9 engineers" / "more than five engineers" agree;
//   - negation: exactly one text negates its clause (not, n't, no, never,
//     nobody, nothing, none, no longer, "there is no X", "lacks X", "is
//     missing X"; "with no"/"without" are modifiers, not clause negation),
//     and every content word of the negated text is matched in the other
//     text ("no person is riding"
//     against "a man is riding"). Extra detail on the positive side is
//     allowed, missing detail is not. A negative verb on the other side
//     ("failed to", "refused to", "lacks") agrees with the negation;
//   - antonym: both texts have the same polarity and differ in a pair of
//     opposed words, the rest of their content matching: WordNet antonyms,
//     adjectives whose cluster heads are antonyms ("terse" / "verbose"),
//     negative prefixes ("mutable" / "immutable"), a list of general
//     opposing verbs and adjectives (grow/shrink, allow/block,
//     approve/reject, pass/fail, stable/flaky …) and graded words
//     (more/less, most/fewest). A "with"/"without" difference cancels the
//     antonym ("accepts requests with a token" / "rejects requests without
//     a token"), and so does "until" ("open until 8 p.m." / "closes at 8
//     p.m."). Modifiers pick out things: "a large table" and "a small
//     table" are different tables;
//   - comparative: "X is faster than Y" against "Y is faster than X", or
//     against "X is slower than Y"; "Y is slower than X" agrees.
//
// Confidence grows with how completely the content matches. The judge is
// lexical: it does not resolve coreference, world knowledge or sarcasm.
type Contradictor struct {
	lex func() *semantic.Lexicon // the lexicon, loaded on first use

	mu    sync.Mutex
	cache map[string]*clause // analysed sentences, bounded

	headsOnce sync.Once
	heads     map[int32][]string // adjective cluster heads' lemmas (see headLemmas)

	// MinCoverage is the fraction of the negated (or shorter) text's content
	// words that must be matched in the other text; 1 by default.
	MinCoverage float64
}

// NewContradictor returns a decider using lx, or the embedded lexicon when
// lx is nil.
//
// The embedded lexicon is parsed on the first decision, not here, so that a
// server that never compares texts does not pay for it at start.
func NewContradictor(lx *semantic.Lexicon) (*Contradictor, error) {
	return &Contradictor{lex: semantic.LexiconOr(lx), MinCoverage: 1, cache: map[string]*clause{}}, nil
}

// clause is a text analysed for contradiction.
type clause struct {
	text string
	// formal is set when the text is not a sentence the rules can read:
	// mostly a formula, without a stated subject (claims.Readable).
	formal   bool
	toks     []string
	negated  bool
	negWord  string
	content  []word // content words in order (numbers excluded)
	numbers  []string
	thanAt   int // index in content of the first word after "than", -1 if none
	opposers []string

	hedge     string     // a word that makes the claim tentative
	quant     int        // qAll, qSome, qMost or qNone (see quantifierOf)
	quantWord string     // the quantifier's words
	qneg      bool       // the quantified predicate is negated
	modal     int        // +1 requirement, -1 not required, 0 neither
	modalWord string     // the words that state the modality
	orderAt   int        // token index of "before"/"after", -1 if none
	orderDir  int        // -1 before, +1 after
	already   bool       // the text says the event has happened
	future    bool       // the text says the event is still to come
	tenseWord string     // the word that says which
	quants    []quantity // numbers with units and comparators
	ruleAt    []bool     // by token index: a word a rule reads, not content
	// The two events around "before"/"after" (orderAt ≥ 0), read once:
	// split(orderAt) and numbersAround(orderAt).
	event1, event2 []word
	nums1, nums2   []string
	subject        []word // subjectGroup(), read once
}

type word struct {
	at         int // token index in the clause
	tok, lemma string
	stem       string   // Porter stem of tok
	lemmaStem  string   // Porter stem of lemma
	lemmas     []string // every base form ("faster": "faster", "fast")
	flags      []uint8  // of each of lemmas, for opposed (see lemmaFlags)
	senses     []semantic.Sense
	ancestors  []int32  // hypernyms of senses, three levels up
	heads      []string // lemmas of the adjective cluster heads of its senses
	negBases   []string // stems of the word without a negative prefix ("immutable": "mutabl")
	// attributive is set when the next token is a content word ("a large
	// flute"): such a word picks out a thing rather than asserting a
	// property of it.
	attributive bool
	// count is the number a count word before the word gives it ("one
	// repository": "1"; see countWords).
	count string
	// compoundCount and compoundRest split a word the lexicon does not
	// know at a number prefix ("monorepo": "1", "repo"; see compoundOf).
	compoundCount, compoundRest string
}

// numberWords maps spelled-out small numbers to digits.
var numberWords = map[string]string{
	"zero": "0", "two": "2", "three": "3", "four": "4", "five": "5",
	"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
	"eleven": "11", "twelve": "12", "twenty": "20", "hundred": "100",
	"thousand": "1000", "million": "1000000", "billion": "1000000000",
}

// opposites are opposing words that WordNet does not pair (or pairs only
// through senses the decider does not see): mostly particles and
// prepositions, which are function words elsewhere.
var opposites = func() map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, p := range [][2]string{
		{"near", "far"}, {"close", "far"},
		{"more", "less"}, {"more", "fewer"}, {"most", "least"}, {"increase", "decrease"},
		{"increase", "reduce"}, {"rise", "fall"}, {"above", "below"}, {"over", "under"},
		{"before", "after"}, {"always", "never"}, {"all", "none"}, {"everyone", "nobody"},
		{"enable", "disable"}, {"add", "remove"}, {"accept", "reject"},
		{"allow", "forbid"}, {"allow", "prevent"}, {"succeed", "fail"}, {"pass", "fail"},
		{"true", "false"}, {"correct", "incorrect"}, {"valid", "invalid"},
		{"possible", "impossible"}, {"safe", "unsafe"}, {"stable", "unstable"},
		{"sync", "async"}, {"synchronous", "asynchronous"}, {"online", "offline"},
		{"win", "lose"}, {"gain", "lose"}, {"buy", "sell"}, {"push", "pull"},
		{"start", "stop"}, {"open", "close"}, {"open", "shut"}, {"with", "without"},
		{"alone", "together"}, {"empty", "full"}, {"asleep", "awake"},
		{"put", "take"}, {"catch", "miss"}, {"hit", "miss"}, {"strike", "miss"},
		{"eat", "fast"}, {"speak", "silent"}, {"clean", "dirty"},
		{"light", "dark"}, {"young", "old"}, {"new", "old"}, {"wet", "dry"},
		{"cheap", "expensive"}, {"simple", "complex"}, {"public", "private"},
		{"deny", "grant"}, {"deny", "confirm"}, {"reveal", "conceal"},
		{"include", "exclude"}, {"require", "optional"}, {"internal", "external"},
		// General opposing verbs and adjectives WordNet does not pair.
		{"grow", "shrink"}, {"expand", "shrink"}, {"enlarge", "shrink"}, {"expand", "contract"},
		{"allow", "block"}, {"permit", "block"}, {"allow", "deny"}, {"permit", "deny"},
		{"enable", "prevent"}, {"enable", "block"}, {"approve", "reject"}, {"approve", "deny"},
		{"accept", "decline"}, {"accept", "deny"}, {"confirm", "refute"}, {"confirm", "disprove"},
		{"speed", "slow"}, {"accelerate", "slow"}, {"improve", "worsen"}, {"improve", "degrade"},
		{"strengthen", "weaken"}, {"raise", "cut"}, {"rise", "drop"}, {"increase", "drop"},
		{"increase", "cut"}, {"gain", "drop"}, {"win", "fail"}, {"pass", "reject"},
		{"succeed", "crash"}, {"keep", "drop"}, {"keep", "discard"}, {"arrive", "leave"},
		{"strict", "lenient"}, {"strict", "loose"}, {"stable", "flaky"}, {"reliable", "flaky"},
		{"steady", "erratic"}, {"steady", "volatile"}, {"stable", "volatile"},
		{"consistent", "erratic"}, {"easy", "hard"}, {"easy", "strenuous"}, {"easy", "demanding"},
		{"fast", "slow"}, {"quick", "slow"}, {"quicker", "slower"}, {"cheaper", "pricier"},
		{"enabled", "disabled"}, {"visible", "hidden"}, {"encrypted", "plaintext"},
		{"healthy", "degraded"}, {"up", "down"}, {"first", "last"}, {"earliest", "latest"}, {"most", "fewest"},
		{"support", "oppose"}, {"soften", "harden"}, {"soften", "toughen"}, {"ambiguous", "clear"},
		{"return", "keep"}, {"admit", "exclude"}, {"encourage", "discourage"},
		{"uphold", "overturn"}, {"uphold", "reverse"}, {"hire", "fire"}, {"absorb", "release"},
		{"absorb", "emit"}, {"attach", "detach"}, {"lock", "unlock"}, {"import", "export"},
		{"inbound", "outbound"}, {"upgrade", "downgrade"}, {"overestimate", "underestimate"},
	} {
		m[[2]string{p[0], p[1]}] = true
		m[[2]string{p[1], p[0]}] = true
	}
	return m
}()

// differentReferents are WordNet antonyms that name different people rather
// than opposite properties ("a man is talking" and "a woman is talking" do
// not contradict, they are about different people), or the two ends of one
// event.
var differentReferents = func() map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, p := range [][2]string{
		{"man", "woman"}, {"boy", "girl"}, {"male", "female"}, {"brother", "sister"},
		{"father", "mother"}, {"son", "daughter"}, {"husband", "wife"},
		{"king", "queen"}, {"gentleman", "lady"}, {"uncle", "aunt"},
		{"nephew", "niece"}, {"actor", "actress"}, {"host", "hostess"},
		// The two ends of one event: "started before the outage" and
		// "finished before the outage" can both hold.
		{"start", "finish"}, {"begin", "finish"}, {"start", "end"}, {"begin", "end"},
		{"start", "complete"}, {"begin", "complete"},
	} {
		m[[2]string{p[0], p[1]}] = true
	}
	return m
}()

// Flags of a lemma that opposed reads, found once per word rather than
// looked up in the maps for every pair of words compared.
const (
	lemmaTransient = 1 << iota // in transient
	lemmaReferent              // in a pair of differentReferents
	lemmaOpposite              // in a pair of opposites
)

// referentLemmas and oppositeLemmas are the words of differentReferents'
// and opposites' pairs.
var referentLemmas, oppositeLemmas = func() (map[string]bool, map[string]bool) {
	r, o := map[string]bool{}, map[string]bool{}
	for p := range differentReferents {
		r[p[0]], r[p[1]] = true, true
	}
	for p := range opposites {
		o[p[0]], o[p[1]] = true, true
	}
	return r, o
}()

// lemmaFlags returns the flags of lemma l.
func lemmaFlags(l string) uint8 {
	var f uint8
	if transient[l] {
		f |= lemmaTransient
	}
	if referentLemmas[l] {
		f |= lemmaReferent
	}
	if oppositeLemmas[l] {
		f |= lemmaOpposite
	}
	return f
}

// flag returns the flags of w's i-th lemma.
func (w *word) flag(i int) uint8 {
	if i < len(w.flags) {
		return w.flags[i]
	}
	return lemmaFlags(w.lemmas[i])
}

// transient words describe momentary posture, motion, position or colour
// (sitting/standing, inside/outside, left/right, black/white); two texts that
// differ only in them usually describe different moments or different
// things, so their WordNet antonymy is not taken as a contradiction.
var transient = map[string]bool{
	"sit": true, "stand": true, "lie": true, "run": true, "walk": true,
	"rest": true, "still": true, "inside": true, "outside": true,
	"left": true, "right": true, "black": true, "white": true,
	"top": true, "side": true, "bottom": true, "surface": true, "underwater": true,
}

func (c *Contradictor) analyse(text string) clause {
	cl := clause{text: text, toks: semantic.Tokenize(joinIndices(text)), thanAt: -1, formal: !claims.Readable(text)}
	skip := -1 // the particle of a phrasal verb
	for i, t := range cl.toks {
		if semantic.IsNegator(t) {
			// "with no X" and "without X" modify a noun phrase; they do not
			// negate the clause.
			if t == "without" || t == "nor" || t == "neither" || (t == "no" && i > 0 && cl.toks[i-1] == "with") {
				continue
			}
			cl.negated = true
			if cl.negWord == "" {
				cl.negWord = t
			}
			continue
		}
		if privative(cl.toks, i) {
			// "the form lacks CSRF protection", "the index is missing":
			// the clause denies having the thing.
			cl.negated = true
			if cl.negWord == "" {
				cl.negWord = t
			}
			continue
		}
		if t == "than" {
			cl.thanAt = len(cl.content)
			continue
		}
		if semantic.IsNumber(t) {
			cl.numbers = append(cl.numbers, t)
			continue
		}
		if n, ok := numberWords[t]; ok {
			cl.numbers = append(cl.numbers, n)
			continue
		}
		if t == "non" && i+1 < len(cl.toks) && !semantic.IsStopWord(cl.toks[i+1]) {
			// "non-refundable" is one word with a negative prefix.
			cl.content = append(cl.content, c.wordOf(i, "non"+cl.toks[i+1], false))
			skip = i + 1
			continue
		}
		if npi[t] || degreeAdverbs[t] || skip == i || t == "longer" && i > 0 && (cl.toks[i-1] == "no" || cl.toks[i-1] == "any") {
			continue // "no longer" negates, "longer" adds nothing
		}
		if r, ok := phrasal(cl.toks, i); ok {
			// "go up" is "rise", "took place" is "happen".
			cl.content = append(cl.content, c.wordOf(i, r, false))
			skip = i + 1
			continue
		}
		if t == "even" && (i == len(cl.toks)-1 || i > 0 && (cl.toks[i-1] == "is" || cl.toks[i-1] == "are")) {
			// "the sum is even": the adjective, not the adverb.
			cl.content = append(cl.content, c.wordOf(i, t, false))
			continue
		}
		if semantic.IsStopWord(t) {
			switch t {
			// Spatial particles (in/out, up/down, on/off) are not used: two
			// texts differing only in direction usually describe different
			// events rather than contradict.
			case "more", "less", "most", "least", "before", "after", "all", "with":
				if !(i > 0 && cl.toks[i-1] == "at") { // "at least 60%" compares a number
					cl.opposers = append(cl.opposers, t)
				}
			}
			continue
		}
		attributive := i+1 < len(cl.toks) && !semantic.IsStopWord(cl.toks[i+1]) && !semantic.IsNumber(cl.toks[i+1]) && cl.toks[i+1] != "than" && !semantic.IsNegator(cl.toks[i+1])
		if gradeWords[t] {
			if !(i > 0 && cl.toks[i-1] == "at") {
				cl.opposers = append(cl.opposers, t)
			}
			continue
		}
		// A verb form after a noun heads the predicate ("the rule blocks
		// inbound traffic"), whatever its most likely sense.
		if attributive && i > 0 && !semantic.IsStopWord(cl.toks[i-1]) && (strings.HasSuffix(t, "s") || strings.HasSuffix(t, "ed")) && len(cl.content) > 0 && cl.content[len(cl.content)-1].at == i-1 && !strings.HasSuffix(t, "ss") {
			attributive = false
		}
		w := c.wordOf(i, t, attributive)
		if i > 0 {
			w.count = countWords[cl.toks[i-1]]
		}
		if w.attributive && (graded(w) || i > 0 && (cl.toks[i-1] == "most" || cl.toks[i-1] == "more")) {
			w.attributive = false // "the lowest time" states a property
		}
		cl.content = append(cl.content, w)
	}
	c.analyseRules(&cl)
	cl.subject = cl.subjectGroup()
	if cl.orderAt >= 0 {
		cl.event1, cl.event2 = cl.split(cl.orderAt)
		cl.nums1, cl.nums2 = cl.numbersAround(cl.orderAt)
	}
	return cl
}

// wordOf analyses the content word t at token index i. attributive says
// whether a content word follows it; a verb is never attributive.
func (c *Contradictor) wordOf(i int, t string, attributive bool) word {
	lemma := c.lex().Lemma(t)
	if lemma == "" {
		lemma = t
	}
	var senses []semantic.Sense
	lemmas := c.lex().Lemmas(t)
	if len(lemmas) == 0 {
		lemmas = []string{t}
	}
	for _, l := range lemmas {
		senses = append(senses, c.lex().Senses(l)...)
	}
	w := word{at: i, tok: t, lemma: lemma, stem: semantic.Stem(t), lemmaStem: semantic.Stem(lemma), lemmas: lemmas, senses: senses,
		ancestors: c.ancestors(senses), attributive: attributive && !verbFirst(senses), flags: make([]uint8, len(lemmas))}
	for k, l := range lemmas {
		w.flags[k] = lemmaFlags(l)
	}
	if len(senses) == 0 {
		w.compoundCount, w.compoundRest = compoundOf(t)
	}
	for _, l := range lemmas {
		for _, h := range c.headLemmas(l) {
			if !contains(w.heads, h) {
				w.heads = append(w.heads, h)
			}
		}
		w.negBases = append(w.negBases, negationBases(l)...)
	}
	return w
}

// match reports whether two content words denote the same thing (or one is
// a kind of the other).
func (c *Contradictor) match(a, b word) bool {
	return c.matchDir(a, b) || c.isA(a, b)
}

// matchDir reports whether b asserts a: the same lemma or stem, a shared
// WordNet sense, or b is a kind of a ("man" asserts "person", not the
// reverse).
func (c *Contradictor) matchDir(a, b word) bool {
	if a.lemma == b.lemma || a.tok == b.tok || a.stem == b.stem || a.lemmaStem == b.lemmaStem ||
		sharedPrefix(a.lemma, b.lemma) >= 6 || shortFor(a, b) || shortFor(b, a) {
		return true // the same word, a derivation ("allergic" / "allergy") or a short form ("repo")
	}
	if len(a.senses) == 0 || len(b.senses) == 0 {
		return false
	}
	for _, x := range a.senses {
		for _, y := range b.senses {
			if x.Synset == y.Synset {
				return true
			}
		}
	}
	return c.isA(b, a)
}

// isA reports whether a sense of a is a hyponym of a sense of b within three
// levels.
func (c *Contradictor) isA(a, b word) bool {
	for _, p := range a.ancestors {
		for _, y := range b.senses {
			if p == y.Synset {
				return true
			}
		}
	}
	return false
}

// ancestors returns the hypernyms of senses up to three levels up.
func (c *Contradictor) ancestors(senses []semantic.Sense) []int32 {
	var out, level []int32
	for _, s := range senses {
		level = append(level, s.Synset)
	}
	for d := 0; d < 3 && len(level) > 0; d++ {
		var next []int32
		for _, id := range level {
			for _, p := range c.lex().Hypernyms(id) {
				if !containsID(out, p) {
					out = append(out, p)
					next = append(next, p)
				}
			}
		}
		level = next
	}
	return out
}

func containsID(xs []int32, x int32) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// coverage returns the fraction of the words of x matched by some word of y,
// and the unmatched words.
func (c *Contradictor) coverage(x, y []word, skip map[int]bool) (float64, []string) {
	return c.cover(x, y, skip, c.match)
}

// modifierCoverage is coverage where two modifiers must be the same word:
// "staging" and "production" share a rare sense but pick out different
// clusters.
func (c *Contradictor) modifierCoverage(x, y []word, skip map[int]bool) (float64, []string) {
	return c.cover(x, y, skip, func(a, b word) bool {
		if (a.attributive || b.attributive) && a.lemma != b.lemma && a.stem != b.stem && !shortFor(a, b) && !shortFor(b, a) {
			return len(a.senses) > 0 && len(b.senses) > 0 && a.senses[0].Synset == b.senses[0].Synset
		}
		return c.match(a, b)
	})
}

// entailed is coverage where y must assert each word of x (see matchDir).
func (c *Contradictor) entailed(x, y []word) (float64, []string) {
	return c.cover(x, y, nil, c.matchDir)
}

func (c *Contradictor) cover(x, y []word, skip map[int]bool, match func(a, b word) bool) (float64, []string) {
	n, hit := 0, 0
	var missing []string
	for i, a := range x {
		if skip[i] {
			continue
		}
		n++
		found := false
		for _, b := range y {
			if match(a, b) {
				found = true
				break
			}
		}
		if found {
			hit++
		} else {
			missing = append(missing, a.tok)
		}
	}
	if n == 0 {
		return 0, nil
	}
	return float64(hit) / float64(n), missing
}

// Contradiction decides whether a and b contradict each other.
//
// Texts of several sentences are compared sentence by sentence (the at
// most 12 that SplitSentences returns of each), and each sentence also by
// the claims it makes besides itself (claimsOf: its main clause, the reason attached to it, a
// causative read as a condition); the most confident contradiction wins.
func (c *Contradictor) Contradiction(a, b string) Verdict {
	sa, sb := semantic.SplitSentences(a), semantic.SplitSentences(b)
	var first, best Verdict
	for i, x := range sa {
		for j, y := range sb {
			for k, cx := range append([]string{x}, claimsOf(x)...) {
				for l, cy := range append([]string{y}, claimsOf(y)...) {
					v := c.decide(cx, cy)
					if i == 0 && j == 0 && k == 0 && l == 0 {
						first = v
					}
					if !v.Contradicts || v.Confidence <= best.Confidence {
						continue
					}
					best = v
					if len(sa) > 1 || len(sb) > 1 || k > 0 || l > 0 {
						best.Reason = fmt.Sprintf("%s (A: %q; B: %q)", v.Reason, cx, cy)
					}
				}
			}
		}
	}
	switch {
	case best.Contradicts:
		return best
	case len(sa) == 1 && len(sb) == 1:
		return first // why the sentences as written do not contradict
	}
	return Verdict{Reason: "no sentence of A contradicts a sentence of B"}
}

const clauseCacheMax = 8192

// clauseOf returns the analysis of a sentence, cached: session-wide checks
// compare each thought with many others.
func (c *Contradictor) clauseOf(text string) *clause {
	c.mu.Lock()
	cl, ok := c.cache[text]
	c.mu.Unlock()
	if ok {
		return cl
	}
	v := c.analyse(text)
	cl = &v
	c.mu.Lock()
	if c.cache == nil || len(c.cache) >= clauseCacheMax {
		c.cache = map[string]*clause{}
	}
	c.cache[text] = cl
	c.mu.Unlock()
	return cl
}

func (c *Contradictor) decide(a, b string) Verdict {
	A, B := *c.clauseOf(a), *c.clauseOf(b)
	if A.formal || B.formal {
		return Verdict{Reason: "a formula without a stated subject is not a sentence the rules can read: the model judges it"}
	}
	if len(A.content) == 0 || len(B.content) == 0 {
		return Verdict{Reason: "no content words to compare"}
	}
	minCov := c.MinCoverage
	if minCov <= 0 {
		minCov = 1
	}
	if v, ok := c.clauseVerdict(&A, &B); ok {
		return v
	}
	if (A.negated && !B.negated && implicitNeg(B)) || (B.negated && !A.negated && implicitNeg(A)) {
		return Verdict{Reason: "both texts negate the claim, one with a negative verb"}
	}

	// Negation.
	if A.negated != B.negated {
		neg, pos, nname, pname := A, B, "A", "B"
		if B.negated {
			neg, pos, nname, pname = B, A, "B", "A"
		}
		cov, missing := c.entailed(neg.content, pos.content)
		if cov >= minCov && sameNumbers(neg.numbers, pos.numbers) {
			back, _ := c.coverage(pos.content, neg.content, nil)
			return Verdict{
				Contradicts: true,
				Confidence:  round2(0.7 + 0.2*cov + 0.1*back),
				Reason: fmt.Sprintf("negation: %s negates %q (%q), which %s asserts",
					nname, propositionText(neg.toks), neg.negWord, pname),
			}
		}
		return Verdict{Reason: fmt.Sprintf("%s is negated but is about something else (unmatched: %s)", nname, strings.Join(missing, ", "))}
	}

	// Antonyms and opposing words, same polarity.
	if v, ok := c.antonymVerdict(A, B, minCov); ok {
		return v
	}

	return Verdict{Reason: "no negation, antonym or conflicting number about the same thing"}
}

func (c *Contradictor) antonymVerdict(A, B clause, minCov float64) (Verdict, bool) {
	// Candidate opposing pairs among content words and particles.
	type opp struct {
		i, j     int // indices in content, -1 for particles
		wa, wb   string
		conf     float64
		particle bool
	}
	var found []opp
	for i := range A.content {
		x := &A.content[i]
		for j := range B.content {
			y := &B.content[j]
			if x.lemma == y.lemma || x.attributive || y.attributive {
				continue
			}
			if conf, ok := c.opposed(x, y); ok {
				found = append(found, opp{i, j, x.tok, y.tok, conf, false})
			}
		}
	}
	for _, x := range A.opposers {
		for _, y := range B.opposers {
			if opposites[[2]string{x, y}] && !contains(B.opposers, x) && !contains(A.opposers, y) {
				found = append(found, opp{-1, -1, x, y, 0.7, true})
			}
		}
	}
	if A.quant == qSome || A.quant == qMost || B.quant == qSome || B.quant == qMost {
		// "most samples passed" / "three samples failed": the predicate
		// holds of part of them; the quantifier rule reads such pairs.
		return Verdict{}, false
	}
	if hasTok(A.toks, "until") != hasTok(B.toks, "until") {
		// "open until 8 p.m." / "closes at 8 p.m.": a state that ends is
		// its opposite after.
		return Verdict{}, false
	}
	if hasTok(A.toks, "without") != hasTok(B.toks, "without") {
		// "accepts requests with a token" / "rejects requests without a
		// token": two oppositions agree.
		return Verdict{}, false
	}
	for _, o := range found {
		skipA, skipB := map[int]bool{}, map[int]bool{}
		if !o.particle {
			skipA[o.i], skipB[o.j] = true, true
			// The opposing words must not also appear on the other side.
			if c.inClause(A.content[o.i], B.content) || c.inClause(B.content[o.j], A.content) {
				continue
			}
		}
		covA, _ := c.modifierCoverage(A.content, B.content, skipA)
		covB, _ := c.modifierCoverage(B.content, A.content, skipB)
		if len(A.content)-len(skipA) == 0 && len(B.content)-len(skipB) == 0 {
			covA, covB = 1, 1 // "hot" vs "cold": nothing else to compare
		}
		// Antonyms need the rest of one text covered by the other.
		if max(covA, covB) < minCov || min(covA, covB) < 0.5 {
			continue
		}
		if !sameNumbers(A.numbers, B.numbers) {
			continue
		}
		// Comparatives: "X is faster than Y" vs "Y is slower than X" agree.
		if A.thanAt >= 0 && B.thanAt >= 0 {
			if swapped(c, A, B) {
				continue
			}
		}
		return Verdict{
			Contradicts: true,
			Confidence:  round2(o.conf * (0.6 + 0.4*(covA+covB)/2)),
			Reason:      fmt.Sprintf("antonym: %q vs %q", o.wa, o.wb),
		}, true
	}
	// Same comparative, swapped order: "X is faster than Y" vs "Y is faster than X".
	if len(found) == 0 && A.thanAt > 0 && B.thanAt > 0 && swapped(c, A, B) {
		covA, _ := c.coverage(A.content, B.content, nil)
		covB, _ := c.coverage(B.content, A.content, nil)
		if covA >= minCov && covB >= minCov {
			return Verdict{
				Contradicts: true,
				Confidence:  0.7,
				Reason:      fmt.Sprintf("comparative: %q vs %q with the compared things swapped", thanPhrase(A.toks), thanPhrase(B.toks)),
			}, true
		}
	}
	return Verdict{}, false
}

// opposed reports whether two words are antonyms (WordNet or the built-in
// opposites) under any of their base forms.
func (c *Contradictor) opposed(x, y *word) (float64, bool) {
	best, found := 0.0, false
	for i, a := range x.lemmas {
		fa := x.flag(i)
		for j, b := range y.lemmas {
			// The maps are read only for lemmas that are in them.
			both := fa & y.flag(j)
			if both&lemmaReferent != 0 && (differentReferents[[2]string{a, b}] || differentReferents[[2]string{b, a}]) {
				return 0, false
			}
			if a == b {
				continue
			}
			if both&lemmaTransient != 0 {
				continue
			}
			if conf, ok := c.lex().Antonyms(a, b); ok && conf > best {
				best, found = conf, true
			} else if (both&lemmaOpposite != 0 && opposites[[2]string{a, b}] || prefixOpposed(a, b)) && 0.8 > best {
				best, found = 0.8, true
			}
		}
	}
	if x.lemma == y.lemma || isTransient(x) && isTransient(y) {
		return best, found
	}
	if best < 0.8 && (negationOf(x, y) || negationOf(y, x)) {
		best, found = 0.8, true
	}
	if best < 0.6 && c.headsOpposed(x.heads, y.heads) {
		best, found = 0.6, true
	}
	return best, found
}

// thanPhrase returns the words of a comparison around "than" ("faster
// than postgresql").
func thanPhrase(toks []string) string {
	for i, t := range toks {
		if t == "than" {
			return strings.Join(toks[max(i-1, 0):min(i+2, len(toks))], " ")
		}
	}
	return ""
}

// isTransient reports whether any base form of w is transient.
func isTransient(w *word) bool {
	for i := range w.lemmas {
		if w.flag(i)&lemmaTransient != 0 {
			return true
		}
	}
	return false
}

// swapped reports whether the compared things change sides of "than": a
// content word before "than" in one text stands only after it in the
// other ("X is faster than Y" / "Y is faster than X").
func swapped(c *Contradictor, A, B clause) bool {
	if A.thanAt <= 0 || B.thanAt <= 0 || A.thanAt > len(A.content) || B.thanAt > len(B.content) {
		return false
	}
	side := func(cl clause, w word) (before, after bool) {
		for k, x := range cl.content {
			if c.match(w, x) {
				if k < cl.thanAt {
					before = true
				} else {
					after = true
				}
			}
		}
		return
	}
	for k, w := range A.content {
		aBefore := k < A.thanAt
		bBefore, bAfter := side(B, w)
		if bBefore == bAfter {
			continue
		}
		// The word's own side in A must be its only side there.
		ab, aa := side(A, w)
		if ab && aa {
			continue
		}
		if aBefore != bBefore {
			return true
		}
	}
	return false
}

func (c *Contradictor) inClause(w word, ws []word) bool {
	for _, x := range ws {
		// "the product of two odd integers is odd": the modifier "odd" is
		// not the predicate "odd".
		if x.lemma == w.lemma && x.attributive == w.attributive {
			return true
		}
	}
	return false
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func sameNumbers(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true // a number on one side only is extra detail
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// propositionText renders a negated clause without its negation, e.g.
// "There is no man playing a guitar" → "man playing a guitar".
func propositionText(toks []string) string {
	out := make([]string, 0, len(toks))
	for i, t := range toks {
		if semantic.IsNegator(t) || t == "longer" && i > 0 && toks[i-1] == "no" {
			continue
		}
		if privative(toks, i) {
			// "lacks X" / "is missing X" negate "has X".
			if t == "missing" && len(out) > 0 {
				out = out[:len(out)-1]
			}
			out = append(out, "has")
			continue
		}
		if (t == "there" && i == 0) || (i == 1 && toks[0] == "there" && (t == "is" || t == "are")) {
			continue
		}
		if (t == "do" || t == "does" || t == "did") && i+1 < len(toks) && toks[i+1] == "not" {
			continue
		}
		if (t == "a" || t == "an" || t == "the") && len(out) == 0 {
			continue
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

func round2(x float64) float64 {
	if x > 1 {
		x = 1
	}
	return float64(int(x*100+0.5)) / 100
}
