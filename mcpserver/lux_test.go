package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
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
	e := newSemanticTestEnv(t)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	e.srv.svc.EnableLLM(luxConfig(srv.URL), nil)
	return e
}

// luxConfig is the provider configuration for a fake OpenAI server at url.
func luxConfig(url string) llm.Config {
	cfg := llm.DefaultConfig()
	cfg.Provider = llm.ProviderOpenAI
	cfg.OpenAI.APIKey = "sk-test-secret"
	cfg.OpenAI.BaseURL = url + "/v1"
	cfg.MaxRetries = 0
	cfg.RetryDelay = time.Millisecond
	return cfg
}

func sessionThoughts(t *testing.T, e *testEnv, sid string) []thinkgraph.Thought {
	t.Helper()
	var out []thinkgraph.Thought
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		var err error
		out, err = tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{Session: storetest.LocalKey(t, tx, sid)})
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
		{map[string]any{"message": "hi", "session_id": "no such session!"}, "session_id"},
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

func TestPlannerWithBranchEndsWithSummary(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Choose CRDTs for conflict-free merging of concurrent edits."},
		chatReply{content: `{"step": "Use WebSocket servers behind a load balancer to relay operations.", "open_questions": ["How many editors share one document at peak?", " "]}`},
		chatReply{content: `{"step": "Alternatively adopt operational transformation with one central server per document.", "open_questions": []}`},
		chatReply{content: "Here is the last step:\n```json\n" + `{"step": "Persist snapshots and the operation log in PostgreSQL.", "summary": "An OT server per document relays edits and persists them.", "next_steps": ["Prototype the OT server", "Load test with 100 editors"]}` + "\n```"},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "planner", map[string]any{"step": "Design a real-time collaborative editing system", "step_number": 1, "total_steps": "4", "next_step_required": true, "model": "o3-pro"})
	sid := out["session_id"].(string)
	if out["status"] != "planning" || out["step_number"] != 1.0 || out["total_steps"] != 4.0 || out["next_step_required"] != true ||
		out["step_content"] != "Choose CRDTs for conflict-free merging of concurrent edits." || out["continuation_id"] != sid ||
		out["model_used"] != "gpt-test-2026" || out["planning_complete"] != nil || out["plan_summary"] != nil ||
		out["thinking_required"] != nil || out["required_thinking"] != nil { // a plain-text answer says nothing of open questions
		t.Fatal(out)
	}
	md := out["metadata"].(map[string]any)
	if md["step_history_length"] != 1.0 || len(md["branches"].([]any)) != 0 || md["is_step_revision"] != false || md["branch_id"] != nil {
		t.Fatal(md)
	}
	if fake.request(0)["model"] != "o3-pro-2025-06-10" { // Lux MCP's alias
		t.Fatal(fake.request(0))
	}
	out = mustCall(t, cs, "planner", map[string]any{"step": "", "step_number": 2, "total_steps": 4, "next_step_required": true, "continuation_id": sid})
	if m := fake.messages(1); !strings.Contains(m[1], "Task: Design a real-time collaborative editing system") || !strings.Contains(m[1], "Plan step 1: Choose CRDTs") ||
		!strings.Contains(m[1], `"open_questions"`) {
		t.Fatalf("plan so far not sent: %q", m)
	}
	if out["step_content"] != "Use WebSocket servers behind a load balancer to relay operations." || out["thinking_required"] != true ||
		fmt.Sprint(out["required_thinking"]) != "[How many editors share one document at peak?]" {
		t.Fatal(out)
	}
	out = mustCall(t, cs, "planner", map[string]any{"step": "What if we centralise?", "step_number": 3, "total_steps": 4, "next_step_required": true,
		"is_branch_point": true, "branch_from_step": 1, "branch_id": "ot", "session_id": sid})
	md = out["metadata"].(map[string]any)
	if out["status"] != "branching" || md["branch_id"] != "ot" || md["is_branch_point"] != true || md["branch_from_step"] != 1.0 || md["branches"].([]any)[0] != "ot" ||
		out["thinking_required"] != false || len(out["required_thinking"].([]any)) != 0 {
		t.Fatal(out)
	}
	// The branch starts at step 1: step 2 (on main) is not part of its plan.
	if m := fake.messages(2); strings.Contains(m[1], "WebSocket") || !strings.Contains(m[1], "Input for this step: What if we centralise?") {
		t.Fatalf("branch prompt %q", m)
	}
	out = mustCall(t, cs, "planner", map[string]any{"step": "", "step_number": 4, "total_steps": 4, "next_step_required": false, "branch_id": "ot", "session_id": sid})
	if out["status"] != "complete" || out["planning_complete"] != true || out["step_content"] != "Persist snapshots and the operation log in PostgreSQL." ||
		out["plan_summary"] != "An OT server per document relays edits and persists them." || out["next_steps"] != "Prototype the OT server; Load test with 100 editors" {
		t.Fatal(out)
	}
	snap := out["synthesis_snapshot"].(map[string]any)
	wantPlan := "1. Choose CRDTs for conflict-free merging of concurrent edits.\n3. Alternatively adopt operational transformation with one central server per document.\n4. Persist snapshots and the operation log in PostgreSQL."
	if snap["current_plan"] != wantPlan || snap["ready_for_execution"] != true || snap["confidence_level"] != "medium" ||
		len(snap["key_decisions"].([]any)) != 2 || snap["next_actions"].([]any)[1] != "Load test with 100 editors" {
		t.Fatalf("snapshot %v", snap)
	}
	if md := out["metadata"].(map[string]any); md["step_history_length"] != 4.0 || md["branch_id"] != "ot" {
		t.Fatal(md)
	}
	// The graph: the task by the client, steps by the model, the branch forks from step 1.
	ths := sessionThoughts(t, e, sid)
	if len(ths) != 6 || ths[0].Author != "client" || ths[0].Type != "task" || ths[1].Author != "gpt-test-2026" || ths[1].ParentID != ths[0].ID {
		t.Fatalf("graph %+v", ths)
	}
	if ths[3].Content != "What if we centralise?" || ths[3].BranchID != "ot" || ths[3].ParentID != ths[1].ID || ths[4].ParentID != ths[3].ID || ths[5].ParentID != ths[4].ID || ths[5].BranchID != "ot" {
		t.Fatalf("branch in graph %+v", ths[3:])
	}
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		b, err := tx.Branch(context.Background(), storetest.LocalKey(t, tx, sid), "ot")
		if err == nil && (b.ForkThoughtID != ths[1].ID || b.ParentBranchID != "main") {
			t.Errorf("branch %+v", b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// show_current_path sees the plan.
	path := mustCall(t, cs, "show_current_path", map[string]any{"session_id": sid})
	if b, _ := json.Marshal(path); !strings.Contains(string(b), "Persist snapshots") {
		t.Fatalf("show_current_path %s", b)
	}
}

func TestPlannerErrors(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(chatReply{content: "Step one."})
	e := newLuxEnv(t, fake)
	cs := e.connect()
	base := func(kv ...any) map[string]any {
		m := map[string]any{"step": "Plan a move", "step_number": 1, "total_steps": 3, "next_step_required": true}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	check := func(args map[string]any, field string) {
		t.Helper()
		out, text := mustFail(t, cs, "planner", args)
		if d, _ := out["details"].(map[string]any); d == nil || d["field"] != field {
			t.Errorf("%v: want field %s: %q", args, field, text)
		}
	}
	check(base("step_number", 0), "step_number")
	check(base("temperature", 3), "temperature")
	check(base("step_number", 2), "step_number") // no plan yet
	check(base("session_id", "not an id!"), "session_id")
	delete(base(), "total_steps")
	check(map[string]any{"step": "x", "step_number": 1, "next_step_required": true}, "total_steps")
	out := mustCall(t, cs, "planner", base())
	sid := out["session_id"].(string)
	check(base("step_number", 2, "is_step_revision", true, "revises_step_number", 7, "session_id", sid), "revises_step_number")
	check(base("step_number", 2, "is_branch_point", true, "branch_from_step", 5, "session_id", sid), "branch_from_step")
	if fake.count() != 1 {
		t.Fatalf("model called %d times", fake.count())
	}
}

// lp returns n tokens, each with log-probability lps[i] and two
// alternatives of probabilities 0.9 and 0.1.
func lp(lps ...float64) []llm.TokenLogprob {
	var out []llm.TokenLogprob
	for i, l := range lps {
		out = append(out, llm.TokenLogprob{Token: fmt.Sprintf("t%d", i), Logprob: l,
			Top: []llm.TopLogprob{{Token: "a", Logprob: math.Log(0.9)}, {Token: "b", Logprob: math.Log(0.1)}}})
	}
	return out
}

func interventionTypes(out map[string]any) []string {
	var ts []string
	for _, iv := range out["interventions"].([]any) {
		ts = append(ts, iv.(map[string]any)["intervention_type"].(string))
	}
	return ts
}

func TestTracedReasoningGuardrails(t *testing.T) {
	const query = "How can we optimize slow database queries in a microservices architecture?"
	step1 := "To optimize slow database queries in the microservices, first measure which queries are slow in each service with query logs."
	step2 := "The slow queries come from the orders service: the orders table has an index on the customer id column, so lookups by customer are fast, but reports scan the whole table."
	step4 := "The orders table does not have an index on the customer id column."
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: step1, logprobs: lp(-0.5, -1.0, -1.5), usage: &llm.Usage{PromptTokens: 40, CompletionTokens: 3, TotalTokens: 43}},
		chatReply{content: step2},                           // no log-probabilities
		chatReply{content: step1, logprobs: lp(-0.1, -0.1)}, // repeats thought 1
		chatReply{content: step4, logprobs: lp(-0.2)},       // contradicts thought 2
		chatReply{content: "Reports should read from a replica with their own covering index on order date, and per-service query logs keep finding slow queries.", logprobs: lp(-6, -5)},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	// The offline lexical embedder scores related sentences lower than
	// neural embedders: on-topic thoughts here are at 0.2 to 0.35.
	g := map[string]any{"semantic_drift_threshold": 0.15}
	out := mustCall(t, cs, "traced_reasoning", map[string]any{"guardrails": g, "thought": query, "thought_number": 1, "total_thoughts": 5, "next_thought_needed": true, "model": "o3-pro", "temperature": 0.2})
	sid := out["session_id"].(string)
	if out["status"] != "thinking" || out["thought_number"] != 1.0 || out["total_thoughts"] != 5.0 || out["thought_content"] != step1 ||
		out["thought_type"] != "Initial" || out["continuation_id"] != sid || out["model_used"] != "gpt-test-2026" || out["intervention"] != nil ||
		out["final_answer"] != nil || out["overall_metrics"] != nil {
		t.Fatal(out)
	}
	req := fake.request(0)
	if req["logprobs"] != true || req["top_logprobs"] != 5.0 || req["model"] != "o3-pro-2025-06-10" || req["temperature"] != 0.2 {
		t.Fatalf("request %v", req)
	}
	m := out["metrics"].(map[string]any)
	// perplexity = exp(-(−0.5−1.0−1.5)/3) = e; entropy of (0.9, 0.1) over ln 2.
	wantH := -(0.9*math.Log(0.9) + 0.1*math.Log(0.1)) / math.Ln2
	// Results read rounded to 2 decimals.
	if p, _ := m["perplexity"].(float64); p != math.Round(math.E*100)/100 {
		t.Fatalf("perplexity %v, want e", m["perplexity"])
	}
	if h, _ := m["attention_entropy"].(float64); h != math.Round(wantH*100)/100 {
		t.Fatalf("attention_entropy %v, want %v", m["attention_entropy"], wantH)
	}
	if s, _ := m["semantic_similarity"].(float64); s <= 0.3 || m["consistency_score"] != 1.0 {
		t.Fatalf("metrics %v", m)
	}
	md := out["metadata"].(map[string]any)
	if md["thought_history_length"] != 1.0 || md["interventions_count"] != 0.0 || md["is_revision"] != false || md["revises_thought"] != nil ||
		md["branch_id"] != nil || md["needs_more_thoughts"] != false || md["current_confidence"] != math.Round(100/math.E)/100 {
		t.Fatal(md)
	}
	snap := out["synthesis_snapshot"].(map[string]any)
	if snap["current_understanding"] != step1 || snap["ready_for_conclusion"] != false || snap["confidence_level"] != "low" ||
		snap["next_actions"].([]any)[0] != "Continue with thought 2 of 5" {
		t.Fatal(snap)
	}

	// Thought 2: guidance; the provider gives no log-probabilities.
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "Look at the orders service", "thought_number": 2, "total_thoughts": 5, "next_thought_needed": true, "continuation_id": sid, "guardrails": g})
	m, md = out["metrics"].(map[string]any), out["metadata"].(map[string]any)
	if m["perplexity"] != nil || m["attention_entropy"] != nil || out["status"] != "thinking" {
		t.Fatal(out)
	}
	nm := md["null_metrics"].(map[string]any)
	if !strings.Contains(nm["perplexity"].(string), "returned no token log-probabilities") || !strings.Contains(nm["attention_entropy"].(string), "no attention weights") {
		t.Fatal(nm)
	}
	if msgs := fake.messages(1); !strings.Contains(msgs[1], "Query: "+query) || !strings.Contains(msgs[1], "Thought 1: "+step1) || !strings.Contains(msgs[1], "Guidance for this thought: Look at the orders service") {
		t.Fatalf("prompt %q", msgs)
	}

	// Thought 3: the model repeats thought 1.
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": 3, "total_thoughts": 5, "next_thought_needed": true, "session_id": sid, "guardrails": g})
	iv, _ := out["intervention"].(map[string]any)
	if out["status"] != "intervention_needed" || iv == nil || iv["intervention_type"] != "CircularReasoning" || iv["step"] != 3.0 || iv["severity"] != "High" ||
		!strings.Contains(iv["description"].(string), "restates thought 1") {
		t.Fatalf("circular: %v", out)
	}
	if md := out["metadata"].(map[string]any); md["interventions_count"] != 1.0 {
		t.Fatal(md)
	}

	// Thought 4: the model contradicts thought 2.
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": 4, "total_thoughts": 5, "next_thought_needed": true, "session_id": sid, "guardrails": g})
	if !slices.Contains(interventionTypes(out), "InconsistentLogic") || out["status"] != "intervention_needed" {
		t.Fatalf("contradiction: %v", out)
	}
	if cs, _ := out["metrics"].(map[string]any)["consistency_score"].(float64); cs >= 1 {
		t.Fatalf("consistency_score %v", cs)
	}

	// Thought 5 concludes; perplexity exp(5.5) ≈ 244.7 is above a threshold of 150 (Medium: not above twice it).
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "Conclude", "thought_number": 5, "total_thoughts": 5, "next_thought_needed": false, "session_id": sid,
		"guardrails": map[string]any{"perplexity_threshold": 150, "semantic_drift_threshold": 0.15}})
	if out["thought_type"] != "Conclusion" || out["final_answer"] != out["thought_content"] || out["overall_metrics"] == nil {
		t.Fatal(out)
	}
	if iv, _ := out["intervention"].(map[string]any); iv == nil || iv["intervention_type"] != "HighPerplexity" || iv["severity"] != "Medium" ||
		out["status"] != "conclusion_reached" || out["reasoning_complete"] != true {
		t.Fatalf("perplexity: %v", out)
	}
	om := out["overall_metrics"].(map[string]any)
	if om["thoughts"] != 5.0 || om["interventions_by_type"].(map[string]any)["CircularReasoning"] != 1.0 {
		t.Fatal(om)
	}
	// Every step is in the graph: queries and guidance by the client, thoughts by the model.
	ths := sessionThoughts(t, e, sid)
	var client, model int
	for _, th := range ths {
		if th.Author == "client" {
			client++
		} else if th.Author == "gpt-test-2026" && th.Tool == "traced_reasoning" {
			model++
		}
	}
	if client != 3 || model != 5 {
		t.Fatalf("graph: %d client, %d model thoughts", client, model)
	}
}

