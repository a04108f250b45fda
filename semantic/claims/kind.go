package claims

import (
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// Models reason in more than prose: equations, code, logs, stack traces,
// shell sessions and tables. The claims the review compares as sentences
// are the prose; the rest is recognised by its shape, never by what it
// says, and kept out of the claims (the thought keeps its text):
//
//   - lines: a fenced block (``` or ~~~ to the matching fence) is code;
//     display math ($$ … $$, \[ … \], \begin … \end) a formula; a table row
//     (| a | b |, a |---| rule, a header of capitalised column names) a
//     table; a shell prompt ("$ cmd", ">>> "), a stack frame or trace
//     header ("Traceback", `File "x", line 3`, "at pkg.f(File.java:12)",
//     "goroutine 1 [running]", "panic:"), a compiler diagnostic
//     ("error[E0499]:", "--> src/x.rs:4:2", "12 |"), a log line (a
//     timestamp or a level first, "key=value" fields) program output,
//     and the lines after output or a table go with it until a blank line
//     or a line that reads as a sentence (a letter first, a sentence's
//     end, no columns);
//   - within a line, a claim is read as words only when it states them
//     (Readable): inline math ($…$, \(…\)), LaTeX commands, tokens of
//     operators (=, +, ^, _, {}, <, >, …), variables (single letters)
//     and calls ("f(x)") are symbols; a claim that holds symbols and fewer
//     content words than symbols, or fewer than two, is a formula without
//     a stated subject, not a sentence.

// Kind is the kind of text a line of a thought holds.
type Kind uint8

// Kinds of text.
const (
	Prose   Kind = iota
	Code         // a fenced code block
	Formula      // display math
	Output       // what a program printed: logs, traces, shell sessions, diagnostics
	Table        // table rows
)

var kindNames = [...]string{"prose", "code", "formula", "output", "table"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Part is a run of whole lines of one kind: text[Start:End], without the
// last line's line break.
type Part struct {
	Kind       Kind
	Start, End int
}

// Parts returns the parts of text in order, every line in one. A blank
// line goes with the part before it.
func Parts(text string) []Part {
	var out []Part
	lines(text, func(k Kind, start, end int) {
		if n := len(out); n > 0 && out[n-1].Kind == k {
			out[n-1].End = end
			return
		}
		out = append(out, Part{k, start, end})
	})
	return out
}

// lines calls f with each line of text, [start, end) without its line
// break, and its kind.
func lines(text string, f func(k Kind, start, end int)) {
	var fence string // the open fence ("```", "~~~~"), or ""
	var mathEnd string
	prev := Prose
	blank := false // the line before was blank
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		trim := strings.TrimSpace(line)
		k := Prose
		switch {
		case fence != "":
			k = Code
			if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
				fence = ""
			}
		case mathEnd != "":
			k = Formula
			if strings.Contains(trim, mathEnd) {
				mathEnd = ""
			}
		case trim == "":
			k = prev
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			k = Code
			fence = trim[:3]
			for len(fence) < len(trim) && trim[len(fence)] == fence[0] {
				fence = trim[:len(fence)+1]
			}
		case strings.HasPrefix(trim, "$$") || strings.HasPrefix(trim, `\[`) || strings.HasPrefix(trim, `\begin{`):
			k = Formula
			open, closer := trim[:2], "$$"
			switch open {
			case `\[`:
				closer = `\]`
			case `\b`:
				open, closer = `\begin{`, `\end{`
			}
			if !strings.Contains(trim[len(open):], closer) {
				mathEnd = closer
			}
		case isTableRow(trim) || prev == Table && strings.Count(trim, "|") >= 2:
			k = Table
		case outputLine.MatchString(line):
			k = Output
		case columnHeader(trim):
			k = Table
		case (prev == Output || prev == Table) && !blank && !sentence(trim):
			k = prev // a command's output runs on until a sentence or a blank line
		}
		f(k, start, end)
		blank = trim == "" && fence == "" && mathEnd == ""
		prev = k
		start = end + 1
	}
}

