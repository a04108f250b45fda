package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

func TestThinkCountsStepsPerConnectionSession(t *testing.T) {
	e := newTestEnv(t)
	a, b := e.connect(), e.connect()
	var sessA string
	for i := 1; i <= 3; i++ {
		out := mustCall(t, a, "think", map[string]any{"thought": fmt.Sprintf("thought %d", i)})
		if out["status"] != "success" || out["step"] != float64(i) || out["context_size"] != float64(i) {
			t.Fatalf("call %d: %v", i, out)
		}
		if out["thought"] != fmt.Sprintf("thought %d", i) {
			t.Fatalf("thought not echoed: %v", out)
		}
		if out["requires_alternatives"] != false || out["current_node_id"] == "" {
			t.Fatalf("call %d: %v", i, out)
		}
		if i == 1 {
			sessA = out["session_id"].(string)
		} else if out["session_id"] != sessA {
			t.Fatalf("session changed within one connection: %v vs %s", out["session_id"], sessA)
		}
	}
	// Another connection has its own session, starting at step 1.
	out := mustCall(t, b, "think", map[string]any{"thought": "other"})
	if out["step"] != float64(1) || out["session_id"] == sessA {
		t.Fatalf("second connection: %v", out)
	}
	// ...and can continue the first one by naming it.
	out = mustCall(t, b, "think", map[string]any{"thought": "joining", "session_id": sessA})
	if out["step"] != float64(4) || out["session_id"] != sessA {
		t.Fatalf("explicit session: %v", out)
	}
}

func TestThinkExplicitSessionCreatedOnFirstUse(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	out := mustCall(t, cs, "think", map[string]any{"thought": "a", "session_id": "workflow-123"})
	if out["session_id"] != "workflow-123" || out["step"] != float64(1) {
		t.Fatal(out)
	}
	out = mustCall(t, cs, "think", map[string]any{"thought": "b", "session_id": "workflow-123"})
	if out["step"] != float64(2) {
		t.Fatal(out)
	}
	// The connection's own session is untouched.
	out = mustCall(t, cs, "think", map[string]any{"thought": "c"})
	if out["step"] != float64(1) || out["session_id"] == "workflow-123" {
		t.Fatal(out)
	}
}

