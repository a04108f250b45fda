package contradict

import (
	"fmt"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// Closed-class word lists and the clause-level rules of the contradiction
// judge: hedges, quantifiers, requirement and modality, order in time.
// Numbers live in contradict_numbers.go.

// hedges make a claim tentative: a hedged text never contradicts a plain
// one ("the deploy might fail" / "the deploy usually succeeds").
var hedges = map[string]bool{
	"might": true, "could": true, "perhaps": true, "maybe": true, "possibly": true,
	"probably": true, "likely": true, "unlikely": true, "seems": true, "seem": true,
	"seemed": true, "apparently": true, "chance": true, "usually": true,
	"generally": true, "typically": true, "mostly": true,
	"normally": true, "suspect": true, "think": true, "thinks": true,
	"believe": true, "believes": true, "guess": true, "presumably": true,
	"may": true, // "may" as permission is read by the requirement rule first
}

// Quantifier kinds. A clause's quantifier and its polarity say how much of
// the subject (or of the time) the predicate holds for: "never P" is all
// times, not P; "not every X P" is some X, not P.
const (
	qNone = iota
	qAll
	qSome
	qMost
)

var universal = map[string]bool{"all": true, "every": true, "each": true, "always": true, "everyone": true, "everybody": true, "everything": true, "whole": false}
var existential = map[string]bool{
	"some": true, "sometimes": true, "occasionally": true, "several": true,
	"few": true, "handful": true, "many": true, "once": false, "rarely": true,
	"seldom": true, "frequently": true, "often": true,
}
var frequency = map[string]bool{"always": true, "never": true, "sometimes": true, "occasionally": true, "rarely": true, "seldom": true, "frequently": true, "often": true}
var negUniversal = map[string]bool{"none": true, "never": true, "nobody": true, "nothing": true}

// quantifierOf finds the quantifier of a clause and the token indices it
// consumed (its negation included).
//
// Determiners count only before the subject ("some" in "a man is eating
// some food" quantifies nothing the other text denies); adverbs of
// frequency count anywhere.
func quantifierOf(toks []string, subjectAt int) (kind int, word string, neg bool, used map[int]bool) {
	used = map[int]bool{}
	for i, t := range toks {
		if i > subjectAt && !frequency[t] && !(t == "not" && i+1 < len(toks) && frequency[toks[i+1]]) {
			continue
		}
		switch {
		case t == "not" && i+1 < len(toks) && universal[toks[i+1]]:
			used[i], used[i+1] = true, true
			return qSome, "not " + toks[i+1], true, used
		case universal[t]:
			used[i] = true
			return qAll, t, false, used
		case negUniversal[t]:
			used[i] = true
			return qAll, t, true, used
		case t == "no" && (i == 0 || toks[i-1] == "of"):
			used[i] = true
			return qAll, t, true, used
		case t == "most" && (i == 0 || !determiners[toks[i-1]]):
			used[i] = true
			return qMost, t, false, used
		case existential[t] && !(t == "few" && i > 0 && toks[i-1] != "a"):
			used[i] = true
			return qSome, t, false, used
		case (t == "half" || fractionWords[t] > 0 && i > 0 && toks[i-1] == "a") && i+1 < len(toks) && toks[i+1] == "of":
			// "half of the class", "a third of the votes": part of them.
			used[i] = true
			return qSome, t + " of", false, used
		case t == "least" && i > 0 && toks[i-1] == "at" && i+1 < len(toks) && toks[i+1] == "one":
			used[i] = true
			return qSome, "at least one", false, used
		}
	}
	return qNone, "", false, used
}

// quantCompatible reports whether (k1, p1) and (k2, p2) can both hold of
// the same predicate, where p is true for a negated predicate.
func quantContradicts(k1 int, n1 bool, k2 int, n2 bool) bool {
	if n1 == n2 {
		return false
	}
	switch {
	case k1 == qAll:
		return k2 == qAll || k2 == qSome || k2 == qMost
	case k2 == qAll:
		return k1 == qSome || k1 == qMost
	case k1 == qMost && k2 == qMost:
		return true
	}
	return false
}

var quantNames = map[int]string{qAll: "all", qSome: "some", qMost: "most"}

// quantifierVerdict decides pairs where a text quantifies its subject or
// its times. It reports decided when a quantifier is present, so that the
// plain negation rule does not read "not every X" as "no X".
func (c *Contradictor) quantifierVerdict(A, B *clause) (Verdict, bool) {
	if A.quant == qNone && B.quant == qNone {
		return Verdict{}, false
	}
	if A.quant == qSome && B.quant == qSome && c.anyOpposed(A, B) {
		return Verdict{Reason: "some X can be P while other X are not"}, true
	}
	if (A.quant == qNone && B.quant == qAll) || (B.quant == qNone && A.quant == qAll) ||
		pronounQuant[A.quantWord] || pronounQuant[B.quantWord] ||
		(A.quant == B.quant && A.quantWord == B.quantWord && A.quant == qSome) {
		// "every X is P" or "nobody is P" against "X is P", and "some X
		// are P" against "some X are not P": the lexical rules decide.
		return Verdict{}, false
	}
	kA, kB := A.quant, B.quant
	if kA == qNone {
		kA = qAll // a generic statement holds of its subject throughout
	}
	if kB == qNone {
		kB = qAll
	}
	al := c.align(A, B)
	if !al.sameSubject(A, B) || al.coverMin() < 0.6 || al.coverMax() < 0.66 || al.conflicting() {
		if A.quant == qNone || B.quant == qNone {
			return Verdict{}, false
		}
		return Verdict{Reason: "quantified texts about different things"}, true
	}
	nA, nB := A.qneg, B.qneg
	var flip string
	if len(al.opp) > 0 {
		nB = !nB
		flip = fmt.Sprintf(" with %q vs %q", al.opp[0].wa, al.opp[0].wb)
	} else if ca, cb := comparatorOf(A.toks), comparatorOf(B.toks); ca != "" && cb != "" && lessClass(ca) != lessClass(cb) {
		nB = !nB
		flip = fmt.Sprintf(" with %q vs %q", ca, cb)
	}
	if A.quant == qNone && B.quant == qNone {
		return Verdict{}, false
	}
	if !quantContradicts(kA, nA, kB, nB) {
		if A.quant == qNone || B.quant == qNone {
			return Verdict{}, false // the other rules read the unquantified text
		}
		return Verdict{Reason: "the quantified claims are compatible"}, true
	}
	if A.quant == qNone || B.quant == qNone {
		// A generic claim against a quantified one: only "never"/"always"
		// style universals against "sometimes" are safe.
		q := A
		if A.quant == qNone {
			q = B
		}
		if q.quant == qAll {
			return Verdict{}, false // leave it to negation and antonyms
		}
	}
	return Verdict{
		Contradicts: true,
		Confidence:  round2(0.7 + 0.2*al.coverMin()),
		Reason:      fmt.Sprintf("quantifier: %q vs %q%s", quantPhrase(A), quantPhrase(B), flip),
	}, true
}

func quantPhrase(cl *clause) string {
	if cl.quantWord == "" {
		return "(unquantified)"
	}
	if cl.qneg && !strings.HasPrefix(cl.quantWord, "not") && !negUniversal[cl.quantWord] && cl.quantWord != "no" {
		return cl.quantWord + " … not"
	}
	return cl.quantWord
}

// Requirement and modality: one text says something is required, the other
// that it is not.
var requireWords = map[string]bool{
	"must": true, "need": true, "needs": true, "needed": true, "require": true,
	"requires": true, "required": true, "requiring": true, "mandatory": true,
	"compulsory": true, "obligatory": true, "necessary": true, "essential": true,
}
var optionalWords = map[string]bool{"optional": true, "voluntary": true, "unnecessary": true, "skip": true, "skipped": true, "exempt": true}
var permitWords = map[string]bool{"can": true, "may": true, "accepted": true, "accepts": true, "allowed": true, "allows": true, "fine": true, "works": true, "work": true, "runs": true, "starts": true}

// modalityOf returns +1 when the clause states a requirement, -1 when it
// states that something is not required, with the words that say so.
func modalityOf(toks []string) (int, string) {
	req, opt := "", ""
	for i, t := range toks {
		prevNeg := i > 0 && (toks[i-1] == "not" || toks[i-1] == "never" || toks[i-1] == "no")
		switch {
		case t == "no" && i > 0 && requireWords[toks[i-1]]:
			opt = toks[i-1] + " no"
		case requireWords[t] && prevNeg:
			opt = "not " + t
		case requireWords[t] && i+1 < len(toks) && toks[i+1] == "no":
			opt = t + " no"
		case requireWords[t] && i+2 < len(toks) && toks[i+1] == "not":
			opt = t + " not"
		case requireWords[t]:
			if req == "" {
				req = t
			}
		case (t == "has" || t == "have" || t == "had") && i+1 < len(toks) && toks[i+1] == "to" && !prevNeg:
			if req == "" {
				req = t + " to"
			}
		case optionalWords[t] && !prevNeg:
			opt = t
		case t == "without":
			if cantBefore(toks, i) {
				// "you cannot deploy without approval" requires approval.
				if req == "" {
					req = "cannot … without"
				}
			} else if opt == "" {
				opt = "without"
			}
		case t == "up" && i+2 < len(toks) && toks[i+1] == "to" && (toks[i+2] == "each" || toks[i+2] == "you" || toks[i+2] == "them" || toks[i+2] == "the"):
			opt = "up to " + toks[i+2]
		case strings.HasPrefix(t, "un") && len(t) > 6:
			for _, u := range toks[i+1:] {
				if permitWords[u] {
					opt = t + " … " + u
					break
				}
			}
		case (t == "can" || t == "may") && !(i+1 < len(toks) && toks[i+1] == "not"):
			for k := i + 1; k+1 < len(toks); k++ {
				if (toks[k] == "before" || toks[k] == "without") && strings.HasSuffix(toks[k+1], "ing") {
					opt = t + " … " + toks[k] + " " + toks[k+1]
					break
				}
			}
		}
	}
	switch {
	case opt != "" && req == "":
		return -1, opt
	case req != "" && opt == "":
		return 1, req
	case req != "" && opt != "" && opt == "without":
		return 1, req // "needs X to run without Y" states a requirement
	}
	return 0, ""
}

func (c *Contradictor) modalVerdict(A, B *clause) (Verdict, bool) {
	if A.modal == B.modal && (A.modalWord == "cannot … without") != (B.modalWord == "cannot … without") {
		// "cannot X without Y" requires Y: its negation is the requirement.
		return Verdict{Reason: fmt.Sprintf("requirement: %q and %q state the same requirement", A.modalWord, B.modalWord)}, true
	}
	if A.modal == 0 || B.modal == 0 || A.modal == B.modal {
		return Verdict{}, false
	}
	al := c.align(A, B)
	if al.matched < 2 || al.coverMin() < 0.5 || al.conflicting() || al.hasAntonym() {
		return Verdict{}, false
	}
	return Verdict{
		Contradicts: true,
		Confidence:  round2(0.65 + 0.3*al.coverMin()),
		Reason:      fmt.Sprintf("requirement: %q vs %q", A.modalWord, B.modalWord),
	}, true
}

// Order in time. "X before Y" contradicts "Y before X" and "X after Y";
// "already done" contradicts "planned", "not yet" or "will".
var orderWords = map[string]int{"before": -1, "after": 1, "until": -1, "prior": -1, "earlier": -1, "later": 1, "following": 1}

var futureWords = map[string]bool{"planned": true, "scheduled": true, "future": true, "upcoming": true, "will": true, "yet": true, "pending": true}

// orderOf splits a clause at its temporal connective.
func orderOf(toks []string) (at, dir int) {
	still := false
	for i, t := range toks {
		if t == "still" {
			still = true
		}
		if d, ok := orderWords[t]; ok && i > 0 {
			if t == "prior" && (i+1 >= len(toks) || toks[i+1] != "to") {
				continue
			}
			return i, d
		}
		// "during Y", "in the middle of Y", "still running when Y".
		if i > 0 && (t == "during" || t == "middle" && i+1 < len(toks) && toks[i+1] == "of" || still && (t == "when" || t == "as")) {
			return i, 0
		}
	}
	return -1, 0
}

// completion verbs say an event is over ("finished before the peak"), by
// Porter stem.
var completion = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"finish", "complete", "end", "stop", "conclude", "done", "close", "wrap"} {
		m[semantic.Stem(w)] = true
	}
	return m
}()

