package semantic

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Thresholds configure EvaluateBranch. Zero fields mean the defaults of
// DefaultThresholds, so a partial configuration can be passed.
type Thresholds struct {
	Excellent float64 `json:"excellent"` // overall ≥ Excellent: "Excellent" (0.85)
	Good      float64 `json:"good"`      // overall ≥ Good: "Good" (0.65)
	Moderate  float64 `json:"moderate"`  // overall ≥ Moderate: "Moderate" (0.45), below: "Poor"
	// Pivot: overall below it sets shouldPivot (0.4).
	Pivot float64 `json:"suggestPivotThreshold"`
	// NearDuplicate: cosine from which a thought repeats an earlier one (0.9).
	NearDuplicate float64 `json:"nearDuplicate"`
	// TopicalOverlap: cosine a pair needs to be checked for contradiction (0.3).
	TopicalOverlap float64 `json:"topicalOverlap"`
	// Neighbors: nearest thoughts per thought checked for contradiction (10).
	Neighbors int `json:"neighbors"`
}

// DefaultThresholds returns the thresholds of the branch-thinking seed.
func DefaultThresholds() Thresholds {
	return Thresholds{Excellent: 0.85, Good: 0.65, Moderate: 0.45, Pivot: 0.4, NearDuplicate: DefaultNearDuplicate, TopicalOverlap: 0.3, Neighbors: 10}
}

func (t Thresholds) withDefaults() Thresholds {
	d := DefaultThresholds()
	if t.Excellent <= 0 {
		t.Excellent = d.Excellent
	}
	if t.Good <= 0 {
		t.Good = d.Good
	}
	if t.Moderate <= 0 {
		t.Moderate = d.Moderate
	}
	if t.Pivot <= 0 {
		t.Pivot = d.Pivot
	}
	if t.NearDuplicate <= 0 {
		t.NearDuplicate = d.NearDuplicate
	}
	if t.TopicalOverlap <= 0 {
		t.TopicalOverlap = d.TopicalOverlap
	}
	if t.Neighbors <= 0 {
		t.Neighbors = d.Neighbors
	}
	return t
}

// Metrics are the six branch metrics, each in [0, 1], nil when it cannot be
// computed (Evaluation.Unavailable says why). For coherence, information
// gain, goal alignment and confidence gradient higher is better; for
// contradiction and redundancy lower is better.
type Metrics struct {
	CoherenceScore     *float64 `json:"coherenceScore"`
	ContradictionScore *float64 `json:"contradictionScore"`
	InformationGain    *float64 `json:"informationGain"`
	GoalAlignment      *float64 `json:"goalAlignment"`
	ConfidenceGradient *float64 `json:"confidenceGradient"`
	RedundancyScore    *float64 `json:"redundancyScore"`
}

// Evaluation is the result of EvaluateBranch. Its JSON is the seed's
// evaluation object (metrics inline); Auto gives the seed's auto-evaluation
// shape.
type Evaluation struct {
	Metrics
	// OverallScore is nil when no metric could be computed.
	OverallScore *float64 `json:"overallScore"`
	// Quality is Excellent, Good, Moderate or Poor ("Unrated" without score).
	Quality     string   `json:"quality"`
	Issues      []string `json:"issues"`
	Suggestions []string `json:"suggestions"`
	ShouldPivot bool     `json:"shouldPivot"`
	PivotReason string   `json:"pivotReason,omitempty"`
	// Thoughts is the number of thoughts evaluated, WithVectors how many had
	// vectors.
	Thoughts    int `json:"thoughtCount"`
	WithVectors int `json:"withVectors"`
	// Unavailable maps the JSON name of each nil metric to the reason.
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// Contradictions found in the branch (the judge's positive verdicts).
	Contradictions []Contradiction `json:"contradictions,omitempty"`
	// Exact is false when near neighbours were found approximately (large
	// branches): information gain and redundancy then use the most similar
	// earlier thought among each thought's nearest neighbours.
	Exact bool `json:"exact"`
}

// AutoEvaluation is the evaluation attached to an added thought in the seed
// (score, quality, issues, suggestions, shouldPivot, pivotReason, metrics).
type AutoEvaluation struct {
	Score       *float64 `json:"score"`
	Quality     string   `json:"quality"`
	Issues      []string `json:"issues"`
	Suggestions []string `json:"suggestions"`
	ShouldPivot bool     `json:"shouldPivot,omitempty"`
	PivotReason string   `json:"pivotReason,omitempty"`
	Metrics     Metrics  `json:"metrics"`
}

