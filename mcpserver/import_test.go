package mcpserver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// TestImportAsStrictAsTheTools imports, over a real MCP transport,
// documents that hold what no tool would write: each is refused with an
// error naming the field, and nothing is stored.
func TestImportAsStrictAsTheTools(t *testing.T) {
	e := newTestEnv(t)
	s := btSession{t, e.connect(), "src"}
	s.cmd("setGoal", map[string]any{"goal": "Pick a session store"})
	s.thought("The store must survive restarts", "analysis", "confidence", 0.8, "keyPoints", []string{"durability"})
	s.thought("PostgreSQL survives restarts", "hypothesis", "confidence", 0.7)
	s.thought("An embedded store needs no server", "hypothesis", "branchId", "alt", "parentBranchId", "main",
		"crossRefs", []any{map[string]any{"toBranch": "main", "type": "alternative", "reason": "another store", "strength": 0.6}})
	s.thought("SQLite is embedded", "observation", "branchId", "alt")
	doc := obj(s.cmd("export", nil), "document")
	if len(list(doc, "thoughts")) != 4 || len(list(doc, "links")) != 1 || len(list(doc, "branches")) != 2 {
		t.Fatalf("the source session: %v", doc)
	}
	// The index of branch "main" and of "alt" (a child of main).
	var iMain, iAlt int
	for i, b := range list(doc, "branches") {
		if b.(map[string]any)["id"] == "main" {
			iMain = i
		} else {
			iAlt = i
		}
	}

	nul, mb := "a\x00b", strings.Repeat("m", 1<<20)
	set := func(path ...any) func(d map[string]any, v any) {
		return func(d map[string]any, v any) {
			var at any = d
			for _, p := range path[:len(path)-1] {
				switch k := p.(type) {
				case string:
					at = at.(map[string]any)[k]
				case int:
					at = at.([]any)[k]
				}
			}
			switch k := path[len(path)-1].(type) {
			case string:
				at.(map[string]any)[k] = v
			case int:
				at.([]any)[k] = v
			}
		}
	}
	cases := []struct {
		name  string
		set   func(map[string]any, any)
		value any
		field string
	}{
		{"NUL in goal", set("session", "goal"), nul, "data.session.goal"},
		{"megabyte goal", set("session", "goal"), mb, "data.session.goal"},
		{"NUL in mode", set("session", "mode"), nul, "data.session.mode"},
		{"megabyte mode", set("session", "mode"), mb, "data.session.mode"},
		{"NUL in author", set("thoughts", 2, "author"), nul, "data.thoughts[2].author"},
		{"megabyte author", set("thoughts", 2, "author"), mb, "data.thoughts[2].author"},
		{"NUL in tool", set("thoughts", 1, "tool"), nul, "data.thoughts[1].tool"},
		{"megabyte tool", set("thoughts", 1, "tool"), mb, "data.thoughts[1].tool"},
		{"NUL in type", set("thoughts", 3, "type"), nul, "data.thoughts[3].type"},
		{"megabyte type", set("thoughts", 3, "type"), mb, "data.thoughts[3].type"},
		{"NUL in a key point", set("thoughts", 0, "keyPoints"), []any{"fine", nul}, "data.thoughts[0].keyPoints[1]"},
		{"megabyte key point", set("thoughts", 0, "keyPoints"), []any{mb}, "data.thoughts[0].keyPoints[0]"},
		{"too many key points", set("thoughts", 0, "keyPoints"), make([]any, 1000), "data.thoughts[0].keyPoints"},
		{"NUL in a link reason", set("links", 0, "reason"), nul, "data.links[0].reason"},
		{"megabyte link reason", set("links", 0, "reason"), mb, "data.links[0].reason"},
		{"link strength 1e308", set("links", 0, "strength"), 1e308, "data.links[0].strength"},
		{"unknown link type", set("links", 0, "type"), "owns", "data.links[0].type"},
		{"branch priority 1e308", set("branches", iMain, "priority"), 1e308, fmt.Sprintf("data.branches[%d].priority", iMain)},
		{"branch-parent cycle", set("branches", iMain, "parentBranchId"), "alt", fmt.Sprintf("data.branches[%d].parentBranchId", min(iMain, iAlt))},
		{"negative contextStart", set("session", "contextStart"), -1, "data.session.contextStart"},
		{"huge contextStart", set("session", "contextStart"), 1 << 40, "data.session.contextStart"},
		{"stepCount 2^63-1", set("session", "stepCount"), int64(math.MaxInt64), "data.session.stepCount"},
		{"step 2^62", set("thoughts", 3, "step"), int64(1) << 62, "data.thoughts[3].step"},
		{"a top-level member no export writes", set("extra"), 1, "data.extra"},
		{"a thought field no export writes", set("thoughts", 1, "mood"), "calm", "data.thoughts[1].mood"},
		{"a session field no export writes", set("session", "owner"), "me", "data.session.owner"},
		{"NUL in a metadata key", set("thoughts", 0, "metadata"), map[string]any{nul: 1}, "data.thoughts[0].metadata"},
		{"NUL in a metadata value", set("thoughts", 2, "metadata"), map[string]any{"k": []any{nul}}, "data.thoughts[2].metadata"},
		{"NUL in session metadata", set("session", "metadata"), map[string]any{"k": nul}, "data.session.metadata"},
		{"NUL in settings", set("session", "settings"), map[string]any{nul: true}, "data.session.settings"},
		{"megabyte thought metadata", set("thoughts", 1, "metadata"), map[string]any{"k": mb}, "data.thoughts[1].metadata"},
		{"megabyte session metadata", set("session", "metadata"), map[string]any{"k": mb}, "data.session.metadata"},
	}
	sessions := func() int {
		var n int
		err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
			ss, err := tx.Sessions(context.Background(), thinkgraph.SessionFilter{})
			n = len(ss)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := sessions()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := clone(doc)
			c.set(d, c.value)
			s := btSession{t, s.cs, "src"}
			out := s.fail(map[string]any{"command": map[string]any{"type": "import", "data": d}}, "ValidationError", c.field)
			if msg, _ := out["error"].(string); len(msg) > 2000 {
				t.Errorf("the error repeats the value: %d bytes", len(msg))
			}
			if n := sessions(); n != before {
				t.Errorf("%d sessions after a refused import, want %d", n, before)
			}
		})
	}
	// The document as exported imports, and the imported session goes on
	// at the next step.
	imp := mustCall(t, s.cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": doc}})
	next := mustCall(t, s.cs, "think", map[string]any{"thought": "Go on", "session_id": imp["session_id"]})
	if next["step"] != float64(5) {
		t.Fatalf("think after the import: %v", next)
	}
}

