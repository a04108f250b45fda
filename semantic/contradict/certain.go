package contradict

import (
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
// minutes"), and they are a near-minimal pair (CertainCoverage both ways).
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
	return v
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
