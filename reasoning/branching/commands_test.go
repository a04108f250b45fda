package branching

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/think"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// newSemanticService returns a service on a new SQLite store at path with
// the semantic engine on emb.
func newSemanticService(t *testing.T, path string, emb semantic.Embedder) *reasoning.Service {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

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
	bt := NewBranchThinking(svc, nil)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "fb", Explicit: true}
	var ids []string
	for _, text := range []string{"Profile the slow query first", "The index on orders is missing", "Add the index and measure again"} {
		c := 0.8
		r, err := think.New(svc).Think(ctx, think.Input{Session: ref, Thought: text, Confidence: &c})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.CurrentNodeID)
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
		if _, err := svc.AddFeedback(ctx, reasoning.FeedbackInput{Session: ref, ThoughtID: id, Kind: kind, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	add(ids[1], thinkgraph.FeedbackRefute, "The index exists; the planner ignores it")
	if got, want := strongest(), ids[0]; got != want {
		t.Errorf("with step 2 refuted: %s, want %s", got, want)
	}
	notes, _, err := svc.DeliverFeedback(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || notes[0].ThoughtID != ids[1] || notes[0].Kind != "refute" || !strings.Contains(notes[0].Advice, "backtrack") {
		t.Errorf("delivered: %+v", notes)
	}
	if again, _, err := svc.DeliverFeedback(ctx, ref); err != nil || len(again) != 0 {
		t.Errorf("delivered again: %+v, %v", again, err)
	}
	add(ids[1], thinkgraph.FeedbackConfirm, "On second look, it is missing")
	if got := strongest(); got != all {
		t.Errorf("after the confirmation: %s, want %s", got, all)
	}
}

// findSimilar with the offline embedder re-ranks its best candidates by
// word alignment: a description that shares no word with a clause of a
// lease finds it, and limit still bounds the answer.
func TestFindSimilarRerank(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bt := NewBranchThinking(newSemanticService(t, filepath.Join(t.TempDir(), "lease.db"), lex), nil)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "lease", Explicit: true}
	clauses := []string{
		"The tenant must give sixty days' notice before leaving.",
		"The landlord keeps the security deposit if the flat is damaged.",
		"Either party may terminate the contract for a material breach.",
		"Disputes go to binding arbitration rather than court.",
		"All invoices are payable within thirty days.",
		"The employee may not work for a competitor for one year after leaving.",
		"Late payments accrue interest at two percent per month.",
		"Amendments are valid only if signed by both parties.",
	}
	var ids []string
	for _, c := range clauses {
		r, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: c, Type: "analysis"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ThoughtID)
	}
	limit := 3
	out, err := bt.Command(ctx, CommandInput{Session: ref, Type: "findSimilar", Query: "a renter has to warn the owner two months before moving out", Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*SimilarResult).Results
	if len(res) != limit || res[0].ThoughtID != ids[0] {
		t.Fatalf("want %d results, the notice clause first: %+v", limit, res)
	}
	for i := 1; i < len(res); i++ {
		if res[i].Similarity > res[i-1].Similarity || res[i].Similarity < -1 {
			t.Fatalf("similarities not descending in [-1, 1]: %+v", res)
		}
	}
}
