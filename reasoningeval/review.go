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
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
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
	found          []analyze.Contradiction // the first page of those asserted
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
	o.asserted, o.found = res.Count, res.Contradictions
	for _, c := range res.Contradictions {
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

// CleanFigures are the figures on clean items: correct step-by-step
// solutions in which nothing contradicts anything and nothing argues in a
// circle, so that every contradiction findContradictions asserts and every
// circular finding of detectCircular is false. Claims and Bytes are what
// the findContradictions review showed (its groups' claims, the result's
// JSON): what a model reads of a session with nothing to find.
type CleanFigures struct {
	Sessions, Steps int
	// Asserted counts the contradictions asserted, Circular the circular
	// findings; AssertedIn and CircularIn the sessions with at least one.
	Asserted, Circular     int
	AssertedIn, CircularIn int
	Claims, Bytes          int
}

// Per100 is n per 100 sessions (nil without sessions).
func (f CleanFigures) Per100(n int) *float64 { return ratio(100*n, f.Sessions) }

// runClean writes a clean item's steps as thoughts of branch main in a
// fresh session, runs findContradictions and detectCircular, and counts
// every finding, each one a miss.
func runClean(ctx context.Context, bt *branching.BranchThinking, it Item, f *CleanFigures) ([]Miss, error) {
	_, sess, err := write(ctx, bt, it.Steps)
	if err != nil {
		return nil, err
	}
	o, err := reviewPair(ctx, bt, sess, "", "", 0, 0)
	if err != nil {
		return nil, err
	}
	out, err := bt.Command(ctx, branching.CommandInput{Session: sess, Type: "detectCircular"})
	if err != nil {
		return nil, err
	}
	circ := out.(*branching.CircularResult)
	f.Sessions++
	f.Steps += len(it.Steps)
	f.Asserted += o.asserted
	f.Circular += circ.Count
	f.Claims += o.claims
	f.Bytes += o.bytes
	if o.asserted > 0 {
		f.AssertedIn++
	}
	if circ.Count > 0 {
		f.CircularIn++
	}
	var misses []Miss
	for _, c := range o.found {
		misses = append(misses, Miss{it.ID, it.Kind, "contradiction", fmt.Sprintf("false assertion #%d/#%d: %s", c.ThoughtA.Step, c.ThoughtB.Step, c.Reason)})
	}
	for _, c := range circ.Circular {
		steps := make([]string, len(c.Thoughts))
		for i, t := range c.Thoughts {
			steps[i] = fmt.Sprintf("#%d", t.Step)
		}
		misses = append(misses, Miss{it.ID, it.Kind, "circular", fmt.Sprintf("false finding %s over %s", c.Kind, strings.Join(steps, ","))})
	}
	return misses, nil
}

// String formats the figures as one line, "clean sessions=… asserted_per_100=
// circular_per_100= …" ("" without clean items).
func (f CleanFigures) String() string {
	if f.Sessions == 0 {
		return ""
	}
	per := func(n int) string { return fmt.Sprintf("%.1f", float64(n)/float64(f.Sessions)) }
	return fmt.Sprintf("clean sessions=%d steps=%d asserted_per_100=%.1f circular_per_100=%.1f asserted=%d (in %d sessions) circular=%d (in %d sessions) review_claims_per_session=%s bytes_per_session=%s",
		f.Sessions, f.Steps, *f.Per100(f.Asserted), *f.Per100(f.Circular), f.Asserted, f.AssertedIn, f.Circular, f.CircularIn, per(f.Claims), per(f.Bytes))
}