func TestTracedReasoningRevisionBranchAndErrors(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Caching is the first lever for read-heavy services."},
		chatReply{status: 400},
		chatReply{content: "Caching helps only when reads repeat; measure the hit rate first."},
		chatReply{content: "Sharding spreads the write load across databases."},
		chatReply{content: "Bake the sourdough bread at 230 degrees for forty minutes."},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "How do we scale reads?", "thought_number": 1, "total_thoughts": 3, "next_thought_needed": true})
	sid := out["session_id"].(string)
	check := func(args map[string]any, field string) {
		t.Helper()
		out, text := mustFail(t, cs, "traced_reasoning", args)
		if d, _ := out["details"].(map[string]any); d == nil || d["field"] != field {
			t.Errorf("%v: want field %s: %q", args, field, text)
		}
	}
	n := fake.count()
	check(map[string]any{"thought": "q", "thought_number": 0, "total_thoughts": 3, "next_thought_needed": true}, "thought_number")
	check(map[string]any{"thought": "q", "thought_number": 1, "total_thoughts": 3, "next_thought_needed": true, "temperature": 2.5}, "temperature")
	check(map[string]any{"thought": "q", "thought_number": 2, "total_thoughts": 3, "next_thought_needed": true, "continuation_id": "unknown-id"}, "thought_number")
	check(map[string]any{"thought": "", "thought_number": 2, "total_thoughts": 3, "next_thought_needed": true, "is_revision": true, "revises_thought": 9, "session_id": sid}, "revises_thought")
	check(map[string]any{"thought": "", "thought_number": 2, "total_thoughts": 3, "next_thought_needed": true, "is_revision": true, "session_id": sid}, "revises_thought")
	check(map[string]any{"thought": "q", "thought_number": 1, "total_thoughts": 3, "next_thought_needed": true, "guardrails": map[string]any{"semantic_drift_treshold": 0.2}}, "guardrails")
	if fake.count() != n {
		t.Fatal("the model was called for bad input")
	}
	// A provider failure is the provider's error; the guidance is kept and
	// reused by the retry.
	revise := map[string]any{"thought": "Is caching always right?", "thought_number": 2, "total_thoughts": 3, "next_thought_needed": true, "is_revision": true, "revises_thought": 1, "session_id": sid}
	if out, _ := mustFail(t, cs, "traced_reasoning", revise); out["code"] != "ApiError" {
		t.Fatal(out)
	}
	out = mustCall(t, cs, "traced_reasoning", revise)
	if md := out["metadata"].(map[string]any); md["is_revision"] != true || md["revises_thought"] != 1.0 || md["thought_history_length"] != 2.0 {
		t.Fatal(md)
	}
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": 3, "total_thoughts": 3, "next_thought_needed": true, "branch_from_thought": 1, "branch_id": "sharding", "session_id": sid})
	if md := out["metadata"].(map[string]any); md["branch_id"] != "sharding" {
		t.Fatal(md)
	}
	// An answer off the topic drifts (default threshold 0.3).
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": 4, "total_thoughts": 4, "next_thought_needed": true, "branch_id": "sharding", "session_id": sid})
	if iv, _ := out["intervention"].(map[string]any); iv == nil || iv["intervention_type"] != "SemanticDrift" || iv["severity"] != "High" || out["status"] != "intervention_needed" {
		t.Fatalf("drift: %v", out)
	}
	ths := sessionThoughts(t, e, sid)[:5]
	// query, step 1, guidance (stored once), revision, branch step
	if len(ths) != 5 || ths[2].Content != "Is caching always right?" || ths[3].RevisesID != ths[1].ID || ths[4].BranchID != "sharding" || ths[4].ParentID != ths[1].ID {
		t.Fatalf("graph %+v", ths)
	}
}

