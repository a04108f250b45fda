package contradict

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// A sentence can make more than one claim. "P because Q" asserts P and,
// besides, Q; "P, so Q" and "P, which Q" as well; "X makes Y rise" claims
// that Y rises where X holds. The judge compares each sentence as written
// and, besides, each claim it makes (claimsOf): the negation or the
// subject of a reason clause ("JWT tokens enable horizontal scaling
// because no server keeps session state") must not stand in for the main
// clause's, and a condition said as the subject of a causative verb ("A
// monorepo makes build times increase") is the condition of the claim.

// wordSpan is a word of a sentence with its byte offsets, lower case; a
// clause break (comma, colon, dash, parenthesis) is the word ",".
type wordSpan struct {
	start, end int
	w          string
}

// spansOf splits a sentence into words and clause breaks, keeping where
// each stands so that a claim is cut from the text as written (numbers,
// "p.m." and units intact for the rules).
func spansOf(s string) []wordSpan {
	var out []wordSpan
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ',' || r == ':' || r == '(' || r == ')' || r == '—' || r == '–':
			if len(out) > 0 && out[len(out)-1].w != "," {
				out = append(out, wordSpan{i, i + w, ","})
			}
			i += w
		case semantic.IsWordRune(r) || r == '\'':
			j := i + w
			for j < len(s) {
				r2, w2 := utf8.DecodeRuneInString(s[j:])
				if !semantic.IsWordRune(r2) && r2 != '\'' {
					break
				}
				j += w2
			}
			out = append(out, wordSpan{i, j, strings.ToLower(s[i:j])})
			i = j
		default:
			i += w
		}
	}
	return out
}

// spanAt reports whether the words of sp from i on start with m.
func spanAt(sp []wordSpan, i int, m []string) bool {
	if i+len(m) > len(sp) {
		return false
	}
	for k, w := range m {
		if sp[i+k].w != w {
			return false
		}
	}
	return true
}

// consequenceMarkers put the reason before them and the consequence after
// ("X, so Y", "X, which means Y"); they join claims only after a clause
// break.
var consequenceMarkers = [][]string{
	{"which", "is", "why"}, {"that", "is", "why"}, {"which", "means", "that"}, {"which", "means"},
	{"it", "follows", "that"}, {"and", "so"}, {"therefore"}, {"thus"}, {"hence"}, {"consequently"}, {"so"},
}

// notConsequence are the words after "so" that make it an adverb or a
// purpose ("so that", "so far"), not a consequence.
var notConsequence = map[string]bool{"that": true, "far": true, "much": true, "many": true, "long": true, "as": true}

// clauseSubjects open a clause as its subject ("since it ...", "as the
// starch ...", "since no server ...").
var clauseSubjects = map[string]bool{
	"it": true, "they": true, "we": true, "there": true, "he": true, "she": true, "i": true, "you": true,
	"no": true, "nobody": true, "nothing": true, "none": true, "every": true, "each": true, "all": true,
	"the": true, "our": true, "their": true, "its": true, "this": true, "these": true, "those": true, "most": true,
}

// finiteWords are auxiliaries and copulas: a group of words with one of
// them is a clause ("since the cache is cold"), not a time ("since the
// upgrade").
var finiteWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true,
	"can": true, "cannot": true, "will": true, "does": true, "do": true, "did": true, "must": true,
	"should": true, "would": true, "could": true, "isn't": true, "aren't": true, "doesn't": true,
	"don't": true, "didn't": true, "won't": true, "can't": true, "wasn't": true, "weren't": true,
}

// isClause reports whether the words sp are a clause rather than a noun
// phrase: a pronoun or quantified subject, an auxiliary, or a verb form
// after the subject's first two words ("the starch gelatinises").
func isClause(sp []wordSpan) bool {
	if len(sp) == 0 || semantic.IsNumber(sp[0].w) || strings.HasSuffix(sp[0].w, "ing") {
		return false
	}
	if sp[0].w != "the" && sp[0].w != "our" && sp[0].w != "their" && sp[0].w != "its" && clauseSubjects[sp[0].w] {
		return true
	}
	for k, s := range sp {
		if s.w == "," {
			break
		}
		if finiteWords[s.w] || k >= 2 && (strings.HasSuffix(s.w, "s") || strings.HasSuffix(s.w, "ed")) && !strings.HasSuffix(s.w, "ss") {
			return true
		}
	}
	return false
}

