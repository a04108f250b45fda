package semantic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits text into lower-case word and number tokens. Contractions
// are expanded so that negation is always a token of its own: "isn't" gives
// "is", "not"; "can't" gives "can", "not"; "won't" gives "will", "not". The
// possessive "'s" is dropped. Decimal numbers ("3.5") and numbers with
// thousands separators ("1,000") stay one token; hyphenated words are split.
func Tokenize(s string) []string {
	toks := make([]string, 0, len(s)/5+1)
	return AppendTokens(toks, s)
}

// AppendTokens appends the tokens of s, as Tokenize splits them, to toks.
func AppendTokens(toks []string, s string) []string {
	i := 0
	for i < len(s) {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		if !IsWordRune(r) {
			i += w
			continue
		}
		start := i
		digits := unicode.IsDigit(r)
		i += w
		for i < len(s) {
			r, w = rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, w = utf8.DecodeRuneInString(s[i:])
			}
			if IsWordRune(r) {
				i += w
				continue
			}
			// Apostrophe inside a word (don't, man's) or a separator inside a
			// number (3.5, 1,000).
			if i+w < len(s) && IsWordRune(rune(s[i+w])) {
				if r == '\'' || r == '’' {
					i += w
					continue
				}
				if digits && (r == '.' || r == ',') && s[i+w] >= '0' && s[i+w] <= '9' {
					i += w
					continue
				}
			}
			break
		}
		toks = appendWord(toks, s[start:i], digits)
	}
	return toks
}

// IsWordRune reports whether r belongs to a word token: a letter or a
// digit.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func appendWord(toks []string, w string, number bool) []string {
	if number {
		return append(toks, strings.ReplaceAll(w, ",", ""))
	}
	w = strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	apos := strings.IndexByte(w, '\'')
	if apos < 0 {
		return append(toks, w)
	}
	switch {
	case w == "can't" || w == "cannot":
		return append(toks, "can", "not")
	case w == "won't":
		return append(toks, "will", "not")
	case w == "shan't":
		return append(toks, "shall", "not")
	case w == "ain't":
		return append(toks, "is", "not")
	case strings.HasSuffix(w, "n't"):
		return append(toks, w[:len(w)-3], "not")
	case strings.HasSuffix(w, "'s"), strings.HasSuffix(w, "'d"), strings.HasSuffix(w, "'m"):
		return append(toks, w[:len(w)-2])
	case strings.HasSuffix(w, "'re"), strings.HasSuffix(w, "'ve"), strings.HasSuffix(w, "'ll"):
		return append(toks, w[:len(w)-3])
	}
	return append(toks, strings.ReplaceAll(w, "'", ""))
}

// IsNumber reports whether tok is a numeric token as produced by Tokenize.
func IsNumber(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return tok[0] != '.'
}

// ReasonMarkers are the connectives that introduce a reason ("X because
// Y"), as token sequences, longer ones first. The contradiction judge reads
// the claim and its reason apart; the argument reader links them.
var ReasonMarkers = [][]string{
	{"as", "shown", "by", "the", "fact", "that"}, {"as", "evidenced", "by", "the", "fact", "that"},
	{"the", "proof", "is", "that"}, {"as", "shown", "by"}, {"as", "evidenced", "by"}, {"as", "proven", "by"},
	{"follows", "from"}, {"follow", "from"}, {"is", "proven", "by"}, {"is", "shown", "by"},
	{"given", "that"}, {"in", "view", "of", "the", "fact", "that"}, {"for", "the", "reason", "that"},
	{"because", "of"}, {"because"}, {"since"}, {"as", "a", "result", "of"},
}

// anaphors are pronouns that stand for something said before.
var anaphors = map[string]bool{
	"it": true, "its": true, "they": true, "them": true, "their": true, "this": true, "that": true,
	"these": true, "those": true, "he": true, "him": true, "his": true, "she": true, "her": true, "one": true,
}

// IsAnaphor reports whether tok (a Tokenize token) is a pronoun that stands
// for something said before ("it", "this", "they").
func IsAnaphor(tok string) bool { return anaphors[tok] }

// maxSentences bounds the sentences SplitSentences returns.
const maxSentences = 12