// ordersClash reports whether two relations of the same two events
// exclude each other: before against after; during against after; during
// against before when the earlier event is over by then ("finished before
// the peak" / "still running when the peak hit").
func ordersClash(d1, d2 int, first1, first2 []word) bool {
	switch {
	case d1 == d2:
		return false
	case d1 != 0 && d2 != 0:
		return true
	case d1 == 1 || d2 == 1:
		return true
	case d1 == -1:
		return hasStem(first1, completion)
	default:
		return hasStem(first2, completion)
	}
}

func hasStem(ws []word, set map[string]bool) bool {
	for _, w := range ws {
		if set[w.stem] || set[w.lemmaStem] {
			return true
		}
	}
	return false
}

func (c *Contradictor) temporalVerdict(A, B *clause) (Verdict, bool) {
	// Already vs not yet.
	if (A.already && B.future) || (A.future && B.already) {
		al := c.align(A, B)
		if (al.matched >= 2 || al.matched >= 1 && al.subject) && al.coverMin() >= 0.5 && !al.conflicting() && len(al.opp) == 0 && A.negated == B.negated {
			return Verdict{
				Contradicts: true,
				Confidence:  0.7,
				Reason:      fmt.Sprintf("time: %q vs %q", A.tenseWord, B.tenseWord),
			}, true
		}
	}
	if A.orderAt < 0 || B.orderAt < 0 {
		return Verdict{}, false
	}
	a1, a2 := A.event1, A.event2
	b1, b2 := B.event1, B.event2
	if len(a1) == 0 || len(a2) == 0 || len(b1) == 0 || len(b2) == 0 {
		return Verdict{}, false
	}
	na1, na2 := A.nums1, A.nums2
	nb1, nb2 := B.nums1, B.nums2
	same := c.eventsMatch(a1, b1) && c.eventsMatch(a2, b2) && sameNumbers(na1, nb1) && sameNumbers(na2, nb2)
	if !same && A.orderDir*B.orderDir == 0 && A.orderDir+B.orderDir == -1 {
		// "the backup finished before the outage" / "the backup was still
		// running when the outage started": the same thing, over or going on.
		same = c.eventsMatch(withoutAspect(a1), withoutAspect(b1)) && c.eventsMatch(a2, b2)
	}
	swap := c.eventsMatch(a1, b2) && c.eventsMatch(a2, b1) && sameNumbers(na1, nb2) && sameNumbers(na2, nb1)
	if same == swap {
		return Verdict{}, false
	}
	al := c.align(A, B)
	if al.conflicting() || len(al.opp) > 0 && !orderOpp(al) || c.anyOpposed(A, B) {
		return Verdict{}, false
	}
	if (same && ordersClash(A.orderDir, B.orderDir, a1, b1)) || (swap && A.orderDir == B.orderDir && A.orderDir != 0) {
		return Verdict{
			Contradicts: true,
			Confidence:  0.75,
			Reason: fmt.Sprintf("order: %q %s %q vs %q %s %q", wordsOf(a1), A.toks[A.orderAt], wordsOf(a2),
				wordsOf(b1), B.toks[B.orderAt], wordsOf(b2)),
		}, true
	}
	return Verdict{}, false
}

