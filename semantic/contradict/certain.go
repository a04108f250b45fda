package contradict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// certainRules are the rules whose firings Certain keeps: on every
// measured set (the reasoning dev set, ChatProtect's LLM self-
// contradictions, MultiNLI dev-matched) they held at precision 1.00 on
// near-minimal pairs. Negation (0.85–0.88 on MultiNLI even on minimal
// pairs), antonyms, quantifiers and requirement (0.50–0.67) did not: whether
// such a pair can both be true often rests on what the words mean in the
// world, which the calling model knows and the rules do not.
var certainRules = []string{"numbers", "comparative", "order"}

// CertainCoverage is the share of each side's content words that the other
// side must match for Certain to assert: the rule's words must be the
// difference between the two claims, not one detail among many.
const CertainCoverage = 0.7

// Certain is the judge restricted to what it is sure of, for asserting a
// contradiction without asking anyone. a and b are single claims (package
// semantic/claims), compared as written, not sentence by sentence. It
// returns a contradiction only when one of certainRules fires, neither text
// is a question, the two differ in at most one figure each (more may be
// labels of different things: "step 3 takes 5 minutes" / "step 4 takes 10
// minutes"), they are a near-minimal pair (CertainCoverage both ways), and
// neither is restricted to a part the other does not name (restricted). A
// formula without a stated subject is never compared (claims.Readable).
func (c *Contradictor) Certain(a, b string) Verdict {
	if strings.Contains(a, "?") || strings.Contains(b, "?") {
		return Verdict{Reason: "a question asserts nothing"}
	}
	v := c.decide(a, b)
	if !v.Contradicts {
		return v
	}
	rule, _, _ := strings.Cut(v.Reason, ":")
	certain := false
	for _, r := range certainRules {
		certain = certain || r == rule
	}
	if (rule == "negation" || rule == "antonym") && exactSwap(c.clauseOf(a).toks, c.clauseOf(b).toks) {
		return v // the same words but the negation, or one opposed word
	}
	if !certain {
		return Verdict{Reason: "the " + rule + " rule fired, which is not certain enough to assert: the pair goes to review"}
	}
	A, B := c.clauseOf(a), c.clauseOf(b)
	if onlyA, onlyB := numbersApart(A.numbers, B.numbers); onlyA > 1 || onlyB > 1 {
		return Verdict{Reason: "the claims differ in more than one figure, which may name different things (\"option 2\" / \"option 3\"): the pair goes to review"}
	}
	ab, _ := c.coverage(A.content, B.content, nil)
	ba, _ := c.coverage(B.content, A.content, nil)
	if min(ab, ba) < CertainCoverage {
		return Verdict{Reason: "the " + rule + " rule fired, but the claims differ in more than its words: the pair goes to review"}
	}
	if w, ok := c.restricted(A, B); ok {
		return Verdict{Reason: fmt.Sprintf("the %s rule fired, but one claim is restricted to %q, which the other does not name: it may speak of a part; the pair goes to review", rule, w)}
	}
	return v
}

// restrictions are the prepositions that restrict what a claim speaks of
// to a part or a place ("63 points on the edge", "12 beds in the ICU").
var restrictions = map[string]bool{"in": true, "on": true, "at": true, "inside": true, "within": true, "outside": true,
	"of": true, "for": true, "from": true, "under": true, "across": true, "among": true, "per": true}

// restricted reports whether one of two claims restricts what it speaks of
// with a phrase the other does not state: a noun of it that no word of the
// other matches, after a preposition ("on the perimeter", "in the ICU");
// the words a rule reads ("in November") left out. Its figure may then
// count a part of what the other's counts ("48 points inside the square" /
// "63 points on its edge").
func (c *Contradictor) restricted(A, B *clause) (string, bool) {
	for _, p := range [][2]*clause{{A, B}, {B, A}} {
		x, y := p[0], p[1]
		for _, a := range x.content {
			if x.ruleWord(a) || !hasNoun([]word{a}) || slices.ContainsFunc(y.content, func(b word) bool { return c.match(a, b) }) {
				continue
			}
			// The preposition, then at most two function words ("on the").
			for k := a.at - 1; k >= 0 && k >= a.at-3; k-- {
				if restrictions[x.toks[k]] {
					return x.toks[k] + " … " + a.tok, true
				}
				if !semantic.IsStopWord(x.toks[k]) {
					break
				}
			}
		}
	}
	return "", false
}

// numbersApart counts the numbers of each side the other does not state.
func numbersApart(a, b []string) (onlyA, onlyB int) {
	for _, x := range a {
		if !contains(b, x) {
			onlyA++
		}
	}
	for _, y := range b {
		if !contains(a, y) {
			onlyB++
		}
	}
	return onlyA, onlyB
}

// exactSwap reports whether two token sequences are the same but for
// negators ("is" / "is not") or for one word in the same place ("allows" /
// "blocks"): a minimal pair whose only difference is what a rule read.
func exactSwap(a, b []string) bool {
	negator := func(t string) bool { return t == "not" || t == "never" || t == "no" }
	strip := func(ts []string) []string {
		var out []string
		for i, t := range ts {
			// "does not enable" is the negation of "enables": the
			// auxiliary of do-support goes with the negator.
			doSupport := (t == "do" || t == "does" || t == "did") && i+1 < len(ts) && negator(ts[i+1])
			if !negator(t) && !doSupport {
				out = append(out, t)
			}
		}
		return out
	}
	x, y := strip(a), strip(b)
	if len(x) != len(y) || len(x) < 3 {
		return false
	}
	diff := 0
	for i := range x {
		if x[i] != y[i] && semantic.Stem(x[i]) != semantic.Stem(y[i]) {
			diff++
		}
	}
	if diff == 0 {
		return len(a) != len(b) // only negators differ
	}
	return diff == 1 && len(a) == len(b) && len(x) == len(a)
}
