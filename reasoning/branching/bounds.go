package branching

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// What a command's result may hold, so that it stays within its budget
// (docs/contracts.md, "Result budgets") whatever the session's size: the
// main list of a paged command is cut to a page (limit, cursor, and a page
// saying what was left out), and every other list to a few items, the
// count of the rest in the result's omitted map ("paths[0].thoughts": 40).

var (
	// branchPage: list and statistics, the active branch and the latest
	// branches first.
	branchPage = reasoning.PageSize{Default: 20, Max: 100, Bytes: 6 << 10}
	// historyPage: a branch's latest thoughts.
	historyPage = reasoning.PageSize{Default: 10, Max: 100, Bytes: 10 << 10}
	// findingPage: contradictions, circular arguments, drifting branches,
	// knowledge gaps, profiles and merge candidates.
	findingPage = reasoning.PageSize{Default: 10, Max: 50, Bytes: 8 << 10}
	// similarPage: findSimilar's thoughts, whole texts.
	similarPage = reasoning.PageSize{Default: 3, Max: 100, Bytes: 10 << 10}
)

const (
	// historyClip is how much of a thought's text history shows without
	// verbose.
	historyClip = 300
	// fewRefs is how many thoughts a secondary list names (the evidence of
	// a claim, the contradictions in an evaluation).
	fewRefs = 3
	// claimClip is how much of a claim a circular argument's support links
	// quote.
	claimClip = 200
	// pathEnds is how many thoughts a long path shows: its first and its
	// last pathEnds-1 (the omitted map counts those between).
	pathEnds = 8
)

func (in CommandInput) page() reasoning.PageArgs {
	return reasoning.PageArgs{Limit: in.Limit, Cursor: in.Cursor}
}

// omit records in *m (made on first use) that n items of the list at path
// were left out of a result.
func omit(m *map[string]int, path string, n int) {
	if n <= 0 {
		return
	}
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[path] += n
}

// head keeps at most n items of the list at path, counting the rest in *m.
func head[T any](m *map[string]int, path string, items []T, n int) []T {
	out, left := reasoning.Head(items, n)
	omit(m, path, left)
	return out
}

// pathEndsOf keeps the first thought of a long path and its last ones.
func pathEndsOf[T any](m *map[string]int, path string, items []T) []T {
	if len(items) <= pathEnds {
		return items
	}
	omit(m, path, len(items)-pathEnds)
	return append([]T{items[0]}, items[len(items)-pathEnds+1:]...)
}

// byRecency orders branch summaries for a page: the active branch, then the
// branches written to last.
func byRecency(bs []BranchSummary, lastStep map[string]int) {
	slices.SortStableFunc(bs, func(a, b BranchSummary) int {
		if a.Active != b.Active {
			if a.Active {
				return -1
			}
			return 1
		}
		return cmp.Compare(lastStep[b.ID], lastStep[a.ID])
	})
}

// lastSteps maps each branch to the step of its latest thought.
func lastSteps(ths []thinkgraph.Thought) map[string]int {
	out := map[string]int{}
	for _, th := range ths {
		out[th.BranchID] = max(out[th.BranchID], th.Step)
	}
	return out
}

// topCounts keeps the n largest counts of m, counting the other keys under
// omitted.
func topCounts(m map[string]int, n int, omitted *map[string]int, path string) map[string]int {
	if len(m) <= n {
		return m
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
	out := make(map[string]int, n)
	for _, k := range keys[:n] {
		out[k] = m[k]
	}
	omit(omitted, path, len(keys)-n)
	return out
}

// boundEvaluation keeps a few of an evaluation's contradictions and
// circular arguments (its issues count them all).
func boundEvaluation(ev *analyze.Evaluation, m *map[string]int, path string) {
	ev.Contradictions = head(m, path+".contradictions", ev.Contradictions, fewRefs)
	ev.Circular = head(m, path+".circular", ev.Circular, 2)
	for i := range ev.Circular {
		boundCircular(&ev.Circular[i], m, fmt.Sprintf("%s.circular[%d]", path, i))
	}
}

// boundCircular keeps the ends of a long cycle and a few support links.
func boundCircular(c *analyze.CircularReasoning, m *map[string]int, path string) {
	c.Thoughts = pathEndsOf(m, path+".thoughts", c.Thoughts)
	c.Support = head(m, path+".support", c.Support, 2*fewRefs)
	for i := range c.Support {
		l := &c.Support[i]
		l.From.Text, l.To.Text = thinkgraph.Clip(l.From.Text, claimClip), thinkgraph.Clip(l.To.Text, claimClip)
	}
	c.Reason = thinkgraph.Clip(c.Reason, 400)
}
