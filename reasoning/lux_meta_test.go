package reasoning

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// luxGetMeta and luxSetMeta must read and write the session metadata exactly
// as sessionMeta and setSessionMeta do.
func TestLuxMetaAgreesWithSessionMeta(t *testing.T) {
	type val struct {
		A int               `json:"a"`
		S string            `json:"s"`
		M map[string]string `json:"m,omitempty"`
	}
	metas := []string{
		``, `null`, `[]`, `"x"`, `{}`, ` { } `, `{"a":1`, `{"a":}`,
		`{"traced_reasoning":{"a":1,"s":"x"}}`,
		`{ "z" : [1, 2, {"x": "a<b>&c"}] , "traced_reasoning" : null, "b": "\u2028 \"q\" } ]" }`,
		`{"traced_reasoning":{"a":1},"traced_reasoning":{"a":2,"s":"dup"}}`,
		`{"k\u00e9y":true,"caf` + "\u00e9" + `":false,"<k>":1.50e3,"traced_reasoning":{"a":3,"m":{"x":"y"}}}`,
		`{"traced_reasoning":"not an object"}`,
		"{\"bad\xff\":1,\"traced_reasoning\":{\"s\":\"\xfe\"}}",
		`{"nested":{"traced_reasoning":{"a":9}},"e":[],"o":{},"n":-0.0}`,
	}
	for _, m := range metas {
		var want, got val
		sess := &thinkgraph.Session{ID: "s", Metadata: json.RawMessage(m)}
		wantOK, wantErr := func() (bool, error) {
			raw, ok := sessionMeta(sess)["traced_reasoning"]
			if !ok || string(raw) == "null" {
				return false, nil
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				return false, err
			}
			return true, nil
		}()
		gotOK, gotErr := luxGetMeta(sess, "traced_reasoning", &got)
		if gotOK != wantOK || (gotErr != nil) != (wantErr != nil) || !equalJSON(t, got, want) {
			t.Errorf("get %q: got %v %v %+v, want %v %v %+v", m, gotOK, gotErr, got, wantOK, wantErr, want)
		}
		if m == "null" {
			continue // setSessionMeta panics on it (a nil map); luxSetMeta writes the key
		}
		for _, v := range []any{val{A: 1, S: "<new> & \u2028"}, nil, []int{1}} {
			a := &thinkgraph.Session{Metadata: json.RawMessage(m)}
			b := &thinkgraph.Session{Metadata: json.RawMessage(m)}
			errA := setSessionMeta(a, "traced_reasoning", v)
			errB := luxSetMeta(b, "traced_reasoning", v)
			if (errA != nil) != (errB != nil) || !bytes.Equal(a.Metadata, b.Metadata) {
				t.Errorf("set %q to %v:\n got  %s %v\n want %s %v", m, v, b.Metadata, errB, a.Metadata, errA)
			}
		}
	}
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
