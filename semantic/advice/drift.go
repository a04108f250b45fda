package advice

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// DriftOptions tunes DetectDrift; zero values mean the defaults.
type DriftOptions struct {
	// Threshold is how many standard deviations below the session's
	// thoughts the second half of a branch must be anchored for a drift
	// verdict (default 1).
	Threshold float64
	// TextSimilarity, when set, is a second measure of how related two
	// texts are, in [0, 1] (the offline engine's word alignment); each
	// thought's anchoring then averages the two measures.
	TextSimilarity func(a, b string) float64
	// GoalText is the goal's text, for TextSimilarity.
	GoalText string
}

// DefaultDriftThreshold is DetectDrift's default threshold.
const DefaultDriftThreshold = 1.25

// Drift needs a trend: a verdict over at least minTrendThoughts thoughts of
// the branch, standardized over at least driftMinSession thoughts of the
// session.
const (
	driftMinSession = 8
	// driftCentroids is how many of the closest other branches (by
	// centroid) and the first thought count in a thought's anchoring.
	driftCentroids = 2
	// driftContext is how many of a thought's most related context
	// thoughts count in its text anchoring, among the driftAlignPool
	// nearest by vector.
	driftContext   = 3
	driftAlignPool = 8
	// driftWordsMax is the session size up to which TextSimilarity is
	// used (its cost is per pair of texts).
	driftWordsMax = 300
	// driftWindow is how many of the session's latest thoughts drift is
	// measured on: where a long session wanders now.
	driftWindow = 2000
	// A branch too short for a trend is off the goal when each of its at
	// least offGoalThoughts thoughts is as far below the session's other
	// thoughts as a drifting branch's second half (the threshold): on the
	// scenario sets no focused branch of 3 or more thoughts has all its
	// thoughts below −0.59.
	offGoalThoughts = 3
)

// BranchDrift is the drift of one branch.
type BranchDrift struct {
	Branch   string `json:"branchId"`
	Thoughts int    `json:"thoughtCount"`
	// Start and End are the mean anchoring of the first and of the second
	// half of the branch, in standard deviations from the session's mean
	// (0: as anchored as the session's thoughts on average; −1: one
	// standard deviation less). Nil when there is no verdict.
	Start *float64 `json:"startAnchoring,omitempty"`
	End   *float64 `json:"endAnchoring,omitempty"`
	// Furthest are the steps of the branch's least anchored thoughts.
	Furthest []int `json:"furthestSteps,omitempty"`
	// Drifting says the branch is away from the goal: its late thoughts
	// drifted, or (OffGoal) it was off the goal from its first thought.
	Drifting bool   `json:"drifting"`
	OffGoal  bool   `json:"offGoal,omitempty"`
	Reason   string `json:"reason,omitempty"` // why it drifts, or why there is no verdict
	// Z is the anchoring of each of the branch's thoughts with a vector,
	// in step order (nil when the session gives no figures).
	Z []float64 `json:"-"`
}