func orderOpp(al alignment) bool {
	for _, o := range al.opp {
		if _, ok := orderWords[o.wa]; !ok {
			return false
		}
	}
	return true
}

// split returns the content words before and after token index at, with
// the numbers among them as words ("version 3") and without the words the
// rules read.
func (cl *clause) split(at int) (before, after []word) {
	for _, w := range cl.content {
		if cl.ruleWord(w) {
			continue // "still", "scheduled": what the rules read
		}
		if w.at < at {
			before = append(before, w)
		} else {
			after = append(after, w)
		}
	}
	for i, t := range cl.toks {
		if !semantic.IsNumber(t) {
			continue
		}
		n := word{at: i, tok: t, lemma: t, stem: t, lemmaStem: t, lemmas: []string{t}}
		if i < at {
			before = append(before, n)
		} else {
			after = append(after, n)
		}
	}
	return before, after
}

// eventsMatch reports whether two event descriptions name the same event:
// most of the shorter one's words are matched in the longer one.
//
// An unmatched word opposed to a word of the other event ("compressing new
// logs" / "compressing old logs") makes them different events.
func (c *Contradictor) eventsMatch(x, y []word) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	cov, _ := c.cover(x, y, nil, c.looseMatch)
	if cov < 0.6 {
		return false
	}
	for i := range x {
		for j := range y {
			if _, ok := c.opposed(&x[i], &y[j]); ok && x[i].lemma != y[j].lemma {
				return false
			}
		}
	}
	return true
}

