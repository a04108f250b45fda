package mcpserver

import (
	"strings"
	"testing"
)

func alts(pairs ...any) []map[string]any {
	var out []map[string]any
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, map[string]any{"thought": pairs[i], "confidence": pairs[i+1]})
	}
	return out
}

// The confidence-graph walk: a low-confidence thought is a branch point; select_path
// records alternatives and follows one; show_current_path shows root →
// current; get_unexplored_branches lists the others; backtrack returns to the
// last confident thought; selecting an unexplored alternative later removes
// it from the unexplored list.
func TestConfidenceGraphWalk(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	sid := map[string]any{"session_id": "g"}
	with := func(m map[string]any) map[string]any {
		m["session_id"] = "g"
		return m
	}

	root := mustCall(t, cs, "think", with(map[string]any{"thought": "Need a cache for the API", "confidence": 0.9}))
	if root["status"] != "continue" {
		t.Fatal(root)
	}
	unsure := mustCall(t, cs, "think", with(map[string]any{"thought": "Which cache?", "confidence": 0.4}))
	if unsure["status"] != "branch" || unsure["requires_alternatives"] != true {
		t.Fatal(unsure)
	}
	sel := mustCall(t, cs, "select_path", with(map[string]any{
		"alternatives":   alts("Redis", 0.7, "Memcached", 0.5, "In-process LRU", "0.3"),
		"selected_index": "1",
	}))
	if sel["status"] != "success" || sel["selected_thought"] != "Memcached" || sel["branch_node_id"] != unsure["current_node_id"] {
		t.Fatal(sel)
	}
	altsOut := sel["alternatives"].([]any)
	if len(altsOut) != 3 || altsOut[1].(map[string]any)["selected"] != true || altsOut[0].(map[string]any)["selected"] != false {
		t.Fatal(altsOut)
	}
	redisID := altsOut[0].(map[string]any)["node_id"].(string)

	path := mustCall(t, cs, "show_current_path", sid)
	nodes := path["path"].([]any)
	if path["total_nodes"] != float64(3) || path["branch_points"] != float64(1) || len(nodes) != 3 {
		t.Fatal(path)
	}
	wantThoughts := []string{"Need a cache for the API", "Which cache?", "Memcached"}
	wantBP := []bool{false, true, false}
	for i, n := range nodes {
		m := n.(map[string]any)
		if m["thought"] != wantThoughts[i] || m["branch_point"] != wantBP[i] {
			t.Fatalf("path[%d] = %v", i, m)
		}
	}
	if path["current_node_id"] != sel["current_node_id"] {
		t.Fatal(path)
	}

	un := mustCall(t, cs, "get_unexplored_branches", sid)
	list := un["unexplored"].([]any)
	if len(list) != 1 {
		t.Fatal(un)
	}
	b := list[0].(map[string]any)
	if b["branch_node_id"] != unsure["current_node_id"] || b["branch_thought"] != "Which cache?" || b["unexplored_count"] != float64(2) {
		t.Fatal(b)
	}

	// Memcached (0.5) → its parent "Which cache?" (0.4) → root (0.9).
	bt := mustCall(t, cs, "backtrack", sid)
	to, _ := bt["backtracked_to"].(map[string]any)
	if bt["status"] != "success" || to["node_id"] != root["current_node_id"] || to["confidence"] != 0.9 || to["thought"] != "Need a cache for the API" {
		t.Fatal(bt)
	}
	if bt["current_node_id"] != root["current_node_id"] {
		t.Fatal(bt)
	}
	// At the root there is nothing earlier.
	bt = mustCall(t, cs, "backtrack", sid)
	if bt["status"] != "no_target" || bt["backtracked_to"] != nil || bt["current_node_id"] != root["current_node_id"] {
		t.Fatal(bt)
	}

	// Follow Redis now: it is no longer unexplored.
	sel = mustCall(t, cs, "select_path", with(map[string]any{"node_id": redisID}))
	if sel["current_node_id"] != redisID || sel["selected_thought"] != "Redis" {
		t.Fatal(sel)
	}
	un = mustCall(t, cs, "get_unexplored_branches", sid)
	b = un["unexplored"].([]any)[0].(map[string]any)
	if b["unexplored_count"] != float64(1) || b["alternatives"].([]any)[0].(map[string]any)["thought"] != "In-process LRU" {
		t.Fatal(un)
	}
	path = mustCall(t, cs, "show_current_path", sid)
	if path["total_nodes"] != float64(3) || path["path"].([]any)[2].(map[string]any)["thought"] != "Redis" {
		t.Fatal(path)
	}
}

