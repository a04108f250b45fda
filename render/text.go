package render

import (
	"strings"
	"unicode"
)

// Text measurement for the SVG drawing. The drawing is made on the server,
// where no font can be measured, so widths are estimated per character in
// em, on the wide side for the sans-serif fonts browsers use (DejaVu Sans,
// Segoe UI, Helvetica): a line estimated to fit does fit.

// charEm is the estimated advance of r in em.
func charEm(r rune) float64 {
	switch {
	case strings.ContainsRune("iljI.,:;'|!`", r):
		return 0.32
	case strings.ContainsRune(" frt()[]{}-\"/\\", r):
		return 0.45
	case strings.ContainsRune("mwMW@%", r):
		return 1.0
	case r >= 'A' && r <= 'Z', r == '&', r == '#':
		return 0.78
	case r < 0x80:
		return 0.65
	case r >= 0x1100 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0x1F000 || (r >= 0xFF00 && r <= 0xFFEF)):
		return 1.1
	default:
		return 0.75
	}
}

// textWidth estimates the width of s in pixels at font size size.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += charEm(r)
	}
	return w * size
}

// fitText shortens s (on one line) with an ellipsis until it fits width
// pixels at font size size.
func fitText(s string, width, size float64) string {
	s = clip(s, len(s)+1)
	if textWidth(s, size) <= width {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && textWidth(string(rs)+"…", size) > width {
		rs = rs[:len(rs)-1]
	}
	return strings.TrimRight(string(rs), " ") + "…"
}

// wrapText breaks s into at most lines lines that each fit width pixels at
// font size size, at spaces where it can (a word too long for a line is
// cut); what does not fit ends the last line with an ellipsis.
func wrapText(s string, width, size float64, lines int) []string {
	words := strings.Fields(validUTF8(s))
	var out []string
	cur := ""
	for i := 0; i < len(words); {
		w := words[i]
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if textWidth(try, size) <= width {
			cur = try
			i++
			continue
		}
		if cur == "" {
			// A word longer than a line: cut it where the line is full.
			rs := []rune(w)
			n := 1
			for n < len(rs) && textWidth(string(rs[:n+1]), size) <= width {
				n++
			}
			cur, words[i] = string(rs[:n]), string(rs[n:])
		}
		out = append(out, cur)
		cur = ""
		if len(out) == lines {
			if rest := strings.TrimSpace(strings.Join(words[i:], " ")); rest != "" {
				out[lines-1] = fitText(out[lines-1]+" "+rest, width, size)
			}
			return out
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
