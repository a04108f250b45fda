package llm

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingPair connects a real MCP server and client in memory; the client
// answers sampling/createMessage with handle. It returns the server session.
func samplingPair(t *testing.T, handle func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)) *mcp.ServerSession {
	t.Helper()
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "thinkgraph-test", Version: "0"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "0"}, &mcp.ClientOptions{
		CreateMessageHandler: handle,
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Server-initiated sampling outside a request needs a protocol before
	// 2026-07-28, which moves it into multi round-trip tool results.
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return ss
}

func TestSamplingThroughMCPClient(t *testing.T) {
	var mu sync.Mutex
	var got *mcp.CreateMessageParams
	ss := samplingPair(t, func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		mu.Lock()
		got = req.Params
		mu.Unlock()
		return &mcp.CreateMessageResult{Model: "client-model-1", Role: "assistant", Content: &mcp.TextContent{Text: "sampled answer"}, StopReason: "endTurn"}, nil
	})
	cfg := DefaultConfig()
	cfg.MaxTokens = 777
	p, err := Select(cfg, ss.CreateMessage)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != ProviderSampling {
		t.Fatalf("selected %s, want sampling", p.Name())
	}
	temp := 0.2
	resp, err := p.Complete(context.Background(), Request{
		Messages:    []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: "q1"}, {Role: RoleAssistant, Content: "a1"}, {Role: RoleUser, Content: "q2"}},
		Model:       "claude-sonnet",
		Temperature: &temp,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "sampled answer" || resp.Model != "client-model-1" || resp.Provider != "sampling" || resp.StopReason != "endTurn" || resp.Usage != nil {
		t.Errorf("resp = %+v", resp)
	}
	mu.Lock()
	defer mu.Unlock()
	if got == nil {
		t.Fatal("client saw no request")
	}
	if got.SystemPrompt != "sys" || got.MaxTokens != 777 || got.Temperature != 0.2 {
		t.Errorf("params = %+v", got)
	}
	if got.ModelPreferences == nil || len(got.ModelPreferences.Hints) != 1 || got.ModelPreferences.Hints[0].Name != "claude-sonnet" {
		t.Errorf("model preferences = %+v", got.ModelPreferences)
	}
	var roles, texts []string
	for _, m := range got.Messages {
		roles = append(roles, string(m.Role))
		tc, ok := m.Content.(*mcp.TextContent)
		if !ok {
			t.Fatalf("content %T", m.Content)
		}
		texts = append(texts, tc.Text)
	}
	if strings.Join(roles, ",") != "user,assistant,user" || strings.Join(texts, ",") != "q1,a1,q2" {
		t.Errorf("messages roles %v texts %v", roles, texts)
	}
}

func TestSamplingClientError(t *testing.T) {
	ss := samplingPair(t, func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return nil, errors.New("user rejected the sampling request")
	})
	calls := 0
	counting := func(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
		calls++
		return ss.CreateMessage(ctx, p)
	}
	p, err := New(DefaultConfig(), ProviderSampling, counting)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}, MaxTokens: 5})
	if err == nil || !strings.Contains(err.Error(), "user rejected") {
		t.Fatalf("err = %v", err)
	}
	if calls != 1 {
		t.Errorf("%d calls, want 1 (client errors are not retried)", calls)
	}
}

func TestSamplingCancellation(t *testing.T) {
	arrived := make(chan struct{})
	handlerDone := make(chan struct{})
	ss := samplingPair(t, func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		close(arrived)
		<-ctx.Done() // the client sees notifications/cancelled
		close(handlerDone)
		return nil, ctx.Err()
	})
	p, err := New(DefaultConfig(), ProviderSampling, ss.CreateMessage)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	_, err = p.Complete(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	select {
	case <-handlerDone:
	case <-time.After(20 * time.Second):
		t.Fatal("client handler was not cancelled")
	}
}

func TestSamplingUnavailable(t *testing.T) {
	if _, err := New(DefaultConfig(), ProviderSampling, nil); err == nil {
		t.Fatal("want error without a sampler")
	}
}
