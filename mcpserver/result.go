package mcpserver

import (
	"math"
	"regexp"
	"strconv"
)

// What a tool returns lands in a model's context, so a result is encoded
// for reading: every number in it has at most 2 decimals (a score of
// 0.7123456 reads 0.71), and a thought's text is quoted once (quoteOnce),
// except in a result that is lossless, the exported session (import
// restores it).

// encodeResult is the JSON of a tool's result as a model reads it.
func encodeResult(b []byte, out any) []byte {
	if _, exact := out.(lossless); exact {
		return b
	}
	return quoteOnce(roundNumbers(b))
}

// refJSON matches a thought reference (analyze.ThoughtRef) as json.Marshal
// writes it: step, branchId, then content. Outside JSON strings only:
// inside one, every quote is escaped.
var refJSON = regexp.MustCompile(`\{"step":([0-9]+),"branchId":"(?:[^"\\]|\\.)*"(,"content":"(?:[^"\\]|\\.)*")\}`)

// quoteOnce drops the content of every thought reference in the JSON text
// b but the first to each thought: the text is quoted once in a result.
func quoteOnce(b []byte) []byte {
	seen := map[string]bool{}
	var out []byte
	last := 0
	for _, m := range refJSON.FindAllSubmatchIndex(b, -1) {
		step := string(b[m[2]:m[3]])
		if !seen[step] {
			seen[step] = true
			continue
		}
		out = append(out, b[last:m[4]]...)
		last = m[5]
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// lossless is a result whose numbers are kept exactly as they are
// (branch-thinking's export).
type lossless interface{ Lossless() }

// roundNumbers returns the JSON text b with every number that has a
// fraction or an exponent rounded to 2 decimals. b is valid JSON, as
// json.Marshal writes it: numbers are the runs of number characters outside
// strings. A number of 1e15 or more is left as it is (it has no decimals
// to round).
func roundNumbers(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			out = append(out, c)
			continue
		}
		j, plain := i, true
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] >= '0' && b[j] <= '9') {
			plain = plain && b[j] != '.' && b[j] != 'e' && b[j] != 'E'
			j++
		}
		num := b[i:j]
		if f, err := strconv.ParseFloat(string(num), 64); err == nil && !plain && math.Abs(f) < 1e15 {
			r := math.Round(f*100) / 100
			if r == 0 {
				r = 0 // no "-0"
			}
			out = strconv.AppendFloat(out, r, 'f', -1, 64)
		} else {
			out = append(out, num...)
		}
		i = j - 1
	}
	return out
}