// sentence reports whether a trimmed line reads as a sentence of prose: it
// opens with a letter, ends as a sentence does, is no column of fields (no
// tab, no run of spaces) and is Readable.
func sentence(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsLetter(r) && r != '`' && r != '"' || strings.Contains(t, "\t") || strings.Contains(t, "   ") {
		return false
	}
	if !strings.ContainsAny(t[len(t)-1:], ".!?:") || !strings.Contains(t, " ") {
		return false
	}
	return Readable(t)
}

// isTableRow reports whether a trimmed line is a table row or rule:
// "| a | b |", or "---|---" and "|:--|--:|".
func isTableRow(t string) bool {
	if strings.HasPrefix(t, "|") && strings.Count(t, "|") >= 2 {
		return true
	}
	return strings.Contains(t, "|") && strings.Contains(t, "---") && strings.Trim(t, "|-: ") == ""
}

// columnHeader reports whether a trimmed line is a header of capitalised
// column names ("NAME  READY  STATUS  RESTARTS"): three or more upper-case
// words, nothing else, columns apart (two spaces or a tab somewhere; a
// title has one space between its words).
func columnHeader(t string) bool {
	if !strings.Contains(t, "  ") && !strings.Contains(t, "\t") {
		return false
	}
	n := 0
	for _, w := range strings.Fields(t) {
		for _, r := range w {
			if !unicode.IsUpper(r) && r != '_' && r != '-' && r != '%' && r != '(' && r != ')' && r != '/' {
				return false
			}
		}
		n++
	}
	return n >= 3
}

// outputLine matches a line of program output: a shell prompt, a stack
// trace, a compiler diagnostic or a log line.
var outputLine = regexp.MustCompile(`^(?:` +
	// Shell and REPL prompts: "$ cmd", "user@host:~/src$ cmd", ">>> ".
	`\s*\$ \S|\s*[\w.-]+@[\w.-]+:\S*[$#] |\s*>>> |` +
	// Stack traces.
	`Traceback \(most recent call last\)|\s+File "[^"]*", line \d|\s+at [\w.$<>/]+ ?\(.*\)\s*$|` +
	`goroutine \d+ \[|panic: |thread '[^']*' panicked|Exception in thread|Caused by: |` +
	`[A-Z]\w*(?:\.\w+)*(?:Error|Exception)(?::|$)|` +
	// Compiler diagnostics: "error[E0499]: …", "  --> src/a.rs:4:2", "12 | code".
	`(?:error|warning)(?:\[\w+\])?: |\s*--> \S+:\d|\s*\d*\s+\|(?:\s|$)|\S+\.\w+:\d+(?::\d+)?: |` +
	// Log lines: a timestamp or a level first, or logfmt fields.
	`\s*\[?\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}|\s*\[?\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|` +
	`\s*\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?[: ]|[IWEF]\d{4} \d{2}:\d{2}|` +
	`(?:\S*\s+)?(?:level|lvl|ts|time|msg)=\S)`)

// inlineSpans returns the spans [start, end) of inline code (`…`) and
// inline math ($…$, \(…\)) in s, math marked true. A dollar sign opens
// math when a non-space follows it and closes it when a non-space
// precedes it and no digit follows ("$x^2$", not "$5 and $10").
func inlineSpans(s string, f func(start, end int, math bool)) {
	// Once a dollar sign or a backtick finds no closing one, none after it
	// will: the scan stays linear in the text.
	dollars, ticks := true, true
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '$':
			i++ // an escaped dollar sign
		case s[i] == '`' && ticks:
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if j := strings.Index(s[i+n:], s[i:i+n]); j >= 0 {
				f(i, i+n+j+n, false)
				i += n + j + n - 1
			} else {
				ticks = n > 1
				i += n - 1
			}
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '(':
			if j := strings.Index(s[i+2:], `\)`); j >= 0 {
				f(i, i+2+j+2, true)
				i += 2 + j + 1
			}
		case s[i] == '$' && dollars && i+1 < len(s) && s[i+1] != ' ':
			closed := false
			for j := i + 1; j < len(s); j++ {
				if s[j] == '\\' {
					j++
					continue
				}
				if s[j] == '$' && s[j-1] != ' ' && j > i+1 && (j+1 == len(s) || s[j+1] < '0' || s[j+1] > '9') {
					f(i, j+1, true)
					i, closed = j, true
					break
				}
			}
			dollars = closed
		}
	}
}