// Auto returns e in the seed's auto-evaluation shape.
func (e Evaluation) Auto() AutoEvaluation {
	return AutoEvaluation{Score: e.OverallScore, Quality: e.Quality, Issues: e.Issues, Suggestions: e.Suggestions,
		ShouldPivot: e.ShouldPivot, PivotReason: e.PivotReason, Metrics: e.Metrics}
}

// Metric weights in the overall score.
const (
	weightCoherence     = 0.25
	weightContradiction = 0.20
	weightInformation   = 0.20
	weightGoal          = 0.20
	weightGradient      = 0.05
	weightRedundancy    = 0.10
)

// Levels under (or, for contradiction and redundancy, over) which a metric is
// reported as an issue.
const (
	issueCoherence  = 0.3
	issueInfoGain   = 0.3
	issueGoal       = 0.3
	issueGradient   = 0.35
	issueRedundancy = 0.25
)

// EvaluateBranch scores one branch. docs are the branch's thoughts (any
// order; they are read in step order); goal is the session goal's vector or
// nil; judge decides contradictions (nil: contradictionScore unavailable).
// Over the m thoughts with vectors, c(i, j) their cosine, c⁺ = max(0, c):
//
//   - coherenceScore = mean over consecutive thoughts of c⁺(i−1, i); needs m ≥ 2;
//   - contradictionScore = flagged / candidates, where candidates are the
//     distinct pairs (i, j) with j among i's th.Neighbors nearest and
//     c(i, j) ≥ th.TopicalOverlap, and flagged those the judge calls
//     contradictory; 0 when there is no candidate; needs m ≥ 2 and a judge;
//   - informationGain = mean over i ≥ 2 of 1 − max over j < i of c⁺(i, j);
//   - goalAlignment = mean of c⁺(i, goal); needs a goal;
//   - confidenceGradient = 0.5 + b/2 clamped to [0, 1], b the least-squares
//     slope of confidence over the position in the branch scaled to [0, 1]
//     (b = change of confidence from first to last thought along the fitted
//     line; 0.5 = flat); needs ≥ 2 thoughts with a confidence;
//   - redundancyScore = share of thoughts i ≥ 2 whose max over j < i of
//     c(i, j) is ≥ th.NearDuplicate.
//
// overallScore = Σ wₖ·gₖ / Σ wₖ over the available metrics, with g the metric
// for coherence, information gain, goal alignment and confidence gradient and
// 1 − metric for contradiction and redundancy; weights 0.25 coherence, 0.20
// contradiction, 0.20 information gain, 0.20 goal alignment, 0.05 confidence
// gradient, 0.10 redundancy. quality: ≥ th.Excellent "Excellent", ≥ th.Good
// "Good", ≥ th.Moderate "Moderate", else "Poor". shouldPivot when overall <
// th.Pivot. Up to knnExactMax thoughts every earlier thought is compared;
// above, the nearest neighbours are found approximately (Exact false).
func EvaluateBranch(docs []Doc, goal Vector, judge PairJudge, th Thresholds) Evaluation {
	th = th.withDefaults()
	docs = byStep(docs)
	vd := vectorsOf(docs, nil)
	m := vd.m.n
	ev := Evaluation{Thoughts: len(docs), WithVectors: m, Unavailable: map[string]string{}, Issues: []string{}, Suggestions: []string{}}
	ev.Exact = m <= knnExactMax
	f := func(x float64) *float64 { return &x }

	// Most similar earlier thought of each, and each thought's neighbours.
	maxEarlier := make([]float32, m)
	var nbs [][]neighbor
	if m >= 2 {
		if ev.Exact {
			nbs = make([][]neighbor, m)
			parallelRows(m, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					best := float32(-1)
					h := topHeap{k: th.Neighbors}
					ri := vd.m.row(i)
					for j := 0; j < m; j++ {
						if j == i {
							continue
						}
						s := dotF32(ri, vd.m.row(j))
						if j < i {
							best = max(best, s)
						}
						if s >= float32(th.TopicalOverlap) && h.wants(s) {
							h.push(scored{i: j, s: s})
						}
					}
					maxEarlier[i] = best
					nbs[i] = heapToNeighbors(h)
				}
			})
		} else {
			nbs = knnGraph(vd.m, max(th.Neighbors, 16), 0)
			for i, l := range nbs {
				best := float32(0)
				for _, nb := range l {
					if int(nb.j) < i {
						best = max(best, nb.s)
					}
				}
				maxEarlier[i] = best
			}
		}
	}

	if m >= 2 {
		var coh, gain float64
		dups := 0
		for i := 1; i < m; i++ {
			coh += max(0, float64(dotF32(vd.m.row(i-1), vd.m.row(i))))
			gain += 1 - max(0, float64(maxEarlier[i]))
			if float64(maxEarlier[i]) >= th.NearDuplicate {
				dups++
			}
		}
		ev.CoherenceScore = f(clampUnit(coh / float64(m-1)))
		ev.InformationGain = f(clampUnit(gain / float64(m-1)))
		ev.RedundancyScore = f(float64(dups) / float64(m-1))
		if judge != nil {
			// Candidates: the Neighbors nearest above the topical overlap.
			var pairs []rowPair
			for i, l := range nbs {
				for n, nb := range l {
					if n >= th.Neighbors || float64(nb.s) < th.TopicalOverlap {
						break
					}
					lo, hi := int32(i), nb.j
					if lo > hi {
						lo, hi = hi, lo
					}
					pairs = append(pairs, rowPair{lo, hi, nb.s})
				}
			}
			slices.SortFunc(pairs, func(a, b rowPair) int {
				if c := cmp.Compare(a.lo, b.lo); c != 0 {
					return c
				}
				return cmp.Compare(a.hi, b.hi)
			})
			pairs = slices.CompactFunc(pairs, func(a, b rowPair) bool { return a.lo == b.lo && a.hi == b.hi })
			ev.Contradictions = judgePairs(docs, vd, pairs, judge, 0)
			score := 0.0
			if len(pairs) > 0 {
				score = float64(len(ev.Contradictions)) / float64(len(pairs))
			}
			ev.ContradictionScore = f(score)
		} else {
			ev.Unavailable["contradictionScore"] = "no contradiction judge configured"
		}
	} else {
		reason := fmt.Sprintf("needs at least 2 thoughts with vectors, the branch has %d", m)
		ev.Unavailable["coherenceScore"] = reason
		ev.Unavailable["informationGain"] = reason
		ev.Unavailable["redundancyScore"] = reason
		ev.Unavailable["contradictionScore"] = reason
	}

	switch {
	case len(goal) == 0:
		ev.Unavailable["goalAlignment"] = "no goal set for the session"
	case m == 0:
		ev.Unavailable["goalAlignment"] = "no thought of the branch has a vector"
	case len(goal) != vd.m.dim:
		ev.Unavailable["goalAlignment"] = fmt.Sprintf("goal vector has %d dimensions, thoughts have %d", len(goal), vd.m.dim)
	default:
		g := asUnit(goal)
		var s float64
		for i := range m {
			s += max(0, float64(dotF32(vd.m.row(i), g)))
		}
		ev.GoalAlignment = f(clampUnit(s / float64(m)))
	}

	var xs, ys []float64
	for i, d := range docs {
		if d.Confidence != nil {
			x := 0.0
			if len(docs) > 1 {
				x = float64(i) / float64(len(docs)-1)
			}
			xs = append(xs, x)
			ys = append(ys, *d.Confidence)
		}
	}
	if len(ys) >= 2 {
		ev.ConfidenceGradient = f(clampUnit(0.5 + lsSlope(xs, ys)/2))
	} else {
		ev.Unavailable["confidenceGradient"] = fmt.Sprintf("needs at least 2 thoughts with a confidence, the branch has %d", len(ys))
	}

	// Overall score over the available metrics.
	var sum, wsum float64
	type good struct {
		name string
		g    float64
	}
	var goods []good
	add := func(name string, v *float64, w float64, invert bool) {
		if v == nil {
			return
		}
		g := *v
		if invert {
			g = 1 - g
		}
		sum += w * g
		wsum += w
		goods = append(goods, good{name, g})
	}
	add("coherence", ev.CoherenceScore, weightCoherence, false)
	add("contradiction", ev.ContradictionScore, weightContradiction, true)
	add("information gain", ev.InformationGain, weightInformation, false)
	add("goal alignment", ev.GoalAlignment, weightGoal, false)
	add("confidence gradient", ev.ConfidenceGradient, weightGradient, false)
	add("redundancy", ev.RedundancyScore, weightRedundancy, true)
	if wsum > 0 {
		o := sum / wsum
		ev.OverallScore = &o
		switch {
		case o >= th.Excellent:
			ev.Quality = "Excellent"
		case o >= th.Good:
			ev.Quality = "Good"
		case o >= th.Moderate:
			ev.Quality = "Moderate"
		default:
			ev.Quality = "Poor"
		}
	} else {
		ev.Quality = "Unrated"
		ev.Issues = append(ev.Issues, "nothing to evaluate: no thought has a vector or a confidence")
	}

	ev.issues(th)
	if ev.OverallScore != nil && *ev.OverallScore < th.Pivot {
		ev.ShouldPivot = true
		slices.SortStableFunc(goods, func(a, b good) int { return cmp.Compare(a.g, b.g) })
		var weak []string
		for _, g := range goods[:min(2, len(goods))] {
			weak = append(weak, fmt.Sprintf("%s %.2f", g.name, g.g))
		}
		ev.PivotReason = fmt.Sprintf("overall score %.2f is below the pivot threshold %.2f; weakest (as goodness, 1 = best): %s",
			*ev.OverallScore, th.Pivot, strings.Join(weak, ", "))
		ev.Suggestions = append(ev.Suggestions, "consider pivoting: start a new branch from the last sound thought or revisit the approach")
	}
	if len(ev.Unavailable) == 0 {
		ev.Unavailable = nil
	}
	return ev
}

