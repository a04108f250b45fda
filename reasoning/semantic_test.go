package reasoning

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

// flakyEmbedder wraps the lexical embedder; while down, every call fails.
type flakyEmbedder struct {
	*semantic.Lexical
	model string
	down  atomic.Bool
	calls atomic.Int64
}

func (f *flakyEmbedder) Model() string { return f.model }

func (f *flakyEmbedder) Embed(ctx context.Context, texts []string) ([]semantic.Vector, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return nil, errors.New("embedding service unavailable")
	}
	return f.Lexical.Embed(ctx, texts)
}

// writeThought appends text to the session of ref (created if new) with
// its vector, as the think tool does.
func writeThought(ctx context.Context, svc *Service, ref SessionRef, text string) (*thinkgraph.Thought, error) {
	vecs := svc.EmbedForWrite(ctx, text)
	th := &thinkgraph.Thought{Content: text, Tool: "think"}
	err := svc.store.Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := svc.Session(ctx, tx, ref, true, "think")
		if err != nil {
			return err
		}
		return svc.AppendThought(ctx, tx, sess, th, VectorAt(vecs, 0))
	})
	return th, err
}

func newSemanticService(t *testing.T, path string, emb semantic.Embedder) *Service {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := New(store, Config{})
	if err := svc.EnableSemantic(SemanticConfig{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

func storedVectors(t *testing.T, svc *Service, session, model string) int {
	t.Helper()
	var n int
	err := svc.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		vs, err := tx.Vectors(context.Background(), storetest.LocalKey(t, tx, session), model)
		n = len(vs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestVectorsWrittenWithThoughtsAndFilledInLater(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	emb := &flakyEmbedder{Lexical: lex, model: "m1"}
	path := filepath.Join(t.TempDir(), "s.db")
	svc := newSemanticService(t, path, emb)
	ctx := context.Background()
	ref := SessionRef{ID: "sem", Explicit: true}

	for _, text := range []string{"Use PostgreSQL for the store", "Cache query results in Redis"} {
		if _, err := writeThought(ctx, svc, ref, text); err != nil {
			t.Fatal(err)
		}
	}
	if n := storedVectors(t, svc, "sem", "m1"); n != 2 {
		t.Fatalf("%d vectors stored with the thoughts, want 2", n)
	}
	// The embedder goes down: the thought is still stored, without a vector.
	emb.down.Store(true)
	res, err := writeThought(ctx, svc, ref, "Do not use PostgreSQL for the store")
	if err != nil || res.Step != 3 {
		t.Fatalf("write while the embedder is down: %v %+v", err, res)
	}
	if n := storedVectors(t, svc, "sem", "m1"); n != 2 {
		t.Fatalf("%d vectors, want 2", n)
	}
	// Analysing while it is down is a clear SemanticModelError.
	err = svc.store.View(ctx, func(tx thinkgraph.Tx) error {
		_, _, err := svc.Docs(ctx, tx, storetest.LocalKey(t, tx, "sem"))
		return err
	})
	if te := thinkgraph.AsError(err); te.Code != thinkgraph.CodeSemanticModel {
		t.Fatalf("analysis with the embedder down: %v", err)
	}
	// Back up: the missing vector is filled in and persisted.
	emb.down.Store(false)
	var docs []analyze.Doc
	var idx *semantic.Index
	err = svc.store.View(ctx, func(tx thinkgraph.Tx) error {
		docs, idx, err = svc.Docs(ctx, tx, storetest.LocalKey(t, tx, "sem"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 3 || idx.Len() != 3 || docs[2].Vector == nil || docs[2].Content != "Do not use PostgreSQL for the store" {
		t.Fatalf("docs %d, index %d", len(docs), idx.Len())
	}
	svc.Close() // wait for the background write
	if n := storedVectors(t, svc, "sem", "m1"); n != 3 {
		t.Fatalf("%d vectors after filling in, want 3", n)
	}
	// The most similar thought to the negated one is the one it negates.
	hits, err := analyze.Related(idx, docs[2].ID, 1)
	if err != nil || hits[0].ID != docs[0].ID {
		t.Fatalf("related: %v %v", hits, err)
	}

	// Later writes are picked up by the cache without re-reading everything.
	if _, err := writeThought(ctx, svc, ref, "Redis needs memory"); err != nil {
		t.Fatal(err)
	}
	before := emb.calls.Load()
	err = svc.store.View(ctx, func(tx thinkgraph.Tx) error {
		docs, idx, err = svc.Docs(ctx, tx, storetest.LocalKey(t, tx, "sem"))
		return err
	})
	if err != nil || len(docs) != 4 || idx.Len() != 4 {
		t.Fatalf("after a new thought: %d docs %v", len(docs), err)
	}
	if emb.calls.Load() != before {
		t.Fatal("the new thought's vector was embedded again instead of taken from the write")
	}

	// Another process (a new service on the same file) with another model
	// re-indexes every thought under the new model.
	emb2 := &flakyEmbedder{Lexical: lex, model: "m2"}
	svc2 := newSemanticService(t, path, emb2)
	err = svc2.store.View(ctx, func(tx thinkgraph.Tx) error {
		docs, idx, err = svc2.Docs(ctx, tx, storetest.LocalKey(t, tx, "sem"))
		return err
	})
	if err != nil || len(docs) != 4 || idx.Len() != 4 {
		t.Fatalf("re-index: %d %v", len(docs), err)
	}
	svc2.Close()
	if n := storedVectors(t, svc2, "sem", "m2"); n != 4 {
		t.Fatalf("%d m2 vectors, want 4", n)
	}
}
