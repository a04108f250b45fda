package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

// fakeLangbase speaks Langbase's /v1/pipes/run: each request gets the next
// scripted completion; requests are kept for inspection.
type fakeLangbase struct {
	mu       sync.Mutex
	answers  []string
	status   int // when non-zero, every call fails with it
	requests []map[string]any
	auth     []string
}

func (f *fakeLangbase) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.requests = append(f.requests, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	status := f.status
	var answer string
	if len(f.answers) > 0 {
		answer, f.answers = f.answers[0], f.answers[1:]
	}
	f.mu.Unlock()
	if r.URL.Path != "/v1/pipes/run" {
		http.NotFound(w, r)
		return
	}
	if status != 0 {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"error":{"message":"pipe exploded"}}`))
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"success": true, "completion": answer, "threadId": "thread-1",
		"raw": map[string]any{"model": "openai:gpt-4o-mini", "usage": map[string]any{"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}},
	})
}

func newLLMEnv(t *testing.T, fake http.Handler) (*testEnv, *httptest.Server) {
	t.Helper()
	e := newTestEnv(t)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cfg := llm.DefaultConfig()
	cfg.Langbase.APIKey = "lb-secret-key"
	cfg.Langbase.BaseURL = srv.URL
	cfg.MaxRetries = 1
	cfg.RetryDelay = time.Millisecond
	e.srv.svc.EnableLLM(cfg, nil)
	return e, srv
}

func invocations(t *testing.T, e *testEnv, session string) []thinkgraph.Invocation {
	t.Helper()
	var out []thinkgraph.Invocation
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		var err error
		out, err = tx.Invocations(context.Background(), thinkgraph.InvocationFilter{SessionID: session})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestReasoningLinearThroughLangbase(t *testing.T) {
	fake := &fakeLangbase{answers: []string{
		`{"thought": "SQL gives joins and transactions; NoSQL scales writes horizontally.", "confidence": 0.85, "metadata": {"k": 1}}`,
		`Plain prose answer, not JSON.`,
	}}
	e, _ := newLLMEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "reasoning_linear", map[string]any{"content": "Analyze the trade-offs between SQL and NoSQL databases", "confidence": "0.8"})
	if out["content"] != "SQL gives joins and transactions; NoSQL scales writes horizontally." || out["confidence"] != 0.85 || out["previous_thought"] != nil {
		t.Fatal(out)
	}
	sid := out["session_id"].(string)
	first := out["thought_id"].(string)
	// The request is mcp-langbase-reasoning's pipe request.
	req := fake.requests[0]
	if req["name"] != "linear-reasoning-v1" || req["stream"] != false || req["threadId"] != sid || fake.auth[0] != "Bearer lb-secret-key" {
		t.Fatalf("pipe request %v auth %q", req, fake.auth[0])
	}
	msgs := req["messages"].([]any)
	if msgs[0].(map[string]any)["role"] != "system" || msgs[len(msgs)-1].(map[string]any)["content"] != "Analyze the trade-offs between SQL and NoSQL databases" {
		t.Fatal(msgs)
	}

	out = mustCall(t, cs, "reasoning_linear", map[string]any{"content": "Which fits an event log?", "session_id": sid})
	if out["content"] != "Plain prose answer, not JSON." || out["confidence"] != 0.8 || out["previous_thought"] != first {
		t.Fatal(out)
	}
	// The second request carries the first exchange as history.
	if msgs := fake.requests[1]["messages"].([]any); len(msgs) != 4 {
		t.Fatalf("history: %v", msgs)
	}
	// Both inputs and both answers are in the graph; the answer is a child of its input, written by the model.
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		ths, err := tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{Session: storetest.LocalKey(t, tx, sid)})
		if err != nil {
			return err
		}
		if len(ths) != 4 || ths[1].ParentID != ths[0].ID || ths[1].Author != "openai:gpt-4o-mini" || ths[0].Author != "client" || ths[1].ID != first {
			t.Errorf("graph: %+v", ths)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	invs := invocations(t, e, sid)
	if len(invs) != 2 || invs[0].ToolName != "reasoning.linear" || invs[0].PipeName != "linear-reasoning-v1" || !invs[0].Success ||
		invs[0].TotalTokens != 18 || invs[0].Provider != "langbase" {
		t.Fatalf("invocations: %+v", invs)
	}
	for _, inv := range invs {
		if strings.Contains(string(inv.Input)+string(inv.Output)+inv.Error, "lb-secret-key") {
			t.Fatal("API key in an invocation row")
		}
	}
}

func TestReasoningLinearErrors(t *testing.T) {
	fake := &fakeLangbase{status: 500}
	e, _ := newLLMEnv(t, fake)
	cs := e.connect()
	_, text := mustFail(t, cs, "reasoning_linear", map[string]any{"content": ""})
	if text != "Error: Validation failed: content - Content cannot be empty" {
		t.Fatalf("empty content: %q", text)
	}
	out, text := mustFail(t, cs, "reasoning_linear", map[string]any{"content": "x", "session_id": "not an id!"})
	if d, _ := out["details"].(map[string]any); d["field"] != "session_id" || len(fake.requests) != 0 {
		t.Fatal(text)
	}
	// Provider failure after retries: ApiError with the cause; the input is stored.
	mustCall(t, cs, "think", map[string]any{"thought": "start", "session_id": "kept"})
	out, text = mustFail(t, cs, "reasoning_linear", map[string]any{"content": "keep me", "session_id": "kept"})
	if out["code"] != string(thinkgraph.CodeLangbaseUnavailable) && out["code"] != string(thinkgraph.CodeAPI) {
		t.Fatalf("code %v: %s", out["code"], text)
	}
	if strings.Contains(text, "lb-secret-key") {
		t.Fatal("key leaked")
	}
	// The input is stored, off the current path: the failed call did not
	// move the session.
	if ths := sessionThoughts(t, e, "kept"); len(ths) != 2 || ths[1].Content != "keep me" {
		t.Fatalf("input not stored: %+v", ths)
	}
	path := mustCall(t, cs, "show_current_path", map[string]any{"session_id": "kept"})
	if nodes := path["path"].([]any); nodes[len(nodes)-1].(map[string]any)["thought"] != "start" {
		t.Fatalf("the failed call moved the session: %v", path)
	}
	if invs := invocations(t, e, "kept"); len(invs) != 1 || invs[0].Success || invs[0].Error == "" {
		t.Fatalf("failed invocation row: %+v", invs)
	}
}

func TestReasoningWithoutProvider(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	out, text := mustFail(t, cs, "reasoning_linear", map[string]any{"content": "hello"})
	if out["code"] != string(thinkgraph.CodeProviderNotConfigured) || !strings.Contains(text, "OPENAI_API_KEY") || !strings.Contains(text, "LANGBASE_API_KEY") {
		t.Fatalf("%v %s", out, text)
	}
}

// With no provider configured, a client that offers sampling answers with its own model.
func TestReasoningThroughSampling(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []*mcp.CreateMessageParams
	client := mcp.NewClient(&mcp.Implementation{Name: "sampler", Version: "1"}, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			got = append(got, req.Params)
			return &mcp.CreateMessageResult{Model: "client-model", Role: "assistant",
				Content: &mcp.TextContent{Text: `{"thought": "sampled answer", "confidence": 0.7}`}}, nil
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	out := mustCall(t, cs, "reasoning_linear", map[string]any{"content": "hello"})
	if out["content"] != "sampled answer" || out["confidence"] != 0.7 || len(got) != 1 {
		t.Fatalf("%v (%d sampling requests)", out, len(got))
	}
	if invs := invocations(t, e, out["session_id"].(string)); len(invs) != 1 || invs[0].Provider != "sampling" {
		t.Fatalf("%+v", invs)
	}

}

func TestReasoningTreeDivergentReflection(t *testing.T) {
	fake := &fakeLangbase{answers: []string{
		"Here you go:\n```json\n" + `{"branches": [{"thought": "Shard by tenant", "confidence": 0.7, "rationale": "isolation"}, {"thought": "Read replicas", "confidence": 0.6}, {"thought": "Cache hot rows", "confidence": 0.9}], "recommended": 2}` + "\n```",
		`{"perspectives": [{"perspective": "ops", "thought": "Fewer moving parts", "confidence": 0.8}, {"perspective": "finance", "thought": "Cheaper at small scale"}], "synthesis": "Start simple."}`,
		`{"critique": "Ignores failure modes.", "improved_thought": "Start simple, plan failover.", "confidence": 0.75}`,
		`{"critique": "Failover needs testing.", "improved_thought": "Start simple, plan and test failover.", "confidence": 0.85}`,
	}}
	e, _ := newLLMEnv(t, fake)
	cs := e.connect()
	tree := mustCall(t, cs, "reasoning_tree", map[string]any{"content": "How do we scale the database?", "num_branches": "3"})
	branches := tree["branches"].([]any)
	if len(branches) != 3 || tree["structured"] != true || tree["recommended_branch"] != branches[2].(map[string]any)["branch_id"] {
		t.Fatal(tree)
	}
	if fake.requests[0]["name"] != "tree-reasoning-v1" {
		t.Fatalf("tree pipe: %v", fake.requests[0]["name"])
	}
	sid := tree["session_id"].(string)
	un := mustCall(t, cs, "get_unexplored_branches", map[string]any{"session_id": sid})
	if len(un["unexplored"].([]any)) != 0 {
		// the input is not a branch point: tree branches are graph branches, not select_path alternatives
		t.Logf("unexplored: %v", un)
	}

	div := mustCall(t, cs, "reasoning_divergent", map[string]any{"content": "Managed or self-hosted?", "session_id": sid, "num_perspectives": 2})
	ps := div["perspectives"].([]any)
	if len(ps) != 2 || ps[0].(map[string]any)["label"] != "ops" || div["synthesis"].(map[string]any)["content"] != "Start simple." {
		t.Fatal(div)
	}
	ref := mustCall(t, cs, "reasoning_reflection", map[string]any{"thought_id": div["synthesis"].(map[string]any)["thought_id"], "session_id": sid, "iterations": 2})
	its := ref["iterations"].([]any)
	if len(its) != 2 || ref["final_content"] != "Start simple, plan and test failover." || its[0].(map[string]any)["critique"] != "Ignores failure modes." {
		t.Fatal(ref)
	}
	// The improved thoughts are revisions, each of the one before.
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		final, err := tx.Thought(context.Background(), storetest.LocalKey(t, tx, sid), ref["final_thought_id"].(string))
		if err != nil {
			return err
		}
		if final.RevisesID != its[0].(map[string]any)["thought_id"] {
			t.Errorf("final revises %s", final.RevisesID)
		}
		bs, err := tx.Branches(context.Background(), storetest.LocalKey(t, tx, sid))
		if len(bs) != 4 { // main + 3 tree branches
			t.Errorf("%d branches", len(bs))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		text string
	}{
		{"reasoning_tree", map[string]any{"content": "x", "num_branches": 5}, "'num_branches' must be from 2 to 4"},
		{"reasoning_divergent", map[string]any{"content": "x", "num_perspectives": 1}, "'num_perspectives' must be from 2 to 5"},
		{"reasoning_reflection", map[string]any{"content": "x", "iterations": 4}, "'iterations' must be from 1 to 3"},
		{"reasoning_reflection", map[string]any{"thought_id": "missing", "session_id": sid}, "no thought"},
		{"reasoning_reflection", map[string]any{"thought_id": "a", "content": "b"}, "not both"},
	} {
		if _, text := mustFail(t, cs, c.tool, c.args); !strings.Contains(text, c.text) {
			t.Errorf("%s %v: %s", c.tool, c.args, text)
		}
	}
}
