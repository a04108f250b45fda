package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic/analyze"
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

// A thought's text is quoted by its first reference in a result only; the
// references are found as analyze.ThoughtRef writes them.
func TestQuoteOnce(t *testing.T) {
	a := analyze.Ref(analyze.Doc{ID: "a1", Step: 1, Branch: "main", Content: `She said "no" {"id":"a1"} twice`})
	b := analyze.Ref(analyze.Doc{ID: "b2", Step: 2, Branch: "x \"y\"", Content: "Other"})
	in, err := json.Marshal(map[string]any{"first": []any{a, b}, "later": map[string]any{"again": a, "b": b, "text": `{"step":1,"branchId":"main","content":"x"}`}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(quoteOnce(in))
	want := `{"first":[{"step":1,"branchId":"main","content":"She said \"no\" {\"id\":\"a1\"} twice"},{"step":2,"branchId":"x \"y\"","content":"Other"}],` +
		`"later":{"again":{"step":1,"branchId":"main"},"b":{"step":2,"branchId":"x \"y\""},"text":"{\"step\":1,\"branchId\":\"main\",\"content\":\"x\"}"}}`
	if got != want {
		t.Errorf("quoteOnce\n got %s\nwant %s", got, want)
	}
}