// reasonSplit cuts a sentence into its main claim and the reason or
// consequence attached to it, or reports false. Leading reasons
// ("Because Y, X") run to the first clause break; a leading "since" tells
// a time as often as a reason and stays a condition of the claim.
func reasonSplit(s string) (main, other string, ok bool) {
	sp := spansOf(s)
	if len(sp) < 3 {
		return "", "", false
	}
	for _, m := range [][]string{{"because"}, {"given", "that"}} {
		if !spanAt(sp, 0, m) || spanAt(sp, 0, []string{"because", "of"}) {
			continue
		}
		for k := len(m); k < len(sp); k++ {
			if sp[k].w == "," {
				return s[sp[k].end:], s[sp[len(m)].start:sp[k].start], k > len(m) && k+1 < len(sp)
			}
		}
	}
	for i := 1; i < len(sp); i++ {
		if sp[i-1].w == "not" {
			continue // "not because of the cache": a denied reason
		}
		for _, m := range semantic.ReasonMarkers {
			if !spanAt(sp, i, m) || i+len(m) >= len(sp) {
				continue
			}
			rest := sp[i+len(m):]
			if m[0] == "since" && len(m) == 1 && !isClause(rest) {
				break // "down since the upgrade": a time
			}
			return s[:sp[i].start], s[rest[0].start:], true
		}
		if sp[i-1].w != "," || i+1 >= len(sp) {
			continue
		}
		for _, m := range consequenceMarkers {
			if spanAt(sp, i, m) && i+len(m) < len(sp) && !(m[0] == "so" && notConsequence[sp[i+1].w]) {
				return s[:sp[i-1].start], s[sp[i+len(m)].start:], true
			}
		}
		switch {
		case sp[i].w == "as" && clauseSubjects[sp[i+1].w] && isClause(sp[i+1:]):
			// "The soup thickens, as the starch gelatinises."
			return s[:sp[i-1].start], s[sp[i+1].start:], true
		case sp[i].w == "which" && i >= 2 && !semantic.IsStopWord(sp[i-2].w) && sp[i-2].w != "," && !semantic.IsNumber(sp[i-2].w):
			// "We sold the old car, which is not reliable": the relative
			// clause says it of the words before the break ("old car").
			k := i - 2
			for k > 0 && !semantic.IsStopWord(sp[k-1].w) && sp[k-1].w != "," && !semantic.IsNumber(sp[k-1].w) {
				k--
			}
			return s[:sp[i-1].start], s[sp[k].start:sp[i-2].end] + " " + s[sp[i+1].start:], true
		}
	}
	return "", "", false
}

// causeVerbs make their object do or be what follows ("X makes Y slow",
// "X causes Y to fail"); causeLinks lead to a result ("X leads to Y").
var (
	causeVerbs = map[string]bool{"make": true, "makes": true, "made": true, "cause": true, "causes": true, "caused": true}
	causeLinks = [][]string{{"leads", "to"}, {"lead", "to"}, {"led", "to"}, {"results", "in"}, {"result", "in"}, {"resulted", "in"}}
	// notCaused are the words after "make" that make it an idiom ("makes
	// sense", "make sure").
	notCaused = map[string]bool{"sure": true, "sense": true, "use": true, "up": true, "it": true, "room": true, "way": true, "do": true}
)

// causative reads "X makes Y V" (also "X causes Y to V", "X leads to Y")
// as the claim "Y V" under the condition X, written "with X, Y V", or
// reports false. X must name a thing (not a pronoun, not negated, no
// clause break).
func causative(s string) (string, bool) {
	sp := spansOf(s)
	for i := 1; i+1 < len(sp); i++ {
		n := 0
		switch {
		case causeVerbs[sp[i].w] && !notCaused[sp[i+1].w]:
			n = 1
		default:
			for _, m := range causeLinks {
				if spanAt(sp, i, m) {
					n = len(m)
				}
			}
		}
		if n == 0 || i+n >= len(sp) {
			continue
		}
		subject := false
		for _, x := range sp[:i] {
			if x.w == "," || semantic.IsNegator(x.w) {
				return "", false
			}
			if !semantic.IsStopWord(x.w) && !finiteWords[x.w] {
				subject = true
			}
		}
		if !subject {
			return "", false
		}
		var rest []string
		for k, x := range sp[i+n:] {
			if k > 0 && x.w == "to" && (sp[i].w == "cause" || sp[i].w == "causes" || sp[i].w == "caused") {
				continue // "causes builds to fail": "builds fail"
			}
			rest = append(rest, s[x.start:x.end])
		}
		return "with " + lowerFirst(strings.TrimSpace(s[:sp[i].start])) + ", " + strings.Join(rest, " "), true
	}
	return "", false
}

