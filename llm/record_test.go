package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

type memRecorder struct{ rows []Invocation }

func (m *memRecorder) Record(ctx context.Context, inv Invocation) error {
	m.rows = append(m.rows, inv)
	return nil
}

func TestRecordingSuccess(t *testing.T) {
	srv := newFakeServer(t, jsonReply(500, `{}`), jsonReply(200, langbaseOK))
	rec := &memRecorder{}
	p := Recording(newTestLangbase(testConfig(srv.URL)), rec, "reasoning.linear", "sess-1")
	req := Request{Messages: []Message{{Role: RoleUser, Content: "why?"}}, Pipe: "linear-reasoning-v1", ThreadID: "sess-1"}
	if _, err := p.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(rec.rows) != 1 {
		t.Fatalf("%d rows, want 1 for a call with a retry", len(rec.rows))
	}
	r := rec.rows[0]
	if r.ID == "" || r.SessionID != "sess-1" || r.ToolName != "reasoning.linear" || r.Provider != "langbase" ||
		r.PipeName != "linear-reasoning-v1" || r.Model != "gpt-4o-mini" || !r.Success || r.Error != "" ||
		r.PromptTokens != 12 || r.CompletionTokens != 7 || r.TotalTokens != 19 || r.CreatedAt.IsZero() || r.LatencyMS < 0 {
		t.Errorf("row = %+v", r)
	}
	var in Request
	if err := json.Unmarshal(r.Input, &in); err != nil || in.Messages[0].Content != "why?" || in.Pipe != "linear-reasoning-v1" {
		t.Errorf("input %s: %v", r.Input, err)
	}
	var out struct {
		Content  string `json:"content"`
		Attempts int    `json:"attempts"`
	}
	if err := json.Unmarshal(r.Output, &out); err != nil || !strings.Contains(out.Content, "SQL fits") || out.Attempts != 2 {
		t.Errorf("output %s: %v", r.Output, err)
	}
	if strings.Contains(string(r.Input)+string(r.Output), testKey) {
		t.Error("key in row")
	}
}

func TestRecordingFailure(t *testing.T) {
	srv := newFakeServer(t, jsonReply(401, `{"error":{"message":"bad key `+testKey+`"}}`))
	rec := &memRecorder{}
	p := Recording(newTestOpenAI(testConfig(srv.URL)), rec, "confer", "")
	if _, err := p.Complete(context.Background(), Request{Model: "gpt-x", Messages: []Message{{Role: RoleUser, Content: "q"}}}); err == nil {
		t.Fatal("want error")
	}
	if len(rec.rows) != 1 {
		t.Fatalf("%d rows", len(rec.rows))
	}
	r := rec.rows[0]
	if r.Success || !strings.HasPrefix(r.Error, "ApiError: openai API error 401") || r.Output != nil || r.Model != "gpt-x" || r.Provider != "openai" || r.PipeName != "" {
		t.Errorf("row = %+v", r)
	}
	if strings.Contains(r.Error, testKey) {
		t.Errorf("key in error: %s", r.Error)
	}
}

func TestRecordingCancelledStillRecorded(t *testing.T) {
	rec := RecorderFunc(func(ctx context.Context, inv Invocation) error {
		if ctx.Err() != nil {
			t.Error("recorder got a cancelled context")
		}
		if inv.Success {
			t.Error("cancelled call recorded as success")
		}
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	p := Recording(ProviderFunc("x", func(ctx context.Context, req Request) (Response, error) {
		cancel()
		return Response{}, ctx.Err()
	}), rec, "t", "s")
	if _, err := p.Complete(ctx, Request{}); err == nil {
		t.Fatal("want error")
	}
}

func TestRecordingDefaultPipeOnFailure(t *testing.T) {
	srv := newFakeServer(t, jsonReply(404, `{"error":{"message":"Pipe not found"}}`))
	rec := &memRecorder{}
	cfg := testConfig(srv.URL)
	cfg.Langbase.Pipes.Linear = "lin-x"
	p, err := New(cfg, ProviderLangbase, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Recording(p, rec, "reasoning.linear", "s").Complete(context.Background(), Request{}); err == nil {
		t.Fatal("want error")
	}
	if r := rec.rows[0]; r.PipeName != "lin-x" || r.Success || !strings.Contains(r.Error, "Pipe not found") {
		t.Errorf("row = %+v", r)
	}
}

func BenchmarkWrapperOverhead(b *testing.B) {
	inner := ProviderFunc("nop", func(ctx context.Context, req Request) (Response, error) {
		return Response{Content: "x"}, nil
	})
	rec := RecorderFunc(func(context.Context, Invocation) error { return nil })
	p := Recording(WithRetry(inner, DefaultConfig().retryPolicy()), rec, "t", "s")
	req := Request{Messages: []Message{{Role: RoleUser, Content: "hello"}}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Complete(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelect(b *testing.B) {
	cfg := DefaultConfig()
	cfg.OpenAI.APIKey = "k"
	for b.Loop() {
		if _, err := Select(cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
}
