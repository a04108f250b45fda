package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
)

// What a model reads of a result is held to a budget (docs/contracts.md,
// "Result budgets"): every tool and every branch-thinking command but
// export, on a realistic session of 20 thoughts and on one of 2,000.

// resultSize is what a model may read of a result: the larger of its
// structured content (as JSON) and its text content (clients pass on one
// or the other).
func resultSize(t testing.TB, res *mcp.CallToolResult) int {
	t.Helper()
	structured := 0
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		structured = len(b)
	}
	text := 0
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += len(tc.Text)
		}
	}
	return max(structured, text)
}

// devScenarios are the labelled sessions of the scenario dev set: realistic
// reasoning text on 4–5 branches.
func devScenarios(t testing.TB) []reasoningeval.Scenario {
	t.Helper()
	f, err := os.Open("../reasoningeval/testdata/scenarios/dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := reasoningeval.ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

// writeScenario writes a scenario into session sid over MCP, as a model
// would: setGoal, then every thought with branch-thinking.
func writeScenario(t *testing.T, cs *mcp.ClientSession, sid string, sc reasoningeval.Scenario) {
	t.Helper()
	s := btSession{t, cs, sid}
	s.cmd("setGoal", map[string]any{"goal": sc.Goal})
	for _, th := range sc.Thoughts {
		extra := []any{"branchId", th.Branch}
		if th.Confidence != nil {
			extra = append(extra, "confidence", *th.Confidence)
		}
		s.thought(th.Content, th.Type, extra...)
	}
}

// largeSession imports a session of n thoughts built from the dev
// scenarios' texts (each round of them on its own branches, "main" shared),
// with branch points and unexplored alternatives, cross-references and
// thoughts of every tool, as a long session of a model grows.
func largeSession(t testing.TB, svc *reasoning.Service, id string, n int) *reasoning.ImportReport {
	t.Helper()
	scs := devScenarios(t)
	now := time.Now().UTC()
	doc := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion,
		Session: reasoning.ExchangeSession{ID: id, Goal: scs[0].Goal, ActiveBranch: "main", CreatedAt: now, UpdatedAt: now}}
	branches := map[string]bool{}
	last := map[string]string{}
	tools := []string{"branch-thinking", "think", "sequentialthinking", "branch-thinking"}
	step := 0
	add := func(th reasoning.ExchangeThought) reasoning.ExchangeThought {
		step++
		th.ID, th.Step, th.Author, th.CreatedAt = fmt.Sprintf("t%05d", step), step, "client", now
		if th.Tool == "" {
			th.Tool = tools[step%len(tools)]
		}
		doc.Thoughts = append(doc.Thoughts, th)
		return th
	}
	for round := 0; step < n; round++ {
		for si, sc := range scs {
			for _, st := range sc.Thoughts {
				if step >= n {
					break
				}
				br := st.Branch
				if br != "main" {
					br = fmt.Sprintf("%s-%d", st.Branch, round)
				}
				if !branches[br] {
					branches[br] = true
					parent, fork := "", ""
					if br != "main" {
						parent, fork = "main", last["main"]
					}
					doc.Branches = append(doc.Branches, reasoning.ExchangeBranch{ID: br, State: "active", Priority: 1, ParentBranchID: parent, ForkThoughtID: fork, CreatedAt: now, UpdatedAt: now})
					if last[br] == "" {
						last[br] = fork
					}
				}
				content := st.Content
				if round > 0 {
					content = fmt.Sprintf("Revisiting %s (round %d): %s", sc.Domain, round+1, content)
				}
				th := add(reasoning.ExchangeThought{BranchID: br, ParentID: last[br], Content: content, Type: st.Type, Confidence: st.Confidence})
				last[br] = th.ID
				if step%40 == 0 && step+2 < n {
					// A branch point with two alternatives never followed.
					c := 0.4
					doc.Thoughts[len(doc.Thoughts)-1].Confidence, doc.Thoughts[len(doc.Thoughts)-1].BranchPoint = &c, true
					for k := range 2 {
						ac := 0.5 + 0.1*float64(k)
						add(reasoning.ExchangeThought{BranchID: br, ParentID: th.ID, Content: fmt.Sprintf("Alternative %d to step %d: %s", k+1, th.Step, sc.Thoughts[(k+1)%len(sc.Thoughts)].Content),
							Type: "hypothesis", Confidence: &ac, Alternative: true, Tool: "select_path"})
					}
				}
				if step%25 == 0 && br != "main" {
					doc.Links = append(doc.Links, reasoning.ExchangeLink{ID: fmt.Sprintf("l%d", step), FromBranch: br, ToBranch: "main",
						FromThought: th.ID, ToThought: last["main"], Type: []string{"builds_upon", "contradictory", "complementary", "alternative"}[si%4],
						Reason: "it takes up the main line's latest point", Strength: 0.6, CreatedAt: now})
				}
			}
		}
	}
	doc.Session.StepCount, doc.Session.CurrentThoughtID = step, last["main"]
	rep, err := svc.ImportSession(context.Background(), doc, "")
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// budgetCall is one call whose result is measured.
type budgetCall struct {
	name string // as the budget table names it
	tool string
	args map[string]any
	// replies are the model's answers the call needs (LLM-backed tools).
	replies []chatReply
}

// The budgets of docs/contracts.md ("Result budgets"), in bytes of the
// larger of a result's structured content and its text.
const (
	budgetRealistic = 4 << 10  // a realistic session of 20 thoughts
	budgetLarge     = 16 << 10 // a session of 2,000 thoughts
	budgetAny       = 32 << 10 // any session
)

// budgetExempt are the calls whose results are not held to a budget:
// export returns the whole session, and graph_view's result goes to the
// MCP App, never to the model.
var budgetExempt = []string{"branch-thinking export", "graph_view"}

// budgetCalls are the calls measured on session sid: every tool and every
// branch-thinking command but export. thoughtID and otherID are thoughts of
// the session, pair two of its branches, doc an exported session to import.
func budgetCalls(sid, thoughtID, otherID string, pair []string, doc any) []budgetCall {
	bt := func(typ string, data map[string]any) budgetCall {
		c := map[string]any{"type": typ}
		if data != nil {
			c["data"] = data
		}
		return budgetCall{name: "branch-thinking " + typ, tool: "branch-thinking", args: map[string]any{"session_id": sid, "command": c}}
	}
	call := func(tool string, args map[string]any, replies ...string) budgetCall {
		args["session_id"] = sid
		c := budgetCall{name: tool, tool: tool, args: args}
		for _, r := range replies {
			c.replies = append(c.replies, chatReply{content: r})
		}
		return c
	}
	return []budgetCall{
		call("show_current_path", map[string]any{}),
		call("get_unexplored_branches", map[string]any{}),
		bt("list", nil),
		bt("history", map[string]any{"branchId": "main"}),
		bt("evaluate", map[string]any{"branchId": "main"}),
		bt("statistics", nil),
		bt("findContradictions", nil),
		bt("detectCircular", nil),
		bt("findStrongestPaths", nil),
		bt("findSimilar", map[string]any{"query": "the risk of bleeding after a fall"}),
		bt("jumpToRelated", map[string]any{"thoughtId": thoughtID}),
		bt("semanticPath", map[string]any{"fromThoughtId": thoughtID, "toThoughtId": otherID}),
		bt("compareProfiles", nil),
		bt("suggestMerges", nil),
		bt("detectDrift", nil),
		bt("generateCounterfactuals", map[string]any{"branchId": "main"}),
		bt("detectKnowledgeGaps", nil),
		bt("synthesizeDialectical", map[string]any{"branches": pair}),
		bt("suggestTools", nil),
		bt("focus", map[string]any{"branchId": "main"}),
		bt("toggleAutoEval", nil),
		bt("toggleAutoEval", nil),
		bt("configAutoEval", map[string]any{"enabled": true}),
		bt("setGoal", map[string]any{"goal": "Decide on anticoagulation for an 82-year-old with atrial fibrillation and falls"}),
		bt("judge", map[string]any{"thoughtId": thoughtID, "otherThoughtId": otherID, "verdict": "compatible"}),
		bt("prune", map[string]any{"threshold": 0.01}),
		bt("import", map[string]any{}),
		{name: "branch-thinking thought", tool: "branch-thinking", args: map[string]any{"session_id": sid, "content": "The bleeding risk after a fall is lower than the stroke risk without treatment.", "type": "analysis", "branchId": "main", "confidence": 0.7}},
		call("think", map[string]any{"thought": "Weigh the falls against the stroke risk once more.", "confidence": 0.5}),
		call("select_path", map[string]any{"selected_index": 0, "alternatives": []any{
			map[string]any{"thought": "Start apixaban at the reduced dose.", "confidence": 0.7}, map[string]any{"thought": "Refer for left atrial appendage occlusion.", "confidence": 0.6}}}),
		call("backtrack", map[string]any{}),
		call("sequentialthinking", map[string]any{"thought": "Next, check the kidney function for dosing.", "thoughtNumber": 3, "totalThoughts": 5, "nextThoughtNeeded": true}),
		call("clear_context", map[string]any{}),
		call("reasoning_linear", map[string]any{"content": "Weigh apixaban against the falls."}, `{"thought": "Apixaban's benefit outweighs the fall risk at her stroke risk.", "confidence": 0.8}`),
		call("reasoning_tree", map[string]any{"content": "Which anticoagulation plan?", "num_branches": 3},
			`{"branches": [{"thought": "Apixaban reduced dose", "confidence": 0.8, "rationale": "renal function and weight"}, {"thought": "Warfarin", "confidence": 0.4}, {"thought": "Appendage occlusion", "confidence": 0.5}], "recommended": 0}`),
		call("reasoning_divergent", map[string]any{"content": "How to weigh her falls?", "num_perspectives": 2},
			`{"perspectives": [{"perspective": "geriatrics", "thought": "Falls prevention first", "confidence": 0.7}, {"perspective": "cardiology", "thought": "Stroke risk dominates", "confidence": 0.8}], "synthesis": "Treat and prevent falls."}`),
		call("reasoning_reflection", map[string]any{"thought_id": "#1", "iterations": 1},
			`{"critique": "It ignores her kidney function.", "improved_thought": "Dose apixaban for her kidney function and weight.", "confidence": 0.8}`),
		call("confer", map[string]any{"message": "Is apixaban safe at 54 kg?"}, "At 54 kg with creatinine clearance 40, the reduced dose applies if she is 80 or older."),
		call("traced_reasoning", map[string]any{"thought": "Should she be anticoagulated?", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true},
			"Her stroke risk is high and the falls do not outweigh it."),
		call("planner", map[string]any{"step": "Plan her anticoagulation", "step_number": 1, "total_steps": 2, "next_step_required": true},
			"Start with a medication review and a falls assessment."),
		call("biased_reasoning", map[string]any{"query": "Is anticoagulation right for her?"}),
		call("biased_reasoning", map[string]any{}, "Anticoagulation is right: every guideline says so."),
	}
}

// realisticSession writes the first dev scenario into session sid, with 12
// pieces of feedback a person gave (the first results carry them, in both
// halves), and returns it and two of its branches other than main.
func realisticSession(t *testing.T, e *testEnv, cs *mcp.ClientSession, sid string) (reasoningeval.Scenario, []string) {
	t.Helper()
	sc := devScenarios(t)[0]
	writeScenario(t, cs, sid, sc)
	for i := range 12 {
		if _, err := e.srv.svc.AddFeedback(context.Background(), reasoning.FeedbackInput{Session: reasoning.SessionRef{ID: sid, Explicit: true},
			ThoughtID: fmt.Sprintf("#%d", i+1), Kind: "comment", Text: "Check this against the guideline."}); err != nil {
			t.Fatal(err)
		}
	}
	var pair []string
	for _, st := range sc.Thoughts {
		if st.Branch != "main" && !slices.Contains(pair, st.Branch) && len(pair) < 2 {
			pair = append(pair, st.Branch)
		}
	}
	return sc, pair
}

// measure makes the calls and returns each result's size, failing on a
// tool error; check, if not nil, checks each result against its tool's
// output schema.
func measure(t *testing.T, cs *mcp.ClientSession, fake *fakeOpenAI, calls []budgetCall, doc any, check *outputCheck) map[string]int {
	t.Helper()
	sizes := map[string]int{}
	for _, c := range calls {
		fake.script(c.replies...)
		if c.name == "branch-thinking import" {
			c.args["command"].(map[string]any)["data"] = doc
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.IsError {
			t.Fatalf("%s: %v", c.name, res.Content[0].(*mcp.TextContent).Text)
		}
		checkHalves(t, c.name, res)
		if check != nil {
			check.result(c.name, c.tool, res)
		}
		sizes[c.name] = max(sizes[c.name], resultSize(t, res))
	}
	return sizes
}

// checkHalves checks that both halves of a successful result say the same:
// the text content is one text, the structured content's JSON.
func checkHalves(t *testing.T, name string, res *mcp.CallToolResult) {
	t.Helper()
	if len(res.Content) != 1 {
		t.Errorf("%s: %d content items, want the one text", name, len(res.Content))
		return
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	b, err := json.Marshal(res.StructuredContent)
	var text, structured any
	if !ok || err != nil || json.Unmarshal([]byte(tc.Text), &text) != nil || json.Unmarshal(b, &structured) != nil || !reflect.DeepEqual(text, structured) {
		t.Errorf("%s: the text content is not the structured content:\n text %.300v\n structured %.300s", name, res.Content[0], b)
	}
}

// checkErrorHalves checks that the text of a tool error carries what its
// structured content says: message, code, field, expected, received and
// suggestions.
func checkErrorHalves(t *testing.T, name string, res *mcp.CallToolResult) {
	t.Helper()
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	text := strings.Join(texts, "\n")
	b, _ := json.Marshal(res.StructuredContent)
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil || e.Code == "" {
		t.Fatalf("%s: error structured content %s", name, b)
	}
	want := []string{e.Message, e.Code}
	if d := e.Details; d != nil {
		want = append(want, d.Field, d.Expected, d.Received)
	}
	want = append(want, e.Suggestions...)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: the error's text %q does not say %q", name, text, w)
		}
	}
}

// Both halves of every tool's result say the same, for the clients that
// pass on only one of them: on success, the text is the structured
// content's JSON (human_feedback and findContradictions' review included);
// on error, the text says the message, the code, the field, what was
// expected and received and the suggestions. (The successes are checked
// by TestResultBudgets, on every call it measures.)
func TestResultHalvesOfErrors(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		for _, args := range []map[string]any{{"session_id": "not an id!"}, {"session_id": "nobody-has-this-session"}} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.Name, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			if res.IsError {
				checkErrorHalves(t, tool.Name, res)
			}
		}
	}
}

