package reasoning

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// TestFeedbackRefutedLeftOutOfStrongestPaths: findStrongestPaths leaves out
// a thought a person refuted and what follows it; a later confirmation
// brings it back. Feedback is delivered once, with advice for a refuted
// thought on the current path.
func TestFeedbackRefutedLeftOutOfStrongestPaths(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newSemanticService(t, filepath.Join(t.TempDir(), "f.db"), lex)
	bt := NewBranchThinking(svc)
	ctx := context.Background()
	ref := SessionRef{ID: "fb", Explicit: true}
	var ids []string
	for _, text := range []string{"Profile the slow query first", "The index on orders is missing", "Add the index and measure again"} {
		c := 0.8
		r, err := svc.Think(ctx, ThinkInput{Session: ref, Thought: text, Confidence: &c})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Thought.ID)
	}
	strongest := func() string {
		t.Helper()
		out, err := bt.Command(ctx, CommandInput{Session: ref, Type: "findStrongestPaths"})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, p := range out.(*PathsResult).Paths {
			var steps []string
			for _, th := range p.Thoughts {
				steps = append(steps, th.ID)
			}
			paths = append(paths, strings.Join(steps, ">"))
		}
		return strings.Join(paths, " ")
	}
	all := strings.Join(ids, ">")
	if got := strongest(); got != all {
		t.Fatalf("before feedback: %s, want %s", got, all)
	}
	add := func(id, kind, text string) {
		t.Helper()
		if _, err := svc.AddFeedback(ctx, FeedbackInput{Session: ref, ThoughtID: id, Kind: kind, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	add(ids[1], thinkgraph.FeedbackRefute, "The index exists; the planner ignores it")
	if got, want := strongest(), ids[0]; got != want {
		t.Errorf("with step 2 refuted: %s, want %s", got, want)
	}
	notes, err := svc.DeliverFeedback(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || notes[0].ThoughtID != ids[1] || notes[0].Kind != "refute" || !strings.Contains(notes[0].Advice, "backtrack") {
		t.Errorf("delivered: %+v", notes)
	}
	if again, err := svc.DeliverFeedback(ctx, ref); err != nil || len(again) != 0 {
		t.Errorf("delivered again: %+v, %v", again, err)
	}
	add(ids[1], thinkgraph.FeedbackConfirm, "On second look, it is missing")
	if got := strongest(); got != all {
		t.Errorf("after the confirmation: %s, want %s", got, all)
	}
}

// TestFeedbackRefusedInput: each bad field is named; nothing is stored.
func TestFeedbackRefusedInput(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newSemanticService(t, filepath.Join(t.TempDir(), "f.db"), lex)
	ctx := context.Background()
	ref := SessionRef{ID: "fb", Explicit: true}
	r, err := svc.Think(ctx, ThinkInput{Session: ref, Thought: "A thought"})
	if err != nil {
		t.Fatal(err)
	}
	id := r.Thought.ID
	for _, c := range []struct {
		in    FeedbackInput
		field string
		code  thinkgraph.Code
	}{
		{FeedbackInput{Session: ref, ThoughtID: id, Kind: "reject", Text: "x"}, "kind", thinkgraph.CodeValidation},
		{FeedbackInput{Session: ref, Kind: "comment", Text: "x"}, "thought_id", thinkgraph.CodeValidation},
		{FeedbackInput{Session: ref, ThoughtID: "nope", Kind: "comment", Text: "x"}, "thought_id", thinkgraph.CodeThoughtNotFound},
		{FeedbackInput{Session: ref, ThoughtID: id, Kind: "comment"}, "text", thinkgraph.CodeValidation},
		{FeedbackInput{Session: ref, ThoughtID: id, Kind: "comment", Text: strings.Repeat("é", MaxFeedbackText+1)}, "text", thinkgraph.CodeValidation},
		{FeedbackInput{Session: SessionRef{ID: "fb", Explicit: true, Tenant: "other"}, ThoughtID: id, Kind: "comment", Text: "x"}, "session_id", thinkgraph.CodeSessionNotFound},
	} {
		_, err := svc.AddFeedback(ctx, c.in)
		if te := thinkgraph.AsError(err); te.Field != c.field || te.Code != c.code {
			t.Errorf("%+v: error %v (field %q, code %s), want field %q, code %s", c.in, err, te.Field, te.Code, c.field, c.code)
		}
	}
	if _, err := svc.AddFeedback(ctx, FeedbackInput{Session: ref, ThoughtID: id, Kind: "comment", Text: strings.Repeat("é", MaxFeedbackText)}); err != nil {
		t.Errorf("%d characters: %v", MaxFeedbackText, err)
	}
	notes, err := svc.DeliverFeedback(ctx, ref)
	if err != nil || len(notes) != 1 {
		t.Errorf("delivered %d notes (%v), want the one accepted", len(notes), err)
	}
}
