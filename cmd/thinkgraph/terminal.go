package main

import (
	"io"
	"os"
	"unicode/utf8"
)

// toTerminal is w, or w with its control characters made visible when w
// is a terminal (a character device): text the thoughts hold (an ANSI
// escape sequence, a bell, a carriage return that overwrites the line)
// would otherwise act on the terminal instead of being read.
func toTerminal(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return w
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return w
	}
	return &visibleControls{w: w}
}

// visibleControls writes what it is given with every control character but
// newline and tab replaced by its picture (ESC as ␛, DEL as ␡) and the C1
// controls (U+0080 to U+009F, CSI among them) by U+FFFD. A C1 control's
// first byte at the end of a write waits for the next one.
type visibleControls struct {
	w       io.Writer
	pending []byte
}

func (v *visibleControls) Write(p []byte) (int, error) {
	buf := make([]byte, 0, len(v.pending)+len(p)+16)
	in := append(v.pending, p...)
	v.pending = nil
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '\n' || c == '\t':
			buf = append(buf, c)
		case c < 0x20:
			buf = utf8.AppendRune(buf, 0x2400+rune(c))
		case c == 0x7F:
			buf = utf8.AppendRune(buf, 0x2421)
		case c == 0xC2 && i+1 == len(in):
			v.pending = []byte{c}
		case c == 0xC2 && in[i+1] >= 0x80 && in[i+1] <= 0x9F:
			buf = utf8.AppendRune(buf, utf8.RuneError)
			i++
		default:
			buf = append(buf, c)
		}
	}
	if _, err := v.w.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