// Every tool and every branch-thinking command but export stays within its
// budget on a realistic 20-thought session and on one of 2,000 thoughts
// (docs/contracts.md#result-budgets).
func TestResultBudgets(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()

	// Every tool and command is measured.
	measured := map[string]bool{}
	for _, c := range budgetCalls("", "", "", nil, nil) {
		measured[c.name] = true
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "branch-thinking" && !measured[tool.Name] && !slices.Contains(budgetExempt, tool.Name) {
			t.Errorf("tool %s has no budget test: add it to budgetCalls", tool.Name)
		}
	}
	for _, c := range branching.BranchCommands {
		if name := "branch-thinking " + c.Name; !measured[name] && !slices.Contains(budgetExempt, name) {
			t.Errorf("command %s has no budget test: add it to budgetCalls", c.Name)
		}
	}

	sc, pair := realisticSession(t, e, cs, "real20")
	hist := btSession{t, cs, "real20"}.cmd("history", map[string]any{"branchId": "main", "verbose": true})
	th := list(hist, "thoughts")
	first, last := th[0].(map[string]any)["id"].(string), th[len(th)-1].(map[string]any)["id"].(string)
	doc20 := obj(btSession{t, cs, "real20"}.cmd("export", nil), "document")
	check := newOutputCheck(t, cs)
	small := measure(t, cs, fake, budgetCalls("real20", first, last, pair, doc20), doc20, check)
	if notes, _, err := e.srv.svc.DeliverFeedback(context.Background(), reasoning.SessionRef{ID: "real20", Explicit: true}); err != nil || len(notes) != 0 {
		t.Fatalf("feedback left after the calls: %d pieces (%v): the results did not carry it", len(notes), err)
	}

	rep := largeSession(t, e.srv.svc, "large2000", 2000)
	doc2000 := obj(btSession{t, cs, rep.SessionID}.cmd("export", nil), "document")
	large := measure(t, cs, fake, budgetCalls(rep.SessionID, rep.ThoughtIDs["t00001"], rep.ThoughtIDs["t01999"], []string{pair[0] + "-0", pair[1] + "-3"}, doc2000), doc2000, check)

	// Thoughts of 10,000 characters: every result within the budget of any
	// session. (Six of them: adding a thought of 10,000 characters costs up
	// to 1.5 s of analysis, growing with the session.)
	long := sc
	long.Thoughts = slices.Clone(sc.Thoughts[:6])
	for i := range long.Thoughts {
		long.Thoughts[i].Content = strings.Repeat(long.Thoughts[i].Content+" ", 10000/(len(long.Thoughts[i].Content)+1))
	}
	writeScenario(t, cs, "long", long)
	lh := list(btSession{t, cs, "long"}.cmd("history", map[string]any{"branchId": "main"}), "thoughts")
	docLong := obj(btSession{t, cs, "long"}.cmd("export", nil), "document")
	longSizes := measure(t, cs, fake, budgetCalls("long", fmt.Sprintf("#%v", lh[0].(map[string]any)["step"]), fmt.Sprintf("#%v", lh[len(lh)-1].(map[string]any)["step"]), []string{"main", long.Thoughts[5].Branch}, docLong), docLong, check)

	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %12s %14s %16s\n", "result", "20 thoughts", "2,000 thoughts", "10,000 characters")
	done := map[string]bool{}
	for _, c := range budgetCalls("", "", "", nil, nil) {
		if done[c.name] {
			continue
		}
		done[c.name] = true
		fmt.Fprintf(&b, "%-40s %12d %14d %16d\n", c.name, small[c.name], large[c.name], longSizes[c.name])
		if longSizes[c.name] > budgetAny {
			t.Errorf("%s: %d bytes on a session of 10,000-character thoughts, budget %d", c.name, longSizes[c.name], budgetAny)
		}
		if small[c.name] > budgetRealistic {
			t.Errorf("%s: %d bytes on a realistic 20-thought session, budget %d", c.name, small[c.name], budgetRealistic)
		}
		if large[c.name] > budgetLarge {
			t.Errorf("%s: %d bytes on a 2,000-thought session, budget %d", c.name, large[c.name], budgetLarge)
		}
	}
	t.Logf("largest result of each call, bytes:\n%s", b.String())
}