// FormulaSpans returns the spans [start, end) of the formulas in a claim,
// in order: inline math ($…$, \(…\)) and runs of tokens of symbols and the
// figures among them ("2p=0.58", "5 + 12", "\frac{1}{2}", "x_1"), for
// readers of figures and words: a number there is a formula's, not a
// quantity, and a dollar sign no currency.
func FormulaSpans(s string) [][2]int {
	var out [][2]int
	tokens := func(from, to int) {
		run, symbol := [2]int{-1, -1}, false
		flush := func() {
			if symbol {
				out = append(out, run)
			}
			run, symbol = [2]int{-1, -1}, false
		}
		for i := from; i < to; {
			for i < to && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
				i++
			}
			j := i
			for j < to && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
				j++
			}
			if j == i {
				break
			}
			switch tokenKind(s[i:j]) {
			case tokSymbol:
				symbol = true
				fallthrough
			case tokFigure:
				if run[0] < 0 {
					run[0] = i
				}
				run[1] = j
			default:
				flush()
			}
			i = j
		}
		flush()
	}
	from := 0
	inlineSpans(s, func(start, end int, math bool) {
		tokens(from, start)
		if math {
			out = append(out, [2]int{start, end})
		}
		from = end
	})
	tokens(from, len(s))
	return out
}

// FormulaMark opens the token that stands for a formula in FormulasAsNames:
// a letter no English word has, so that the formula is one token of a
// tokenizer (semantic.Tokenize) and no word.
const FormulaMark = "ƒ"

// FormulasAsNames returns a sentence with each of its formulas
// (FormulaSpans) written as one token, FormulaMark and a digest of the
// formula's text without spaces: for readers of words, a formula's names
// and figures are no words ("x", "2p"), and two sentences that state one
// formula state the same token.
func FormulasAsNames(s string) string {
	spans := FormulaSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		h := fnv.New32a()
		for _, f := range strings.Fields(s[sp[0]:sp[1]]) {
			h.Write([]byte(f))
		}
		b.WriteString(s[at:sp[0]])
		b.WriteString(" " + FormulaMark + strconv.FormatUint(uint64(h.Sum32()), 36) + " ")
		at = sp[1]
	}
	b.WriteString(s[at:])
	return b.String()
}

// symbolChars are the characters of a token that make it a formula's or
// code's rather than a word's.
const symbolChars = "=<>+*^_\\{}|[]"

// Readable reports whether a claim reads as a sentence: it states words,
// not mostly symbols (see the top of this file). A formula (a run of
// symbols and the figures between them, or an inline math span) weighs 1
// and 1 more for every 4 atoms it has (names and figures: "3x + 2y = 12"
// has three), so that a long one outweighs the few words around it and a
// short one does not ("The equation x^2 + 1 = 0 has a real solution" reads
// as words). A claim without symbols is readable, however short, unless it
// states figures, two or more, and no content word ("They are 105, 112
// and 119.").
func Readable(s string) bool {
	content, symbols, figures := 0, 0, 0
	run := -1 // atoms of the formula being read; -1 outside one
	end := func() {
		if run >= 0 {
			symbols += 1 + run/4
		}
		run = -1
	}
	count := func(part string) {
		for _, t := range strings.Fields(part) {
			switch tokenKind(t) {
			case tokContent:
				end()
				content++
			case tokSymbol:
				run = max(run, 0) + atoms(t)
			case tokFigure:
				figures++
				if run >= 0 {
					run++
				}
			default:
				end()
			}
		}
	}
	from := 0
	inlineSpans(s, func(start, stop int, math bool) {
		count(s[from:start])
		end()
		if math {
			run = atoms(s[start:stop])
			end()
		}
		from = stop
	})
	count(s[from:])
	end()
	if symbols == 0 {
		return figures < 2 || content > 0
	}
	return content >= 2 && content >= symbols
}

