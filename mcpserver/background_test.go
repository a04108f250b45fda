package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// TestToolsInBackground: a server that registers its tools in the
// background lists the same tools, with the same schemas, as one that
// registers them in New, announces the same capabilities, and serves calls.
// The client connects at once, while the registration may still be running.
func TestToolsInBackground(t *testing.T) {
	listed := func(opts Options) (*mcp.InitializeResult, []byte, *mcp.CallToolResult) {
		store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		e := &testEnv{t: t, store: store, srv: New(reasoning.New(store, reasoning.Config{}), opts)}
		cs := e.connectWith(nil, "2025-06-18")
		ctx := context.Background()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(res.Tools)
		if err != nil {
			t.Fatal(err)
		}
		call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": "first", "session_id": "bg"}})
		if err != nil {
			t.Fatal(err)
		}
		return cs.InitializeResult(), raw, call
	}
	initSync, toolsSync, _ := listed(Options{Version: "test"})
	initBg, toolsBg, call := listed(Options{Version: "test", ToolsInBackground: true})
	if len(toolsSync) < 100 || string(toolsBg) != string(toolsSync) {
		t.Fatalf("tools listed differ:\nin New:        %.300s\nin background: %.300s", toolsSync, toolsBg)
	}
	a, _ := json.Marshal(initSync.Capabilities)
	b, _ := json.Marshal(initBg.Capabilities)
	if string(a) != string(b) {
		t.Fatalf("capabilities differ: %s vs %s", a, b)
	}
	if initBg.Capabilities.Tools == nil || initBg.Capabilities.Tools.ListChanged {
		t.Fatalf("tools capability = %+v, want present without listChanged", initBg.Capabilities.Tools)
	}
	if call.IsError {
		t.Fatalf("think failed: %+v", call.Content)
	}
	var out struct {
		Step int `json:"step"`
	}
	raw, _ := json.Marshal(call.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || out.Step != 1 {
		t.Fatalf("think: step %d (%v), want 1: %s", out.Step, err, raw)
	}
}

// TestWaitUntil: until ready is closed, only the handshake and ping pass;
// other requests wait for it, or give up with their context.
func TestWaitUntil(t *testing.T) {
	ready := make(chan struct{})
	var called []string
	h := waitUntil(ready)(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		called = append(called, method)
		return nil, nil
	})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, m := range []string{"initialize", "server/discover", "ping"} {
		if _, err := h(cancelled, m, nil); err != nil {
			t.Fatalf("%s before ready: %v", m, err)
		}
	}
	for _, m := range []string{"tools/list", "tools/call", "notifications/initialized", "resources/read"} {
		if _, err := h(cancelled, m, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s before ready, context cancelled: err %v, want context.Canceled", m, err)
		}
	}
	if len(called) != 3 {
		t.Fatalf("handler called for %v before ready, want only the handshake and ping", called)
	}
	close(ready)
	if _, err := h(cancelled, "tools/list", nil); err != nil || len(called) != 4 {
		t.Fatalf("tools/list after ready (its context cancelled, but nothing to wait for): %v, called %v", err, called)
	}
	if _, err := h(context.Background(), "tools/call", nil); err != nil || called[len(called)-1] != "tools/call" {
		t.Fatalf("tools/call after ready: %v, called %v", err, called)
	}
}
