package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

func seq(n, total any, thought string, more map[string]any) map[string]any {
	m := map[string]any{"thought": thought, "thoughtNumber": n, "totalThoughts": total, "nextThoughtNeeded": true}
	for k, v := range more {
		m[k] = v
	}
	return m
}

func TestSequentialThinking(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	out := mustCall(t, cs, "sequentialthinking", seq(1, 3, "Understand the problem", nil))
	if out["thoughtNumber"] != float64(1) || out["totalThoughts"] != float64(3) || out["nextThoughtNeeded"] != true ||
		out["thoughtHistoryLength"] != float64(1) || out["thought"] != "Understand the problem" || out["session_id"] == "" {
		t.Fatal(out)
	}
	if b, ok := out["branches"].([]any); !ok || len(b) != 0 {
		t.Fatalf("branches must be an empty array: %v", out["branches"])
	}
	sid := out["session_id"].(string)

	// Numbers and booleans as strings, as models send them.
	out = mustCall(t, cs, "sequentialthinking", map[string]any{"thought": "Second", "thoughtNumber": "2", "totalThoughts": "3", "nextThoughtNeeded": "true"})
	if out["thoughtNumber"] != float64(2) || out["thoughtHistoryLength"] != float64(2) {
		t.Fatal(out)
	}
	// thoughtNumber beyond totalThoughts raises totalThoughts.
	out = mustCall(t, cs, "sequentialthinking", seq(5, 3, "Went further", nil))
	if out["totalThoughts"] != float64(5) {
		t.Fatal(out)
	}
	// A revision of thought 2.
	rev := mustCall(t, cs, "sequentialthinking", seq(6, 6, "Second, revised", map[string]any{"isRevision": true, "revisesThought": 2}))
	// A branch from thought 1, continued once.
	br := mustCall(t, cs, "sequentialthinking", seq(7, 8, "Alternative approach", map[string]any{"branchFromThought": 1, "branchId": "alt"}))
	if br["branches"].([]any)[0] != "alt" || br["branchId"] != "alt" {
		t.Fatal(br)
	}
	br2 := mustCall(t, cs, "sequentialthinking", seq(8, 8, "Alternative continued", map[string]any{"branchId": "alt", "nextThoughtNeeded": false}))
	if br2["nextThoughtNeeded"] != false || br2["thoughtHistoryLength"] != float64(6) {
		t.Fatal(br2)
	}

	// The graph: the revision points at thought 2; the branch forks from thought 1.
	ctx := context.Background()
	err := e.store.View(ctx, func(tx thinkgraph.Tx) error {
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: storetest.LocalKey(t, tx, sid)})
		if err != nil {
			return err
		}
		if len(ths) != 6 {
			t.Fatalf("%d thoughts", len(ths))
		}
		byStep := map[int]thinkgraph.Thought{}
		for _, th := range ths {
			byStep[th.Step] = th
		}
		if byStep[4].RevisesID != byStep[2].ID || byStep[4].ID != rev["node_id"] {
			t.Errorf("revision: %+v", byStep[4])
		}
		if byStep[5].BranchID != "alt" || byStep[5].ParentID != byStep[1].ID {
			t.Errorf("branch start: %+v", byStep[5])
		}
		if byStep[6].BranchID != "alt" || byStep[6].ParentID != byStep[5].ID {
			t.Errorf("branch continued: %+v", byStep[6])
		}
		b, err := tx.Branch(ctx, storetest.LocalKey(t, tx, sid), "alt")
		if err != nil {
			return err
		}
		if b.ForkThoughtID != byStep[1].ID || b.ParentBranchID != "main" {
			t.Errorf("branch row: %+v", b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSequentialThinkingErrors(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	mustCall(t, cs, "sequentialthinking", seq(1, 2, "one", nil))
	cases := []struct {
		args  map[string]any
		field string
		text  string
	}{
		{map[string]any{"thought": "x", "thoughtNumber": 1, "totalThoughts": 1}, "nextThoughtNeeded", "'nextThoughtNeeded' is required"},
		{map[string]any{"thought": "x", "thoughtNumber": 1, "nextThoughtNeeded": true}, "totalThoughts", "'totalThoughts' is required"},
		{seq(0, 1, "x", nil), "thoughtNumber", "≥ 1"},
		{seq("two", 1, "x", nil), "thoughtNumber", "must be a number"},
		{seq(1.5, 1, "x", nil), "thoughtNumber", "whole number"},
		{map[string]any{"thoughtNumber": 1, "totalThoughts": 1, "nextThoughtNeeded": true}, "thought", "'thought' is required"},
		{seq(2, 2, "x", map[string]any{"revisesThought": 0}), "revisesThought", "≥ 1"},
		{seq(2, 2, "x", map[string]any{"thoughtNumber": float64(1 << 31)}), "thoughtNumber", "to 2147483647"},
		{seq(2, 2, "x", map[string]any{"branchId": "../../etc"}), "branchId", "must be 1 to 64"},
		{seq(2, 2, "x", map[string]any{"nextThoughtNeeded": "maybe"}), "nextThoughtNeeded", "true or false"},
	}
	for _, c := range cases {
		out, text := mustFail(t, cs, "sequentialthinking", c.args)
		d, _ := out["details"].(map[string]any)
		if d["field"] != c.field || !strings.Contains(text, c.text) {
			t.Errorf("%v: field %v text %q; want field %q containing %q", c.args, d["field"], text, c.field, c.text)
		}
	}
	// None of the failed calls wrote anything.
	out := mustCall(t, cs, "sequentialthinking", seq(2, 2, "two", nil))
	if out["thoughtHistoryLength"] != float64(2) || len(out["branches"].([]any)) != 0 {
		t.Fatal(out)
	}
}

// A second server on the same file continues a sequential session.
func TestSequentialThinkingSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "seq.db")
	open := func() *testEnv {
		store, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return &testEnv{t: t, store: store, srv: New(reasoning.New(store, reasoning.Config{}), Options{})}
	}
	e := open()
	cs := e.connect()
	mustCall(t, cs, "sequentialthinking", seq(1, 3, "first", map[string]any{"session_id": "s"}))
	mustCall(t, cs, "sequentialthinking", seq(2, 3, "branch", map[string]any{"session_id": "s", "branchFromThought": 1, "branchId": "b1"}))
	cs.Close()
	e.store.Close()

	e = open()
	defer e.store.Close()
	cs = e.connect()
	out := mustCall(t, cs, "sequentialthinking", seq(3, 3, "third", map[string]any{"session_id": "s", "isRevision": true, "revisesThought": 1}))
	if out["thoughtHistoryLength"] != float64(3) || out["branches"].([]any)[0] != "b1" {
		t.Fatal(out)
	}
}

// The observable cases of the official server's test suite
// (src/sequentialthinking/__tests__/lib.test.ts), each on a fresh session as
// each of its tests runs on a fresh server.
func TestSequentialThinkingOfficialCases(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	n := 0
	fresh := func(in map[string]any) map[string]any {
		n++
		in["session_id"] = fmt.Sprintf("official-%d", n)
		return in
	}
	same := func(in map[string]any) map[string]any {
		in["session_id"] = fmt.Sprintf("official-%d", n)
		return in
	}
	// should accept valid basic thought
	out := mustCall(t, cs, "sequentialthinking", fresh(seq(1, 3, "This is my first thought", nil)))
	if out["thoughtNumber"] != float64(1) || out["totalThoughts"] != float64(3) || out["nextThoughtNeeded"] != true || out["thoughtHistoryLength"] != float64(1) {
		t.Error("basic:", out)
	}
	// should accept thought with optional fields: a revision of a thought
	// the history does not have.
	out = mustCall(t, cs, "sequentialthinking", fresh(seq(2, 3, "Revising my earlier idea", map[string]any{"isRevision": true, "revisesThought": 1, "needsMoreThoughts": false})))
	if out["thoughtNumber"] != float64(2) || out["thoughtHistoryLength"] != float64(1) {
		t.Error("optional fields:", out)
	}
	// should track multiple thoughts in history
	mustCall(t, cs, "sequentialthinking", fresh(seq(1, 3, "First thought", nil)))
	mustCall(t, cs, "sequentialthinking", same(seq(2, 3, "Second thought", nil)))
	out = mustCall(t, cs, "sequentialthinking", same(seq(3, 3, "Final thought", map[string]any{"nextThoughtNeeded": false})))
	if out["thoughtHistoryLength"] != float64(3) || out["nextThoughtNeeded"] != false {
		t.Error("history:", out)
	}
	// should auto-adjust totalThoughts if thoughtNumber exceeds it
	if out = mustCall(t, cs, "sequentialthinking", fresh(seq(5, 3, "Thought 5", nil))); out["totalThoughts"] != float64(5) {
		t.Error("auto-adjust:", out)
	}
	// should track branches correctly
	mustCall(t, cs, "sequentialthinking", fresh(seq(1, 3, "Main thought", nil)))
	mustCall(t, cs, "sequentialthinking", same(seq(2, 3, "Branch A thought", map[string]any{"branchFromThought": 1, "branchId": "branch-a"})))
	out = mustCall(t, cs, "sequentialthinking", same(seq(2, 3, "Branch B thought", map[string]any{"branchFromThought": 1, "branchId": "branch-b", "nextThoughtNeeded": false})))
	if b := out["branches"].([]any); len(b) != 2 || !slices.Contains(b, any("branch-a")) || !slices.Contains(b, any("branch-b")) || out["thoughtHistoryLength"] != float64(3) {
		t.Error("branches:", out)
	}
	// should allow multiple thoughts in same branch, branching from a
	// thought the history does not have.
	mustCall(t, cs, "sequentialthinking", fresh(seq(1, 2, "Branch thought 1", map[string]any{"branchFromThought": 1, "branchId": "branch-a"})))
	out = mustCall(t, cs, "sequentialthinking", same(seq(2, 2, "Branch thought 2", map[string]any{"branchFromThought": 1, "branchId": "branch-a", "nextThoughtNeeded": false})))
	if b := out["branches"].([]any); len(b) != 1 || b[0] != "branch-a" {
		t.Error("same branch:", out)
	}
	// should handle very long thought strings; 1 of 1; nextThoughtNeeded false
	mustCall(t, cs, "sequentialthinking", fresh(seq(1, 1, strings.Repeat("a", 10000), map[string]any{"nextThoughtNeeded": false})))
	if out = mustCall(t, cs, "sequentialthinking", fresh(seq(1, 1, "Only thought", nil))); out["thoughtNumber"] != float64(1) || out["totalThoughts"] != float64(1) {
		t.Error("1 of 1:", out)
	}
	if out = mustCall(t, cs, "sequentialthinking", fresh(seq(3, 3, "Final thought", map[string]any{"nextThoughtNeeded": false}))); out["nextThoughtNeeded"] != false {
		t.Error("final:", out)
	}
	// should return correct response structure / valid JSON
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sequentialthinking", Arguments: fresh(seq(1, 1, "Test thought", nil))})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatal("response format:", res, err)
	}
	var text map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &text); err != nil || text["thoughtNumber"] != float64(1) {
		t.Error("response text:", err, text)
	}
	// should format and log revision / branch thoughts (on an empty history)
	mustCall(t, cs, "sequentialthinking", fresh(seq(2, 3, "Revised thought", map[string]any{"isRevision": true, "revisesThought": 1})))
	mustCall(t, cs, "sequentialthinking", fresh(seq(2, 3, "Branch thought", map[string]any{"branchFromThought": 1, "branchId": "branch-a", "nextThoughtNeeded": false})))
}