// snakeCase reports whether the underscores of t join words
// ("max_connections", "csv_export.py"), not a variable and its index
// ("x_1", "S_{14}", "p_F"): a letter or more on each side, two or more
// before it, and no other symbol.
func snakeCase(t string) bool {
	if strings.ContainsAny(t, strings.ReplaceAll(symbolChars, "_", "")) {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '_' {
			continue
		}
		before := 0
		for j := i - 1; j >= 0 && isLetter(t[j]); j-- {
			before++
		}
		if before < 2 || i+1 >= len(t) || !isLetter(t[i+1]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// atoms counts the names and figures of a formula: runs of letters and
// digits, a LaTeX command's name ("\frac") left out.
func atoms(f string) int {
	n := 0
	in, command := false, false
	for i := 0; i < len(f); i++ {
		c := f[i]
		word := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' && in || c >= utf8.RuneSelf
		switch {
		case word && !in:
			in = true
			command = i > 0 && f[i-1] == '\\'
			if !command {
				n++
			}
		case !word:
			in = false
		}
	}
	return n
}

// Kinds of a whitespace-separated token.
const (
	tokNeutral = iota // a function word, a name, punctuation
	tokFigure         // a number, with its unit or sign
	tokContent        // a content word
	tokSymbol         // an operator, a variable, a LaTeX command, a call
)

// tokenKind classifies a whitespace-separated token of a claim.
func tokenKind(t string) int {
	t = strings.TrimLeft(t, `"'“‘([`)
	if len(t) == 2 && t[1] == '.' && unicode.IsUpper(rune(t[0])) {
		return tokNeutral // an initial ("William H.")
	}
	t = strings.TrimRight(t, `"'”’)].,;:!?`)
	if t == "" {
		return tokNeutral
	}
	if strings.ContainsAny(t, symbolChars) && !snakeCase(t) {
		if f, ok := strings.CutPrefix(t, "+"); ok && f != "" && strings.Trim(f, "0123456789.,%$€£") == "" {
			return tokFigure // a signed figure ("+5%")
		}
		return tokSymbol
	}
	letters, digits, other := 0, 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case r == '\'' || r == '’' || r == '-' || r == '.':
		default:
			other++
		}
	}
	switch {
	case letters == 0:
		// A figure ("1.24", "$5", "40%"), a dash or a sign: a lone
		// operator is a formula's.
		if digits > 0 {
			return tokFigure
		}
		if t == "-" || t == "–" || t == "—" || t == "…" || t == "&" {
			return tokNeutral
		}
		if strings.ContainsAny(t, "-/") {
			return tokSymbol
		}
		return tokNeutral
	case strings.ContainsAny(t, "()"):
		return tokSymbol // a call or an argument list: "f(x)", "foo()"
	case digits > 0 && unicode.IsDigit(rune(t[0])):
		return tokFigure // a figure with its unit ("41m", "512Mi")
	case other > 0 || digits > 0:
		return tokNeutral // a name ("p99", "v2.1"), a path
	case letters == 1 && utf8.RuneCountInString(t) == 1:
		if t == "a" || t == "A" || t == "I" || t == "i" {
			return tokNeutral
		}
		return tokSymbol // a variable
	}
	if !strings.ContainsAny(t, "'’") {
		if semantic.IsStopWord(strings.ToLower(t)) {
			return tokNeutral
		}
		return tokContent
	}
	for _, w := range semantic.Tokenize(t) {
		if !semantic.IsStopWord(w) {
			return tokContent
		}
	}
	return tokNeutral // "don't", "it's"
}
