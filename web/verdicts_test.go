package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
)

// The viewer counts a contradiction stated with judge, and its Markdown
// download evaluates with the session goal as evaluate does.
func TestViewerAgreesWithEvaluate(t *testing.T) {
	srv, svc := newTestViewer(t)
	ctx := context.Background()
	bt := branching.NewBranchThinking(svc, nil)
	ref := reasoning.SessionRef{ID: "venue", Explicit: true, Tenant: "a"}
	goal := "Choose where the team meets for the offsite"
	if _, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "setGoal", Goal: &goal}); err != nil {
		t.Fatal(err)
	}
	add := func(content, branch string, refs ...branching.CrossRef) {
		t.Helper()
		if _, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: ref, Content: content, Type: "analysis", BranchID: branch, CrossRefs: refs}); err != nil {
			t.Fatal(err)
		}
	}
	add("The offsite should be held in Lisbon", "main")
	add("Lisbon has cheap direct flights for most of the team", "main")
	add("The offsite should be held in a cabin in the mountains", "mountains")
	if _, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "judge", ThoughtID: "#3", OtherThoughtID: "#1", Verdict: "contradiction"}); err != nil {
		t.Fatal(err)
	}

	_, _, js := get(t, srv, "tok-a", "/sessions/venue/graph")
	var p struct {
		Contradictions int `json:"contradictions"`
	}
	if err := json.Unmarshal([]byte(js), &p); err != nil || p.Contradictions != 1 {
		t.Fatalf("viewer: %d contradictions (%v)", p.Contradictions, err)
	}
	out, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "evaluate", BranchID: "main"})
	if err != nil {
		t.Fatal(err)
	}
	ev := out.(*branching.EvaluateResult).Evaluation
	if ev.GoalAlignment == nil {
		t.Fatalf("evaluate without goal alignment: %+v", ev)
	}
	_, _, md := get(t, srv, "tok-a", "/sessions/venue/export/markdown")
	want := fmt.Sprintf("| goal alignment | %.2f |", *ev.GoalAlignment)
	if !strings.Contains(md, want) || strings.Contains(md, "set a goal (setGoal)") {
		t.Fatalf("viewer export lacks %q:\n%s", want, md)
	}
}
