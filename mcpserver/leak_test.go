package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// A server that served calls and was shut down leaves no goroutine behind.
func TestNoGoroutineLeakOnShutdown(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "leak.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	emb, _ := semantic.NewLexical(semantic.LexicalOptions{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Warm: true}); err != nil {
		t.Fatal(err)
	}
	srv := New(svc, Options{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "leak", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		mustCall(t, cs, "think", map[string]any{"thought": "a thought about leaks"})
	}
	mustCall(t, cs, "sequentialthinking", map[string]any{"thought": "s", "thoughtNumber": 1, "totalThoughts": 1, "nextThoughtNeeded": false})
	cs.Close()
	ss.Wait()
	svc.Close()
	store.Close()
}

// A reasoning call cancelled by the client while the model is thinking stops
// the HTTP request to the provider and leaves no goroutine behind.
func TestNoGoroutineLeakOnCancelledLLMCall(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	started := make(chan struct{}, 1)
	aborted := make(chan struct{}, 1)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the body: the server notices a closed connection only then.
		_, _ = io.Copy(io.Discard, r.Body)
		started <- struct{}{}
		select {
		case <-r.Context().Done():
			aborted <- struct{}{}
		case <-time.After(30 * time.Second):
		}
	}))
	defer provider.Close()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "leak.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	cfg := llm.DefaultConfig()
	cfg.Langbase.APIKey, cfg.Langbase.BaseURL = "k", provider.URL
	svc.EnableLLM(cfg, nil)
	srv := New(svc, Options{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "leak", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "reasoning_linear", Arguments: map[string]any{"content": "think slowly"}})
		done <- err
	}()
	<-started
	cancel() // the client sends notifications/cancelled
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
	select {
	case <-aborted:
	case <-time.After(10 * time.Second):
		t.Fatal("the provider request was not cancelled")
	}
	cs.Close()
	ss.Wait()
	svc.Close()
	store.Close()
	provider.CloseClientConnections()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
}
