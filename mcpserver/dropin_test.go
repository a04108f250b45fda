package mcpserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
)

// A session_id the server has not seen starts a session under that id for
// the Lux tools (as lux-mcp does) and the reasoning tools (as
// mcp-langbase-reasoning 0.1 does); Lux MCP's model aliases reach the
// provider as model names.
func TestLLMToolsStartASessionUnderAnUnseenID(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	calls := []struct {
		tool  string
		args  map[string]any
		model string // the model the provider must be asked for
	}{
		{"confer", map[string]any{"message": "Explain CAP", "model": "opus", "session_id": "lux-confer"}, "anthropic/claude-4.1-opus"},
		{"traced_reasoning", map[string]any{"thought": "Why is the sky blue?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true,
			"model": "mini", "session_id": "lux-traced"}, "gpt-4o-mini"},
		{"planner", map[string]any{"step": "Plan a move", "step_number": 1, "total_steps": 2, "next_step_required": true,
			"model": "gpt4", "continuation_id": "lux-plan"}, "gpt-4"},
		{"biased_reasoning", map[string]any{"query": "Should we rewrite it in Rust?", "primary_model": "4omini", "session_id": "lux-biased"}, "gpt-4o-mini"},
		{"reasoning_linear", map[string]any{"content": "Weigh SQL against NoSQL", "session_id": "langbase-linear"}, ""},
	}
	for _, c := range calls {
		fake.script(chatReply{content: `{"thought": "A step.", "confidence": 0.7}`})
		before := fake.count()
		out := mustCall(t, cs, c.tool, c.args)
		want, _ := c.args["session_id"].(string)
		if want == "" {
			want = c.args["continuation_id"].(string)
		}
		if out["session_id"] != want {
			t.Errorf("%s: session_id %v, want %q", c.tool, out["session_id"], want)
		}
		if c.tool == "biased_reasoning" {
			// Its first call records the query; the next one calls the model.
			mustCall(t, cs, c.tool, map[string]any{"session_id": want})
		}
		if n := len(sessionThoughts(t, e, want)); n < 2 {
			t.Errorf("%s: %d thoughts in the new session", c.tool, n)
		}
		if fake.count() != before+1 {
			t.Fatalf("%s: %d model calls", c.tool, fake.count()-before)
		}
		if c.model != "" && fake.request(before)["model"] != c.model {
			t.Errorf("%s: model %v sent to the provider, want %q", c.tool, fake.request(before)["model"], c.model)
		}
	}
	// A malformed id is still refused, before the model is called.
	n := fake.count()
	out, text := mustFail(t, cs, "confer", map[string]any{"message": "hi", "session_id": "not an id!"})
	if d, _ := out["details"].(map[string]any); d["field"] != "session_id" || fake.count() != n {
		t.Fatalf("malformed id: %s", text)
	}
}

// next_thought_needed false concludes a traced run, and an intervention
// raised on that last step is still reported.
func TestTracedReasoningConcludesWithAnOpenIntervention(t *testing.T) {
	fake := &fakeOpenAI{}
	fake.script(
		chatReply{content: "Sourdough rises because wild yeast ferments the flour's sugars into carbon dioxide."},
		chatReply{content: "Quarterly tax filings are due in April for most freelancers."},
	)
	e := newLuxEnv(t, fake)
	cs := e.connect()
	out := mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "Why does sourdough rise?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true})
	sid := out["session_id"].(string)
	out = mustCall(t, cs, "traced_reasoning", map[string]any{"thought": "", "thought_number": 2, "total_thoughts": 2, "next_thought_needed": false,
		"session_id": sid, "guardrails": map[string]any{"semantic_drift_threshold": 0.9}})
	if out["status"] != "conclusion_reached" || out["reasoning_complete"] != true || out["final_answer"] != out["thought_content"] || out["final_answer"] == "" {
		t.Fatalf("not concluded: %v", out)
	}
	if iv, _ := out["intervention"].(map[string]any); iv == nil || iv["intervention_type"] != "SemanticDrift" {
		t.Fatalf("the last step's intervention is not reported: %v", out)
	}
}

