package reasoning

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// TestFeedbackRefusedInput: each bad field is named; nothing is stored.
func TestFeedbackRefusedInput(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newSemanticService(t, filepath.Join(t.TempDir(), "f.db"), lex)
	ctx := context.Background()
	ref := SessionRef{ID: "fb", Explicit: true}
	th, err := writeThought(ctx, svc, ref, "A thought")
	if err != nil {
		t.Fatal(err)
	}
	id := th.ID
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
	// The thought may be named by its step ("#1" or "1"), as in every tool.
	f, err := svc.AddFeedback(ctx, FeedbackInput{Session: ref, ThoughtID: "#1", Kind: "confirm", Text: "yes"})
	if err != nil || f.ThoughtID != id {
		t.Errorf("feedback on #1: %+v, %v; want it on %s", f, err, id)
	}
	if _, err := svc.AddFeedback(ctx, FeedbackInput{Session: ref, ThoughtID: "#2", Kind: "confirm", Text: "yes"}); thinkgraph.AsError(err).Code != thinkgraph.CodeThoughtNotFound {
		t.Errorf("feedback on #2 of a one-thought session: %v", err)
	}
	notes, _, err := svc.DeliverFeedback(ctx, ref)
	if err != nil || len(notes) != 2 {
		t.Errorf("delivered %d notes (%v), want the two accepted", len(notes), err)
	}
}

// TestFeedbackBounds: a session takes MaxFeedbackPerMinute pieces of
// feedback a minute and MaxSessionFeedback in all; past either bound the
// answer is a LimitError (with a retry time for the first).
func TestFeedbackBounds(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newSemanticService(t, filepath.Join(t.TempDir(), "f.db"), lex)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc.now = func() time.Time { return clock }
	ctx := context.Background()
	ref := SessionRef{ID: "fb", Explicit: true}
	if _, err := writeThought(ctx, svc, ref, "A thought"); err != nil {
		t.Fatal(err)
	}
	add := func() error {
		_, err := svc.AddFeedback(ctx, FeedbackInput{Session: ref, ThoughtID: "#1", Kind: "comment", Text: "x"})
		return err
	}
	for n := 0; n < MaxSessionFeedback; n++ {
		if n > 0 && n%MaxFeedbackPerMinute == 0 {
			te := thinkgraph.AsError(add())
			if te.Code != thinkgraph.CodeLimit || te.RetryAfter != time.Minute || !strings.Contains(te.Message, "in the last minute") {
				t.Fatalf("piece %d in one minute: %v (%s, retry after %v), want a LimitError", MaxFeedbackPerMinute+1, te, te.Code, te.RetryAfter)
			}
			clock = clock.Add(time.Minute + time.Second)
		}
		if err := add(); err != nil {
			t.Fatalf("piece %d: %v", n+1, err)
		}
	}
	clock = clock.Add(time.Hour)
	if te := thinkgraph.AsError(add()); te.Code != thinkgraph.CodeLimit || te.RetryAfter != 0 || !strings.Contains(te.Message, "the most a session keeps") {
		t.Fatalf("piece %d of the session: %v, want a LimitError", MaxSessionFeedback+1, te)
	}
	notes, waiting, err := svc.DeliverFeedback(ctx, ref)
	if err != nil || len(notes) != MaxFeedbackPerResult || waiting != MaxSessionFeedback-MaxFeedbackPerResult {
		t.Fatalf("delivered %d, %d waiting (%v)", len(notes), waiting, err)
	}
}
