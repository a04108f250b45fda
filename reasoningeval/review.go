package reasoningeval

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
)

// The consistency review is scored on sessions: a planted pair of thoughts
// is SURFACED when findContradictions asserts it, or shows both of its
// thoughts in one review group within the budget (a group of at most
// MaxGroupEntries claims, among the call's first MaxCallEntries claims,
// groups in the order given). Every asserted pair that is not planted is a
// false assertion. The cost is what the model reads: claims and bytes per
// call, and the time a call takes.

// The budget a review group is scored within.
const (
	MaxGroupEntries = 6
	MaxCallEntries  = 30
)

// ReviewFigures are the review's figures over a kind of item.
type ReviewFigures struct {
	Items     int // sessions (or pairs) run
	Positives int // items with a planted contradiction
	Surfaced  int // positives surfaced
	// Asserted counts the pairs findContradictions asserted, AssertedTrue
	// those that are planted.
	Asserted, AssertedTrue int
	Calls                  int
	Claims, Bytes          int // shown in all calls
	Elapsed                time.Duration
	// ByCategory counts positives and surfaced ones per category.
	ByCategory map[string]*[2]int
}

// SurfacedRecall is Surfaced / Positives (nil without positives).
func (f ReviewFigures) SurfacedRecall() *float64 { return ratio(f.Surfaced, f.Positives) }

// AssertedPrecision is AssertedTrue / Asserted (nil when nothing was
// asserted).
func (f ReviewFigures) AssertedPrecision() *float64 { return ratio(f.AssertedTrue, f.Asserted) }

func (f *ReviewFigures) add(category string, positive, surfaced bool) {
	if f.ByCategory == nil {
		f.ByCategory = map[string]*[2]int{}
	}
	c := f.ByCategory[category]
	if c == nil {
		c = &[2]int{}
		f.ByCategory[category] = c
	}
	f.Items++
	if positive {
		f.Positives++
		c[0]++
		if surfaced {
			f.Surfaced++
			c[1]++
		}
	}
}

// reviewOutcome is what one findContradictions call surfaced of a planted
// pair.
type reviewOutcome struct {
	surfaced       bool
	asserted, hits int
	claims, bytes  int
	elapsed        time.Duration
}

// reviewPair runs findContradictions on a session and scores the planted
// pair (ids a and b, steps sa and sb; "" and 0 for a session without one).
func reviewPair(ctx context.Context, bt *branching.BranchThinking, sess reasoning.SessionRef, a, b string, sa, sb int) (reviewOutcome, error) {
	var o reviewOutcome
	start := time.Now()
	out, err := bt.Command(ctx, branching.CommandInput{Session: sess, Type: "findContradictions"})
	o.elapsed = time.Since(start)
	if err != nil {
		return o, err
	}
	res := out.(*branching.ContradictionsResult)
	raw, err := json.Marshal(res)
	if err != nil {
		return o, err
	}
	o.bytes = len(raw)
	planted := func(x, y string) bool { return a != "" && (x == a && y == b || x == b && y == a) }
	for _, c := range res.Contradictions {
		o.asserted++
		if planted(c.ThoughtA.ID, c.ThoughtB.ID) {
			o.hits++
			o.surfaced = true
		}
	}
	if res.Review == nil {
		return o, nil
	}
	entries := 0
	for _, g := range res.Review.Groups {
		o.claims += len(g.Claims)
		inBudget := len(g.Claims) <= MaxGroupEntries
		hasA, hasB := false, false
		for _, c := range g.Claims {
			entries++
			if entries > MaxCallEntries {
				inBudget = false
			}
			hasA = hasA || c.Step == sa
			hasB = hasB || c.Step == sb
		}
		if inBudget && hasA && hasB && a != "" {
			o.surfaced = true
		}
	}
	return o, nil
}

