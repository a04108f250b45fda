package analyze

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// DriftOptions tunes DetectDrift; zero values mean the defaults.
type DriftOptions struct {
	// Threshold is the drift score at or above which a branch is reported as
	// drifting (default 0.3).
	Threshold float64
	// Furthest is how many of the least similar thoughts to list (default 3).
	Furthest int
	// Calibration maps the embedder's cosines to relatedness; the drift
	// score is a difference of relatedness (the zero value: Raw, of
	// cosines).
	Calibration Calibration
}

// ThoughtSimilarity is a thought with its cosine to a reference.
type ThoughtSimilarity struct {
	Thought    ThoughtRef `json:"thought"`
	Similarity float64    `json:"similarity"`
}

// DriftMeasure describes how a branch moves away from one reference vector.
type DriftMeasure struct {
	// Similarities are the cosines of the branch's thoughts with the
	// reference, in step order (thoughts without vectors are skipped).
	Similarities []float64 `json:"similarities"`
	// Trend is the least-squares slope of Similarities over the position in
	// the branch scaled to [0, 1]: the change in similarity from the first to
	// the last thought along the fitted line (negative: moving away).
	Trend float64 `json:"trend"`
	// Score is the drift in [0, 1], max(0, Start − End) (see DetectDrift).
	Score float64 `json:"driftScore"`
	// Start and End are relatedness (see Calibration): for the goal, of the
	// first and of the second half's mean similarity to it; for the start,
	// of the first half's thoughts to each other and to the second half's.
	Start float64 `json:"startRelatedness"`
	End   float64 `json:"endRelatedness"`
	// Furthest are the thoughts least similar to the reference.
	Furthest []ThoughtSimilarity `json:"furthest"`
}

// BranchDrift is the drift of one branch.
type BranchDrift struct {
	Branch   string `json:"branchId"`
	Thoughts int    `json:"thoughtCount"`
	// FromGoal is nil when no goal vector was given.
	FromGoal *DriftMeasure `json:"fromGoal,omitempty"`
	// FromStart measures against the branch's first thought (whose own
	// similarity, 1, is the first entry). Nil for branches of one thought.
	FromStart *DriftMeasure `json:"fromStart,omitempty"`
	Drifting  bool          `json:"drifting"`
	Reason    string        `json:"reason"`
}

// DetectDrift measures, per branch, how far the thoughts move away from the
// session goal (when goal is not nil) and from the branch's first thought.
//
// For each reference the branch gets the series s₁…sₙ of cosines of its
// thoughts (step order) with the reference (reported as Similarities; for
// the first-thought reference s₁ = 1), and its trend (the least-squares
// slope, without s₁ for the first thought). With R the relatedness of
// opts.Calibration (R of a mean of cosines, never of one cosine: one cosine
// of a thought says little) and h = ⌊n/2⌋:
//
//   - from the goal: Start = R(mean of s over the first h thoughts), End =
//     R(mean over the last h);
//   - from the start: Start = R(mean cosine of the pairs of the first h
//     thoughts), End = R(mean cosine of the pairs of one of the first h and
//     one of the later thoughts) (n ≥ 3), so that the start is the opening
//     of the branch, not its first thought alone;
//
// and score = max(0, Start − End): the relatedness lost between the start
// and the end of the branch, where 1 is the whole distance between the mean
// cosine of two thoughts on one topic and that of two unrelated thoughts. A
// branch is drifting when either score is ≥ opts.Threshold, with a falling
// trend and End < 0.5 (the end is closer to unrelated thoughts than to
// thoughts on the topic), and only when at least 4 of its thoughts have
// vectors: one thought's low similarity is no trend. The measures are
// reported for shorter branches too. Branches are returned in order of
// their largest score, descending.
func DetectDrift(docs []Doc, goal semantic.Vector, opts DriftOptions) []BranchDrift {
	if opts.Threshold <= 0 {
		opts.Threshold = 0.3
	}
	if opts.Furthest <= 0 {
		opts.Furthest = 3
	}
	var g []float32
	if len(goal) > 0 {
		g = semantic.AsUnit(goal)
	}
	var out []BranchDrift
	for _, br := range groupBranches(docs) {
		bd := BranchDrift{Branch: br.id, Thoughts: len(br.docs)}
		vd := vectorsOf(br.docs, nil)
		if vd.m.n == 0 {
			bd.Reason = "no thought of this branch has a vector yet"
			out = append(out, bd)
			continue
		}
		if g != nil && len(g) == vd.m.dim {
			var refs []ThoughtRef
			var ss []float64
			for r, i := range vd.rows {
				refs = append(refs, Ref(br.docs[i]))
				ss = append(ss, float64(semantic.Dot(vd.m.row(r), g)))
			}
			m := driftMeasure(refs, ss, 0, opts)
			bd.FromGoal = &m
		}
		if vd.m.n >= 2 {
			first := vd.m.row(0)
			var refs []ThoughtRef
			var ss []float64
			for r, i := range vd.rows {
				refs = append(refs, Ref(br.docs[i]))
				s := float64(semantic.Dot(vd.m.row(r), first))
				if r == 0 {
					s = 1
				}
				ss = append(ss, s)
			}
			m := driftMeasure(refs, ss, 1, opts)
			if n := vd.m.n; n >= 3 {
				// The start is the first half of the branch: its thoughts'
				// mean similarity with each other against their mean
				// similarity with the second half's thoughts.
				h := n / 2
				var within, across []float64
				for i := range n {
					for j := i + 1; j < n; j++ {
						c := float64(semantic.Dot(vd.m.row(i), vd.m.row(j)))
						switch {
						case j < h:
							within = append(within, c)
						case i < h:
							across = append(across, c)
						}
					}
				}
				if len(within) > 0 {
					m.Start, m.End = opts.Calibration.Relatedness(meanOf(within)), opts.Calibration.Relatedness(meanOf(across))
					m.Score = clampUnit(m.Start - m.End)
				}
			}
			bd.FromStart = &m
		}
		var parts []string
		if vd.m.n < minTrendThoughts {
			bd.Reason = fmt.Sprintf("%d thought(s) with vectors: a drift verdict needs a trend over at least %d", vd.m.n, minTrendThoughts)
			out = append(out, bd)
			continue
		}
		if bd.FromGoal != nil && bd.FromGoal.Score >= opts.Threshold && bd.FromGoal.Trend < 0 && bd.FromGoal.End < driftEndMax {
			bd.Drifting = true
			parts = append(parts, fmt.Sprintf("relatedness to the goal fell by %.2f from the first to the second half of the branch", bd.FromGoal.Score))
		}
		if bd.FromStart != nil && bd.FromStart.Score >= opts.Threshold && bd.FromStart.Trend < 0 && bd.FromStart.End < driftEndMax {
			bd.Drifting = true
			parts = append(parts, fmt.Sprintf("the second half of the branch is %.2f less related to the first half than the first half is to itself", bd.FromStart.Score))
		}
		switch {
		case bd.Drifting:
			bd.Reason = joinSemi(parts) + fmt.Sprintf(" (threshold %.2f)", opts.Threshold)
		default:
			bd.Reason = fmt.Sprintf("no drift above %.2f", opts.Threshold)
		}
		out = append(out, bd)
	}
	slices.SortStableFunc(out, func(a, b BranchDrift) int { return cmp.Compare(maxDrift(b), maxDrift(a)) })
	return out
}

