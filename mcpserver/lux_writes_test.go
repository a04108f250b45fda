package mcpserver

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// TestLuxInvocationsStored: each model call of a Lux tool is recorded once,
// whether the step it wrote is stored (the record goes in with the step) or
// the call failed (the record is stored on its own before the tool answers).
func TestLuxInvocationsStored(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()

	// A failed model call: no step, one failed invocation.
	fake.script(chatReply{status: 500})
	args := map[string]any{"thought": "Why is the API slow?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true}
	mustFail(t, cs, "traced_reasoning", args)
	var sid string
	err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		ss, err := tx.Sessions(context.Background(), thinkgraph.SessionFilter{})
		if len(ss) == 1 {
			sid = ss[0].ID
		}
		return err
	})
	if err != nil || sid == "" {
		t.Fatalf("one session, with the query: %v", err)
	}
	invs := invocations(t, e, sid)
	if len(invs) != 1 || invs[0].Success || invs[0].Error == "" || invs[0].ToolName != "traced_reasoning" {
		t.Fatalf("after a failed model call: %+v", invs)
	}

	// The retry succeeds: its invocation is stored with its step.
	fake.script(chatReply{content: "Start from the slowest endpoint."})
	out := mustCall(t, cs, "traced_reasoning", args)
	if out["session_id"] != sid {
		t.Fatalf("session %v, want %s", out["session_id"], sid)
	}
	invs = invocations(t, e, sid)
	if len(invs) != 2 || !invs[1].Success || invs[1].Model != "gpt-test-2026" || len(invs[1].Input) == 0 || len(invs[1].Output) == 0 {
		t.Fatalf("after a stored step: %+v", invs)
	}
}

// TestLuxInvocationsEveryTool: confer, planner and biased_reasoning record
// one invocation per model call, stored by the time the tool answers.
func TestLuxInvocationsEveryTool(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	fake.script(chatReply{content: "An answer."})
	out := mustCall(t, cs, "confer", map[string]any{"message": "A question?"})
	if invs := invocations(t, e, out["session_id"].(string)); len(invs) != 1 || invs[0].ToolName != "confer" || !invs[0].Success {
		t.Fatalf("confer: %+v", invs)
	}
	fake.script(chatReply{content: "A first step."}, chatReply{status: 500})
	out = mustCall(t, cs, "planner", map[string]any{"step": "Plan a migration", "step_number": 1, "total_steps": 2, "next_step_required": true})
	sid := out["session_id"].(string)
	mustFail(t, cs, "planner", map[string]any{"step_number": 2, "total_steps": 2, "next_step_required": false, "session_id": sid})
	var planner []thinkgraph.Invocation // the connection's session also has confer's
	for _, inv := range invocations(t, e, sid) {
		if inv.ToolName == "planner" {
			planner = append(planner, inv)
		}
	}
	if len(planner) != 2 || !planner[0].Success || planner[1].Success {
		t.Fatalf("planner: %d invocations, want 2 (one failed)", len(planner))
	}
	out = mustCall(t, cs, "biased_reasoning", map[string]any{"query": "Should we shard?", "new_session": true})
	sid = out["session_id"].(string)
	fake.script(chatReply{content: "Sharding helps writes."})
	mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": sid})
	if invs := invocations(t, e, sid); len(invs) != 1 || invs[0].ToolName != "biased_reasoning" || !invs[0].Success {
		t.Fatalf("biased_reasoning: %+v", invs)
	}
}

// TestConferHistoryFromAnotherServer: a conversation continued through
// another server on the same store (another process: none of its texts
// known there) carries the same history as through the first.
func TestConferHistoryFromAnotherServer(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	fake.script(chatReply{content: "First answer."}, chatReply{content: "Second answer."}, chatReply{content: "Third answer."}, chatReply{content: "Fourth answer."})
	out := mustCall(t, cs, "confer", map[string]any{"message": "First question?"})
	sid := out["session_id"].(string)
	mustCall(t, cs, "confer", map[string]any{"message": "Second question?", "session_id": sid})
	mustCall(t, cs, "confer", map[string]any{"message": "Third question?", "session_id": sid})
	// The same store through another service.
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	svc := reasoning.New(e.store, reasoning.Config{})
	svc.EnableLLM(luxConfig(srv.URL), nil)
	e2 := &testEnv{t: t, store: e.store, srv: New(svc, Options{Version: "test"})}
	mustCall(t, e2.connect(), "confer", map[string]any{"message": "Fourth question?", "session_id": sid})
	want := []string{"user: First question?", "assistant: First answer.", "user: Second question?", "assistant: Second answer.",
		"user: Third question?", "assistant: Third answer.", "user: Fourth question?"}
	for i := 1; i <= 3; i++ { // through the first server's texts, then read back from the store
		got := fake.messages(i)
		if n := 2*i + 1; len(got) != n+1 || !strings.HasPrefix(got[0], "system: ") || !slices.Equal(got[1:n], want[:n-1]) || got[n] != want[2*i] {
			t.Fatalf("request %d: %q", i, got)
		}
	}
}