func TestBiasedReasoningCorrectsBias(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Microservices are clearly better: every successful company uses them.", model: "o3-pro-2025"},
		chatReply{content: "Checking the reasoning.\n" + `{"bias_detected": true, "bias_type": "survivorship bias", "severity": "High", "description": "Only successful adopters are considered.", "suggested_correction": "Weigh failed migrations too."}` + "\nThat is all.", model: "o4-mini-2025"},
		chatReply{content: "Counting failed migrations too, microservices pay off only with several independent teams.", model: "o3-pro-2025"},
		chatReply{content: `{"bias_detected": false, "bias_type": "", "severity": "low", "description": "The corrected reasoning weighs both outcomes.", "suggested_correction": ""}`, model: "o4-mini-2025"},
		chatReply{content: "Migrate only if several teams need independent deployments; otherwise keep the monolith.", model: "o3-pro-2025"},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	const query = "Should we migrate from monolith to microservices?"
	out := mustCall(t, cs, "biased_reasoning", map[string]any{"query": query, "max_analysis_rounds": 2, "primary_model": "o3-pro", "verifier_model": "o4-mini"})
	sid := out["session_id"].(string)
	status := func(out map[string]any, want ...float64) {
		t.Helper()
		st := out["session_status"].(map[string]any)
		got := []float64{st["total_steps"].(float64), st["reasoning_rounds"].(float64), st["biases_detected"].(float64), st["corrections_made"].(float64)}
		if !slices.Equal(got, want) {
			t.Fatalf("session_status %v, want %v", st, want)
		}
	}
	if out["step_type"] != "Query" || out["step_number"] != 1.0 || out["content"] != query || out["model_used"] != "client" ||
		out["next_action"] != "ContinueReasoning" || out["bias_detected"] != nil || out["final_synthesis"] != nil || fake.count() != 0 {
		t.Fatal(out)
	}
	status(out, 1, 0, 0, 0)

	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid, "query": query})
	if out["step_type"] != "Reasoning" || out["step_number"] != 2.0 || out["model_used"] != "o3-pro-2025" || out["next_action"] != "BiasCheck" {
		t.Fatal(out)
	}
	if fake.request(0)["model"] != "o3-pro-2025-06-10" { // Lux MCP's alias
		t.Fatal(fake.request(0))
	}

	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	b, _ := out["bias_detected"].(map[string]any)
	if out["step_type"] != "BiasAnalysis" || out["next_action"] != "ContinueReasoning" || b == nil || b["bias_type"] != "survivorship bias" ||
		b["severity"] != "high" || b["description"] != "Only successful adopters are considered." || b["suggested_correction"] != "Weigh failed migrations too." {
		t.Fatal(out)
	}
	if fake.request(1)["model"] != "o4-mini" || !strings.Contains(fake.messages(1)[1], "every successful company uses them") {
		t.Fatal(fake.messages(1))
	}
	status(out, 3, 1, 1, 0)
	if snap := out["synthesis_snapshot"].(map[string]any); snap["confidence_level"] != "low" || snap["ready_for_decision"] != false {
		t.Fatal(snap)
	}

	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "Correction" || out["next_action"] != "BiasCheck" || !strings.HasPrefix(out["content"].(string), "Counting failed migrations") {
		t.Fatal(out)
	}
	if m := fake.messages(2)[1]; !strings.Contains(m, "survivorship bias") || !strings.Contains(m, "Weigh failed migrations too.") {
		t.Fatalf("correction prompt %q", m)
	}
	status(out, 4, 1, 1, 1)

	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "BiasAnalysis" || out["bias_detected"] != nil || out["next_action"] != "Synthesize" {
		t.Fatal(out)
	}
	status(out, 5, 2, 1, 1)
	if snap := out["synthesis_snapshot"].(map[string]any); snap["confidence_level"] != "high" || snap["ready_for_decision"] != true {
		t.Fatal(snap)
	}

	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "Synthesis" || out["next_action"] != "Complete" || out["final_synthesis"] != "Migrate only if several teams need independent deployments; otherwise keep the monolith." ||
		out["session_status"].(map[string]any)["is_complete"] != true {
		t.Fatal(out)
	}
	status(out, 6, 2, 1, 1)

	// A complete session says so.
	_, text := mustFail(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if !strings.Contains(text, "is complete") || !strings.Contains(text, "new_session") {
		t.Fatal(text)
	}
	// The steps are in the graph; the correction revises the reasoning.
	ths := sessionThoughts(t, e, sid)
	if len(ths) != 6 || ths[0].Author != "client" || ths[1].Author != "o3-pro-2025" || ths[2].Author != "o4-mini-2025" || ths[3].RevisesID != ths[1].ID ||
		ths[2].ParentID != ths[1].ID {
		t.Fatalf("graph %+v", ths)
	}
	// The state is in the store: a second server on the same database continues a session.
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"new_session": true, "query": "Is Go a good fit?"})
	sid2 := out["session_id"].(string)
	if sid2 == sid || out["step_type"] != "Query" {
		t.Fatal(out)
	}
	other := &testEnv{t: t, store: e.store, srv: New(reasoning.New(e.store, reasoning.Config{}), Options{Version: "test"})}
	srv2 := httptest.NewServer(fake)
	defer srv2.Close()
	other.srv.svc.EnableLLM(luxConfig(srv2.URL), nil)
	fake.script(chatReply{content: "Go fits network services well."})
	out = mustCall(t, other.connect(), "biased_reasoning", map[string]any{"session_id": sid2})
	if out["step_type"] != "Reasoning" || out["step_number"] != 2.0 {
		t.Fatal(out)
	}
}

