package thinkgraph

import (
	"strconv"
	"strings"
)

// Clip returns s cut to n characters, with "…" when it was longer.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// ValidName reports whether s is 1 to max bytes of ASCII letters, digits and
// the given symbols, starting with a letter or digit: the form of session,
// branch and tenant names. (Checked by hand: the equivalent regular
// expression compiles a state per allowed character, about a millisecond
// of every start-up.)
func ValidName(s string, max int, symbols string) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		if i == 0 || strings.IndexByte(symbols, c) < 0 {
			return false
		}
	}
	return true
}

// Count writes n and the noun in its number: "1 branch point", "2 branch
// points", "0 thoughts". plural is the noun's plural ("" adds an s).
func Count(n int, noun, plural string) string {
	if n == 1 {
		return "1 " + noun
	}
	if plural == "" {
		plural = noun + "s"
	}
	return strconv.Itoa(n) + " " + plural
}
