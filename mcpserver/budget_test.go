package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
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
}

// budgetCalls are the calls measured on session sid: every tool and every
// branch-thinking command but export. thoughtID and otherID are thoughts of
// the session.
func budgetCalls(sid, thoughtID, otherID string, pair []string) []budgetCall {
	bt := func(typ string, data map[string]any) budgetCall {
		c := map[string]any{"type": typ}
		if data != nil {
			c["data"] = data
		}
		return budgetCall{"branch-thinking " + typ, "branch-thinking", map[string]any{"session_id": sid, "command": c}}
	}
	return []budgetCall{
		{"show_current_path", "show_current_path", map[string]any{"session_id": sid}},
		{"get_unexplored_branches", "get_unexplored_branches", map[string]any{"session_id": sid}},
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
		{"branch-thinking thought", "branch-thinking", map[string]any{"session_id": sid, "content": "The bleeding risk after a fall is lower than the stroke risk without treatment.", "type": "analysis", "branchId": "main", "confidence": 0.7}},
		{"think", "think", map[string]any{"session_id": sid, "thought": "Weigh the falls against the stroke risk once more.", "confidence": 0.5}},
		{"select_path", "select_path", map[string]any{"session_id": sid, "selected_index": 0, "alternatives": []any{
			map[string]any{"thought": "Start apixaban at the reduced dose.", "confidence": 0.7}, map[string]any{"thought": "Refer for left atrial appendage occlusion.", "confidence": 0.6}}}},
		{"backtrack", "backtrack", map[string]any{"session_id": sid}},
		{"sequentialthinking", "sequentialthinking", map[string]any{"session_id": sid, "thought": "Next, check the kidney function for dosing.", "thoughtNumber": 3, "totalThoughts": 5, "nextThoughtNeeded": true}},
		{"clear_context", "clear_context", map[string]any{"session_id": sid}},
	}
}

// measure makes the calls and returns each result's size, failing on a
// tool error.
func measure(t *testing.T, cs *mcp.ClientSession, calls []budgetCall) map[string]int {
	t.Helper()
	sizes := map[string]int{}
	for _, c := range calls {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.IsError {
			t.Fatalf("%s: %v", c.name, res.Content[0].(*mcp.TextContent).Text)
		}
		sizes[c.name] = max(sizes[c.name], resultSize(t, res))
	}
	return sizes
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
	if first, last := obj(steps[0].(map[string]any), "thought"), obj(steps[len(steps)-1].(map[string]any), "thought"); first["step"] != 1.0 || last["id"] != third["thoughtId"] {
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