// The machine asks for guidance (next_action RequestGuidance) when it cannot
// judge the reasoning itself: a verdict without its JSON, or a high-severity
// bias whose correction the used-up rounds leave unchecked. Guidance given
// then reaches the next model step; none is needed to go on.
func TestBiasedReasoningRequestsGuidance(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Sharding is the only way to scale."},
		chatReply{content: "Hard to say; the argument could be one-sided, but I am not sure."},
		chatReply{content: "Shard only after the read replicas and the cache are exhausted."},
		chatReply{content: "Rewriting everything is required now."},
		chatReply{content: `{"bias_detected": true, "bias_type": "sunk cost", "severity": "critical", "description": "d", "suggested_correction": "c"}`},
		chatReply{content: "Rewrite only the parts that block the roadmap."},
		chatReply{content: "Rewrite the blocking parts first."},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "biased_reasoning", map[string]any{"query": "Should we shard?"})
	sid := out["session_id"].(string)
	mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "BiasAnalysis" || out["bias_detected"] != nil || out["next_action"] != "RequestGuidance" {
		t.Fatal(out)
	}
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid, "query": "Weigh the cost of operating shards."})
	if out["step_type"] != "Synthesis" || out["next_action"] != "Complete" {
		t.Fatal(out)
	}
	if m := fake.messages(2)[1]; !strings.Contains(m, "Guidance from the user:\nWeigh the cost of operating shards.") {
		t.Fatalf("synthesis prompt %q", m)
	}
	if ths := sessionThoughts(t, e, sid); len(ths) != 5 || ths[3].Type != "guidance" {
		t.Fatalf("%+v", ths)
	}

	// One round: the correction of a critical bias is not checked again.
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"query": "Rewrite the app?", "new_session": true, "max_analysis_rounds": 1})
	sid = out["session_id"].(string)
	mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["next_action"] != "ContinueReasoning" || out["bias_detected"].(map[string]any)["severity"] != "high" {
		t.Fatal(out)
	}
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "Correction" || out["next_action"] != "RequestGuidance" {
		t.Fatal(out)
	}
	// Going on without guidance is allowed.
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if out["step_type"] != "Synthesis" || out["next_action"] != "Complete" {
		t.Fatal(out)
	}
}