// driftEndMax is the relatedness below which the end of a branch has to
// fall for a drift verdict: closer to unrelated thoughts than to thoughts
// on the topic. On the dev set's branches (TestEmbedderCalibration) it took
// the focused ones flagged from 7 of 24 to 5 and the drifting ones from 19
// of 24 to 18.
const driftEndMax = 0.5

func maxDrift(b BranchDrift) float64 {
	m := 0.0
	if b.FromGoal != nil {
		m = b.FromGoal.Score
	}
	if b.FromStart != nil {
		m = max(m, b.FromStart.Score)
	}
	return m
}

// driftMeasure measures the series ss against its halves; the first skip
// entries (the reference itself) are reported but not scored.
func driftMeasure(refs []ThoughtRef, ss []float64, skip int, opts DriftOptions) DriftMeasure {
	m := DriftMeasure{Similarities: ss}
	if sc := ss[min(skip, len(ss)):]; len(sc) > 0 {
		k := len(sc)
		half := max(1, k/2)
		cal := opts.Calibration
		m.Start, m.End = cal.Relatedness(meanOf(sc[:half])), cal.Relatedness(meanOf(sc[k-half:]))
		m.Score = clampUnit(m.Start - m.End)
		if k >= 2 {
			xs := make([]float64, k)
			for i := range xs {
				xs[i] = float64(i) / float64(k-1)
			}
			m.Trend = lsSlope(xs, sc)
		}
	}
	n, furthest := len(ss), opts.Furthest
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ss[a], ss[b]) })
	for _, i := range order[:min(furthest, n)] {
		m.Furthest = append(m.Furthest, ThoughtSimilarity{Thought: refs[i], Similarity: ss[i]})
	}
	return m
}

// branchDocs is the thoughts of one branch in step order.
type branchDocs struct {
	id   string
	docs []Doc
}

// groupBranches splits docs by branch ("" counts as "main"), each in step
// order, branches in order of their first step.
func groupBranches(docs []Doc) []branchDocs {
	var out []branchDocs
	at := map[string]int{}
	for _, d := range byStep(docs) {
		b := d.Branch
		if b == "" {
			b = "main"
		}
		i, ok := at[b]
		if !ok {
			i = len(out)
			at[b] = i
			out = append(out, branchDocs{id: b})
		}
		out[i].docs = append(out[i].docs, d)
	}
	return out
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// lsSlope is the least-squares slope of ys over xs (0 when xs do not vary).
func lsSlope(xs, ys []float64) float64 {
	mx, my := meanOf(xs), meanOf(ys)
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

func joinSemi(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "; "
		}
		s += p
	}
	return s
}