// issues derives the issues and suggestions from the metrics.
func (ev *Evaluation) issues(th Thresholds) {
	if n := len(ev.Contradictions); n > 0 {
		var pairs []string
		for _, c := range ev.Contradictions[:min(3, n)] {
			pairs = append(pairs, fmt.Sprintf("%s and %s (%s)", c.ThoughtA.ID, c.ThoughtB.ID, c.Reason))
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
		}
		ev.Issues = append(ev.Issues, fmt.Sprintf("%d contradiction(s) between thoughts %s%s", n, strings.Join(pairs, "; "), more))
		c := ev.Contradictions[0]
		ev.Suggestions = append(ev.Suggestions, fmt.Sprintf("resolve the contradiction between %s and %s, or reconcile the two sides (synthesizeDialectical)", c.ThoughtA.ID, c.ThoughtB.ID))
	}
	if v := ev.CoherenceScore; v != nil && *v < issueCoherence {
		ev.Issues = append(ev.Issues, fmt.Sprintf("low coherence (%.2f): consecutive thoughts are only weakly related", *v))
		ev.Suggestions = append(ev.Suggestions, "make each step follow from the previous one, or move unrelated ideas to a branch of their own")
	}
	if v := ev.InformationGain; v != nil && *v < issueInfoGain {
		ev.Issues = append(ev.Issues, fmt.Sprintf("low information gain (%.2f): thoughts repeat each other", *v))
		ev.Suggestions = append(ev.Suggestions, "add new evidence, examples or counterexamples instead of restating earlier thoughts")
	}
	if v := ev.RedundancyScore; v != nil && *v > issueRedundancy {
		ev.Issues = append(ev.Issues, fmt.Sprintf("%.0f%% of the thoughts are near-duplicates (similarity ≥ %.2f) of earlier ones", *v*100, th.NearDuplicate))
		ev.Suggestions = append(ev.Suggestions, "remove or merge the repeated thoughts")
	}
	if v := ev.GoalAlignment; v != nil && *v < issueGoal {
		ev.Issues = append(ev.Issues, fmt.Sprintf("weak goal alignment (%.2f): the branch is not about the session goal", *v))
		ev.Suggestions = append(ev.Suggestions, "refocus the branch on the goal, or update the goal if it has changed")
	} else if v == nil && ev.Unavailable["goalAlignment"] == "no goal set for the session" {
		ev.Suggestions = append(ev.Suggestions, "set a goal (setGoal) so that goal alignment can be measured")
	}
	if v := ev.ConfidenceGradient; v != nil && *v < issueGradient {
		ev.Issues = append(ev.Issues, fmt.Sprintf("confidence falls along the branch (gradient %.2f)", *v))
		ev.Suggestions = append(ev.Suggestions, "validate the claims whose confidence dropped before building on them")
	}
}
