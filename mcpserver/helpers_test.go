package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore"
)

// testEnv is a server on a real SQLite file, reached by real MCP clients over
// the SDK's in-memory transport.
type testEnv struct {
	t     *testing.T
	store *sqlstore.DB
	srv   *Server
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	return newTestEnvConfig(t, reasoning.Config{})
}

func newTestEnvConfig(t *testing.T, cfg reasoning.Config) *testEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return &testEnv{t: t, store: store, srv: New(reasoning.New(store, cfg), Options{Version: "test"})}
}

// connect opens a new client connection (a new MCP session).
func (e *testEnv) connect() *mcp.ClientSession {
	e.t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool and returns its structured result decoded as a map, and
// whether it was a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, bool, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var text string
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	var out map[string]any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return out, res.IsError, text
}

// connectAppsHost opens a connection of a host that declares MCP Apps
// (the graph app's MIME type).
func (e *testEnv) connectAppsHost() *mcp.ClientSession {
	e.t.Helper()
	return e.connectWith(&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		Extensions: map[string]any{uiExtension: map[string]any{"mimeTypes": []string{graphAppMIME}}}}}, "")
}

// mustCall calls a tool that must succeed.
func mustCall(t *testing.T, cs *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	out, isErr, text := call(t, cs, name, args)
	if isErr {
		t.Fatalf("%s(%v): unexpected tool error: %s", name, args, text)
	}
	return out
}

// mustFail calls a tool that must fail with a tool error and returns the text.
func mustFail(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, string) {
	t.Helper()
	out, isErr, text := call(t, cs, name, args)
	if !isErr {
		t.Fatalf("%s(%v): want a tool error, got %v", name, args, out)
	}
	return out, text
}

// newSemanticTestEnv is newTestEnv with the semantic engine enabled on the
// offline lexical embedder.
func newSemanticTestEnv(t testing.TB) *testEnv {
	t.Helper()
	return newSemanticTestEnvConfig(t, reasoning.Config{})
}

// newSemanticTestEnvConfig is newSemanticTestEnv with a service configuration.
func newSemanticTestEnvConfig(t testing.TB, cfg reasoning.Config) *testEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, cfg)
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	tt, _ := t.(*testing.T) // nil for benchmarks, which do not use connect
	return &testEnv{t: tt, store: store, srv: New(svc, Options{Version: "test"})}
}

// refText is text as a thought reference in an analysis result quotes it
// (analyze.ThoughtRef: clipped).
func refText(text string) string { return thinkgraph.Clip(text, analyze.RefClip) }