// Every argument that takes a thought id also takes its step in the
// session: "#8", "8" or 8; one that names no thought is a
// ThoughtNotFoundError naming the field.
func TestThoughtsNamedByStep(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	s := btSession{t, cs, "steps"}
	s.thought("We should cache the sessions in Redis to cut latency", "hypothesis", "confidence", 0.8)
	s.thought("Redis keeps the sessions in memory, so reads are fast", "validation", "confidence", 0.8)
	third := s.thought("A cache in front of PostgreSQL is another way to cut latency", "hypothesis", "branchId", "pg")
	for _, ref := range []any{"#2", "2", 2, 2.0} {
		out := s.cmd("jumpToRelated", map[string]any{"thoughtId": ref})
		if from := obj(out, "from"); from["step"] != 2.0 {
			t.Fatalf("jumpToRelated %v: from %v", ref, from)
		}
	}
	p := s.cmd("semanticPath", map[string]any{"fromThoughtId": "#1", "toThoughtId": 3})
	steps := list(p, "steps")
	if first, last := obj(steps[0].(map[string]any), "thought"), obj(steps[len(steps)-1].(map[string]any), "thought"); first["step"] != 1.0 || last["step"] != third["step"] {
		t.Fatalf("semanticPath #1 → 3: %v", p)
	}
	j := s.cmd("judge", map[string]any{"thoughtId": "#1", "otherThoughtId": "#3", "verdict": "compatible"})
	if obj(j, "thoughtA")["step"] != 1.0 || obj(j, "thoughtB")["step"] != 3.0 {
		t.Fatalf("judge #1 #3: %v", j)
	}
	for _, bad := range []struct {
		v    any
		code string
	}{{"#9", "ThoughtNotFoundError"}, {"0", "ThoughtNotFoundError"}, {"#", "ThoughtNotFoundError"}, {"#-1", "ThoughtNotFoundError"},
		{0, "ValidationError"}, {1.5, "ValidationError"}, {true, "ValidationError"}} {
		s.fail(map[string]any{"command": map[string]any{"type": "jumpToRelated", "data": map[string]any{"thoughtId": bad.v}}}, bad.code, "thoughtId")
	}

	// The confidence graph and the reasoning tools take it too.
	mustCall(t, cs, "think", map[string]any{"session_id": "steps", "thought": "Which cache?", "confidence": 0.3})
	sp := mustCall(t, cs, "select_path", map[string]any{"session_id": "steps", "selected_index": 0, "alternatives": []any{
		map[string]any{"thought": "Redis", "confidence": 0.7}, map[string]any{"thought": "Memcached", "confidence": 0.6}}})
	alt := list(sp, "alternatives")[1].(map[string]any)
	back := mustCall(t, cs, "select_path", map[string]any{"session_id": "steps", "node_id": 6})
	if back["current_node_id"] != alt["node_id"] {
		t.Fatalf("select_path node_id 6: %v, want %v", back, alt)
	}
}