// runSession writes a session item (every thought but the last on main,
// the last on branch recheck) and scores its review.
func runSession(ctx context.Context, bt *branching.BranchThinking, it Item, f *ReviewFigures) (Miss, bool, error) {
	sess := reasoning.SessionRef{ID: reasoning.NewID()}
	ids := make([]string, len(it.Thoughts))
	for i, t := range it.Thoughts {
		branch := "main"
		if i == len(it.Thoughts)-1 && i > 0 {
			branch = "recheck"
		}
		out, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: sess, Content: t, Type: "analysis", BranchID: branch})
		if err != nil {
			return Miss{}, false, err
		}
		ids[i] = out.ThoughtID
	}
	positive := it.Label == "contradiction"
	a, b, sa, sb := "", "", 0, 0
	if positive {
		a, b = ids[it.Pair[0]], ids[it.Pair[1]]
		sa, sb = it.Pair[0]+1, it.Pair[1]+1 // a new session: step i+1 is thought i
	}
	o, err := reviewPair(ctx, bt, sess, a, b, sa, sb)
	if err != nil {
		return Miss{}, false, err
	}
	f.record(o)
	f.add(it.Category, positive, o.surfaced)
	switch {
	case positive && !o.surfaced:
		return Miss{it.ID, it.Kind, it.Category, fmt.Sprintf("not surfaced: #%d/#%d", it.Pair[0]+1, it.Pair[1]+1)}, true, nil
	case o.asserted > o.hits:
		return Miss{it.ID, it.Kind, it.Category, fmt.Sprintf("%d false assertion(s)", o.asserted-o.hits)}, true, nil
	}
	return Miss{}, false, nil
}

// reviewPairItem runs a pair item as a session of two thoughts on main and
// scores its review.
func reviewPairItem(ctx context.Context, bt *branching.BranchThinking, it Item, f *ReviewFigures) error {
	ids, sess, err := write(ctx, bt, []string{it.A, it.B})
	if err != nil {
		return err
	}
	positive := it.Label == "contradiction"
	a, b, sa, sb := "", "", 0, 0
	if positive {
		a, b, sa, sb = ids[0], ids[1], 1, 2
	}
	o, err := reviewPair(ctx, bt, sess, a, b, sa, sb)
	if err != nil {
		return err
	}
	f.record(o)
	f.add(it.Category, positive, o.surfaced)
	return nil
}

func (f *ReviewFigures) record(o reviewOutcome) {
	f.Calls++
	f.Asserted += o.asserted
	f.AssertedTrue += o.hits
	f.Claims += o.claims
	f.Bytes += o.bytes
	f.Elapsed += o.elapsed
}

// String formats the figures as one line, "review kind=… surfaced_recall=
// asserted_precision= …", then one line per category with positives.
func (f ReviewFigures) String(kind string) string {
	if f.Items == 0 {
		return ""
	}
	var b strings.Builder
	per := func(n int) string { return fmt.Sprintf("%.1f", float64(n)/float64(f.Calls)) }
	fmt.Fprintf(&b, "review %s=%d surfaced_recall=%s asserted_precision=%s positives=%d surfaced=%d asserted=%d asserted_true=%d claims_per_call=%s bytes_per_call=%s ms_per_call=%.2f",
		kind, f.Items, fig(f.SurfacedRecall()), fig(f.AssertedPrecision()), f.Positives, f.Surfaced, f.Asserted, f.AssertedTrue,
		per(f.Claims), per(f.Bytes), float64(f.Elapsed.Microseconds())/1000/float64(f.Calls))
	for _, name := range sortedKeys(f.ByCategory) {
		c := f.ByCategory[name]
		if c[0] > 0 {
			fmt.Fprintf(&b, "\nreview %s category=%s surfaced=%d/%d (%.2f)", kind, name, c[1], c[0], float64(c[1])/float64(c[0]))
		}
	}
	return b.String()
}

func sortedKeys(m map[string]*[2]int) []string { return slices.Sorted(maps.Keys(m)) }
