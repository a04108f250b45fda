package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// circularThoughts returns the contents of the thoughts named by
// detectCircular's circular_support findings.
func circularThoughts(out map[string]any) []string {
	var got []string
	for _, f := range list(out, "circularReasoning") {
		m := f.(map[string]any)
		if m["kind"] != "circular_support" {
			continue
		}
		for _, th := range list(m, "thoughts") {
			if c := th.(map[string]any)["content"].(string); !slices.Contains(got, c) {
				got = append(got, c)
			}
		}
	}
	return got
}

// The circular argument across three analysis thoughts, and a twin
// with independent support, through branch-thinking over MCP.
func TestBranchThinkingDetectCircularArguments(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	circular := []string{
		"We should adopt Bazel because it is the best build tool.",
		"It is the best build tool because big companies adopt it.",
		"They adopt it because we should adopt Bazel.",
	}
	s := btSession{t, cs, "circ"}
	for _, c := range circular {
		s.thought(c, "analysis")
	}
	out := s.cmd("detectCircular", nil)
	if got := circularThoughts(out); !slices.Equal(got, circular) || out["count"] != 1.0 {
		t.Fatalf("circular argument: thoughts %q in %v", got, out)
	}
	f := list(out, "circularReasoning")[0].(map[string]any)
	var markers []string
	for _, l := range list(f, "support") {
		m := l.(map[string]any)
		markers = append(markers, fmt.Sprint(m["kind"], ":", m["marker"]))
	}
	if !slices.Contains(markers, "supports:because") || !slices.Contains(markers, "restates:<nil>") ||
		!strings.Contains(f["reason"].(string), "restatement of itself") {
		t.Fatalf("support links %v: %v", markers, f)
	}

	twin := btSession{t, cs, "twin"}
	for _, c := range []string{
		"We should adopt Bazel because it is the best build tool for our monorepo.",
		"Our clean builds take 40 minutes, and Bazel's remote cache cut them to 6 minutes in a two-week trial.",
		"So we should adopt Bazel.",
	} {
		twin.thought(c, "analysis")
	}
	if out := twin.cmd("detectCircular", nil); out["count"] != 0.0 {
		t.Fatalf("independent support reported as circular: %v", out)
	}
}

// traced_reasoning flags a thought that argues in a circle with the
// detector of detectCircular.
func TestTracedReasoningCircularArgument(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Recursion is a function calling itself on a smaller input."},
		chatReply{content: "Understanding recursion requires understanding recursion."},
		chatReply{content: "To understand recursion, you must understand recursion."},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "What is recursion?", "thought_number": 1, "total_thoughts": 3, "next_thought_needed": true})
	sid := out["session_id"].(string)
	if slices.Contains(interventionTypes(out), "CircularReasoning") {
		t.Fatalf("a definition flagged: %v", out)
	}
	for n := 2; n <= 3; n++ {
		out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": n, "total_thoughts": 3, "next_thought_needed": n < 3, "session_id": sid})
		iv, _ := out["intervention"].(map[string]any)
		if iv == nil || iv["intervention_type"] != "CircularReasoning" || iv["severity"] != "High" ||
			!strings.Contains(iv["description"].(string), fmt.Sprintf("thought %d argues in a circle", n)) {
			t.Fatalf("thought %d: circular thought not flagged: %v", n, out)
		}
	}
}
