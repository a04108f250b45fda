package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// benchClient is a server on a real SQLite file with the offline semantic
// engine, as `thinkgraph serve` runs it, and a client over the in-memory
// transport.
func benchClient(b *testing.B) *mcp.ClientSession {
	b.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	svc := reasoning.New(store, reasoning.Config{})
	emb, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(svc, Options{}).MCP().Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// BenchmarkThink is one think call end to end: decoding, the transaction
// with its vector, and the result.
func BenchmarkThink(b *testing.B) {
	cs := benchClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: map[string]any{
			"thought": fmt.Sprintf("Thought %d: the cache should be invalidated when the schema changes", i), "session_id": "bench"}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkSequentialThinking is one sequentialthinking call end to end.
func BenchmarkSequentialThinking(b *testing.B) {
	cs := benchClient(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sequentialthinking", Arguments: map[string]any{
			"thought": fmt.Sprintf("Step %d of the plan", i), "thoughtNumber": i + 1, "totalThoughts": i + 1, "nextThoughtNeeded": true, "session_id": "bench"}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
