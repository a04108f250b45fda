// Package claims splits thoughts into claims, the unit the consistency
// review works on: a sentence, or a clause where one sentence joins two
// claims ("X, but Y"; "X; Y"; "X because Y"). Only prose makes claims: it
// tells code, formulas, program output and tables apart from prose by their
// shape (kind.go). It is pure: text in, claims out, in time linear in the
// text's length.
package claims

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"
)

// Claim is one claim of a text: the span Text[Start:End] of it, trimmed.
type Claim struct {
	Text       string
	Start, End int // byte offsets in the text the claim was split from
}

// MaxClaims bounds the claims of one text; the last claim holds the rest.
const MaxClaims = 256

var (
	tokOnce sync.Once
	punkt   sentences.SentenceTokenizer
	tokErr  error
)

func sentenceTokenizer() sentences.SentenceTokenizer {
	tokOnce.Do(func() {
		punkt, tokErr = english.NewSentenceTokenizer(nil)
	})
	if tokErr != nil {
		return nil
	}
	return punkt
}

// Split returns the claims of text, in order: its prose (kind.go), not
// its code, formulas, program output or tables. Sentences are found by the
// Punkt sentence tokenizer with its English model (abbreviations such as
// "e.g.", "Dr." and initials do not end a sentence), also where a sentence
// ends in a number ("It opened in 1998. It closed in 2004.", which Punkt
// keeps together), and at line breaks. A sentence is split further where it
// joins two clauses that each make a claim (see clauses). A sentence or
// clause that is not Readable (a formula without a stated subject) is not
// a claim; a text without words is one claim (or none when it is blank or
// all code, formulas, output or tables).
func Split(text string) []Claim {
	var out []Claim
	for _, s := range sentenceSpans(text) {
		for _, c := range clauses(text, s[0], s[1]) {
			if len(out) == MaxClaims-1 {
				out = append(out, trimmed(text, c[0], len(text)))
				return out
			}
			if cl := trimmed(text, c[0], c[1]); Readable(cl.Text) {
				out = append(out, cl)
			}
		}
	}
	return out
}

func trimmed(text string, start, end int) Claim {
	for start < end && isSpaceOrPunct(text[start]) {
		start++
	}
	for end > start && unicode.IsSpace(rune(text[end-1])) {
		end--
	}
	return Claim{Text: text[start:end], Start: start, End: end}
}

func isSpaceOrPunct(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' || c == ':' || c == '-'
}

// sentenceSpans returns the [start, end) byte spans of the sentences of
// text's prose lines, blank ones left out.
func sentenceSpans(text string) [][2]int {
	var out [][2]int
	add := func(start, end int) {
		if strings.TrimSpace(text[start:end]) != "" {
			out = append(out, [2]int{start, end})
		}
	}
	// Lines first: a line break always ends a sentence (lists, notes).
	lines(text, func(k Kind, lineStart, lineEnd int) {
		if line := text[lineStart:lineEnd]; k == Prose && strings.TrimSpace(line) != "" {
			for _, s := range punktSpans(line) {
				for _, n := range numberEnds(line, s[0], s[1]) {
					add(lineStart+n[0], lineStart+n[1])
				}
			}
		}
	})
	return out
}

// punktSpans runs the Punkt tokenizer on one line and maps its sentences
// back to byte spans of the line.
func punktSpans(line string) [][2]int {
	t := sentenceTokenizer()
	if t == nil {
		return [][2]int{{0, len(line)}}
	}
	var out [][2]int
	at := 0
	for _, s := range t.Tokenize(line) {
		txt := strings.TrimSpace(s.Text)
		if txt == "" {
			continue
		}
		i := strings.Index(line[at:], txt)
		if i < 0 { // the tokenizer changed the text: keep the rest whole
			return append(out, [2]int{at, len(line)})
		}
		out = append(out, [2]int{at + i, at + i + len(txt)})
		at += i + len(txt)
	}
	if len(out) == 0 {
		return [][2]int{{0, len(line)}}
	}
	out[len(out)-1][1] = max(out[len(out)-1][1], len(strings.TrimRightFunc(line, unicode.IsSpace)))
	return out
}

// numberEnds splits a sentence span where a number ends a sentence: a
// digit, a period, a space and a capital letter ("in 1998. It closed").
// Punkt reads a period after a number as an ordinal's and does not split
// there.
func numberEnds(s string, start, end int) [][2]int {
	var out [][2]int
	from := start
	for i := start + 1; i+2 < end; i++ {
		if s[i] != '.' || s[i+1] != ' ' || s[i-1] < '0' || s[i-1] > '9' {
			continue
		}
		j := i + 1
		for j < end && s[j] == ' ' {
			j++
		}
		if j < end {
			r, _ := utf8.DecodeRuneInString(s[j:])
			if unicode.IsUpper(r) {
				out = append(out, [2]int{from, i + 1})
				from = j
			}
		}
	}
	return append(out, [2]int{from, end})
}

// Sentences returns the sentences of text's prose as Split finds them,
// before any sentence is split into clauses, each trimmed, those that are
// not Readable left out; at most MaxClaims (the last holds the rest).
func Sentences(text string) []string {
	spans := sentenceSpans(text)
	var out []string
	for _, s := range spans {
		if len(out) == MaxClaims-1 {
			out = append(out, trimmed(text, s[0], len(text)).Text)
			break
		}
		if c := trimmed(text, s[0], s[1]); c.Text != "" && Readable(c.Text) {
			out = append(out, c.Text)
		}
	}
	return out
}
