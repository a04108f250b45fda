package think

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// BenchmarkThinkWithVector is adding one thought with its vector through
// the service: embedding, the transaction (thought, vector, session) and
// its commit to a real SQLite file, without the MCP layer.
func BenchmarkThinkWithVector(b *testing.B) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "b.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	log := New(svc)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "bench", Explicit: true}
	for i := 0; b.Loop(); i++ {
		if _, err := log.Think(ctx, Input{Session: ref, Thought: "Invalidate the cache when the schema version changes, step " + strconv.Itoa(i)}); err != nil {
			b.Fatal(err)
		}
	}
}
