package contradict

import "fmt"

// Tension says how much two claims look like they might conflict, for
// ordering the consistency review: not a verdict, a reason to ask first.
// Each sign found adds to the score and names itself:
//
//   - a rule of the judge fires on the two as written (1.0);
//   - a quantity of one fits no quantity of the same unit in the other,
//     whatever else they say, or the two state calendar years and share
//     none (0.5);
//   - a word of one is opposed to a word of the other (WordNet antonyms,
//     opposing verbs and adjectives; 0.4);
//   - one is negated and the other not (0.3);
//   - one states a requirement or a possibility the other denies, or they
//     order events in opposite directions (0.3).
func (c *Contradictor) Tension(a, b string) (float64, []string) {
	A, B := c.clauseOf(a), c.clauseOf(b)
	var score float64
	var signs []string
	// The rules need most of one side's content matched in the other; two
	// claims that share few content words are not read by them (a cheap
	// test: the review scores every candidate pair of a session).
	if sharedLemmas(A.content, B.content) >= 0.4 {
		if v := c.decide(a, b); v.Contradicts {
			rule := v.Reason
			for i, r := range rule {
				if r == ':' {
					rule = rule[:i]
					break
				}
			}
			score += 1
			signs = append(signs, "the "+rule+" rule fires")
		}
	}
	if u, ok := quantityClash(A.quants, B.quants); ok {
		score += 0.5
		signs = append(signs, "different "+unitName(u)+" figures")
	} else if ya, yb := yearsOf(A.toks), yearsOf(B.toks); len(ya) > 0 && len(yb) > 0 && !sharesAny(ya, yb) {
		score += 0.5
		signs = append(signs, "different years")
	}
	if x, y, ok := c.opposedWords(A.content, B.content); ok {
		score += 0.4
		signs = append(signs, fmt.Sprintf("%s / %s", x, y))
	}
	if A.negated != B.negated {
		score += 0.3
		signs = append(signs, "one side negated")
	}
	if A.modal != 0 && B.modal != 0 && A.modal != B.modal || A.orderDir != 0 && B.orderDir != 0 && A.orderDir != B.orderDir {
		score += 0.3
		signs = append(signs, "opposite modality or order")
	}
	return score, signs
}

// quantityClash reports a unit both texts give a figure in whose figures
// cannot all hold: a quantity of A that overlaps none of B's in that unit.
func quantityClash(as, bs []quantity) (string, bool) {
	for _, q := range as {
		same, fits := false, false
		for _, r := range bs {
			if r.unit != q.unit {
				continue
			}
			same = true
			fits = fits || q.overlaps(r)
		}
		if same && !fits {
			return q.unit, true
		}
	}
	return "", false
}

// sharedLemmas is the share of the smaller side's content words whose
// lemma the other side has.
func sharedLemmas(xs, ys []word) float64 {
	if len(xs) > len(ys) {
		xs, ys = ys, xs
	}
	if len(xs) == 0 {
		return 0
	}
	n := 0
	for _, x := range xs {
		for _, y := range ys {
			if x.lemma == y.lemma || x.stem == y.stem {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(xs))
}

func sharesAny(a, b []string) bool {
	for _, x := range a {
		if contains(b, x) {
			return true
		}
	}
	return false
}

func unitName(u string) string {
	switch u {
	case "s":
		return "time"
	case "usd", "eur":
		return "money"
	case "m":
		return "length"
	case "g":
		return "weight"
	case "":
		return "number"
	}
	return u
}

// opposedWords returns a pair of opposed content words of xs and ys.
func (c *Contradictor) opposedWords(xs, ys []word) (string, string, bool) {
	for i := range xs {
		for j := range ys {
			if conf, ok := c.opposed(&xs[i], &ys[j]); ok && conf >= 0.6 {
				return xs[i].tok, ys[j].tok, true
			}
		}
	}
	return "", "", false
}
