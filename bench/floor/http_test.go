package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %v", name, res.Content)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: text %q: %v", name, text, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var structured map[string]any
	if err := json.Unmarshal(b, &structured); err != nil || !reflect.DeepEqual(structured, out) {
		t.Fatalf("%s: structured content %s differs from text %s", name, b, text)
	}
	return out
}

// TestHTTPFloor drives the HTTP floor as cmd/loadtest does: the four tools
// over stateless streamable HTTP, per session_id.
func TestHTTPFloor(t *testing.T) {
	for _, full := range []bool{false, true} {
		ts := httptest.NewServer(httpHandler(full))
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sid := map[string]any{"session_id": "s1"}
		if p := call(t, cs, "show_current_path", sid); p["total_nodes"] != 0.0 || len(p["path"].([]any)) != 0 {
			t.Errorf("full=%v: empty session's path = %v", full, p)
		}
		if out := call(t, cs, "think", map[string]any{"session_id": "s1", "thought": "a"}); out["step"] != 1.0 || out["current_node_id"] == "" {
			t.Errorf("think = %v", out)
		}
		seq := call(t, cs, "sequentialthinking", map[string]any{"session_id": "s1", "thought": "b", "thoughtNumber": 1, "totalThoughts": 3, "nextThoughtNeeded": true})
		if seq["thoughtNumber"] != 1.0 || seq["totalThoughts"] != 3.0 || seq["thought"] != "b" {
			t.Errorf("sequentialthinking = %v", seq)
		}
		call(t, cs, "think", map[string]any{"session_id": "other", "thought": "x"})
		p := call(t, cs, "show_current_path", sid)
		path := p["path"].([]any)
		if p["current_node_id"] != seq["node_id"] || path[len(path)-1].(map[string]any)["node_id"] != seq["node_id"] {
			t.Errorf("full=%v: path %v does not end at the current node %v", full, p, seq["node_id"])
		}
		want := 1
		if full {
			want = 2
		}
		if len(path) != want || p["total_nodes"] != float64(want) {
			t.Errorf("full=%v: path has %d nodes (total_nodes %v), want %d", full, len(path), p["total_nodes"], want)
		}
		if full && path[0].(map[string]any)["thought"] != "a" {
			t.Errorf("path root = %v, want thought a", path[0])
		}
		if u := call(t, cs, "get_unexplored_branches", sid); len(u["unexplored"].([]any)) != 0 || u["session_id"] != "s1" {
			t.Errorf("get_unexplored_branches = %v", u)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": "no session"}})
		if err != nil || !res.IsError {
			t.Errorf("think without session_id: %v, %v; want a tool error", res, err)
		}
		cs.Close()
		ts.Close()
	}
}