// A long history and a long path come as their latest part and a summary
// of the rest; the cursor walks back through all of it.
func TestPagesOverMCP(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	s := btSession{t, cs, "pages"}
	for i := range 25 {
		s.thought(fmt.Sprintf("Step %d of a long line of reasoning about caching.", i+1), "analysis", "confidence", 0.5+float64(i%5)/10)
	}
	var steps []float64
	cursor := ""
	for range 5 {
		data := map[string]any{"branchId": "main"}
		if cursor != "" {
			data["cursor"] = cursor
		}
		h := s.cmd("history", data)
		th := list(h, "thoughts")
		var page []float64
		for _, x := range th {
			page = append(page, x.(map[string]any)["step"].(float64))
		}
		steps = append(page, steps...)
		p, _ := h["page"].(map[string]any)
		if p == nil || p["total"] != 25.0 {
			t.Fatalf("history page: %v", h)
		}
		if earlier, _ := h["earlier"].(map[string]any); page[0] > 1 && (earlier == nil || earlier["thoughts"] != page[0]-1 || earlier["firstStep"] != 1.0) {
			t.Fatalf("history before step %v: earlier %v", page[0], h["earlier"])
		}
		cursor, _ = p["cursor"].(string)
		if cursor == "" {
			break
		}
	}
	if len(steps) != 25 || steps[0] != 1 || steps[24] != 25 {
		t.Fatalf("history pages gave steps %v", steps)
	}

	path := mustCall(t, cs, "show_current_path", map[string]any{"session_id": "pages"})
	nodes := list(path, "path")
	earlier := obj(path, "earlier")
	if len(nodes) != 10 || path["total_nodes"] != 25.0 || nodes[9].(map[string]any)["step"] != 25.0 ||
		earlier["nodes"] != 15.0 || obj(earlier, "root")["step"] != 1.0 || obj(earlier, "weakest")["confidence"] != 0.5 {
		t.Fatalf("show_current_path: %v", path)
	}
	back := mustCall(t, cs, "show_current_path", map[string]any{"session_id": "pages", "cursor": obj(path, "page")["cursor"]})
	if n := list(back, "path"); len(n) != 10 || n[9].(map[string]any)["step"] != 15.0 {
		t.Fatalf("show_current_path, earlier page: %v", back)
	}
	out, _ := mustFail(t, cs, "show_current_path", map[string]any{"session_id": "pages", "cursor": "x"})
	if obj(out, "details")["field"] != "cursor" {
		t.Fatalf("bad cursor: %v", out)
	}
}
