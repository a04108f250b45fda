package mcpserver

import (
	"context"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Feedback reaches the model: a host that declares MCP Apps calls the
// app-only graph_view after each tool result, and those calls take no
// feedback; the next result the model sees carries it, at most 5 pieces
// with the count of the rest.
func TestFeedbackNotTakenByTheApp(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	hs := e.connectAppsHost()

	mustCall(t, hs, "think", map[string]any{"session_id": "fb", "thought": "The index on orders is missing"})
	for i := range 7 {
		if _, err := e.srv.svc.AddFeedback(ctx, reasoning.FeedbackInput{Session: reasoning.SessionRef{ID: "fb", Explicit: true},
			ThoughtID: "#1", Kind: "refute", Text: "The index exists; the planner ignores it " + string(rune('a'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if out := mustCall(t, hs, graphViewTool, map[string]any{"session_id": "fb"}); out[humanFeedbackField] != nil || out[humanFeedbackWaiting] != nil {
			t.Fatalf("graph_view took feedback: %v", out[humanFeedbackField])
		}
	}
	out := mustCall(t, hs, "show_current_path", map[string]any{"session_id": "fb"})
	if n := len(list(out, humanFeedbackField)); n != reasoning.MaxFeedbackPerResult || out[humanFeedbackWaiting] != 2.0 {
		t.Fatalf("first result: %d pieces, %v waiting", n, out[humanFeedbackWaiting])
	}
	out = mustCall(t, hs, "show_current_path", map[string]any{"session_id": "fb"})
	if n := len(list(out, humanFeedbackField)); n != 2 || out[humanFeedbackWaiting] != nil {
		t.Fatalf("second result: %d pieces, %v waiting", n, out[humanFeedbackWaiting])
	}
	if out = mustCall(t, hs, "show_current_path", map[string]any{"session_id": "fb"}); out[humanFeedbackField] != nil {
		t.Fatalf("third result: %v", out[humanFeedbackField])
	}
}
