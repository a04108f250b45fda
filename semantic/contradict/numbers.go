package contradict

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/claims"
)

// quantity is a number a text states, read as the interval of values it
// allows: "over 800 ms" is (0.8 s, ∞), "about 3 TB" is 3 TB ± 25%, "between
// 5 and 10 percent" is [5, 10] percent, "capped at 20" is a limit of
// exactly 20.
type quantity struct {
	lo, hi float64
	unit   string // dimension after conversion: "s", "byte", "percent", "usd" or a lemma
	limit  bool   // a stated maximum ("capped at", "up to", "limit of")
	text   string // the words that state it
	at     int    // token index of the number
}

var unitScale = map[string]struct {
	dim   string
	scale float64
}{
	"ms": {"s", 0.001}, "millisecond": {"s", 0.001}, "milliseconds": {"s", 0.001},
	"s": {"s", 1}, "sec": {"s", 1}, "secs": {"s", 1}, "second": {"s", 1}, "seconds": {"s", 1},
	"min": {"s", 60}, "mins": {"s", 60}, "minute": {"s", 60}, "minutes": {"s", 60},
	"h": {"s", 3600}, "hr": {"s", 3600}, "hrs": {"s", 3600}, "hour": {"s", 3600}, "hours": {"s", 3600},
	"day": {"s", 86400}, "days": {"s", 86400}, "week": {"s", 604800}, "weeks": {"s", 604800},
	"month": {"s", 2629800}, "months": {"s", 2629800}, "year": {"s", 31557600}, "years": {"s", 31557600},
	"b": {"byte", 1}, "byte": {"byte", 1}, "bytes": {"byte", 1},
	"kb": {"byte", 1e3}, "mb": {"byte", 1e6}, "gb": {"byte", 1e9}, "tb": {"byte", 1e12},
	"kib": {"byte", 1024}, "mib": {"byte", 1 << 20}, "gib": {"byte", 1 << 30}, "tib": {"byte", 1 << 40},
	"percent": {"percent", 1}, "pct": {"percent", 1},
	"usd": {"usd", 1}, "dollar": {"usd", 1}, "dollars": {"usd", 1},
	"eur": {"eur", 1}, "euro": {"eur", 1}, "euros": {"eur", 1},
	"mm": {"m", 0.001}, "cm": {"m", 0.01}, "m": {"m", 1}, "metre": {"m", 1}, "metres": {"m", 1},
	"meter": {"m", 1}, "meters": {"m", 1}, "km": {"m", 1000}, "kilometre": {"m", 1000},
	"kilometres": {"m", 1000}, "kilometer": {"m", 1000}, "kilometers": {"m", 1000},
	"g": {"g", 1}, "gram": {"g", 1}, "grams": {"g", 1}, "kg": {"g", 1000}, "kilogram": {"g", 1000},
	"kilograms": {"g", 1000},
}

var multipliers = map[string]float64{"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "b": 1e9, "billion": 1e9}

var moreThan = map[string]bool{"more": true, "over": true, "above": true, "greater": true, "larger": true, "longer": true, "higher": true, "exceeds": true, "exceed": true, "exceeded": true, "beyond": true, "past": true, "heavier": true, "bigger": true, "later": true, "least": true, "min": true, "minimum": true, "met": true, "meets": true, "beat": true, "beats": true}
var lessThan = map[string]bool{"less": true, "fewer": true, "under": true, "below": true, "within": true, "lighter": true, "shorter": true, "lower": true, "smaller": true, "cheaper": true, "most": true, "max": true, "maximum": true, "earlier": true}
var limitWords = map[string]bool{"capped": true, "cap": true, "limit": true, "limited": true, "allows": true, "up": true}
var approxWords = map[string]bool{"about": true, "around": true, "roughly": true, "approximately": true, "nearly": true, "almost": true, "circa": true, "some": true, "approx": true}

// fractions of a whole that texts spell out.
var fractionWords = map[string]float64{"half": 50, "third": 100.0 / 3, "quarter": 25, "fifth": 20, "tenth": 10}

// numberToks turns a text into tokens for reading quantities: "%" becomes
// "percent", "$" "usd", "€" "eur", and a time "4:40" the number 4.40.
// Formulas (inline math, "$x^2 = 4$", and runs of symbols and figures, "5 +
// 12 = 17": claims.FormulaSpans) are left out: their figures are a
// formula's, not quantities of a subject (and their dollar signs no
// currency); so are the indices of variables ("z_1", "S_{14}": see
// joinIndices). A text without such signs reads as toks, its Tokenize tokens
// (computed here when nil).
func numberToks(text string, toks []string) []string {
	if !strings.ContainsAny(text, "%$:€_\\=<>+*^{}|[]") {
		if toks == nil {
			toks = semantic.Tokenize(text)
		}
		return toks // nothing to rewrite: the clause's own tokens
	}
	text = joinIndices(text)
	math := claims.FormulaSpans(text)
	var b strings.Builder
	b.Grow(len(text) + 16)
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if len(math) > 0 && i >= math[0][0] {
			if i < math[0][1] {
				b.WriteByte(' ')
				continue
			}
			math = math[1:]
		}
		switch {
		case ch == '%':
			b.WriteString(" percent ")
		case ch == '$':
			b.WriteString(" usd ")
		case ch == ':' && i > 0 && i+1 < len(text) && isDigit(text[i-1]) && isDigit(text[i+1]):
			b.WriteByte('.')
		default:
			b.WriteByte(ch)
		}
	}
	s := strings.ReplaceAll(b.String(), "€", " eur ")
	return semantic.Tokenize(s)
}

