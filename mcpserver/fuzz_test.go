package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// FuzzToolArguments sends arbitrary argument objects to every tool: the
// server must answer every call (no panic, no hang), and every rejection
// must be a tool error with a code and an "Error: " text.
func FuzzToolArguments(f *testing.F) {
	tools := []string{"think", "clear_context", "select_path", "backtrack", "show_current_path", "get_unexplored_branches", "sequentialthinking"}
	seeds := []string{
		`{"thought": "a"}`, `{"thought": "a", "confidence": "0.5"}`, `{"thought": "", "confidence": 2}`,
		`{"alternatives": [{"thought": "x", "confidence": 0.2}], "selected_index": 0}`, `{"node_id": "n"}`,
		`{"thought": "t", "thoughtNumber": "2", "totalThoughts": 1, "nextThoughtNeeded": "true", "isRevision": true, "revisesThought": 1}`,
		`{"thought": "t", "thoughtNumber": 1, "totalThoughts": 1, "nextThoughtNeeded": false, "branchFromThought": 1, "branchId": "b"}`,
		`{"session_id": "s"}`, `{"session_id": 5}`, `null`, `[]`, `{"thought": {"x": [1, 2, {"y": null}]}}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"), sqlite.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	srv := New(reasoning.New(store, reasoning.Config{}), Options{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer cs.Close()
	f.Fuzz(func(t *testing.T, which uint8, args string) {
		if !json.Valid([]byte(args)) {
			return // the transport only carries JSON
		}
		tool := tools[int(which)%len(tools)]
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			if strings.Contains(err.Error(), "connection closed") || strings.Contains(err.Error(), "EOF") {
				t.Fatalf("%s(%s): the server went away: %v", tool, args, err)
			}
			return // a protocol-level rejection of the arguments
		}
		if res.IsError {
			text := res.Content[0].(*mcp.TextContent).Text
			b, _ := json.Marshal(res.StructuredContent)
			if !strings.HasPrefix(text, "Error: ") || !strings.Contains(string(b), `"code"`) {
				t.Fatalf("%s(%s): unstructured error %q %s", tool, args, text, b)
			}
			if strings.Contains(string(b), `"InternalError"`) {
				t.Fatalf("%s(%s): internal error for bad input: %s", tool, args, text)
			}
		}
	})
}
