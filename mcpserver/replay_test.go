package mcpserver

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoningeval"
)

// The database session tried as a new user would (scenario
// database-session.jsonl), replayed as a diligent model calls the tools:
// setGoal, its 24 thoughts, 7 notes with think (31 thoughts), and between
// them the reads a model makes to check itself: 79 calls, whose results
// together should stay within 60 KB (they were 162 KB).
func TestDatabaseSessionReplay(t *testing.T) {
	f, err := os.Open("../reasoningeval/testdata/scenarios/database-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := reasoningeval.ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := scs[0]
	e := newSemanticTestEnv(t)
	cs := e.connect()
	const sid = "db-replay"
	type call struct {
		tool string
		args map[string]any
		size int
	}
	var calls []call
	do := func(tool string, args map[string]any) {
		t.Helper()
		args["session_id"] = sid
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		if res.IsError {
			t.Fatalf("%s %v: %s", tool, args, res.Content[0].(*mcp.TextContent).Text)
		}
		calls = append(calls, call{tool, args, resultSize(t, res)})
	}
	cmd := func(typ string, data map[string]any) {
		t.Helper()
		c := map[string]any{"type": typ}
		if data != nil {
			c["data"] = data
		}
		do("branch-thinking", map[string]any{"command": c})
	}

	cmd("setGoal", map[string]any{"goal": sc.Goal})
	for _, th := range sc.Thoughts {
		args := map[string]any{"content": th.Content, "type": th.Type, "branchId": th.Branch}
		if th.Confidence != nil {
			args["confidence"] = *th.Confidence
		}
		do("branch-thinking", args)
		n := th.N
		if n%3 == 2 && n < 21 {
			do("think", map[string]any{"thought": fmt.Sprintf("Note after step %d: check this against the isolation requirement before going on.", n)})
		}
		if n%3 == 0 {
			cmd("evaluate", map[string]any{"branchId": th.Branch})
			cmd("findContradictions", nil)
		}
		if n%6 == 0 {
			cmd("list", nil)
			cmd("detectCircular", nil)
			cmd("detectDrift", nil)
			cmd("suggestTools", nil)
		}
	}
	for _, b := range []string{"main", "postgres-rls", "db-per-tenant", "hybrid"} {
		cmd("history", map[string]any{"branchId": b})
	}
	cmd("statistics", nil)
	cmd("findStrongestPaths", nil)
	cmd("detectKnowledgeGaps", nil)
	cmd("synthesizeDialectical", map[string]any{"branches": []string{"postgres-rls", "db-per-tenant"}})
	cmd("generateCounterfactuals", map[string]any{"branchId": "hybrid"})
	for _, q := range sc.Truth.Queries {
		cmd("findSimilar", map[string]any{"query": q.Q})
	}
	cmd("jumpToRelated", map[string]any{"thoughtId": "#8"})
	do("show_current_path", map[string]any{})
	cmd("compareProfiles", nil)
	cmd("suggestMerges", nil)

	total := 0
	var b strings.Builder
	for i, c := range calls {
		total += c.size
		name := c.tool
		if cm, ok := c.args["command"].(map[string]any); ok {
			name += " " + cm["type"].(string)
		} else if c.tool == "branch-thinking" {
			name += " thought"
		}
		fmt.Fprintf(&b, "%3d %-40s %6d\n", i+1, name, c.size)
	}
	t.Logf("%d calls, %d bytes in all:\n%s", len(calls), total, b.String())
	if len(calls) != 79 {
		t.Errorf("%d calls, want the 79 of the session tried", len(calls))
	}
	// The target is 60 KB (162 KB before the results were bounded, 92.6 KB
	// before they named thoughts by step and stopped repeating themselves;
	// 60,324 bytes now).
	const target = 60 << 10
	if total > target {
		t.Errorf("the replayed session's %d calls returned %d bytes, more than the %d of the target", len(calls), total, target)
	}
}
