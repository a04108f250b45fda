package readable

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// encodedReadable is the JSON of v made readable, and checks that making it
// readable left v as it was.
func encodedReadable(t *testing.T, v any) string {
	t.Helper()
	before, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(Copy(v))
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := json.Marshal(v); string(after) != string(before) {
		t.Errorf("making the result readable changed it:\n before %s\n after  %s", before, after)
	}
	return string(got)
}

// Every number of a result has at most 2 decimals, wherever it is: a
// field, behind a pointer, in a list, an array, a map, an interface, or
// stored JSON; whole numbers, integers and numbers in text are left as
// they are.
func TestNumbersRounded(t *testing.T) {
	type inner struct {
		Score *float64 `json:"score"`
		N     int      `json:"n"`
	}
	type result struct {
		A     float64            `json:"a"`
		B     float64            `json:"b"`
		C     float64            `json:"c"`
		D     string             `json:"d"`
		E     []float64          `json:"e"`
		F     [2]float32         `json:"f"`
		G     map[string]any     `json:"g"`
		H     *inner             `json:"h"`
		I     []inner            `json:"i"`
		Meta  json.RawMessage    `json:"meta"`
		At    time.Time          `json:"at"`
		Skip  float64            `json:"-"`
		ByKey map[string]float64 `json:"byKey"`
	}
	s := 0.12345
	in := &result{A: 0.7123456, B: 3, C: -0.004, D: "0.123456 stays", E: []float64{1.005e-3, 12.3456, 1e21, 1234567890123456.7},
		F: [2]float32{0.999, 2.5}, G: map[string]any{"x": 0.995, "y": []any{0.333, "0.333"}, "z": 7},
		H: &inner{Score: &s, N: 4}, I: []inner{{Score: &s}}, Meta: json.RawMessage(`{"p":0.4567,"q":"0.4567","r":[1e-7,12]}`),
		At: time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC), Skip: 0.123, ByKey: map[string]float64{"b": 0.126, "a": -0.0001}}
	want := `{"a":0.71,"b":3,"c":0,"d":"0.123456 stays","e":[0,12.35,1e+21,1234567890123456.8],"f":[1,2.5],` +
		`"g":{"x":1,"y":[0.33,"0.333"],"z":7},"h":{"score":0.12,"n":4},"i":[{"score":0.12,"n":0}],` +
		`"meta":{"p":0.46,"q":"0.4567","r":[0,12]},"at":"2026-01-02T03:04:05.123456789Z","byKey":{"a":0,"b":0.13}}`
	if got := encodedReadable(t, in); got != want {
		t.Errorf("readable result\n got %s\nwant %s", got, want)
	}
}

// Stored JSON's numbers are rounded in its text; its strings are left as
// they are.
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

// A thought's text is quoted by its first reference in a result only, in
// the order the result is written (map entries by key); a later reference
// names the thought by step and branch. A reference's text inside a string
// is not a reference.
func TestQuoteOnce(t *testing.T) {
	a := analyze.Ref(analyze.Doc{ID: "a1", Step: 1, Branch: "main", Content: `She said "no" {"id":"a1"} twice`})
	b := analyze.Ref(analyze.Doc{ID: "b2", Step: 2, Branch: "x \"y\"", Content: "Other"})
	in := map[string]any{"first": []any{a, b}, "later": map[string]any{"again": a, "b": &b, "text": `{"step":1,"branchId":"main","content":"x"}`}}
	want := `{"first":[{"step":1,"branchId":"main","content":"She said \"no\" {\"id\":\"a1\"} twice"},{"step":2,"branchId":"x \"y\"","content":"Other"}],` +
		`"later":{"again":{"step":1,"branchId":"main"},"b":{"step":2,"branchId":"x \"y\""},"text":"{\"step\":1,\"branchId\":\"main\",\"content\":\"x\"}"}}`
	if got := encodedReadable(t, in); got != want {
		t.Errorf("quote once\n got %s\nwant %s", got, want)
	}

	// In a struct, in field order; a reference without a text quotes
	// nothing.
	type pair struct {
		Empty  analyze.ThoughtRef   `json:"empty"`
		First  *analyze.ThoughtRef  `json:"first"`
		Others []analyze.ThoughtRef `json:"others"`
	}
	bare := b
	bare.Content = ""
	got := encodedReadable(t, pair{Empty: bare, First: &b, Others: []analyze.ThoughtRef{a, b, a}})
	want = `{"empty":{"step":2,"branchId":"x \"y\""},"first":{"step":2,"branchId":"x \"y\"","content":"Other"},` +
		`"others":[{"step":1,"branchId":"main","content":"She said \"no\" {\"id\":\"a1\"} twice"},{"step":2,"branchId":"x \"y\""},{"step":1,"branchId":"main"}]}`
	if got != want {
		t.Errorf("quote once in a struct\n got %s\nwant %s", got, want)
	}
}
