package branching_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
)

// detectDrift with a threshold other than the default reads the thoughts as
// the session's drift does (a coding thought by its prose): a hair below the
// default it flags what the default flags.
func TestDriftAtAnotherThreshold(t *testing.T) {
	f, err := os.Open("../../reasoningeval/testdata/scenarios/code-dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := reasoningeval.ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	bt := newTool(t)
	ctx := context.Background()
	for _, sc := range scs {
		ref := reasoning.SessionRef{ID: sc.ID, Explicit: true}
		if _, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "setGoal", Goal: &sc.Goal}); err != nil {
			t.Fatal(err)
		}
		for _, th := range sc.Thoughts {
			if _, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: ref, Content: th.Content, Type: th.Type, BranchID: th.Branch, Confidence: th.Confidence}); err != nil {
				t.Fatal(err)
			}
		}
		at := 1.2499
		def := command[*branching.DriftResult](t, bt, branching.CommandInput{Session: ref, Type: "detectDrift"})
		near := command[*branching.DriftResult](t, bt, branching.CommandInput{Session: ref, Type: "detectDrift", Threshold: &at})
		a, b := slices.Sorted(slices.Values(def.Drifting)), slices.Sorted(slices.Values(near.Drifting))
		if !slices.Equal(a, b) {
			t.Errorf("%s: drifting %v at the default threshold, %v at %v", sc.ID, a, b, at)
		}
	}
}