// DetectDrift finds the branches that wander away from the session's goal
// and its other lines of reasoning.
//
// Each thought t with a vector gets anchoring figures: its cosine with the
// goal vector, and the mean of its driftCentroids highest cosines with the
// centroids of the other branches and with the session's first thought
// (the session context); with opts.TextSimilarity (sessions of at most
// driftWordsMax thoughts) also its similarity to the goal's text and the
// mean of its driftContext highest similarities to the driftAlignPool
// context thoughts nearest by vector. A branch's figures are standardized
// against the rest of the session (z = (x − mean) / standard deviation
// over the thoughts of the other branches), so the verdict means the same
// whatever the scale of the embedder's cosines, and a thought's anchoring
// is the mean of its z scores. A branch of at least 4 thoughts drifts when the mean anchoring
// of its second half (the last ⌊n/2⌋ thoughts) is at or below
// −opts.Threshold: its late thoughts are that many standard deviations
// less related to the goal and the session than the session's other
// thoughts. A branch each of whose thoughts is at or below −opts.Threshold
// is off the goal from its first thought rather than drifting (both are
// Drifting; OffGoal tells them apart); that takes 3 thoughts, one fewer
// than a trend. A session of fewer than 8 thoughts with vectors, or with fewer
// than 4 outside the branch, gives no verdict. Branches are returned
// drifting first, most drifting first.
//
// On the scenario dev set (reasoningeval/testdata/scenarios) the drifting
// branches' second halves sit at −1.7 to −2.9 and the focused ones' at
// −0.9 or above, with the offline engine's vectors and word alignment;
// the default threshold, 1.25, lies between.
//
// A session of more than driftWindow (2,000) thoughts is measured on its
// latest 2,000: a branch's older thoughts then count as absent.
//
// Cost: O(n·b) cosines for n thoughts on b branches; with TextSimilarity
// O(n²) cosines and n·driftAlignPool text similarities (n ≤ driftWordsMax).
func DetectDrift(docs []analyze.Doc, goal semantic.Vector, opts DriftOptions) []BranchDrift {
	if opts.Threshold <= 0 {
		opts.Threshold = DefaultDriftThreshold
	}
	docs = byStep(docs)
	if len(docs) > driftWindow {
		docs = docs[len(docs)-driftWindow:]
	}
	vd := vectorsOf(docs)
	groups := analyze.GroupBranches(docs)
	feats, why := anchoring(docs, vd, goal, opts)
	rowOf := make(map[string]int, len(vd.rows))
	for r, i := range vd.rows {
		rowOf[docs[i].ID] = r
	}
	var out []BranchDrift
	for _, g := range groups {
		bd := BranchDrift{Branch: g.ID, Thoughts: len(g.Docs)}
		var rows, steps []int
		for _, d := range g.Docs {
			if r, ok := rowOf[d.ID]; ok {
				rows, steps = append(rows, r), append(steps, d.Step)
			}
		}
		vals := standardized(feats, rows)
		if why == "" {
			bd.Z = vals
		}
		switch {
		case why != "":
			bd.Reason = why
		case len(rows) >= offGoalThoughts && len(rows) < minTrendThoughts && len(vd.rows)-len(rows) >= driftMinSession/2 && slices.Max(vals) <= -opts.Threshold:
			bd.Drifting, bd.OffGoal = true, true
			bd.Reason = fmt.Sprintf("each of its %d thoughts is %.2f sd or more less related to the goal and the session than the other branches' thoughts", len(rows), -slices.Max(vals))
		case len(rows) < minTrendThoughts:
			bd.Reason = fmt.Sprintf("too short: %d of the %d thoughts a verdict needs", len(rows), minTrendThoughts)
		case len(vd.rows)-len(rows) < driftMinSession/2:
			bd.Reason = fmt.Sprintf("%d thought(s) of the session outside the branch: drift is measured against them, at least %d", len(vd.rows)-len(rows), driftMinSession/2)
		default:
			h := len(vals) / 2
			s, e := round2(meanOf(vals[:h])), round2(meanOf(vals[len(vals)-h:]))
			bd.Start, bd.End = &s, &e
			order := make([]int, len(vals))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(vals[x], vals[y]) })
			for _, i := range order[:2] {
				bd.Furthest = append(bd.Furthest, steps[i])
			}
			switch {
			case e <= -opts.Threshold && slices.Max(vals) <= -opts.Threshold:
				bd.Drifting, bd.OffGoal = true, true
				bd.Reason = fmt.Sprintf("each of its %d thoughts is %.2f sd or more less related to the goal and the session than the other branches' thoughts", len(vals), -slices.Max(vals))
			case e <= -opts.Threshold:
				bd.Drifting = true
				bd.Reason = fmt.Sprintf("its last %d thoughts are %.2f sd less related to the goal and the session than the other branches' thoughts", h, -e)
			} // else no reason: endAnchoring, above −threshold, says it
		}
		out = append(out, bd)
	}
	slices.SortStableFunc(out, func(x, y BranchDrift) int {
		if x.Drifting != y.Drifting {
			return cmp.Compare(boolRank(!x.Drifting), boolRank(!y.Drifting))
		}
		if x.End == nil || y.End == nil {
			return cmp.Compare(boolRank(x.End == nil), boolRank(y.End == nil))
		}
		return cmp.Compare(*x.End, *y.End)
	})
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// anchoring returns the raw anchoring figures of the thoughts with vectors
// (see DetectDrift), one column per figure, indexed by row of vd, or the
// reason there are none.
func anchoring(docs []analyze.Doc, vd vectors, goal semantic.Vector, opts DriftOptions) ([][]float64, string) {
	n := len(vd.rows)
	if n < driftMinSession {
		return nil, fmt.Sprintf("the session has %d thought(s) with vectors: drift is measured against the session's thoughts, at least %d", n, driftMinSession)
	}
	branch := func(r int) string { return docs[vd.rows[r]].Branch }
	const root = 0 // the session's first thought with a vector frames it
	// The centroid of each branch's unit vectors.
	cents := map[string][]float32{}
	for r := range n {
		c := cents[branch(r)]
		if c == nil {
			c = make([]float32, vd.dim)
			cents[branch(r)] = c
		}
		for i, x := range vd.unit[r] {
			c[i] += x
		}
	}
	for b, c := range cents {
		cents[b] = semantic.AsUnit(c)
	}
	var feats [][]float64
	addFeat := func(f func(r int) float64) {
		col := make([]float64, n)
		for r := range n {
			col[r] = f(r)
		}
		feats = append(feats, col)
	}
	if len(goal) == vd.dim {
		g := semantic.AsUnit(goal)
		addFeat(func(r int) float64 { return float64(semantic.Dot(vd.unit[r], g)) })
	}
	// The session context of r: the other branches (their centroids) and
	// the first thought.
	if len(cents) > 1 {
		addFeat(func(r int) float64 {
			var xs []float64
			for b, c := range cents {
				if b != branch(r) {
					xs = append(xs, float64(semantic.Dot(vd.unit[r], c)))
				}
			}
			if r != root {
				xs = append(xs, float64(semantic.Dot(vd.unit[r], vd.unit[root])))
			}
			return topMean(xs, driftCentroids)
		})
	}
	if opts.TextSimilarity != nil && n <= driftWordsMax {
		text := func(r int) string { return docs[vd.rows[r]].Content }
		if opts.GoalText != "" {
			addFeat(func(r int) float64 { return opts.TextSimilarity(text(r), opts.GoalText) })
		}
		addFeat(func(r int) float64 {
			// The driftAlignPool context thoughts nearest by vector.
			type near struct {
				c int
				s float32
			}
			var l []near
			for c := range n {
				if c != r && (branch(c) != branch(r) || c == root) {
					l = append(l, near{c, semantic.Dot(vd.unit[r], vd.unit[c])})
				}
			}
			slices.SortFunc(l, func(x, y near) int { return cmp.Compare(y.s, x.s) })
			var xs []float64
			for _, nb := range l[:min(driftAlignPool, len(l))] {
				xs = append(xs, opts.TextSimilarity(text(r), text(nb.c)))
			}
			return topMean(xs, driftContext)
		})
	}
	if len(feats) == 0 {
		return nil, "no goal and a single branch: nothing to measure the thoughts against"
	}
	return feats, ""
}