// demonstratives are anaphors that also open a noun phrase ("this change").
var demonstratives = map[string]bool{"this": true, "that": true, "these": true, "those": true}

func lowerFirst(s string) string {
	r, w := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[w:]
}

// claimsOf returns the claims a sentence makes besides itself (see the
// top of this file): its main clause and the reason or consequence
// attached to it, and the causative claim of either. A claim whose
// subject is a pronoun ("because it is durable") is left out: alone it
// could be about anything.
func claimsOf(s string) []string {
	var out []string
	add := func(t string) {
		t = strings.TrimSpace(strings.Trim(strings.TrimSpace(t), ",;:"))
		sp := spansOf(t)
		if len(sp) < 2 || t == s || contains(out, t) || semantic.IsAnaphor(sp[0].w) && (!demonstratives[sp[0].w] || semantic.IsStopWord(sp[1].w)) {
			return
		}
		for _, x := range sp {
			if !semantic.IsStopWord(x.w) && !semantic.IsNumber(x.w) && x.w != "," {
				out = append(out, t)
				return
			}
		}
	}
	if main, other, ok := reasonSplit(s); ok {
		add(main)
		add(other)
	}
	for _, t := range append([]string{s}, out...) {
		if r, ok := causative(t); ok {
			add(r)
		}
	}
	return out
}

// degreeAdverbs say how much, not what: "build times increase sharply"
// claims what "build times increase" claims about their direction, so they
// are not content words.
var degreeAdverbs = map[string]bool{
	"sharply": true, "significantly": true, "dramatically": true, "drastically": true, "considerably": true,
	"substantially": true, "greatly": true, "slightly": true, "marginally": true, "steeply": true,
	"markedly": true, "noticeably": true, "somewhat": true, "hugely": true, "vastly": true,
	"massively": true, "moderately": true, "modestly": true, "appreciably": true, "measurably": true,
}

// Number prefixes and count words. A word the lexicon does not know that
// starts with a number prefix ("monorepo", "multicloud") is that number of
// the rest: "monorepo" is "one repo", which a text can say as "one
// repository" or "a single repository".
var (
	countPrefixes = [][2]string{
		{"mono", "1"}, {"uni", "1"}, {"single", "1"}, {"multi", "many"}, {"poly", "many"},
		{"bi", "2"}, {"di", "2"}, {"tri", "3"}, {"quad", "4"},
	}
	countWords = map[string]string{
		"one": "1", "single": "1", "sole": "1", "1": "1", "two": "2", "2": "2", "double": "2", "dual": "2",
		"three": "3", "3": "3", "triple": "3", "four": "4", "4": "4",
		"many": "many", "multiple": "many", "several": "many", "numerous": "many",
	}
)

// compoundOf splits a word unknown to the lexicon at a number prefix
// ("monorepo" → "1", "repo"), or returns "", "".
func compoundOf(t string) (count, rest string) {
	for _, p := range countPrefixes {
		if r, ok := strings.CutPrefix(t, p[0]); ok && len(r) >= 4 {
			return p[1], strings.TrimPrefix(r, "-")
		}
	}
	return "", ""
}

// minClip is the shortest clipped form matched to its full word ("repo").
const minClip = 4

// clipped reports whether short, a word the lexicon does not know, is the
// beginning of long, one it knows ("repo" / "repository", "config" /
// "configuration").
func clipped(short string, long word) bool {
	return len(short) >= minClip && len(long.senses) > 0 && len(long.lemma) > len(short)+1 &&
		(strings.HasPrefix(long.lemma, short) || strings.HasPrefix(long.tok, short))
}

// shortFor reports whether a is a short form of b: a clipping of it, or a
// number-prefix compound whose rest is b (or a clipping of it) and whose
// number b's count word, if it has one, agrees with ("monorepo" / "one
// repository", not "many repositories").
func shortFor(a, b word) bool {
	if len(a.senses) > 0 {
		return false
	}
	if a.compoundRest != "" {
		if b.count != "" && b.count != a.compoundCount {
			return false
		}
		return a.compoundRest == b.lemma || a.compoundRest == b.tok || semantic.Stem(a.compoundRest) == b.stem || clipped(a.compoundRest, b)
	}
	return clipped(a.tok, b) || strings.HasSuffix(a.tok, "s") && clipped(a.tok[:len(a.tok)-1], b)
}