// joinIndices writes a variable and its index as one name: "z_1" and
// "S_{14}" become "z1" and "S14", which are no figures (a letter or an
// index of one letter before the underscore, or a number or braces after
// it; "max_retries" stays as it is). The text keeps its length where
// nothing is joined.
func joinIndices(text string) string {
	if !strings.Contains(text, "_") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch != '_' || i == 0 || i+1 >= len(text) || !isAlnum(text[i-1]) {
			b.WriteByte(ch)
			continue
		}
		single := !(i >= 2 && isAlnum(text[i-2]))
		next := text[i+1]
		switch {
		case next == '{':
			if j := strings.IndexByte(text[i+1:], '}'); j > 1 && !strings.ContainsAny(text[i+2:i+1+j], " {") {
				b.WriteString(text[i+2 : i+1+j])
				i += 1 + j
				continue
			}
			b.WriteByte(ch)
		case isDigit(next) || single && isAlnum(next):
			// "z_1": the underscore goes, the name runs on.
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isAlnum(b byte) bool { return isDigit(b) || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// parseNumber reads a number token: "3200", "1.2", "2M", "8k".
func parseNumber(t string) (float64, bool) {
	t = strings.ToLower(t)
	mult := 1.0
	for suf, m := range map[string]float64{"k": 1e3, "m": 1e6, "bn": 1e9} {
		if strings.HasSuffix(t, suf) && len(t) > len(suf) && isDigit(t[len(t)-len(suf)-1]) {
			t, mult = t[:len(t)-len(suf)], m
			break
		}
	}
	if !semantic.IsNumber(t) {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	return v * mult, err == nil
}

func spelled(t string) (float64, bool) {
	if n, ok := numberWords[t]; ok {
		v, _ := strconv.ParseFloat(n, 64)
		return v, true
	}
	if v, ok := tens[t]; ok {
		return v, true
	}
	return 0, false
}

var tens = map[string]float64{"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "fifteen": 15, "thirteen": 13, "fourteen": 14, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}

// quantitiesOf reads the quantities of a text.
func (c *Contradictor) quantitiesOf(text string) []quantity {
	return c.quantitiesIn(numberToks(text, nil))
}

// quantitiesIn reads the quantities of a tokenised text (see numberToks).
func (c *Contradictor) quantitiesIn(toks []string) []quantity {
	if toks == nil {
		return nil
	}
	var out []quantity
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if m, isMonth := months[t]; isMonth && i > 0 && monthPrep[toks[i-1]] {
			out = append(out, quantity{lo: m, hi: m, unit: "month of the year", text: toks[i-1] + " " + t, at: i})
			continue
		}
		if d, isOrd := ordinal(t); isOrd && i > 0 && (toks[i-1] == "the" || months[toks[i-1]] > 0) {
			out = append(out, quantity{lo: d, hi: d, unit: "day of the month", text: "the " + t, at: i})
			continue
		}
		v, ok := parseNumber(t)
		if !ok {
			v, ok = spelled(t)
		}
		frac := false
		if !ok {
			if f, isFrac := fractionWords[t]; isFrac && (t == "half" || i > 0 && (toks[i-1] == "a" || toks[i-1] == "one")) {
				v, ok, frac = f, true, true
			}
		}
		if !ok {
			continue
		}
		start, j := i, i+1
		// Multipliers and units.
		if j < len(toks) {
			if m, isM := multipliers[toks[j]]; isM && !frac && toks[j] != "m" && toks[j] != "b" {
				v *= m
				j++
			}
		}
		q := quantity{lo: v, hi: v, at: i}
		if frac {
			// "half an hour" is half of the unit; "half of the X" a share.
			if j+1 < len(toks) && (toks[j] == "an" || toks[j] == "a") {
				if u, isU := unitScale[toks[j+1]]; isU {
					q.lo, q.hi, q.unit = v/100*u.scale, v/100*u.scale, u.dim
					j += 2
				}
			}
			if q.unit == "" {
				q.unit = "percent"
			}
		} else if j+1 < len(toks) && (toks[j] == "a" || toks[j] == "p") && toks[j+1] == "m" {
			// "4:40 p.m."
			if toks[j] == "p" && q.lo < 12 {
				q.lo += 12
				q.hi += 12
			}
			q.unit = "clock"
			j += 2
		} else if j < len(toks) {
			if u, isU := unitScale[toks[j]]; isU {
				q.lo, q.hi, q.unit = v*u.scale, v*u.scale, u.dim
				j++
			} else if !semantic.IsStopWord(toks[j]) && !semantic.IsNumber(toks[j]) && len(toks[j]) >= 2 {
				// A word names what is counted; a single letter is a
				// variable ("2 x"), not a subject.
				q.unit = c.lex().Lemma(toks[j])
				if q.unit == "" {
					q.unit = toks[j]
				}
				j++
			}
		}
		if start > 0 && toks[start-1] == "usd" {
			q.unit = "usd"
			start--
		}
		if start > 0 && (toks[start-1] == "at" && start > 1 && (toks[start-2] == "leaves" || toks[start-2] == "departs" || toks[start-2] == "arrives")) {
			q.unit = "clock"
		}
		// Ranges: "between 5 and 10 percent", "20 to 30", "20-30".
		if start > 0 && toks[start-1] == "between" && j+1 < len(toks) && toks[j] == "and" {
			if w, ok2 := parseNumber(toks[j+1]); ok2 {
				hi := w
				if q.unit != "" && j+2 < len(toks) {
					if u, isU := unitScale[toks[j+2]]; isU {
						hi = w * u.scale
					}
				} else if j+2 < len(toks) {
					if u, isU := unitScale[toks[j+2]]; isU {
						q.lo *= u.scale
						hi = w * u.scale
						q.unit = u.dim
					} else if !semantic.IsStopWord(toks[j+2]) {
						q.unit = c.lex().Lemma(toks[j+2])
					}
				}
				q.hi = hi
				start--
				j += 3
			}
		}
		// Comparators before the number ("met our 99.9% target").
		k := start - 1
		for k > 0 && (toks[k] == "our" || toks[k] == "the" || toks[k] == "its" || toks[k] == "their") {
			k--
		}
		if k >= 0 && toks[k] == "than" && k > 0 {
			k--
		}
		if k >= 0 && (toks[k] == "a" || toks[k] == "an") {
			k--
		}
		from := start
		lo0, hi0 := q.lo, q.hi
		if k >= 2 && toks[k] == "of" && boundNouns[toks[k-2]] != "" {
			k -= 2 // "a minimum balance of $500"
		}
		if k >= 0 {
			w := toks[k]
			prev := ""
			if k > 0 {
				prev = toks[k-1]
			}
			switch {
			case w == "to" && prev == "up" && !(k > 1 && strings.HasPrefix(toks[k-2], "add")), w == "at" && (prev == "capped" || prev == "limited"), w == "of" && (prev == "limit" || prev == "maximum" || prev == "cap"), w == "to" && prev == "limited":
				q.limit = true
				q.lo = 0
			case approxWords[w]:
				d := 0.25 * q.hi
				q.lo, q.hi = q.lo-d, q.hi+d
			case moreThan[w] && !(w == "most" || w == "least" && prev != "at"):
				q.lo, q.hi = q.lo*(1+1e-9), math.Inf(1)
				if w == "least" || w == "met" || w == "meets" {
					q.lo = lo0
				}
			case w == "least" && prev == "at":
				q.hi = math.Inf(1)
			case lessThan[w] && !(w == "most" && prev != "at"):
				q.lo = 0
			case w == "most" && prev == "at":
				q.lo = 0
			}
			if q.lo != lo0 || q.hi != hi0 || q.limit {
				from = k
				if k > 0 && twoWordComparator[toks[k-1]] {
					from = k - 1
				}
			}
			if k > 0 && (toks[k] == "more" || toks[k] == "less" || toks[k] == "fewer") && toks[k-1] == "no" {
				// "no more than 10" is at most 10.
				if toks[k] == "more" {
					q.lo, q.hi = 0, hi0
				} else {
					q.lo, q.hi = lo0, math.Inf(1)
				}
			}
		}
		q.text = strings.Join(toks[from:min(j, len(toks))], " ")
		if q.unit != "" {
			out = append(out, q)
		}
		i = j - 1
	}
	return out
}

// yearsOf returns the calendar years a text states: four-digit numbers
// from 1000 to 2199 after a preposition of time ("in 1944", "since 2019",
// "from 1850"). They are not quantities of the numbers rule (two years
// are often two events); the review's tension reads them.
func yearsOf(toks []string) []string {
	var out []string
	for i, t := range toks {
		if i == 0 || len(t) != 4 || t < "1000" || t > "2199" || !semantic.IsNumber(t) || strings.Contains(t, ".") {
			continue
		}
		switch toks[i-1] {
		case "in", "since", "from", "until", "till", "by", "before", "after", "during":
			out = append(out, t)
		}
	}
	return out
}

// overlaps reports whether two quantities of one unit can both hold.
func (q quantity) overlaps(r quantity) bool {
	if q.limit && r.limit {
		return math.Abs(q.hi-r.hi) <= 1e-9*math.Max(1, math.Abs(q.hi))
	}
	const eps = 1e-9
	return q.lo <= r.hi*(1+eps) && r.lo <= q.hi*(1+eps)
}

// numbersVerdict reports a contradiction when a quantity of one text fits
// no quantity of the same unit in the other and the rest of the texts match.
func (c *Contradictor) numbersVerdict(A, B *clause) (Verdict, bool) {
	if len(A.quants) == 0 || len(B.quants) == 0 {
		return Verdict{}, false
	}
	var qa, qb quantity
	clash, shared := false, false
	for _, x := range A.quants {
		fits, same := false, false
		var other quantity
		for _, y := range B.quants {
			if x.unit != y.unit {
				continue
			}
			same, other = true, y
			if x.overlaps(y) {
				fits = true
				break
			}
		}
		if same {
			shared = true
		}
		if same && !fits && !clash {
			clash, qa, qb = true, x, other
		}
	}
	if !shared {
		return Verdict{}, false
	}
	if !clash {
		return Verdict{}, false // shared numbers are shared detail
	}
	al := c.align(A, B)
	if al.coverMin() < 0.5 || al.coverMax() < 0.66 || al.conflicting() || len(al.opp) > 0 || A.negated != B.negated ||
		hasNoun(al.unA) && hasNoun(al.unB) || len(al.unA) > 0 && len(al.unB) > 0 && len(al.unA)+len(al.unB) > 2 {
		// "returned 7%" / "charged a 1% fee": each number measures
		// something the other text does not name.
		return Verdict{}, false
	}
	return Verdict{
		Contradicts: true,
		Confidence:  round2(0.6 + 0.35*al.coverMin()),
		Reason:      fmt.Sprintf("numbers: %q vs %q", qa.text, qb.text),
	}, true
}

var months = map[string]float64{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// twoWordComparator are first words of comparators ("at least", "up to",
// "capped at", "no more than").
var twoWordComparator = map[string]bool{"at": true, "up": true, "no": true, "capped": true, "limited": true, "limit": true}

// boundNouns name a bound before "X of N": "a minimum balance of $500".
var boundNouns = map[string]string{"minimum": "min", "min": "min", "maximum": "max", "max": "max"}

// hasNoun reports whether one of ws is most likely a noun.
func hasNoun(ws []word) bool {
	for _, w := range ws {
		if len(w.senses) > 0 && w.senses[0].Field >= 3 && w.senses[0].Field <= 28 {
			return true
		}
	}
	return false
}

// ordinal reads "1st", "2nd", "3rd", "20th".
func ordinal(t string) (float64, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if n, ok := strings.CutSuffix(t, suf); ok && n != "" && semantic.IsNumber(n) && !strings.Contains(n, ".") {
			v, err := strconv.ParseFloat(n, 64)
			return v, err == nil && v >= 1 && v <= 31
		}
	}
	return 0, false
}
