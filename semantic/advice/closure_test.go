package advice

import (
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"testing"
)

func TestClosingSentence(t *testing.T) {
	closing := []string{
		"The licence costs too much for a team of four, so I rule it out.",
		"We're ruling the vendor option out.",
		"Given the lead times, this route is off the table.",
		"A second data centre is not viable at our size.",
		"That makes manual reconciliation unworkable; we drop it.",
		"The proposal was rejected by the board after the audit.",
		"So I'm dropping this one and moving on.",
		"Rebuilding from scratch is a dead end.",
		"Outsourcing is no longer an option after the contract change.",
		"Let's set it aside for good.",
		"I’m ruling out the cheaper supplier entirely.",
	}
	open := []string{
		"Four hours of sun rules out most fruiting crops, so leaves are the question.",
		"We should not rule it out yet.",
		"Should we rule the vendor out?",
		"If the quote doubles, this route is off the table.",
		"The old pump cannot be dropped without a permit.",
		"Nothing here is off the table; not ruling anything out.",
		"Rejection rates fell after the new check.",
		"The migration dropped 3% of rows, which we must fix.",
		"Unless the lease changes, the hub stays viable.",
	}
	for _, s := range closing {
		if ClosingSentence(s) == "" {
			t.Errorf("not closing: %q", s)
		}
	}
	for _, s := range open {
		if c := ClosingSentence(s); c != "" {
			t.Errorf("closing: %q (%q)", s, c)
		}
	}
}

func TestClosures(t *testing.T) {
	docs := []analyze.Doc{
		{ID: "1", Step: 1, Branch: "main", Type: "analysis", Content: "Three options."},
		{ID: "2", Step: 2, Branch: "a", Type: "hypothesis", Content: "Option A is cheap."},
		{ID: "3", Step: 3, Branch: "a", Type: "critique", Content: "It fails the audit, so I rule it out."},
		{ID: "4", Step: 4, Branch: "b", Type: "hypothesis", Content: "Option B is fast."},
		{ID: "5", Step: 5, Branch: "b", Type: "critique", Content: "B needs a licence we lack."},
		{ID: "6", Step: 6, Branch: "c", Type: "hypothesis", Content: "Option C scales."},
		{ID: "7", Step: 7, Branch: "d", Type: "hypothesis", Content: "Option D is simple.", Refuted: true},
		{ID: "8", Step: 8, Branch: "e", Type: "hypothesis", Content: "Option E is proven."},
		{ID: "9", Step: 9, Branch: "main", Type: "synthesis", Content: "Recommendation: C; I rule out A and B."},
	}
	got := Closures(docs, ClosureOptions{
		Marked:         map[string]string{"e": "too slow"},
		Contradictions: []analyze.Contradiction{{ThoughtA: analyze.Ref(docs[3]), ThoughtB: analyze.Ref(docs[4])}},
	})
	want := map[string]string{"a": "words", "b": "contradicted", "d": "refuted", "e": "marked"}
	if len(got) != len(want) {
		t.Fatalf("closures = %+v", got)
	}
	for b, by := range want {
		if got[b].By != by {
			t.Errorf("branch %s closed by %q, want %q (%+v)", b, got[b].By, by, got[b])
		}
	}
	if got["e"].Reason != "too slow" || got["a"].Step != 3 || got["b"].Step != 5 {
		t.Errorf("closures = %+v", got)
	}
	if c, ok := Conclusion(docs, nil, nil); !ok || c.ID != "9" {
		t.Errorf("conclusion = %+v %v", c, ok)
	}
	if _, ok := Conclusion(docs[:8], nil, nil); ok {
		t.Errorf("a session without synthesis has a conclusion")
	}
}
