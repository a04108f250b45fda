package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// minEm is the narrowest advance charEm estimates: no more than
// width/(minEm·size) characters fit a line of width pixels.
const minEm = 0.32

// fitsAtMost is the most characters a line of width pixels at font size
// size can hold.
func fitsAtMost(width, size float64) int { return max(0, int(width/(minEm*size))) }

// fitText shortens s (on one line) with an ellipsis until it fits width
// pixels at font size size. It reads no more of s than can fit, so its
// time does not grow with the length of s beyond one pass.
func fitText(s string, width, size float64) string {
	// More than fitsAtMost characters never fit: clip keeps one more and
	// an ellipsis, which the loop below cuts.
	s = clip(s, fitsAtMost(width, size)+2)
	if textWidth(s, size) <= width {
		return s
	}
	room := width - charEm('…')*size
	n, w := 0, 0.0
	rs := []rune(s)
	for n < len(rs) && w+charEm(rs[n])*size <= room {
		w += charEm(rs[n]) * size
		n++
	}
	return strings.TrimRight(string(rs[:n]), " ") + "…"
}

// wrapText breaks s into at most lines lines that each fit width pixels at
// font size size, at spaces where it can (a word too long for a line is
// cut); what does not fit ends the last line with an ellipsis. Its time is
// linear in the length of s: each line is measured as it grows, and the
// rest of a text too long for the lines is read only as far as a line
// holds.
func wrapText(s string, width, size float64, lines int) []string {
	words := strings.Fields(validUTF8(s))
	var out []string
	cur, curW := "", 0.0
	space := charEm(' ') * size
	for i := 0; i < len(words); {
		w := words[i]
		ww := textWidth(w, size)
		try, tryW := w, ww
		if cur != "" {
			try, tryW = cur+" "+w, curW+space+ww
		}
		if tryW <= width {
			cur, curW = try, tryW
			i++
			continue
		}
		if cur == "" {
			// A word longer than a line: cut it where the line is full.
			n, lw := 0, 0.0
			for j, r := range w {
				if n > 0 && lw+charEm(r)*size > width {
					cur, words[i] = w[:j], w[j:]
					break
				}
				lw += charEm(r) * size
				n++
			}
			if cur == "" { // one character wider than the line
				cur, words[i] = w, ""
			}
		}
		out = append(out, cur)
		cur, curW = "", 0
		if len(out) == lines {
			// The rest, as far as the last line could show it.
			var rest strings.Builder
			limit := fitsAtMost(width, size) + 2
			for _, w := range words[i:] {
				if rest.Len() > 0 {
					rest.WriteByte(' ')
				}
				rest.WriteString(w)
				if utf8.RuneCountInString(rest.String()) > limit {
					break
				}
			}
			if rest.Len() > 0 {
				out[lines-1] = fitText(out[lines-1]+" "+rest.String(), width, size)
			}
			return out
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
