package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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
		{seq(2, 2, "", nil), "thought", "'thought' parameter is required"},
		{seq(2, 2, "x", map[string]any{"isRevision": true}), "revisesThought", "'revisesThought' is required"},
		{seq(2, 2, "x", map[string]any{"isRevision": true, "revisesThought": 9}), "revisesThought", "there is no thought number 9"},
		{seq(2, 2, "x", map[string]any{"branchFromThought": 1}), "branchId", "'branchId' is required"},
		{seq(2, 2, "x", map[string]any{"branchFromThought": 7, "branchId": "b"}), "branchFromThought", "no thought number 7"},
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