func TestBacktrackIgnoresThoughtsWithoutConfidence(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	mustCall(t, cs, "think", map[string]any{"thought": "no confidence here"})
	mustCall(t, cs, "think", map[string]any{"thought": "low", "confidence": 0.2})
	bt := mustCall(t, cs, "backtrack", map[string]any{})
	if bt["status"] != "no_target" {
		t.Fatal(bt)
	}
	un := mustCall(t, cs, "get_unexplored_branches", map[string]any{})
	if len(un["unexplored"].([]any)) != 0 {
		t.Fatal(un)
	}
	// A fresh connection: empty path, no target, nothing unexplored.
	fresh := e.connect()
	if p := mustCall(t, fresh, "show_current_path", map[string]any{}); p["total_nodes"] != float64(0) || len(p["path"].([]any)) != 0 {
		t.Fatal(p)
	}
	if bt := mustCall(t, fresh, "backtrack", map[string]any{}); bt["status"] != "no_target" {
		t.Fatal(bt)
	}
}

func TestSelectPathErrorsWriteNothing(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	start := mustCall(t, cs, "think", map[string]any{"thought": "start", "confidence": 0.3, "session_id": "e"})
	cases := []struct {
		args  map[string]any
		field string
		text  string
	}{
		{map[string]any{"alternatives": alts("a", 0.5, "b", 0.6), "selected_index": 2}, "selected_index", "must be from 0 to 1"},
		{map[string]any{"alternatives": alts("a", 0.5), "selected_index": -1}, "selected_index", "out of range"},
		{map[string]any{"alternatives": alts("a", 0.5)}, "selected_index", "'selected_index' is required"},
		{map[string]any{"alternatives": []any{}, "selected_index": 0}, "alternatives", "'alternatives' is required"},
		{map[string]any{"selected_index": 0}, "alternatives", "'alternatives' is required"},
		{map[string]any{"alternatives": alts("a", 1.5), "selected_index": 0}, "alternatives[0].confidence", "from 0 to 1"},
		{map[string]any{"alternatives": alts("a", 0.5, "", 0.5), "selected_index": 0}, "alternatives[1].thought", "required"},
		{map[string]any{"alternatives": []any{map[string]any{"thought": "a"}}, "selected_index": 0}, "alternatives[0].confidence", "is required"},
		{map[string]any{"alternatives": []any{map[string]any{"thought": "a", "confidence": 0.5, "x": 1}}, "selected_index": 0}, "alternatives[0].x", "unknown field"},
		{map[string]any{"alternatives": "nope", "selected_index": 0}, "alternatives", "must be an array"},
		{map[string]any{"node_id": "does-not-exist"}, "node_id", "no thought"},
		{map[string]any{"node_id": "x", "alternatives": alts("a", 0.5), "selected_index": 0}, "node_id", "not both"},
	}
	for _, c := range cases {
		c.args["session_id"] = "e"
		out, text := mustFail(t, cs, "select_path", c.args)
		d, _ := out["details"].(map[string]any)
		if d["field"] != c.field || !strings.Contains(text, c.text) {
			t.Errorf("%v: field %v text %q; want field %q containing %q", c.args, d["field"], text, c.field, c.text)
		}
	}
	many := []map[string]any{}
	for i := 0; i < 21; i++ {
		many = append(many, map[string]any{"thought": "x", "confidence": 0.5})
	}
	if _, text := mustFail(t, cs, "select_path", map[string]any{"alternatives": many, "selected_index": 0, "session_id": "e"}); !strings.Contains(text, "at most 20") {
		t.Error(text)
	}
	// Nothing was written: the path is still the single start thought.
	p := mustCall(t, cs, "show_current_path", map[string]any{"session_id": "e"})
	if p["total_nodes"] != float64(1) || p["current_node_id"] != start["current_node_id"] {
		t.Fatal(p)
	}
	if _, text := mustFail(t, cs, "show_current_path", map[string]any{"session_id": "unknown-session"}); !strings.Contains(text, "not found") {
		t.Fatal(text)
	}
}
