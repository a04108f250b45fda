package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// circularThoughts returns the steps of the thoughts named by
// detectCircular's circular_support findings.
func circularThoughts(out map[string]any) []float64 {
	var got []float64
	for _, f := range list(out, "circularReasoning") {
		m := f.(map[string]any)
		if m["kind"] != "circular_support" {
			continue
		}
		for _, th := range list(m, "thoughts") {
			if c := th.(map[string]any)["step"].(float64); !slices.Contains(got, c) {
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
	if got := circularThoughts(out); !slices.Equal(got, []float64{1, 2, 3}) || out["count"] != 1.0 {
		t.Fatalf("circular argument: thoughts %v in %v", got, out)
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

	// The second case: the same argument offered again.
	again := btSession{t, cs, "again"}
	again.thought("We should adopt microservices because they scale better.", "analysis")
	again.thought("Microservices scale better, which is why we should adopt microservices.", "analysis")
	out = again.cmd("detectCircular", nil)
	if out["count"] != 1.0 || list(out, "circularReasoning")[0].(map[string]any)["kind"] != "restated_argument" {
		t.Fatalf("restated argument: %v", out)
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

// semanticPath between two thoughts of the seed's example session that share
// no word: the widest path through the session is found.
func TestBranchThinkingSemanticPathSeedExample(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "seed-path"}
	s.cmd("setGoal", map[string]any{"goal": "Design a scalable authentication system"})
	a := s.thought("Breaking down authentication requirements", "analysis", "keyPoints", []string{"security", "scalability", "user-experience"})
	s.thought("OAuth2 with JWT tokens for stateless auth", "hypothesis", "branchId", "oauth-solution", "confidence", 0.8)
	s.thought("JWT tokens enable horizontal scaling", "validation", "branchId", "oauth-solution", "confidence", 0.9)
	s.thought("Session-based auth with Redis", "hypothesis", "branchId", "session-solution")
	c := s.thought("Caching strategies improve performance", "observation")
	path := s.cmd("semanticPath", map[string]any{"fromThoughtId": a["thoughtId"], "toThoughtId": c["thoughtId"]})
	steps := list(path, "steps")
	if path["found"] != true || len(steps) < 2 || path["minSimilarity"] != 0.0 {
		t.Fatalf("seed example: %v", path)
	}
	first, last := obj(steps[0].(map[string]any), "thought"), obj(steps[len(steps)-1].(map[string]any), "thought")
	weakest, _ := path["weakestLink"].(float64)
	if first["step"] != a["step"] || last["step"] != c["step"] || weakest <= 0 || !strings.Contains(path["reason"].(string), "widest path") {
		t.Fatalf("seed example: %v", path)
	}
	for _, st := range steps[1:] {
		if sim := st.(map[string]any)["similarity"].(float64); sim < weakest {
			t.Fatalf("a link of %v below the weakest link %v: %v", sim, weakest, path)
		}
	}
	// A threshold above every link: not connected.
	path = s.cmd("semanticPath", map[string]any{"fromThoughtId": a["thoughtId"], "toThoughtId": c["thoughtId"], "minSimilarity": 0.99})
	if path["found"] != false || !strings.Contains(path["reason"].(string), "not connected") {
		t.Fatalf("threshold 0.99: %v", path)
	}
}