// What the official server's schema accepts is accepted: an empty thought,
// fields it does not know, isRevision without revisesThought,
// branchFromThought without branchId. A thought without branchId after a
// branch goes back to the main line.
func TestSequentialThinkingAcceptsWhatTheOfficialServerAccepts(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	sid := map[string]any{"session_id": "lenient"}
	with := func(m map[string]any) map[string]any {
		m["session_id"] = "lenient"
		return m
	}
	one := mustCall(t, cs, "sequentialthinking", seq(1, 4, "", sid))
	if one["thought"] != "" || one["thoughtHistoryLength"] != float64(1) {
		t.Fatal("empty thought:", one)
	}
	mustCall(t, cs, "sequentialthinking", seq(2, 4, "extra fields", with(map[string]any{"confidence": 0.9, "tags": []string{"x"}})))
	mustCall(t, cs, "sequentialthinking", seq(3, 4, "a revision of nothing named", with(map[string]any{"isRevision": true})))
	mustCall(t, cs, "sequentialthinking", seq(4, 4, "branch point, no branch", with(map[string]any{"branchFromThought": 2})))
	br := mustCall(t, cs, "sequentialthinking", seq(5, 6, "on a branch from a thought not seen", with(map[string]any{"branchFromThought": 40, "branchId": "b"})))
	if br["branchId"] != "b" {
		t.Fatal(br)
	}
	back := mustCall(t, cs, "sequentialthinking", seq(6, 6, "back on the main line", sid))
	if _, on := back["branchId"]; on || back["thoughtHistoryLength"] != float64(6) {
		t.Fatal("back to main:", back)
	}
	ctx := context.Background()
	err := e.store.View(ctx, func(tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, thinkgraph.LocalTenant, "lenient")
		if err != nil {
			return err
		}
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
		if err != nil {
			return err
		}
		if len(ths) != 6 || ths[5].BranchID != "main" || ths[5].ParentID != ths[3].ID || ths[4].ParentID != ths[3].ID {
			t.Errorf("main line: %+v", ths)
		}
		if !strings.Contains(string(ths[4].Metadata), `"branchFromThought":40`) || !strings.Contains(string(ths[2].Metadata), `"isRevision":true`) {
			t.Errorf("recorded: %s / %s", ths[4].Metadata, ths[2].Metadata)
		}
		if sess.ActiveBranch != "main" {
			t.Errorf("active branch %q", sess.ActiveBranch)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
