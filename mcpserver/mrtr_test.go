package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernSampler connects a client on the current protocol (2026-07-28 or
// later) that declares sampling and answers every request with answer(n),
// n counting from 1. The SDK's multi round-trip driver is on unless manual.
func (e *testEnv) modernSampler(manual bool, answer func(n int, p *mcp.CreateMessageWithToolsParams) string) (*mcp.ClientSession, func() []*mcp.CreateMessageWithToolsParams) {
	e.t.Helper()
	var mu sync.Mutex
	var got []*mcp.CreateMessageWithToolsParams
	opts := &mcp.ClientOptions{
		CreateMessageWithToolsHandler: func(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			mu.Lock()
			got = append(got, req.Params)
			n := len(got)
			mu.Unlock()
			return &mcp.CreateMessageWithToolsResult{Model: "client-model", Role: "assistant",
				Content: []mcp.Content{&mcp.TextContent{Text: answer(n, req.Params)}}}, nil
		},
	}
	if manual {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	cs := e.connectWith(opts, "")
	if ip := cs.InitializeResult(); ip == nil || ip.ProtocolVersion < "2026-07-28" {
		e.t.Fatalf("client negotiated %v, want 2026-07-28 or later", ip)
	}
	return cs, func() []*mcp.CreateMessageWithToolsParams {
		mu.Lock()
		defer mu.Unlock()
		return append([]*mcp.CreateMessageWithToolsParams(nil), got...)
	}
}

// A client on protocol 2026-07-28 reaches the model through input_required
// results: the SDK client's driver answers them and retries, and the tool
// stores its input once, its answer once, and one invocation row.
func TestSamplingMultiRoundTrip(t *testing.T) {
	e := newTestEnv(t)
	cs, got := e.modernSampler(false, func(int, *mcp.CreateMessageWithToolsParams) string {
		return `{"thought": "sampled answer", "confidence": 0.7}`
	})
	out := mustCall(t, cs, "reasoning_linear", map[string]any{"content": "hello"})
	if out["content"] != "sampled answer" || out["confidence"] != 0.7 || out["model"] != "client-model" || len(got()) != 1 {
		t.Fatalf("%v (%d sampling requests)", out, len(got()))
	}
	sid := out["session_id"].(string)
	ths := sessionThoughts(t, e, sid)
	if len(ths) != 2 || ths[0].Content != "hello" || ths[1].Content != "sampled answer" {
		t.Fatalf("stored %d thoughts: %+v", len(ths), ths)
	}
	if invs := invocations(t, e, sid); len(invs) != 1 || invs[0].Provider != "sampling" || !invs[0].Success {
		t.Fatalf("%+v", invs)
	}
	if n := e.srv.suspended.len(); n != 0 {
		t.Fatalf("%d suspended calls left", n)
	}

	// A tool that asks the model several times takes one round per call.
	refl := mustCall(t, cs, "reasoning_reflection", map[string]any{"thought_id": out["thought_id"], "session_id": sid, "iterations": 3})
	its := refl["iterations"].([]any)
	if len(its) != 3 || len(got()) != 4 {
		t.Fatalf("%d iterations, %d sampling requests: %v", len(its), len(got()), refl)
	}
	if invs := invocations(t, e, sid); len(invs) != 4 {
		t.Fatalf("%d invocations, want 4", len(invs))
	}
	if n := len(sessionThoughts(t, e, sid)); n != 2+6 {
		t.Fatalf("%d thoughts, want 8", n)
	}

	// The Lux tools take the same path.
	conf := mustCall(t, cs, "confer", map[string]any{"message": "Explain CAP", "session_id": sid})
	if !strings.Contains(fmt.Sprint(conf), "sampled answer") || len(got()) != 5 {
		t.Fatalf("%v (%d sampling requests)", conf, len(got()))
	}
	if e.srv.suspended.len() != 0 {
		t.Fatal("suspended call left")
	}
}

// The rounds by hand: what the server returns, what it accepts, and what it
// refuses, with a client whose multi round-trip driver is off.
func TestSamplingMultiRoundTripByHand(t *testing.T) {
	e := newTestEnv(t)
	cs, got := e.modernSampler(true, func(int, *mcp.CreateMessageWithToolsParams) string { return "unused" })
	ctx := context.Background()
	args := map[string]any{"content": "plan the migration", "session_id": "mrtr"}
	mustCall(t, cs, "think", map[string]any{"thought": "start", "session_id": "mrtr"})

	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "reasoning_linear", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || len(first.InputRequests) != 1 || first.RequestState == "" || len(first.Content) != 0 {
		t.Fatalf("first round: %+v", first)
	}
	var id string
	for k, v := range first.InputRequests {
		id = k
		p, ok := v.(*mcp.CreateMessageWithToolsParams)
		if !ok || len(p.Messages) == 0 || p.MaxTokens <= 0 {
			t.Fatalf("input request %s: %#v", k, v)
		}
		last := p.Messages[len(p.Messages)-1]
		if tc, ok := last.Content[0].(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "plan the migration") {
			t.Fatalf("the request does not carry the input: %#v", last.Content)
		}
	}
	if len(got()) != 0 {
		t.Fatal("the server sent a sampling request during the call")
	}
	// The input is stored before the model answers.
	if ths := sessionThoughts(t, e, "mrtr"); len(ths) != 2 || ths[1].Content != "plan the migration" {
		t.Fatalf("%+v", ths)
	}

	retry := func(state string, a map[string]any, responses mcp.InputResponseMap) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "reasoning_linear", Arguments: a, RequestState: state, InputResponses: responses})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	errText := func(res *mcp.CallToolResult) string {
		t.Helper()
		if !res.IsError || res.NeedsInput() {
			t.Fatalf("want a tool error, got %+v", res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	answer := mcp.InputResponseMap{id: &mcp.CreateMessageWithToolsResult{Model: "m", Role: "assistant",
		Content: []mcp.Content{&mcp.TextContent{Text: `{"thought": "Copy, verify, `}, &mcp.TextContent{Text: `switch.", "confidence": 0.9}`}}}}

	// Other arguments with this state: refused, the call stays suspended.
	if text := errText(retry(first.RequestState, map[string]any{"content": "something else", "session_id": "mrtr"}, answer)); !strings.Contains(text, "requestState") || !strings.Contains(text, "other arguments") {
		t.Fatal(text)
	}
	// A made-up state: refused, saying what to do.
	if text := errText(retry("tg1.forged", args, answer)); !strings.Contains(text, "requestState") || !strings.Contains(text, "again without requestState") {
		t.Fatal(text)
	}
	// No answer: the same request again.
	again := retry(first.RequestState, args, nil)
	if !again.NeedsInput() || again.RequestState != first.RequestState || again.InputRequests[id] == nil {
		t.Fatalf("%+v", again)
	}
	// The answer (two text blocks, joined; arguments in another key order).
	final := retry(first.RequestState, map[string]any{"session_id": "mrtr", "content": "plan the migration"}, answer)
	if final.IsError || final.NeedsInput() {
		t.Fatalf("%+v", final)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(final.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	if out["content"] != "Copy, verify, switch." || out["confidence"] != 0.9 || out["session_id"] != "mrtr" {
		t.Fatal(out)
	}
	// Answered: the state is spent.
	if text := errText(retry(first.RequestState, args, answer)); !strings.Contains(text, "already answered") {
		t.Fatal(text)
	}
	if ths := sessionThoughts(t, e, "mrtr"); len(ths) != 3 {
		t.Fatalf("%d thoughts, want 3 (start, input, answer)", len(ths))
	}
	if e.srv.suspended.len() != 0 {
		t.Fatal("suspended call left")
	}
}

// A suspended call that the client never resumes is cancelled after the
// server's time limit: the input stays, the model call is recorded as
// failed, and nothing is left running.
func TestSamplingMultiRoundTripAbandoned(t *testing.T) {
	e := newTestEnv(t)
	e.srv.suspended.ttl = 50 * time.Millisecond
	cs, _ := e.modernSampler(true, func(int, *mcp.CreateMessageWithToolsParams) string { return "unused" })
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "reasoning_linear", Arguments: map[string]any{"content": "left alone", "session_id": "not an id!"}})
	if err != nil || !res.IsError || res.NeedsInput() {
		t.Fatalf("malformed session id: want a tool error before any model call, got %+v %v", res, err)
	}
	mustCall(t, cs, "think", map[string]any{"thought": "start", "session_id": "gone"})
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "reasoning_linear", Arguments: map[string]any{"content": "left alone", "session_id": "gone"}})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("%+v %v", res, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		invs := invocations(t, e, "gone")
		if len(invs) == 1 && e.srv.suspended.len() == 0 {
			if invs[0].Success || invs[0].Provider != "sampling" || invs[0].Error == "" {
				t.Fatalf("%+v", invs[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned call was not cancelled: %d invocations, %d suspended", len(invs), e.srv.suspended.len())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ths := sessionThoughts(t, e, "gone"); len(ths) != 2 || ths[1].Content != "left alone" {
		t.Fatalf("%+v", ths)
	}
}
