package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// fakeOpenAI speaks OpenAI's POST /v1/chat/completions: each request gets
// the next scripted reply; requests are kept for inspection.
type fakeOpenAI struct {
	mu       sync.Mutex
	replies  []chatReply
	requests []map[string]any
}

// chatReply is one scripted completion. Logprobs are sent only when the
// request asked for them.
type chatReply struct {
	content  string
	model    string
	usage    *llm.Usage
	logprobs []llm.TokenLogprob
	status   int
}

func (f *fakeOpenAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.requests = append(f.requests, body)
	rep := chatReply{content: "(no scripted reply left)"}
	if len(f.replies) > 0 {
		rep, f.replies = f.replies[0], f.replies[1:]
	}
	f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	if rep.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = w.Write([]byte(`{"error":{"message":"model exploded","type":"invalid_request_error"}}`))
		return
	}
	if rep.model == "" {
		rep.model = "gpt-test-2026"
	}
	choice := map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": rep.content}}
	if lp, _ := body["logprobs"].(bool); lp && rep.logprobs != nil {
		var content []any
		for _, t := range rep.logprobs {
			var top []any
			for _, a := range t.Top {
				top = append(top, map[string]any{"token": a.Token, "logprob": a.Logprob, "bytes": nil})
			}
			content = append(content, map[string]any{"token": t.Token, "logprob": t.Logprob, "bytes": nil, "top_logprobs": top})
		}
		choice["logprobs"] = map[string]any{"content": content, "refusal": nil}
	}
	out := map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": rep.model, "choices": []any{choice}}
	if rep.usage != nil {
		out["usage"] = map[string]any{"prompt_tokens": rep.usage.PromptTokens, "completion_tokens": rep.usage.CompletionTokens, "total_tokens": rep.usage.TotalTokens}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (f *fakeOpenAI) script(rs ...chatReply) {
	f.mu.Lock()
	f.replies = append(f.replies, rs...)
	f.mu.Unlock()
}

func (f *fakeOpenAI) request(i int) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[i]
}

func (f *fakeOpenAI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// messages returns the chat messages of request i as role: content strings.
func (f *fakeOpenAI) messages(i int) []string {
	var out []string
	for _, m := range f.request(i)["messages"].([]any) {
		mm := m.(map[string]any)
		out = append(out, mm["role"].(string)+": "+mm["content"].(string))
	}
	return out
}

// newLuxEnv is a server on SQLite with the semantic engine (the offline
// lexical embedder) and an OpenAI-compatible provider served by fake.
func newLuxEnv(t testing.TB, fake http.Handler) *testEnv {
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
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cfg := llm.DefaultConfig()
	cfg.Provider = llm.ProviderOpenAI
	cfg.OpenAI.APIKey = "sk-test-secret"
	cfg.OpenAI.BaseURL = srv.URL + "/v1"
	cfg.MaxRetries = 0
	cfg.RetryDelay = time.Millisecond
	svc.EnableLLM(cfg, nil)
	tt, _ := t.(*testing.T)
	return &testEnv{t: tt, store: store, srv: New(svc, Options{Version: "test"})}
}

func sessionThoughts(t *testing.T, e *testEnv, sid string) []thinkgraph.Thought {
	t.Helper()
	var out []thinkgraph.Thought
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		var err error
		out, err = tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{SessionID: sid})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConfer(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "CAP: pick two of consistency, availability, partition tolerance.", model: "gpt-4o-2024-08-06", usage: &llm.Usage{PromptTokens: 12, CompletionTokens: 9, TotalTokens: 21}},
		chatReply{content: "Partitions happen, so really C or A during one."}, // no usage reported
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "confer", map[string]any{"message": "Explain the CAP theorem", "model": "gpt-4o", "temperature": 0.5, "max_tokens": "1000"})
	if out["content"] != "CAP: pick two of consistency, availability, partition tolerance." || out["model"] != "gpt-4o-2024-08-06" {
		t.Fatal(out)
	}
	usage := out["usage"].(map[string]any)
	if usage["prompt_tokens"] != 12.0 || usage["completion_tokens"] != 9.0 || usage["total_tokens"] != 21.0 {
		t.Fatal(usage)
	}
	req := fake.request(0)
	if req["model"] != "gpt-4o" || req["temperature"] != 0.5 || req["max_tokens"] != 1000.0 {
		t.Fatalf("request %v", req)
	}
	sid := out["session_id"].(string)

	out = mustCall(t, cs, "confer", map[string]any{"message": "And in practice?", "session_id": sid})
	if out["content"] != "Partitions happen, so really C or A during one." || out["model"] != "gpt-test-2026" || out["usage"] != nil {
		t.Fatal(out)
	}
	// The second request carries the first exchange.
	msgs := fake.messages(1)
	if len(msgs) != 4 || msgs[1] != "user: Explain the CAP theorem" || !strings.HasPrefix(msgs[2], "assistant: CAP: pick two") || msgs[3] != "user: And in practice?" {
		t.Fatalf("history %q", msgs)
	}
	// Messages and answers are in the graph: each answer a child of its message, written by the model.
	ths := sessionThoughts(t, e, sid)
	if len(ths) != 4 || ths[0].Author != "client" || ths[1].Author != "gpt-4o-2024-08-06" || ths[1].ParentID != ths[0].ID ||
		ths[3].ParentID != ths[2].ID || ths[3].ID != out["thought_id"] || ths[1].Confidence != nil {
		t.Fatalf("graph %+v", ths)
	}
	if invs := invocations(t, e, sid); len(invs) != 2 || invs[0].ToolName != "confer" || invs[0].TotalTokens != 21 {
		t.Fatalf("invocations %+v", invs)
	}
}

func TestConferErrors(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"message": "hi", "temperature": 2.5}, "temperature"},
		{map[string]any{"message": "hi", "temperature": -0.1}, "temperature"},
		{map[string]any{"message": ""}, "message"},
		{map[string]any{"message": "hi", "max_tokens": 0}, "max_tokens"},
		{map[string]any{"message": "hi", "session_id": "no-such-session"}, "session_id"},
	} {
		out, text := mustFail(t, cs, "confer", c.args)
		if d, _ := out["details"].(map[string]any); d == nil || d["field"] != c.field {
			t.Errorf("%v: %q %v", c.args, text, out)
		}
	}
	if fake.count() != 0 {
		t.Fatal("the model was called for bad input")
	}
	// A provider failure is the provider's error; the message is kept.
	fake.script(chatReply{status: 400})
	out, text := mustFail(t, cs, "confer", map[string]any{"message": "hello"})
	if out["code"] != "ApiError" || !strings.Contains(text, "model exploded") {
		t.Fatalf("%q %v", text, out)
	}
}