// looseMatch is match, or a shared stem prefix of six letters for
// derivations the lexicon does not list ("conversion" / "converted").
func (c *Contradictor) looseMatch(a, b word) bool {
	if c.match(a, b) {
		return true
	}
	return sharedPrefix(a.lemma, b.lemma) >= 6
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// alignment is the word-by-word comparison of two clauses.
type alignment struct {
	nA, nB         int // content words compared
	hitA, hitB     int // of them matched on the other side
	matched        int
	unA, unB       []word // unmatched words
	opp            []opp  // opposing pairs among the unmatched words
	subjUnA, subjB bool   // an unmatched word stands before the verb
	subject        bool   // the texts start from the same thing
}

type opp struct {
	wa, wb string
	conf   float64
	prefix bool // one word is the other with a negative prefix
}

func (al alignment) coverA() float64 {
	if al.nA == 0 {
		return 1
	}
	return float64(al.hitA) / float64(al.nA)
}

func (al alignment) coverB() float64 {
	if al.nB == 0 {
		return 1
	}
	return float64(al.hitB) / float64(al.nB)
}

// hasAntonym reports whether an opposing pair other than a word and its
// negative-prefix form ("signed" / "unsigned") separates the texts.
func (al alignment) hasAntonym() bool {
	for _, o := range al.opp {
		if !o.prefix {
			return true
		}
	}
	return false
}

func (al alignment) coverMin() float64 { return min(al.coverA(), al.coverB()) }
func (al alignment) coverMax() float64 { return max(al.coverA(), al.coverB()) }

// conflicting reports whether the unmatched words on the two sides name
// different things of one kind ("staging" / "production", "Android" /
// "iOS"): different subjects or conditions, not a contradiction.
func (al alignment) conflicting() bool { return al.subjUnA && al.subjB }

// sameSubject reports whether the texts start from the same thing: the
// first content word of one is among the first two of the other ("every
// square is a rectangle" and "not every rectangle is a square" do not).
func (al alignment) sameSubject(A, B *clause) bool { return !al.conflicting() && al.subject }

// align matches the content words of A and B (opposing pairs are taken out
// of the unmatched words and listed in opp; numbers and the rules' own
// words are not content).
func (c *Contradictor) align(A, B *clause) alignment {
	var al alignment
	usedB := make([]bool, len(B.content))
	for _, a := range A.content {
		if A.ruleWord(a) {
			continue
		}
		al.nA++
		hit := false
		for j, b := range B.content {
			if !B.ruleWord(b) && c.looseMatch(a, b) {
				hit = true
				usedB[j] = true
				break
			}
		}
		if hit {
			al.hitA++
		} else {
			al.unA = append(al.unA, a)
		}
	}
	for j, b := range B.content {
		if B.ruleWord(b) {
			continue
		}
		al.nB++
		hit := usedB[j]
		if !hit {
			for _, a := range A.content {
				if !A.ruleWord(a) && c.looseMatch(b, a) {
					hit = true
					break
				}
			}
		}
		if hit {
			al.hitB++
		} else {
			al.unB = append(al.unB, b)
		}
	}
	al.matched = min(al.hitA, al.hitB)
	// Opposing pairs among the unmatched words count as matched.
	var keepA, keepB []word
	usedUB := make([]bool, len(al.unB))
	for i := range al.unA {
		a := &al.unA[i]
		found := false
		for j := range al.unB {
			b := &al.unB[j]
			if usedUB[j] {
				continue
			}
			if conf, ok := c.opposed(a, b); ok {
				al.opp = append(al.opp, opp{a.tok, b.tok, conf, negationOf(a, b) || negationOf(b, a)})
				usedUB[j] = true
				al.hitA++
				al.hitB++
				found = true
				break
			}
		}
		if !found {
			keepA = append(keepA, *a)
		}
	}
	for j, b := range al.unB {
		if !usedUB[j] {
			keepB = append(keepB, b)
		}
	}
	al.unA, al.unB = keepA, keepB
	al.subject = c.shareWord(A.subject, B.subject)
	al.subjUnA = c.kindClash(al.unA, al.unB)
	al.subjB = al.subjUnA
	return al
}

// kindClash reports whether some unmatched word of one side and some of
// the other are different things of one kind: co-hyponyms in WordNet, two
// words the lexicon does not know (names), or two modifiers.
func (c *Contradictor) kindClash(xs, ys []word) bool {
	for _, x := range xs {
		for _, y := range ys {
			if x.lemma == y.lemma {
				continue
			}
			if len(x.senses) == 0 && len(y.senses) == 0 {
				return true
			}
			if x.attributive && y.attributive {
				return true
			}
			if c.siblings(x, y) {
				return true
			}
		}
	}
	return false
}

// siblings reports whether two words share a hypernym (within three levels)
// of their noun senses: "salt" and "pepper", "kitchen" and "hallway".
func (c *Contradictor) siblings(x, y word) bool {
	ax := c.ancestors(nounSenses(x.senses))
	if len(ax) == 0 {
		return false
	}
	for _, q := range c.ancestors(nounSenses(y.senses)) {
		if containsID(ax, q) {
			return true
		}
	}
	return false
}

// nounSenses returns the noun senses (WordNet lexicographer files 3–28).
func nounSenses(ss []semantic.Sense) []semantic.Sense {
	var out []semantic.Sense
	for _, s := range ss {
		if s.Field >= 3 && s.Field <= 28 {
			out = append(out, s)
		}
	}
	return out
}

// ruleWord reports whether a content word is one of the closed-class words
// a rule reads (quantifiers, modal and temporal words), which are compared
// by the rules themselves rather than as content.
func (cl *clause) ruleWord(w word) bool {
	return cl.ruleAt[w.at]
}

// verbFirst reports whether a word's most likely sense is a verb (WordNet
// lexicographer files 29–43): such a word followed by a noun is a verb and
// its object ("forbids inline scripts"), not a modifier.
func verbFirst(senses []semantic.Sense) bool {
	return len(senses) > 0 && senses[0].Field >= 29 && senses[0].Field <= 43
}

// analyseRules reads the closed-class words the clause-level rules use.
func (c *Contradictor) analyseRules(cl *clause) {
	toks := cl.toks
	cl.ruleAt = make([]bool, len(toks))
	for i, t := range toks {
		if hedges[t] && cl.hedge == "" && !notHedge(toks, i) {
			cl.hedge = t
		}
		if t == "already" {
			cl.already, cl.tenseWord = true, t
			cl.ruleAt[i] = true
		}
		if t == "still" {
			cl.ruleAt[i] = true
		}
	}
	// Quantifier and the polarity of what it quantifies.
	var used map[int]bool
	subjectAt := len(toks)
	for _, w := range cl.content {
		if !universal[w.tok] && !existential[w.tok] && w.tok != "handful" {
			subjectAt = w.at
			break
		}
	}
	cl.quant, cl.quantWord, cl.qneg, used = quantifierOf(toks, subjectAt)
	for i, t := range toks {
		if used[i] {
			cl.ruleAt[i] = true
			continue
		}
		if semantic.IsNegator(t) && t != "without" && t != "nor" && t != "neither" && !(t == "no" && i > 0 && toks[i-1] == "with") {
			cl.qneg = !cl.qneg
		}
		if universal[t] || existential[t] || negUniversal[t] || t == "handful" {
			cl.ruleAt[i] = true
		}
	}
	// Modality.
	cl.modal, cl.modalWord = modalityOf(toks)
	if cl.modal != 0 {
		for i, t := range toks {
			if requireWords[t] || optionalWords[t] || permitWords[t] || t == "without" {
				cl.ruleAt[i] = true
			}
		}
		if cl.modal == 1 && cl.hedge == "may" {
			cl.hedge = ""
		}
	}
	if cl.modal == -1 && (cl.hedge == "may" || cl.hedge == "could") {
		cl.hedge = "" // "may skip": permission, not a hedge
	}
	// Order in time and tense.
	cl.orderAt, cl.orderDir = orderOf(toks)
	if cl.orderAt >= 0 {
		cl.ruleAt[cl.orderAt] = true
	}
	for i, t := range toks {
		switch {
		case futureWords[t] && t != "yet" && t != "will":
			cl.future, cl.tenseWord = true, t
			cl.ruleAt[i] = true
		case t == "yet" && i > 0 && toks[i-1] == "not":
			cl.future, cl.tenseWord = true, "not yet"
			cl.ruleAt[i] = true
		}
	}
	if f := timeFrame(toks); !cl.future && (f == "tomorrow" || strings.HasPrefix(f, "next ")) {
		cl.future, cl.tenseWord = true, f
	}
	// Quantities; their units and comparators are not content.
	cl.quants = c.quantitiesIn(numberToks(cl.text, toks))
	for _, w := range cl.content {
		if _, ok := unitScale[w.tok]; ok && w.at > 0 && countWord(toks[w.at-1]) {
			cl.ruleAt[w.at] = true // "two weeks", not "the second quarter"
		}
		if _, ok := ordinal(w.tok); ok {
			cl.ruleAt[w.at] = true
		}
		if _, ok := months[w.tok]; ok && w.at > 0 && monthPrep[toks[w.at-1]] {
			cl.ruleAt[w.at] = true // a date is compared as a quantity
		}
		if limitWords[w.tok] || moreThan[w.tok] || lessThan[w.tok] || measureWords[w.lemma] || w.tok == "between" || fractionWords[w.tok] > 0 {
			cl.ruleAt[w.at] = true
		}
		for _, q := range cl.quants {
			if q.unit == w.lemma {
				cl.ruleAt[w.at] = true
			}
		}
	}
}

// clauseVerdict runs the clause-level rules in order. decided is false when
// none of them applies and the lexical rules should decide.
func (c *Contradictor) clauseVerdict(A, B *clause) (Verdict, bool) {
	if fa, fb := timeFrame(A.toks), timeFrame(B.toks); fa != "" && fb != "" && fa != fb {
		return Verdict{Reason: fmt.Sprintf("the texts speak of different times: %q vs %q", fa, fb)}, true
	}
	if c.conditionsDiffer(A, B) {
		return Verdict{Reason: "the texts state their claims under different times or conditions"}, true
	}
	if v, ok := c.modalVerdict(A, B); ok {
		return v, true
	}
	if A.hedge != "" || B.hedge != "" {
		h := A.hedge
		if h == "" {
			h = B.hedge
		}
		return Verdict{Reason: fmt.Sprintf("hedge: %q makes the claim tentative", h)}, true
	}
	if v, ok := c.temporalVerdict(A, B); ok {
		return v, true
	}
	if v, ok := c.quantifierVerdict(A, B); ok {
		return v, true
	}
	if v, ok := c.numbersVerdict(A, B); ok {
		return v, true
	}
	return Verdict{}, false
}

// negativePrefixes form the negation of a word ("mutable" / "immutable",
// "signed" / "unsigned", "estimated" / "unestimated").
var negativePrefixes = []string{"un", "in", "im", "il", "ir", "non", "dis", "a"}

// negationBases returns the stems of a lemma without a negative prefix
// ("immutable" → "mutabl"), for words long enough to carry one.
func negationBases(l string) []string {
	var out []string
	for _, p := range negativePrefixes {
		rest, ok := strings.CutPrefix(l, p)
		if !ok || len(rest) < 4 || (p == "a" && len(rest) < 7) {
			continue
		}
		out = append(out, semantic.Stem(strings.TrimPrefix(rest, "-")))
	}
	return out
}

// prefixOpposed reports whether two words differ only in an opposed prefix
// ("overvalued" / "undervalued", "overestimate" / "underestimate").
func prefixOpposed(a, b string) bool {
	for _, p := range [][2]string{{"over", "under"}, {"under", "over"}} {
		if ra, ok := strings.CutPrefix(a, p[0]); ok && len(ra) >= 4 {
			if rb, ok := strings.CutPrefix(b, p[1]); ok && ra == rb {
				return true
			}
		}
	}
	return false
}

// negationOf reports whether x is y with a negative prefix.
func negationOf(x, y *word) bool {
	for _, b := range x.negBases {
		if b == y.lemmaStem || b == y.stem {
			return true
		}
	}
	return false
}

// npi are negative-polarity words that only fill out a negation ("not
// booked a table anywhere"); they are not content.
var npi = map[string]bool{"anywhere": true, "anything": true, "anyone": true, "anybody": true, "ever": true, "yet": true}

// phrasal reads a light verb and its particle as one content word: "go up"
// is "rise", "go down" is "fall", "go live" is "launch", "take place" is
// "happen", "lay off" is "fire".
func phrasal(toks []string, i int) (string, bool) {
	switch toks[i] {
	case "take", "takes", "took", "taken", "taking":
		if i+1 < len(toks) && toks[i+1] == "place" {
			return "happen", true
		}
	case "lay", "lays", "laid", "laying":
		if i+1 < len(toks) && toks[i+1] == "off" {
			return "fire", true
		}
	case "go", "goes", "going", "gone", "went":
		if i+1 < len(toks) && (i+2 >= len(toks) || !determiners[toks[i+2]] && toks[i+2] != "some") {
			switch toks[i+1] {
			case "up":
				return "rise", true
			case "down":
				return "fall", true
			case "live":
				return "launch", true
			}
		}
	}
	return "", false
}

// negVerbs negate the infinitive they take: "failed to back up the
// hypothesis" says it was not backed up.
var negVerbs = map[string]bool{"fail": true, "fails": true, "failed": true, "failing": true, "refuse": true, "refused": true, "refuses": true}

// implicitNeg reports whether a clause negates with a verb rather than a
// negator ("failed to", "refused to").
func implicitNeg(cl clause) bool {
	for i, t := range cl.toks {
		if negVerbs[t] && i+1 < len(cl.toks) && cl.toks[i+1] == "to" {
			return true
		}
	}
	return false
}

var determiners = map[string]bool{"the": true, "our": true, "their": true, "its": true, "my": true, "your": true, "his": true, "her": true, "a": true, "an": true}

// subjectGroup returns the clause's first run of adjacent content words
// that no rule reads: the subject's noun group ("backlog items" in "most
// backlog items are ...").
func (cl *clause) subjectGroup() []word {
	var out []word
	for _, w := range cl.content {
		if cl.ruleWord(w) {
			if len(out) > 0 {
				break
			}
			continue
		}
		if len(out) > 0 && w.at != out[len(out)-1].at+1 {
			break
		}
		out = append(out, w)
	}
	return out
}

// shareWord reports whether two word groups share a word (same lemma or
// synonyms), or either is empty.
func (c *Contradictor) shareWord(xs, ys []word) bool {
	if len(xs) == 0 || len(ys) == 0 {
		return true
	}
	for _, x := range xs {
		for _, y := range ys {
			if c.sameWord(x, y) {
				return true
			}
		}
	}
	return false
}

// comparatorOf returns the clause's first comparing word ("within",
// "longer", "past", "under"), read as less-than or more-than.
func comparatorOf(toks []string) string {
	for _, t := range toks {
		if (lessThan[t] || moreThan[t] || t == "before" || t == "after") && t != "most" && t != "least" && t != "met" && t != "meets" {
			return t
		}
	}
	return ""
}

// gradeWords compare amounts; they are read as particles that oppose each
// other ("less memory" / "more memory").
var gradeWords = map[string]bool{"less": true, "least": true, "fewer": true, "fewest": true}

// graded reports whether w is a comparative or superlative form ("lowest",
// "cheaper") of a shorter base.
func graded(w word) bool {
	if !strings.HasSuffix(w.tok, "est") && !strings.HasSuffix(w.tok, "er") {
		return false
	}
	for _, l := range w.lemmas {
		if len(l) < len(w.tok) {
			return true
		}
	}
	return false
}

func hasTok(toks []string, t string) bool {
	for _, x := range toks {
		if x == t {
			return true
		}
	}
	return false
}

// pronounQuant are quantifiers that are their own subject.
var pronounQuant = map[string]bool{"nobody": true, "nothing": true, "everyone": true, "everybody": true, "everything": true, "none": false}

// sameWord reports whether two words are the same lemma or synonyms (not
// merely one a kind of the other: "every square is a rectangle" is not
// about rectangles).
func (c *Contradictor) sameWord(a, b word) bool {
	if a.lemma == b.lemma || a.stem == b.stem || a.lemmaStem == b.lemmaStem || sharedPrefix(a.lemma, b.lemma) >= 6 ||
		shortFor(a, b) || shortFor(b, a) {
		return true
	}
	for _, x := range a.senses {
		for _, y := range b.senses {
			if x.Synset == y.Synset {
				return true
			}
		}
	}
	return false
}

// measureWords relate a thing to its measure ("lasts four weeks", "is two
// weeks long", "weighs 1.2 GB"); next to a number they are not content.
var measureWords = map[string]bool{"last": true, "long": true, "take": true, "weigh": true, "cost": true, "measure": true, "total": true, "amount": true, "count": true, "number": true, "size": true, "duration": true, "length": true, "monthly": true, "weekly": true, "daily": true, "yearly": true, "annual": true, "hourly": true}

// conditionWords open a leading phrase that sets the time or condition of
// a claim ("Before the fix, ...", "With a warm cache, ...").
var conditionWords = map[string]bool{"before": true, "after": true, "during": true, "until": true, "when": true, "whenever": true, "if": true, "once": true, "in": true, "on": true, "with": true, "since": true, "under": true, "at": true, "for": true, "without": true, "unless": true}

// leadingCondition returns the content words of a leading condition phrase
// ("Before the fix, the importer rejected ..." → "fix"), or nil.
func leadingCondition(text string) []string {
	comma := strings.IndexByte(text, ',')
	if comma < 0 {
		return nil
	}
	toks := semantic.Tokenize(text[:comma])
	if len(toks) < 2 || !conditionWords[toks[0]] {
		return nil
	}
	var out []string
	for _, t := range toks[1:] {
		if !semantic.IsStopWord(t) {
			out = append(out, t)
		}
	}
	return out
}

// conditionsDiffer reports whether one text states its claim under a
// leading time or condition that the other does not carry: a condition
// the other text says anywhere ("With one repository, …" / "A monorepo
// makes …") is shared.
func (c *Contradictor) conditionsDiffer(A, B *clause) bool {
	ca, cb := leadingCondition(A.text), leadingCondition(B.text)
	if len(ca) == 0 && len(cb) == 0 {
		return false
	}
	return !c.carries(A, ca, B) || !c.carries(B, cb, A)
}

// carries reports whether cl says each word of cond, a condition of the
// clause from: the same stem, a compound with the count a count word says
// ("single" / "monorepo"), or a short form of it (see shortFor).
func (c *Contradictor) carries(from *clause, cond []string, cl *clause) bool {
	for _, t := range cond {
		st, found := semantic.Stem(t), false
		for _, w := range cl.content {
			if w.stem == st || semantic.Stem(w.lemma) == st || countWords[t] != "" && w.compoundCount == countWords[t] {
				found = true
				break
			}
		}
		for _, fw := range from.content {
			if found || fw.tok != t {
				continue
			}
			for _, w := range cl.content {
				if shortFor(fw, w) || shortFor(w, fw) {
					found = true
					break
				}
			}
			break
		}
		if !found {
			return false
		}
	}
	return true
}

// numbersAround returns the number tokens before and after token index at
// ("version 3 ... before version 2").
func (cl *clause) numbersAround(at int) (before, after []string) {
	for i, t := range cl.toks {
		if semantic.IsNumber(t) {
			if i < at {
				before = append(before, t)
			} else {
				after = append(after, t)
			}
		}
	}
	return before, after
}

// timeFrame returns the words that place a claim in time ("last year",
// "now", "yesterday"), or "".
func timeFrame(toks []string) string {
	for i, t := range toks {
		switch t {
		case "yesterday", "today", "tomorrow", "now", "currently", "previously", "formerly", "nowadays", "recently":
			return t
		case "last", "this", "next", "previous":
			if i+1 < len(toks) && timeUnits[toks[i+1]] {
				return t + " " + toks[i+1]
			}
		}
	}
	return ""
}

var timeUnits = map[string]bool{"year": true, "month": true, "week": true, "quarter": true, "day": true, "night": true, "morning": true, "evening": true, "season": true, "sprint": true, "release": true, "time": true, "summer": true, "winter": true, "spring": true, "autumn": true, "fall": true}

// lessClass reports whether a comparing word bounds from above ("under",
// "within", "before") rather than from below ("over", "past", "after").
func lessClass(t string) bool { return lessThan[t] || t == "before" }

// anyOpposed reports whether a content word of A is opposed to one of B
// and neither appears on the other side: the antonym rule decides such
// pairs ("increase after the change" / "decrease after the change").
func (c *Contradictor) anyOpposed(A, B *clause) bool {
	for _, x := range A.content {
		if _, isOrder := orderWords[x.tok]; isOrder || A.ruleWord(x) || c.inClause(x, B.content) {
			continue
		}
		for j := range B.content {
			y := &B.content[j]
			if _, isOrder := orderWords[y.tok]; isOrder || B.ruleWord(*y) || c.inClause(*y, A.content) {
				continue
			}
			if _, ok := c.opposed(&x, y); ok {
				return true
			}
		}
	}
	return false
}

// wordsOf joins the tokens of some content words.
func wordsOf(ws []word) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.tok
	}
	return strings.Join(out, " ")
}

