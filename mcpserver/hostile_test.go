package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

// callRaw calls a tool with raw JSON arguments.
func callRaw(t *testing.T, cs *mcp.ClientSession, name string, raw string) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(raw)})
}

// checkRejected asserts a clean tool error: isError, "Error: " text, and a
// structured error naming a field when it is a validation error.
func checkRejected(t *testing.T, label string, res *mcp.CallToolResult, err error, wantField string) {
	t.Helper()
	if err != nil {
		// The SDK may reject malformed arguments before the tool with a
		// protocol error; that is a clean rejection, unless the connection died.
		if strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "closed") {
			t.Errorf("%s: the connection died: %v", label, err)
		}
		return
	}
	if !res.IsError {
		t.Errorf("%s: accepted: %+v", label, res.StructuredContent)
		return
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.HasPrefix(text, "Error: ") {
		t.Errorf("%s: error text %q", label, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var body struct {
		Code    string `json:"code"`
		Details struct {
			Field string `json:"field"`
		} `json:"details"`
	}
	_ = json.Unmarshal(b, &body)
	if body.Code == "" {
		t.Errorf("%s: no error code in %s", label, b)
	}
	if wantField != "" && body.Details.Field != wantField {
		t.Errorf("%s: field %q, want %q (%s)", label, body.Details.Field, wantField, text)
	}
}

func TestHostileInputs(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	mustCall(t, cs, "think", map[string]any{"thought": "existing", "session_id": "victim"})
	deep := strings.Repeat(`{"a":`, 500) + "1" + strings.Repeat("}", 500)
	huge := strings.Repeat("x", 10<<20)
	hugeArray := "[" + strings.Repeat(`{"thought":"a","confidence":0.5},`, 100000) + `{"thought":"a","confidence":0.5}]`
	cases := []struct {
		label, tool, args, field string
	}{
		{"wrong type thought", "think", `{"thought": ["a"]}`, "thought"},
		{"object as confidence", "think", `{"thought": "a", "confidence": {"v": 1}}`, "confidence"},
		{"bool as number", "sequentialthinking", `{"thought": "a", "thoughtNumber": true, "totalThoughts": 1, "nextThoughtNeeded": true}`, "thoughtNumber"},
		{"number string with junk", "sequentialthinking", `{"thought": "a", "thoughtNumber": "2; DROP TABLE thoughts", "totalThoughts": 1, "nextThoughtNeeded": true}`, "thoughtNumber"},
		{"huge number", "sequentialthinking", `{"thought": "a", "thoughtNumber": 1e300, "totalThoughts": 1, "nextThoughtNeeded": true}`, "thoughtNumber"},
		{"negative index", "select_path", `{"alternatives": [{"thought":"a","confidence":0.5}], "selected_index": -5}`, "selected_index"},
		{"huge array", "select_path", `{"alternatives": ` + hugeArray + `, "selected_index": 0}`, "alternatives"},
		{"deeply nested", "think", `{"thought": ` + deep + `}`, ""},
		{"10 MB thought", "think", `{"thought": "` + huge + `"}`, "thought"},
		{"NUL byte", "think", `{"thought": "a\u0000b"}`, "thought"},
		{"unknown session", "show_current_path", `{"session_id": "does-not-exist"}`, "session_id"},
		{"SQL metacharacters in session id", "think", `{"thought": "a", "session_id": "x'; DROP TABLE sessions; --"}`, "session_id"},
		{"path-like session id", "think", `{"thought": "a", "session_id": "../../etc/passwd"}`, "session_id"},
		{"path-like branch id", "sequentialthinking", `{"thought": "a", "thoughtNumber": 1, "totalThoughts": 1, "nextThoughtNeeded": true, "branchId": "../x"}`, "branchId"},
		{"SQL metacharacters in node id", "select_path", `{"node_id": "' OR 1=1 --", "session_id": "victim"}`, "node_id"},
		{"arguments not an object", "think", `["thought"]`, ""},
		{"unknown field", "backtrack", `{"sesion_id": "victim"}`, "sesion_id"},
		{"very long session id", "think", `{"thought": "a", "session_id": "` + strings.Repeat("s", 500) + `"}`, "session_id"},
	}
	for _, c := range cases {
		res, err := callRaw(t, cs, c.tool, c.args)
		checkRejected(t, c.label, res, err, c.field)
	}
	// SQL metacharacters in content are just text.
	out := mustCall(t, cs, "think", map[string]any{"thought": "Robert'); DROP TABLE thoughts;--", "session_id": "victim"})
	if out["thought"] != "Robert'); DROP TABLE thoughts;--" || out["step"] != float64(2) {
		t.Fatal(out)
	}
	// Invalid UTF-8 is replaced by the JSON layer, never stored raw.
	res, err := callRaw(t, cs, "think", "{\"thought\": \"bad \xff\xfe utf8\", \"session_id\": \"victim\"}")
	if err == nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if !json.Valid(b) || strings.Contains(string(b), "\xff") {
			t.Fatalf("invalid UTF-8 stored: %s", b)
		}
	}
	// JSON nested beyond the SDK decoder's limit (between 500 and 1,000
	// levels) makes the SDK drop that connection; the server and every other
	// connection carry on.
	doomed := e.connect()
	tooDeep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	if res, err := callRaw(t, doomed, "think", `{"thought": `+tooDeep+`}`); err == nil && !res.IsError {
		t.Fatal("5,000-deep JSON accepted")
	}
	if out := mustCall(t, e.connect(), "think", map[string]any{"thought": "still serving"}); out["step"] != float64(1) {
		t.Fatal(out)
	}
	if out := mustCall(t, cs, "show_current_path", map[string]any{"session_id": "victim"}); out["total_nodes"] == float64(0) {
		t.Fatal(out)
	}

	// Nothing above touched the victim session beyond the two valid thoughts.
	err = e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		ths, err := tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{Session: storetest.LocalKey(t, tx, "victim")})
		if len(ths) < 2 || len(ths) > 3 || ths[0].Content != "existing" {
			t.Errorf("victim session: %d thoughts", len(ths))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
