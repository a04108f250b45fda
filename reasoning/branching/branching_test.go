package branching

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// A session that grows after a findContradictions call is reviewed anew:
// a conflict planted after the first call is asserted by the next one (the
// certain judge: the same limit, two figures) and its two thoughts are
// shown together in the review; nothing is reported twice.
func TestBranchReviewAfterGrowth(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newSemanticService(t, filepath.Join(t.TempDir(), "c.db"), lex)
	now := time.Now().UTC()
	doc := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion, Session: reasoning.ExchangeSession{ID: "big", ActiveBranch: "main", CreatedAt: now, UpdatedAt: now},
		Branches: []reasoning.ExchangeBranch{{ID: "main", State: "active", Priority: 1}}}
	prev := ""
	for i := range 420 {
		id := fmt.Sprintf("t%d", i)
		doc.Thoughts = append(doc.Thoughts, reasoning.ExchangeThought{ID: id, Step: i + 1, BranchID: "main", ParentID: prev, Type: "observation",
			Content: fmt.Sprintf("Service %d answers request number %d from region %d", i, i*7, i%9), CreatedAt: now})
		prev = id
	}
	doc.Session.StepCount = len(doc.Thoughts)
	rep, err := svc.ImportSession(context.Background(), doc, "")
	if err != nil {
		t.Fatal(err)
	}
	bt := NewBranchThinking(svc, nil)
	ref := reasoning.SessionRef{ID: rep.SessionID, Explicit: true}
	ctx := context.Background()
	run := func() *ContradictionsResult {
		t.Helper()
		out, err := bt.Command(ctx, CommandInput{Session: ref, Type: "findContradictions"})
		if err != nil {
			t.Fatal(err)
		}
		return out.(*ContradictionsResult)
	}
	first := run()
	var ids []string
	var steps []int
	for _, c := range []string{"The billing database pool is capped at 20 connections.", "The billing database pool is capped at 200 connections."} {
		out, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: c, Type: "analysis", BranchID: "pool"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, out.ThoughtID)
		steps = append(steps, out.Step)
	}
	second := run()
	if second.Count != first.Count+1 {
		t.Fatalf("after the conflict: %d contradictions, want %d", second.Count, first.Count+1)
	}
	if !slices.ContainsFunc(second.Contradictions, func(c analyze.Contradiction) bool { return c.ThoughtA.ID == ids[0] && c.ThoughtB.ID == ids[1] }) {
		t.Fatalf("the new pair is not asserted: %+v", second.Contradictions)
	}
	together := false
	for _, g := range second.Review.Groups {
		var in []int
		for _, cl := range g.Claims {
			in = append(in, cl.Step)
		}
		together = together || slices.Contains(in, steps[0]) && slices.Contains(in, steps[1])
	}
	if !together {
		t.Fatalf("the two new thoughts are in no review group: %+v", second.Review.Groups)
	}
	if third := run(); third.Count != second.Count {
		t.Fatalf("repeated call: %d, want %d", third.Count, second.Count)
	}
}

// Two processes on one database: each keeps its own analysis state, which
// catches up with what the other wrote (the state is a cache of the store).
func TestBranchStateFollowsOtherWriters(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shared.db")
	a := NewBranchThinking(newSemanticService(t, path, lex), nil)
	b := NewBranchThinking(newSemanticService(t, path, lex), nil)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "shared", Explicit: true}
	add := func(bt *BranchThinking, content string) *BranchThoughtResult {
		t.Helper()
		r, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: content, Type: "analysis", BranchID: "x"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	eval := func(bt *BranchThinking) analyze.Evaluation {
		t.Helper()
		out, err := bt.Command(ctx, CommandInput{Session: ref, Type: "evaluate", BranchID: "x"})
		if err != nil {
			t.Fatal(err)
		}
		return out.(*EvaluateResult).Evaluation
	}
	add(a, "The cache lowers API latency")
	add(a, "The cache needs invalidation on writes")
	if ev := eval(b); ev.Thoughts != 2 {
		t.Fatalf("b sees %d thoughts", ev.Thoughts)
	}
	add(a, "Invalidation on writes keeps the cache fresh")
	r := add(b, "We should not cache API responses")
	if r.NumThoughts != 4 || r.Evaluation == nil {
		t.Fatalf("b's add: %+v", r)
	}
	evA, evB := eval(a), eval(b)
	if evA.Thoughts != 4 || evB.Thoughts != 4 || *evA.OverallScore != *evB.OverallScore {
		t.Fatalf("a %d %v, b %d %v", evA.Thoughts, *evA.OverallScore, evB.Thoughts, *evB.OverallScore)
	}
	// A goal set by one process is used by the other.
	g := "Lower API latency"
	if _, err := a.Command(ctx, CommandInput{Session: ref, Type: "setGoal", Goal: &g}); err != nil {
		t.Fatal(err)
	}
	if ev := eval(b); ev.GoalAlignment == nil {
		t.Fatal("b ignores the goal set by a")
	}
}

// stubGenerator stands in for an LLM-backed Generator in tests.
type stubGenerator struct{ fail bool }

func (g stubGenerator) Counterfactuals(_ context.Context, branch []analyze.Doc, off *CounterfactualsResult) (*CounterfactualsResult, error) {
	if g.fail {
		return nil, errors.New("provider down")
	}
	out := *off
	out.Method = fmt.Sprintf("stub:%d", len(branch))
	return &out, nil
}

func (g stubGenerator) Dialectical(_ context.Context, off *DialecticalResult) (*DialecticalResult, error) {
	if g.fail {
		return nil, errors.New("provider down")
	}
	out := *off
	out.Method = "stub"
	return &out, nil
}

// The Generator seam: a generator's result replaces the offline one and
// says so in method; when it fails the offline result is returned with a
// note.
func TestBranchGeneratorSeam(t *testing.T) {
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bt := NewBranchThinking(newSemanticService(t, filepath.Join(t.TempDir(), "g.db"), lex), nil)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "gen", Explicit: true}
	for _, in := range []BranchThoughtInput{
		{Content: "We should use PostgreSQL for the store", Type: "hypothesis", BranchID: "a"},
		{Content: "We should not use PostgreSQL for the store", Type: "hypothesis", BranchID: "b"},
	} {
		in.Session = ref
		if _, err := bt.AddThought(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	run := func(typ string) (string, string) {
		t.Helper()
		out, err := bt.Command(ctx, CommandInput{Session: ref, Type: typ, BranchID: map[string]string{"generateCounterfactuals": "a"}[typ]})
		if err != nil {
			t.Fatal(err)
		}
		switch r := out.(type) {
		case *CounterfactualsResult:
			return r.Method, r.Note
		case *DialecticalResult:
			return r.Method, r.Note
		}
		t.Fatalf("%T", out)
		return "", ""
	}
	if m, _ := run("generateCounterfactuals"); m != "offline" {
		t.Fatal(m)
	}
	bt.SetGenerator(stubGenerator{})
	if m, _ := run("generateCounterfactuals"); m != "stub:1" {
		t.Fatal(m)
	}
	if m, _ := run("synthesizeDialectical"); m != "stub" {
		t.Fatal(m)
	}
	bt.SetGenerator(stubGenerator{fail: true})
	if m, note := run("synthesizeDialectical"); m != "offline" || !strings.Contains(note, "provider down") {
		t.Fatal(m, note)
	}
}