// topMean is the mean of the k largest of xs (0 for none).
func topMean(xs []float64, k int) float64 {
	slices.SortFunc(xs, func(x, y float64) int { return cmp.Compare(y, x) })
	return meanOf(xs[:min(k, len(xs))])
}

// standardized returns, for each of rows (a branch), the mean over the
// feature columns of its z-score against the rows not among rows (the rest
// of the session): (x − mean) / standard deviation of the others. A
// column that does not vary among the others is left out.
func standardized(feats [][]float64, rows []int) []float64 {
	out := make([]float64, len(rows))
	if len(feats) == 0 {
		return out
	}
	in := map[int]bool{}
	for _, r := range rows {
		in[r] = true
	}
	used := 0
	for _, col := range feats {
		var others []float64
		for r, x := range col {
			if !in[r] {
				others = append(others, x)
			}
		}
		m := meanOf(others)
		var ss float64
		for _, x := range others {
			ss += (x - m) * (x - m)
		}
		if len(others) == 0 || ss == 0 {
			continue
		}
		sd := math.Sqrt(ss / float64(len(others)))
		used++
		for k, r := range rows {
			out[k] += (col[r] - m) / sd
		}
	}
	for k := range out {
		if used > 0 {
			out[k] /= float64(used)
		}
	}
	return out
}