// A failing LLM tool does not move the session: what the client sent is
// stored, but off the current path, so the next think continues from where
// the session was; and biased_reasoning without a model refuses its first
// call instead of answering as the client.
func TestFailedLLMCallDoesNotMoveTheSession(t *testing.T) {
	t.Run("no provider", func(t *testing.T) {
		e := newTestEnv(t)
		cs := e.connect()
		out, text := mustFail(t, cs, "biased_reasoning", map[string]any{"query": "Is remote work better?", "session_id": "np"})
		if out["code"] != string(thinkgraph.CodeProviderNotConfigured) {
			t.Fatalf("%v %s", out, text)
		}
		// Nothing stored: not even the session.
		err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
			_, err := tx.Session(context.Background(), thinkgraph.LocalTenant, "np")
			return err
		})
		if !errors.Is(err, thinkgraph.ErrNotFound) {
			t.Fatalf("session np: %v, want it not stored", err)
		}
	})
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	fail := chatReply{status: 400}
	// A biased analysis whose first model step succeeds, for guidance.
	mustCall(t, cs, "biased_reasoning", map[string]any{"query": "Should the bakery open on Sundays?", "session_id": "biased"})
	fake.script(chatReply{content: "Sunday trade looks profitable because the best bakeries open then."})
	mustCall(t, cs, "biased_reasoning", map[string]any{"session_id": "biased"})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"confer", map[string]any{"message": "What does a Sunday shift cost?", "session_id": "confer"}},
		{"biased_reasoning", map[string]any{"query": "Count the staff costs too.", "session_id": "biased"}},
		{"traced_reasoning", map[string]any{"thought": "Is the lease fair?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true, "session_id": "traced"}},
		{"planner", map[string]any{"step": "Plan the renovation", "step_number": 1, "total_steps": 2, "next_step_required": true, "session_id": "planner"}},
		{"reasoning_linear", map[string]any{"content": "Weigh renting against buying", "session_id": "linear"}},
	} {
		sid := c.args["session_id"].(string)
		before := mustCall(t, cs, "think", map[string]any{"thought": "Where we are.", "session_id": sid})
		fake.script(fail)
		mustFail(t, cs, c.tool, c.args)
		ths := sessionThoughts(t, e, sid)
		last := ths[len(ths)-1]
		if last.Author != "client" || last.Tool == "think" {
			t.Errorf("%s: the input is not stored: %+v", c.tool, last)
		}
		next := mustCall(t, cs, "think", map[string]any{"thought": "Carry on.", "session_id": sid})
		ths = sessionThoughts(t, e, sid)
		if got := ths[len(ths)-1]; got.ID != next["current_node_id"] {
			t.Fatalf("%s: %+v", c.tool, got)
		} else if got.ParentID != before["current_node_id"] {
			t.Errorf("%s: the next think continues %q, want the thought before the failed call %v", c.tool, got.ParentID, before["current_node_id"])
		}
	}
}

// Messages count in the noun's number, and a prompt's missing or malformed
// argument is a JSON-RPC invalid-params error (-32602).
func TestNewUserPaperCuts(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	mustCall(t, cs, "think", map[string]any{"thought": "Bake or buy the bread?", "confidence": 0.3, "session_id": "bread"})
	mustCall(t, cs, "select_path", map[string]any{"session_id": "bread", "selected_index": 0,
		"alternatives": []any{map[string]any{"thought": "Bake it", "confidence": 0.7}, map[string]any{"thought": "Buy it", "confidence": 0.5}}})
	out := mustCall(t, cs, "get_unexplored_branches", map[string]any{"session_id": "bread"})
	if out["message"] != "1 branch point with 1 unexplored alternative." {
		t.Errorf("message %q", out["message"])
	}
	s := btSession{t, cs, "bread"}
	s.thought("Rye bread keeps longer", "observation", "branchId", "rye")
	if f := s.cmd("focus", map[string]any{"branchId": "rye"}); !strings.Contains(f["message"].(string), "(1 thought)") {
		t.Errorf("focus message %q", f["message"])
	}
	ctx := context.Background()
	for _, p := range []*mcp.GetPromptParams{
		{Name: "debate", Arguments: map[string]string{}},
		{Name: "think-step-by-step", Arguments: map[string]string{"problem": "Why is bread chewy?", "steps": "many"}},
		{Name: "review-reasoning", Arguments: map[string]string{"session_id": "nope"}},
	} {
		_, err := cs.GetPrompt(ctx, p)
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || !strings.Contains(we.Message, "prompt "+p.Name) {
			t.Errorf("%s %v: %v", p.Name, p.Arguments, err)
		}
	}
}