// notHedge reports whether a hedge word at i is used otherwise: a noun
// after a determiner ("the suspect"), or the month ("in May").
func notHedge(toks []string, i int) bool {
	if i == 0 {
		return false
	}
	p := toks[i-1]
	if toks[i] == "may" {
		return monthPrep[p] || i+1 < len(toks) && semantic.IsNumber(toks[i+1])
	}
	return determiners[p] && toks[i] != "chance"
}

// monthPrep are the words that put a month name in a date ("in May").
var monthPrep = map[string]bool{"in": true, "since": true, "until": true, "by": true, "of": true, "early": true, "late": true, "mid": true, "from": true, "before": true, "after": true}

// cantBefore reports whether "can not" or "may not" stands before index i.
func cantBefore(toks []string, i int) bool {
	for k := 0; k < i; k++ {
		if toks[k] == "cannot" || k > 0 && toks[k] == "not" && (toks[k-1] == "can" || toks[k-1] == "may" || toks[k-1] == "could") {
			return true
		}
	}
	return false
}

// countWord reports whether a token can count the unit after it.
func countWord(t string) bool {
	if semantic.IsNumber(t) || t == "a" || t == "an" || t == "per" || t == "half" || t == "few" || t == "several" {
		return true
	}
	_, ok := spelled(t)
	return ok
}

// privative reports whether toks[i] denies having something: "lacks",
// "lacking", or "missing" after a form of "be".
func privative(toks []string, i int) bool {
	switch toks[i] {
	case "lack", "lacks", "lacked", "lacking":
		return i > 0 && !determiners[toks[i-1]]
	case "missing":
		// "is missing a goal" is the verb miss; "is missing two pages"
		// denies only part.
		if i == 0 || toks[i-1] != "is" && toks[i-1] != "are" && toks[i-1] != "was" && toks[i-1] != "were" {
			return false
		}
		if i+1 < len(toks) {
			n := toks[i+1]
			_, spelledNum := spelled(n)
			return !determiners[n] && !semantic.IsNumber(n) && !spelledNum && n != "some" && n != "one"
		}
		return true
	}
	return false
}

// withoutAspect drops the words that say whether an event is over or going
// on ("finished", "running").
func withoutAspect(ws []word) []word {
	var out []word
	for _, w := range ws {
		if !completion[w.stem] && !completion[w.lemmaStem] && !strings.HasSuffix(w.tok, "ing") {
			out = append(out, w)
		}
	}
	return out
}
