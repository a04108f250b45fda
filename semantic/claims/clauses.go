package claims

import (
	"strings"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// A sentence is split into clauses where a connective joins two clauses
// that each make a claim of their own:
//
//   - a semicolon or colon between two clauses;
//   - a contrast after a comma: ", but", ", whereas", ", while", ",
//     although", ", though", ", yet";
//   - a reason or consequence: "because", ", since", ", so", ", which
//     means";
//   - ", and" when what follows has its own subject and verb (an
//     auxiliary or copula within the next few words: "the pool is capped,
//     and the cache is cold"), not a list ("rye, water, and salt").
//
// Each side must keep at least minWords words, two of them content words;
// otherwise the sentence stays whole. The connective stays with the clause
// it opens, so a claim reads as written ("but the cache is cold").

// minWords is the fewest words a clause needs to be a claim of its own.
const minWords = 3

// word is a token of a sentence with its byte span.
type word struct {
	w          string // lower case
	start, end int
	comma      bool // a comma, semicolon or colon follows the word
	semi       bool // a semicolon or colon follows the word
}

// contrast and reason connectives that open a clause after a comma (or
// anywhere, for those marked anywhere).
var (
	afterComma = map[string]bool{"but": true, "whereas": true, "while": true, "although": true, "though": true, "yet": true, "so": true, "since": true}
	anywhere   = map[string]bool{"because": true, "whereas": true}
	verbish    = map[string]bool{"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true,
		"can": true, "cannot": true, "will": true, "would": true, "should": true, "must": true, "does": true, "do": true,
		"did": true, "may": true, "might": true, "could": true, "shall": true, "be": true, "been": true}
)

func words(s string, start, end int) []word {
	var out []word
	// Punctuation inside inline code or math does not join clauses.
	var inline [][2]int
	inlineSpans(s[start:end], func(a, b int, _ bool) { inline = append(inline, [2]int{start + a, start + b}) })
	quoted := func(i int) bool {
		for _, sp := range inline {
			if i >= sp[0] && i < sp[1] {
				return true
			}
		}
		return false
	}
	i := start
	for i < end {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !semantic.IsWordRune(r) {
			// Punctuation between clauses is followed by a space ("7:00"
			// and "1,900" are one word each).
			spaced := i+w >= end || s[i+w] == ' ' || s[i+w] == '\t' || s[i+w] == '\n'
			if len(out) > 0 && spaced && (r == ',' || r == ';' || r == ':') && !quoted(i) {
				out[len(out)-1].comma = true
				out[len(out)-1].semi = out[len(out)-1].semi || r != ','
			}
			i += w
			continue
		}
		j := i + w
		for j < end {
			r, w := utf8.DecodeRuneInString(s[j:])
			if semantic.IsWordRune(r) || ((r == '\'' || r == '’' || r == '.' || r == ':' || r == ',') && j+w < end && semantic.IsWordRune(rune(s[j+w]))) {
				j += w
				continue
			}
			break
		}
		out = append(out, word{w: strings.ToLower(s[i:j]), start: i, end: j})
		i = j
	}
	return out
}

// claimlike reports whether ws can stand as a claim: enough words, two of
// them content words.
func claimlike(ws []word) bool {
	if len(ws) < minWords {
		return false
	}
	content := 0
	for _, w := range ws {
		if !semantic.IsStopWord(w.w) {
			content++
		}
	}
	return content >= 2
}

// clauses returns the [start, end) spans of the claims of the sentence
// s[start:end].
func clauses(s string, start, end int) [][2]int {
	ws := words(s, start, end)
	var cuts []int // word indexes where a new clause begins
	last := 0
	cut := func(i int) {
		if claimlike(ws[last:i]) && claimlike(ws[i:]) {
			cuts = append(cuts, i)
			last = i
		}
	}
	for i := 1; i < len(ws); i++ {
		prev, w := ws[i-1], ws[i].w
		switch {
		case prev.semi:
			cut(i)
		case prev.comma && afterComma[w]:
			cut(i)
		case anywhere[w] && !(i+1 < len(ws) && ws[i+1].w == "of"):
			cut(i)
		case prev.comma && w == "which" && i+1 < len(ws) && ws[i+1].w == "means":
			cut(i)
		case prev.comma && w == "and" && ownClause(ws[i+1:]):
			cut(i)
		}
	}
	out := make([][2]int, 0, len(cuts)+1)
	from := start
	for _, c := range cuts {
		out = append(out, [2]int{from, ws[c].start})
		from = ws[c].start
	}
	return append(out, [2]int{from, end})
}

// ownClause reports whether ws opens a clause with its own subject: a verb
// (auxiliary or copula) within the first five words, after at least one
// word.
func ownClause(ws []word) bool {
	for i := 1; i < len(ws) && i <= 5; i++ {
		if verbish[ws[i].w] {
			return true
		}
		if ws[i-1].comma {
			return false
		}
	}
	return false
}
