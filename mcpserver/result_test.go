package mcpserver

import (
	"encoding/json"
	"testing"
)

func TestRoundNumbers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":0.7123456,"b":3,"c":-0.004,"d":"0.123456 stays","e":[1.005e-3,12.3456,1e21]}`,
			`{"a":0.71,"b":3,"c":0,"d":"0.123456 stays","e":[0,12.35,1e21]}`},
		{`{"s":"a \"0.1234\" \\","n":-2.5,"k":100}`, `{"s":"a \"0.1234\" \\","n":-2.5,"k":100}`},
		{`[0.999,0.995,true,null]`, `[1,1,true,null]`},
	} {
		got := string(roundNumbers([]byte(c.in)))
		if got != c.want {
			t.Errorf("roundNumbers(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("roundNumbers(%s) is not JSON: %s", c.in, got)
		}
	}
}