// branch-thinking as the Branch Thinking server behaves: an empty branchId
// is refused, a thought may cross-reference its own branch and main may
// build upon a child branch, findSimilar and jumpToRelated answer in its
// shape, and import on the connection's own session goes on with the
// imported session.
func TestBranchThinkingAsTheOriginal(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "peer"}
	first := s.thought("Sourdough needs a lively starter", "observation")
	// Empty branch ids are ValidationErrors, not the active branch.
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": ""}, "ValidationError", "branchId")
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": " "}, "ValidationError", "branchId")
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": "rye", "parentBranchId": ""}, "ValidationError", "parentBranchId")
	s.fail(map[string]any{"command": map[string]any{"type": "history", "branchId": ""}}, "ValidationError", "branchId")
	s.fail(map[string]any{"command": map[string]any{"type": "focus", "data": map[string]any{"branchId": ""}}}, "ValidationError", "branchId")

	// A child branch; a thought referring to its own branch; main building
	// upon the child.
	rye := s.thought("Rye flour ferments faster than wheat", "hypothesis", "branchId", "rye", "parentBranchId", "main")
	own := s.thought("A rye starter also needs more water", "analysis", "branchId", "rye",
		"crossRefs", []map[string]any{{"toBranch": "rye", "type": "builds_upon", "reason": "same starter"}, {"toBranch": "rye", "type": "complementary"}})
	if own["crossRefs"] != float64(2) {
		t.Fatal(own)
	}
	sum := s.thought("So feed a rye starter more often", "synthesis", "branchId", "main",
		"crossRefs", []map[string]any{{"toBranch": "rye", "type": "builds_upon", "reason": "uses what rye found"}})
	if sum["branchId"] != "main" {
		t.Fatal(sum)
	}
	// The reference to its own branch points at the branch's previous
	// thought, not at itself.
	ctx := context.Background()
	err := e.store.View(ctx, func(tx thinkgraph.Tx) error {
		links, err := tx.Links(ctx, "peer")
		if err != nil {
			return err
		}
		for _, l := range links {
			if l.FromThought == own["thoughtId"] && l.ToThought != rye["thoughtId"] {
				t.Errorf("own-branch reference %+v, want to %v", l, rye["thoughtId"])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A builds_upon loop is still refused: rye building upon main, which
	// builds upon rye.
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": "rye", "crossRefs": []map[string]any{{"toBranch": "main", "type": "builds_upon"}}},
		"CircularReferenceError", "crossRefs[0].toBranch")

	// findSimilar: {results: [{thoughtId, content, branchId, similarity, type}], totalFound}.
	sim := s.cmd("findSimilar", map[string]any{"query": "rye starter water", "limit": 2})
	res := list(sim, "results")
	if len(res) != 2 || sim["totalFound"] != float64(2) {
		t.Fatal(sim)
	}
	for _, k := range []string{"thoughtId", "content", "branchId", "similarity", "type"} {
		if _, ok := res[0].(map[string]any)[k]; !ok {
			t.Errorf("findSimilar result lacks %s: %v", k, res[0])
		}
	}
	// jumpToRelated: related [{thoughtId, content, branchId, similarity, relationship}].
	s.thought("Unrelated: the oven needs a pizza stone", "observation", "branchId", "oven", "parentBranchId", "main")
	j := s.cmd("jumpToRelated", map[string]any{"thoughtId": rye["thoughtId"], "limit": 10})
	rel := map[string]string{}
	for _, r := range list(j, "related") {
		m := r.(map[string]any)
		rel[m["thoughtId"].(string)] = m["relationship"].(string)
		if _, ok := m["content"]; !ok {
			t.Errorf("related entry lacks content: %v", m)
		}
	}
	if rel[own["thoughtId"].(string)] != "same-branch" || rel[first["thoughtId"].(string)] != "parent-branch" || len(rel) != 4 {
		t.Errorf("relationships from rye: %v", rel)
	}
	j = s.cmd("jumpToRelated", map[string]any{"thoughtId": first["thoughtId"], "limit": 10})
	for _, r := range list(j, "related") {
		m := r.(map[string]any)
		want := map[string]string{"main": "same-branch", "rye": "child-branch", "oven": "child-branch"}[m["branchId"].(string)]
		if m["relationship"] != want {
			t.Errorf("from main: %v", m)
		}
	}

	// import without session_id: the connection goes on with the imported
	// session; with session_id, its own session stays.
	doc := obj(s.cmd("export", nil), "document")
	cs := e.connect()
	own1 := mustCall(t, cs, bt, map[string]any{"content": "The connection's own first thought", "type": "observation"})
	imp := mustCall(t, cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": doc}})
	newID := imp["session_id"].(string)
	if newID == own1["session_id"] || !strings.Contains(imp["message"].(string), "now go to it") {
		t.Fatal(imp)
	}
	ls := mustCall(t, cs, bt, map[string]any{"command": map[string]any{"type": "list"}})
	if ls["session_id"] != newID || len(list(ls, "branches")) != 3 {
		t.Fatalf("after import: %v", ls)
	}
	if th := mustCall(t, cs, "think", map[string]any{"thought": "Carry on with the imported bread"}); th["session_id"] != newID {
		t.Fatalf("think after import: %v", th)
	}
	imp = mustCall(t, cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": doc}, "session_id": "somewhere"})
	if ls := mustCall(t, cs, bt, map[string]any{"command": map[string]any{"type": "list"}}); ls["session_id"] != newID || imp["session_id"] == newID {
		t.Fatalf("an import with session_id moved the connection: %v", ls)
	}
}

// The observable cases of Branch Thinking's validation suite
// (src/test/unit/branchGraph.validation.test.ts, addThought), as MCP calls.
func TestBranchThinkingOriginalValidationCases(t *testing.T) {
	e := newTestEnv(t)
	s := btSession{t, e.connect(), "validation"}
	s.thought("Start", "analysis", "branchId", "other")
	ref := func(m map[string]any) []map[string]any { return []map[string]any{m} }
	for _, c := range []struct {
		args        map[string]any
		code, field string
	}{
		{map[string]any{}, "ValidationError", "content"}, // null / undefined input
		{map[string]any{"content": "", "type": "analysis"}, "ValidationError", "content"},
		{map[string]any{"content": "   \n\t   ", "type": "analysis"}, "ValidationError", "content"},
		{map[string]any{"content": 123, "type": "analysis"}, "ValidationError", "content"},
		{map[string]any{"content": strings.Repeat("a", 150001), "type": "analysis"}, "ValidationError", "content"},
		{map[string]any{"content": "Test content", "type": "analysis", "branchId": ""}, "ValidationError", "branchId"},
		{map[string]any{"content": "Test content", "type": "analysis", "branchId": "branch@#$%"}, "ValidationError", "branchId"},
		{map[string]any{"content": "Test content", "type": "analysis", "parentBranchId": "non-existent-branch"}, "BranchNotFoundError", "parentBranchId"},
		{map[string]any{"content": "Test content", "type": "analysis", "confidence": 1.5}, "ValidationError", "confidence"},
		{map[string]any{"content": "Test content", "type": "analysis", "confidence": -0.1}, "ValidationError", "confidence"},
		{map[string]any{"content": "Test content", "type": "analysis", "crossRefs": "not-an-array"}, "ValidationError", "crossRefs"},
		{map[string]any{"content": "Test content", "type": "analysis", "crossRefs": ref(map[string]any{"toBranch": "other", "type": "builds_upon", "reason": "Test reason", "strength": 2.0})},
			"ValidationError", "crossRefs[0].strength"},
		{map[string]any{"content": "Test content", "type": "analysis", "crossRefs": ref(map[string]any{"toBranch": "other", "type": "builds_upon", "reason": "", "strength": 0.8})},
			"ValidationError", "crossRefs[0].reason"},
	} {
		out, text := mustFail(t, s.cs, bt, s.args(c.args))
		d, _ := out["details"].(map[string]any)
		if out["code"] != c.code || d["field"] != c.field {
			t.Errorf("%.80v: %v %v (%s)", c.args, out["code"], d["field"], text)
		}
	}
	// should continue working after validation error
	if out := s.thought("Valid after errors", "analysis"); out["thoughtId"] == "" {
		t.Fatal(out)
	}
}
