package branching_test

import (
	"slices"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
)

// detectDrift with a threshold other than the default reads the thoughts as
// the session's drift does (a coding thought by its prose): a hair below the
// default it flags what the default flags.
func TestDriftAtAnotherThreshold(t *testing.T) {
	bt := newTool(t)
	for _, sc := range readScenarios(t, "code-dev.jsonl") {
		ref := reasoning.SessionRef{ID: sc.ID, Explicit: true}
		writeScenario(t, bt, ref, sc)
		at := 1.2499
		def := command[*branching.DriftResult](t, bt, branching.CommandInput{Session: ref, Type: "detectDrift"})
		near := command[*branching.DriftResult](t, bt, branching.CommandInput{Session: ref, Type: "detectDrift", Threshold: &at})
		a, b := slices.Sorted(slices.Values(def.Drifting)), slices.Sorted(slices.Values(near.Drifting))
		if !slices.Equal(a, b) {
			t.Errorf("%s: drifting %v at the default threshold, %v at %v", sc.ID, a, b, at)
		}
	}
}
