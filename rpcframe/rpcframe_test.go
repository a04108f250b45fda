package rpcframe

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		frame  string
		reject bool
		id     string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, false, ""},
		{`{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}`, false, ""},
		{`{"jsonrpc":"2.0","id":"1.5","method":"ping"}`, false, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, ""},
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, false, ""},
		{`{"jsonrpc":"2.0","id":3,"result":null}`, false, ""},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}`, false, ""},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}`, false, ""},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, true, "1.5"},
		{`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, true, "1.0"},
		{`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, true, "9007199254740992"},
		{`{"jsonrpc":"2.0","id":-0,"method":"ping"}`, true, "-0"},
		{`{"jsonrpc":"2.0","id":1E2,"method":"ping"}`, true, "1E2"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, true, ""},
		{`{"jsonrpc":"2.0","id":"x"}`, true, `"x"`},
		{`{"jsonrpc":"2.0","id":"x","result":{},"method":"x"}`, false, ""},
	} {
		_, rej := Check([]byte(c.frame))
		if (rej != nil) != c.reject || (rej != nil && string(rej.ID) != c.id) {
			t.Errorf("Check(%s) = %+v, want reject %v with id %s", c.frame, rej, c.reject, c.id)
		}
		if rej != nil && !strings.Contains(string(rej.Response()), `"code":-32600`) {
			t.Errorf("response %s", rej.Response())
		}
	}
}

func TestBeforeInitialize(t *testing.T) {
	for frame, refused := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"think"}}`:                                                                  true,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`:                                                                                false,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:                                                                                                  false,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                                                                                    false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"think"}}`: false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"},"name":"think"}}`: true,
	} {
		m, _ := Check([]byte(frame))
		if got := BeforeInitialize(m, []byte(frame)) != nil; got != refused {
			t.Errorf("BeforeInitialize(%s) refused %v, want %v", frame, got, refused)
		}
	}
}

// BenchmarkCheck: a think call with a 2,000-character thought, what Check
// adds to every frame read.
func BenchmarkCheck(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"think","arguments":{"thought":"` + strings.Repeat("word ", 400) + `","confidence":0.8,"session_id":"bench"}}}`)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if _, rej := Check(frame); rej != nil {
			b.Fatal(rej)
		}
	}
}

// A string id escaping a UTF-16 surrogate that is not half of a pair
// cannot be echoed exactly (decoded, it is U+FFFD); pairs, other escapes
// and an escaped backslash before "u" can.
func TestLoneSurrogate(t *testing.T) {
	for raw, lone := range map[string]bool{
		`"a\ud800b"`:            true,
		`"\udc00"`:              true,
		`"\ud800"`:              true,
		`"\ud800\u0041"`:        true,
		`"\uD83D\uDE00"`:        false,
		`"\ud83d\ude00x"`:       false,
		`"\\ud800"`:             false,
		`"\u0041\n\"\\"`:        false,
		`"plain"`:               false,
		`"\\\ud800"`:            true,
		`"x\ud83d\ude00\ud800"`: true,
	} {
		if got := loneSurrogate([]byte(raw)); got != lone {
			t.Errorf("loneSurrogate(%s) = %v, want %v", raw, got, lone)
		}
	}
}