// SplitSentences splits text at sentence ends (. ! ? ; and line breaks)
// that are followed by a space or the end, keeping decimals ("3.5") and
// abbreviations inside a word intact. It returns at most maxSentences
// sentences (the last one holding the rest of the text), and the text
// itself when it has no sentence.
func SplitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text) && len(out) < maxSentences-1; i++ {
		switch text[i] {
		case '.', '!', '?', ';', '\n':
			if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\n' && text[i+1] != '\t' && text[i] != '\n' {
				continue
			}
			if s := strings.TrimSpace(text[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	if len(out) == 0 {
		out = append(out, text)
	}
	return out
}

// negators are tokens that negate the clause they stand in.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "nobody": true, "none": true,
	"nothing": true, "nowhere": true, "neither": true, "nor": true,
	"noone": true, "cannot": true, "without": true,
}

// IsNegator reports whether tok (a Tokenize token) negates its clause.
func IsNegator(tok string) bool { return negators[tok] }

// stopWords are function words that carry little topical content. Negators
// are deliberately not stop words for the contradiction decider, but the
// embedder skips them (negation barely changes what a sentence is about).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the this that these those there here
		is are was were be been being am do does did doing done have has had having
		will would shall should can could may might must
		i me my mine we us our ours you your yours he him his she her hers it its
		they them their theirs one ones someone somebody something
		of in on at to from by with for about into onto over under up down out off
		after before during through across behind around against toward towards
		beside among within along via per
		as than then so such very too also just only even quite rather
		and or but if while because although though since until when where which
		who whom whose what how why whether
		some any each every all both other another more most much many few
		s t d m ll re ve let lets get gets got going go goes
		not no never nobody none nothing nowhere neither nor without`) {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether tok is a function word without topical content.
func IsStopWord(tok string) bool { return stopWords[tok] }

// Stem returns the Porter (1980) stem of a lower-case English word. Words of
// one or two letters and numbers are returned unchanged.
func Stem(word string) string {
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; c < 'a' || c > 'z' {
			return word
		}
	}
	b := []byte(word)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// cons reports whether b[i] is a consonant in Porter's sense.
func cons(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !cons(b, i-1)
	}
	return true
}

// measure returns m, the number of VC sequences in b[:n].
func measure(b []byte, n int) int {
	m, i := 0, 0
	for i < n && cons(b, i) {
		i++
	}
	for i < n {
		for i < n && !cons(b, i) {
			i++
		}
		if i >= n {
			break
		}
		for i < n && cons(b, i) {
			i++
		}
		m++
	}
	return m
}

func hasVowel(b []byte, n int) bool {
	for i := 0; i < n; i++ {
		if !cons(b, i) {
			return true
		}
	}
	return false
}

func doubleCons(b []byte, n int) bool {
	return n >= 2 && b[n-1] == b[n-2] && cons(b, n-1)
}

// cvc reports whether b[:n] ends consonant-vowel-consonant with the last
// consonant not w, x or y.
func cvc(b []byte, n int) bool {
	if n < 3 || !cons(b, n-1) || cons(b, n-2) || !cons(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func ends(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

func setTo(b []byte, suffix, repl string) []byte {
	return append(b[:len(b)-len(suffix)], repl...)
}

func step1a(b []byte) []byte {
	switch {
	case ends(b, "sses"):
		return b[:len(b)-2]
	case ends(b, "ies"):
		return b[:len(b)-2]
	case ends(b, "ss"):
		return b
	case ends(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if ends(b, "eed") {
		if measure(b, len(b)-3) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var stem int
	switch {
	case ends(b, "ed"):
		stem = len(b) - 2
	case ends(b, "ing"):
		stem = len(b) - 3
	default:
		return b
	}
	if !hasVowel(b, stem) {
		return b
	}
	b = b[:stem]
	switch {
	case ends(b, "at"), ends(b, "bl"), ends(b, "iz"):
		return append(b, 'e')
	case doubleCons(b, len(b)):
		if c := b[len(b)-1]; c != 'l' && c != 's' && c != 'z' {
			return b[:len(b)-1]
		}
	case measure(b, len(b)) == 1 && cvc(b, len(b)):
		return append(b, 'e')
	}
	return b
}

func step1c(b []byte) []byte {
	if ends(b, "y") && hasVowel(b, len(b)-1) {
		b[len(b)-1] = 'i'
	}
	return b
}

type rule struct{ suffix, repl string }

var step2Rules = []rule{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

var step3Rules = []rule{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func applyRules(b []byte, rules []rule) []byte {
	for _, r := range rules {
		if ends(b, r.suffix) {
			if measure(b, len(b)-len(r.suffix)) > 0 {
				return setTo(b, r.suffix, r.repl)
			}
			return b
		}
	}
	return b
}

func step2(b []byte) []byte { return applyRules(b, step2Rules) }
func step3(b []byte) []byte { return applyRules(b, step3Rules) }

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func step4(b []byte) []byte {
	for _, s := range step4Suffixes {
		if !ends(b, s) {
			continue
		}
		// "ement" and "ment" are checked before "ent"; the first match decides.
		stem := len(b) - len(s)
		if s == "ion" && (stem == 0 || (b[stem-1] != 's' && b[stem-1] != 't')) {
			return b
		}
		if measure(b, stem) > 1 {
			return b[:stem]
		}
		return b
	}
	return b
}

func step5(b []byte) []byte {
	if ends(b, "e") {
		m := measure(b, len(b)-1)
		if m > 1 || m == 1 && !cvc(b, len(b)-1) {
			b = b[:len(b)-1]
		}
	}
	if ends(b, "ll") && measure(b, len(b)) > 1 {
		b = b[:len(b)-1]
	}
	return b
}