// TestExportImportFeedback: the feedback people gave in the viewer goes
// through export and import over MCP (thought ids remapped, delivered or
// not), an imported undelivered piece reaches the new session's next tool
// result, a bad entry is refused naming feedback[i].field with nothing
// written, and a version 1 document (no feedback) still imports.
func TestExportImportFeedback(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	s := btSession{t, e.connect(), "fb-src"}
	first := s.thought("The cache is warm after a deploy", "hypothesis", "confidence", 0.6)
	second := s.thought("So the first requests are fast", "analysis", "confidence", 0.7)
	ref := reasoning.SessionRef{ID: "fb-src", Explicit: true, Tenant: thinkgraph.LocalTenant}
	give := func(thought any, kind, text string) {
		if _, err := e.srv.svc.AddFeedback(ctx, reasoning.FeedbackInput{Session: ref, ThoughtID: thought.(string), Kind: kind, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	give(first["thoughtId"], "refute", "It is cold: the deploy empties it")
	if got := s.cmd("list", nil); got["human_feedback"] == nil {
		t.Fatalf("the refutation was not delivered: %v", got)
	}
	give(second["thoughtId"], "comment", "Measure the first minute after a deploy")
	doc := obj(s.cmd("export", nil), "document")
	fb := list(doc, "feedback")
	if doc["version"] != float64(2) || len(fb) != 2 || obj(doc, "counts")["feedback"] != float64(2) {
		t.Fatalf("export: version %v, feedback %v, counts %v", doc["version"], fb, doc["counts"])
	}
	f0, f1 := fb[0].(map[string]any), fb[1].(map[string]any)
	if f0["thoughtId"] != first["thoughtId"] || f0["kind"] != "refute" || f0["delivered"] != true || f0["deliveredAt"] == nil ||
		f1["thoughtId"] != second["thoughtId"] || f1["kind"] != "comment" || f1["delivered"] != false || f1["text"] != "Measure the first minute after a deploy" {
		t.Fatalf("exported feedback: %v", fb)
	}

	sessions := func() int {
		var n int
		if err := e.store.View(ctx, func(tx thinkgraph.Tx) error {
			ss, err := tx.Sessions(ctx, thinkgraph.SessionFilter{})
			n = len(ss)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := sessions()
	for _, c := range []struct {
		name, key string
		value     any
		field     string
	}{
		{"unknown kind", "kind", "dislike", "data.feedback[1].kind"},
		{"empty text", "text", "", "data.feedback[1].text"},
		{"text too long", "text", strings.Repeat("x", reasoning.MaxFeedbackText+1), "data.feedback[1].text"},
		{"thought not in the document", "thoughtId", "ghost", "data.feedback[1].thoughtId"},
		{"no thought", "thoughtId", "", "data.feedback[1].thoughtId"},
		{"deliveredAt but not delivered", "deliveredAt", "2026-11-24T10:00:00Z", "data.feedback[1].deliveredAt"},
		{"an author other than human", "author", "bot", "data.feedback[1].author"},
		{"NUL in the text", "text", "a\x00b", "data.feedback[1].text"},
		{"a blank text", "text", " \n\t ", "data.feedback[1].text"},
		{"a field no export writes", "by", "me", "data.feedback[1].by"},
	} {
		d := clone(doc)
		list(d, "feedback")[1].(map[string]any)[c.key] = c.value
		out := s.fail(map[string]any{"command": map[string]any{"type": "import", "data": d}}, "ValidationError", c.field)
		if msg, _ := out["error"].(string); !strings.Contains(msg, "feedback[1]") {
			t.Errorf("%s: the error does not name the entry: %v", c.name, out)
		}
		if n := sessions(); n != before {
			t.Fatalf("%s: %d sessions after a refused import, want %d", c.name, n, before)
		}
	}

	imp := mustCall(t, s.cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": doc}})
	if imp["feedback"] != float64(2) {
		t.Fatalf("import report: %v", imp)
	}
	// The comment was not delivered: the import's own result (the new
	// session's first) carries it, on the remapped thought; the
	// refutation was delivered before and is not carried again.
	got := list(imp, "human_feedback")
	newSecond := obj(imp, "thoughtIdMap")[second["thoughtId"].(string)]
	if len(got) != 1 || got[0].(map[string]any)["kind"] != "comment" || got[0].(map[string]any)["thought_id"] != newSecond {
		t.Fatalf("human_feedback of the import: %v", got)
	}
	s2 := btSession{t, s.cs, imp["session_id"].(string)}
	exp := s2.cmd("export", nil)
	if exp["human_feedback"] != nil {
		t.Fatalf("delivered twice: %v", exp["human_feedback"])
	}
	again := obj(exp, "document")
	// The same document but for the comment's delivery.
	want := clone(doc)
	wf, gf := list(want, "feedback")[1].(map[string]any), list(again, "feedback")[1].(map[string]any)
	if gf["delivered"] != true || gf["deliveredAt"] == nil {
		t.Fatalf("the delivered comment: %v", gf)
	}
	wf["delivered"], wf["deliveredAt"] = true, gf["deliveredAt"]
	obj(want, "session")["updatedAt"] = obj(again, "session")["updatedAt"]
	if normalize(t, want) != normalize(t, again) {
		t.Fatalf("round trip differs:\n%s\n%s", normalize(t, want), normalize(t, again))
	}

	// A version 1 document, written before feedback was exported.
	v1 := clone(doc)
	v1["version"] = 1
	delete(v1, "feedback")
	delete(obj(v1, "counts"), "feedback")
	if imp := mustCall(t, s.cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": v1}}); imp["feedback"] != float64(0) || imp["thoughts"] != float64(2) {
		t.Fatalf("version 1 import: %v", imp)
	}
}