func TestBiasedReasoningErrors(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{}, "query"},
		{map[string]any{"query": "q", "max_analysis_rounds": 0}, "max_analysis_rounds"},
		{map[string]any{"query": "q", "new_session": true, "session_id": "abc"}, "new_session"},
		{map[string]any{"query": "q", "session_id": "no such!"}, "session_id"},
	} {
		out, text := mustFail(t, cs, "biased_reasoning", c.args)
		if d, _ := out["details"].(map[string]any); d == nil || d["field"] != c.field {
			t.Errorf("%v: want field %s: %q", c.args, c.field, text)
		}
	}
}

func TestTracedReasoningRetryOfFirstThought(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(chatReply{status: 400}, chatReply{content: "Start from the slowest endpoint."})
	e := newLuxEnv(t, fake)
	cs := e.connect()
	args := map[string]any{"thought": "Why is the API slow?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true}
	mustFail(t, cs, "traced_reasoning", args)
	out := mustCall(t, cs, "traced_reasoning", args)
	ths := sessionThoughts(t, e, out["session_id"].(string))
	if len(ths) != 2 || ths[0].Content != "Why is the API slow?" || ths[1].ParentID != ths[0].ID || ths[0].ParentID != "" {
		t.Fatalf("the query is stored once, as a root: %+v", ths)
	}
}