func TestThinkConfidenceStatus(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	low := mustCall(t, cs, "think", map[string]any{"thought": "unsure", "confidence": 0.4})
	if low["status"] != "branch" || low["requires_alternatives"] != true {
		t.Fatalf("low confidence: %v", low)
	}
	high := mustCall(t, cs, "think", map[string]any{"thought": "sure", "confidence": "0.9"})
	if high["status"] != "continue" || high["requires_alternatives"] != false || high["confidence"] != 0.9 {
		t.Fatalf("high confidence as string: %v", high)
	}
	edge := mustCall(t, cs, "think", map[string]any{"thought": "edge", "confidence": 0.6})
	if edge["status"] != "continue" {
		t.Fatalf("confidence at the threshold: %v", edge)
	}
	// The graph: low is the root and a branch point, high its child, edge the current node.
	sess := low["session_id"].(string)
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		s, err := tx.Session(context.Background(), thinkgraph.LocalTenant, sess)
		if err != nil {
			return err
		}
		if s.CurrentThoughtID != edge["current_node_id"] {
			t.Errorf("current node %s, want %v", s.CurrentThoughtID, edge["current_node_id"])
		}
		th, err := tx.Thought(context.Background(), s.Key, high["current_node_id"].(string))
		if err != nil {
			return err
		}
		if th.ParentID != low["current_node_id"] || th.BranchPoint {
			t.Errorf("high thought: parent %s branch point %v", th.ParentID, th.BranchPoint)
		}
		root, err := tx.Thought(context.Background(), s.Key, low["current_node_id"].(string))
		if err != nil {
			return err
		}
		if !root.BranchPoint || root.ParentID != "" {
			t.Errorf("low thought: %+v", root)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestThinkErrors(t *testing.T) {
	e := newTestEnvConfig(t, reasoning.Config{MaxThoughtLength: 50})
	cs := e.connect()
	cases := []struct {
		name     string
		args     map[string]any
		wantText string
		field    string
	}{
		{"missing", map[string]any{}, "Error: 'thought' parameter is required", "thought"},
		{"empty", map[string]any{"thought": ""}, "Error: 'thought' parameter is required", "thought"},
		{"blank", map[string]any{"thought": "  \n"}, "Error: 'thought' parameter is required", "thought"},
		{"invisible", map[string]any{"thought": "\u200b\u200d\ufeff"}, "Error: 'thought' parameter is required", "thought"},
		{"null", map[string]any{"thought": nil}, "Error: 'thought' parameter is required", "thought"},
		{"too long", map[string]any{"thought": strings.Repeat("x", 51)}, "the limit is 50 characters", "thought"},
		{"not a string", map[string]any{"thought": 42}, "'thought' must be a string, got a number", "thought"},
		{"confidence above 1", map[string]any{"thought": "x", "confidence": 1.5}, "'confidence' must be a number from 0 to 1", "confidence"},
		{"confidence negative", map[string]any{"thought": "x", "confidence": -0.1}, "'confidence' must be a number from 0 to 1", "confidence"},
		{"confidence not a number", map[string]any{"thought": "x", "confidence": "high"}, "'confidence' must be a number", "confidence"},
		{"unknown field", map[string]any{"thought": "x", "confidance": 0.5}, "unknown field 'confidance'", "confidance"},
		{"bad session id", map[string]any{"thought": "x", "session_id": "../etc/passwd"}, "'session_id' must be", "session_id"},
		{"NUL byte", map[string]any{"thought": "a\x00b"}, "NUL", "thought"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, text := mustFail(t, cs, "think", c.args)
			if c.name == "missing" || c.name == "empty" || c.name == "blank" || c.name == "invisible" || c.name == "null" {
				if text != c.wantText {
					t.Fatalf("text %q, want exactly %q", text, c.wantText)
				}
			} else if !strings.Contains(text, c.wantText) {
				t.Fatalf("text %q does not contain %q", text, c.wantText)
			}
			if out["status"] != "error" || out["code"] != "ValidationError" {
				t.Fatalf("structured error: %v", out)
			}
			if d, _ := out["details"].(map[string]any); d["field"] != c.field {
				t.Fatalf("details %v: want field %q", out["details"], c.field)
			}
		})
	}
	// Nothing was written by the failed calls.
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		ss, err := tx.Sessions(context.Background(), thinkgraph.SessionFilter{})
		if err != nil {
			return err
		}
		if len(ss) != 0 {
			t.Errorf("failed calls wrote %d sessions", len(ss))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestThinkContextWindowSlidesAndClears(t *testing.T) {
	e := newTestEnvConfig(t, reasoning.Config{MaxContextThoughts: 3})
	cs := e.connect()
	var out map[string]any
	for i := 1; i <= 5; i++ {
		out = mustCall(t, cs, "think", map[string]any{"thought": fmt.Sprintf("step %d", i), "session_id": "win"})
	}
	if out["step"] != float64(5) || out["context_size"] != float64(3) {
		t.Fatalf("after 5 thoughts with a window of 3: %v", out)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/win/context"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Contents[0].Text
	if !strings.HasPrefix(text, "Previous thoughts in this session:\n\nStep 3 (") || !strings.Contains(text, "):\nstep 5\n") || strings.Contains(text, "step 2") {
		t.Fatalf("formatted context:\n%s", text)
	}
	if len(res.Contents) != 2 || !strings.Contains(res.Contents[1].Text, `"total_steps": 5`) {
		t.Fatalf("summary: %+v", res.Contents)
	}

	cleared := mustCall(t, cs, "clear_context", map[string]any{"session_id": "win"})
	if cleared["cleared"] != float64(3) || cleared["total_steps"] != float64(5) {
		t.Fatalf("clear: %v", cleared)
	}
	out = mustCall(t, cs, "think", map[string]any{"thought": "after clear", "session_id": "win"})
	if out["step"] != float64(6) || out["context_size"] != float64(1) {
		t.Fatalf("after clear: %v", out)
	}
	// Clearing deleted nothing.
	err = e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		ths, err := tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{Session: storetest.LocalKey(t, tx, "win")})
		if len(ths) != 6 {
			t.Errorf("%d thoughts stored, want 6", len(ths))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/nope/context"}); err == nil {
		t.Fatal("reading an unknown session's context succeeded")
	}
	if _, text := mustFail(t, cs, "clear_context", map[string]any{"session_id": "nope"}); !strings.Contains(text, `session "nope" not found`) {
		t.Fatalf("clear unknown session: %s", text)
	}
}

func TestToolDefinitions(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// name -> read-only, idempotent
	want := map[string][2]bool{
		"think": {false, false}, "clear_context": {false, true}, "select_path": {false, false}, "backtrack": {false, false},
		"show_current_path": {true, true}, "get_unexplored_branches": {true, true}, "sequentialthinking": {false, false},
	}
	seen := map[string]bool{}
	for _, tool := range res.Tools {
		w, ok := want[tool.Name]
		if !ok {
			continue
		}
		seen[tool.Name] = true
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint != w[0] || a.IdempotentHint != w[1] || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s annotations: %+v", tool.Name, a)
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: missing output schema or description", tool.Name)
		}
		props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		if _, ok := props["session_id"]; !ok {
			t.Errorf("%s: no session_id", tool.Name)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("tool %s not listed", name)
		}
	}
}

// think's published maxLength is the configured maximum thought length,
// though its snapshot (testdata/toolsnaps) holds the default's.
func TestThinkSchemaFollowsMaxThoughtLength(t *testing.T) {
	for _, max := range []int{0, 500} {
		s := New(reasoning.New(nil, reasoning.Config{MaxThoughtLength: max}), Options{})
		want := max
		if want == 0 {
			want = reasoning.DefaultConfig().MaxThoughtLength
		}
		for _, tool := range s.tools {
			if tool.Name != "think" {
				continue
			}
			b, _ := json.Marshal(tool.InputSchema)
			var schema struct {
				Properties map[string]struct {
					MaxLength int `json:"maxLength"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(b, &schema); err != nil {
				t.Fatal(err)
			}
			if got := schema.Properties["thought"].MaxLength; got != want {
				t.Errorf("MaxThoughtLength %d: think's thought has maxLength %d, want %d", max, got, want)
			}
		}
	}
}
