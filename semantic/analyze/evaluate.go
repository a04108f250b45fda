package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/internal/topk"
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
	// Calibration maps the embedder's cosines to relatedness for coherence
	// and goal alignment (the zero value: Raw, the cosine itself).
	Calibration Calibration `json:"-"`
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
	// Circular lists the circular arguments among the branch's last
	// evalCircularWindow thoughts (DetectCircular's circular_support); the
	// links between their thoughts add nothing to coherence.
	Circular []CircularReasoning `json:"circular,omitempty"`
	// Findings are the session-level checks' verdicts on the branch
	// (drifting, closed, circular), applied to the score (WithFindings).
	Findings []Finding `json:"findings,omitempty"`
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

// minTrendThoughts is the number of thoughts with vectors a pivot or drift
// verdict needs: below it the figures rest on one or two cosines, and one
// thought's low similarity says nothing about where a line of thought is
// going.
const minTrendThoughts = 4

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
//   - coherenceScore = R(mean over consecutive thoughts of c⁺(i−1, i)),
//     R the relatedness of th.Calibration (Raw: the mean itself), where a
//     pair of thoughts of one circular argument (circular_support, among
//     the branch's last 64 thoughts) counts 0: mutual support that goes
//     round in a circle earns no coherence; needs m ≥ 2;
//   - contradictionScore = flagged / candidates, where the candidates are
//     the pairs of each thought with its th.Neighbors most similar earlier
//     thoughts that have c ≥ th.TopicalOverlap, and flagged those the judge
//     calls contradictory, plus the stated contradictions of
//     BranchTracker.SetConfirmed the judge did not flag (each counts as a
//     flagged candidate); 0 when there is no candidate; needs m ≥ 2 and a
//     judge;
//   - informationGain = mean over i ≥ 2 of 1 − max over j < i of c⁺(i, j);
//   - goalAlignment = R(mean of c⁺(i, goal)); needs a goal and m ≥ 2
//     (one thought's cosine with a goal sentence says little);
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
// th.Pivot and at least 4 thoughts have vectors (a trend, not one thought's
// similarity); below 4 a low score gives a pivotReason saying why there is
// no verdict yet. Low coherence and weak goal alignment are reported as
// issues from 4 thoughts with vectors on, for the same reason.
//
// Up to knnExactMax thoughts every earlier thought is compared. Above, the
// nearest neighbours come from the approximate neighbour graph (knnGraph,
// 16 neighbours): the most similar earlier thought is the most similar one
// among a thought's neighbours (0 when none is earlier), and Exact is false.
// To evaluate a growing branch after every added thought, keep a
// BranchTracker instead: it computes the same figures incrementally, exactly.
func EvaluateBranch(docs []Doc, goal semantic.Vector, judge PairJudge, th Thresholds) Evaluation {
	return NewBranchTracker(docs, goal, judge, th).Evaluation()
}

// BranchTracker holds the running sums behind EvaluateBranch for one branch,
// so that a branch can be re-evaluated after each added thought at the cost
// of one scan of the branch's vectors (exact, O(m·dim)) and Neighbors judge
// calls, instead of a full evaluation. It is not safe for concurrent use.
type BranchTracker struct {
	th       Thresholds
	judge    PairJudge
	goal     []float32 // unit goal vector, nil without goal
	goalDim  bool      // goal length matches the vectors
	docs     []Doc     // step order
	rows     [][]float32
	dim      int
	exact    bool
	lastStep int

	coh, gain, goalSum float64
	dups               int
	sp, sy, spy, spp   float64 // Σp, Σy, Σp·y, Σp² over (position, confidence)
	nConf              int
	pairs              int
	contradictions     []Contradiction
	// confirmed are stated contradictions involving the branch (see
	// SetConfirmed).
	confirmed []Contradiction
}

// SetConfirmed makes cs, contradictions that were stated rather than found
// (a declared cross-reference, an answered question), count in the
// evaluation: each pair not among the judge's verdicts is added to the
// flagged pairs and to the candidates of contradictionScore, also when its
// other thought is in another branch or the pair was never a candidate.
// It replaces what an earlier call set and applies to every later
// Evaluation.
func (t *BranchTracker) SetConfirmed(cs []Contradiction) { t.confirmed = slices.Clone(cs) }

// confirmedExtra returns the confirmed contradictions the judge's verdicts
// do not already hold.
func (t *BranchTracker) confirmedExtra() []Contradiction {
	var out []Contradiction
	for _, c := range t.confirmed {
		if !slices.ContainsFunc(t.contradictions, func(x Contradiction) bool {
			return (x.ThoughtA.ID == c.ThoughtA.ID && x.ThoughtB.ID == c.ThoughtB.ID) || (x.ThoughtA.ID == c.ThoughtB.ID && x.ThoughtB.ID == c.ThoughtA.ID)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// NewBranchTracker evaluates docs (one branch) like EvaluateBranch and keeps
// the running state for Add.
func NewBranchTracker(docs []Doc, goal semantic.Vector, judge PairJudge, th Thresholds) *BranchTracker {
	t := &BranchTracker{th: th.withDefaults(), judge: judge, docs: byStep(docs), exact: true}
	if len(t.docs) > 0 {
		t.lastStep = t.docs[len(t.docs)-1].Step
	}
	vd := vectorsOf(t.docs, nil)
	m := vd.m.n
	t.rows, t.dim = vd.m.rows, vd.m.dim
	t.setGoal(goal)
	for p, d := range t.docs {
		t.addConfidence(p, d)
	}
	if m == 0 {
		return t
	}
	// The most similar earlier thought of each, and the candidate pairs.
	maxEarlier := make([]float32, m)
	maxEarlier[0] = -1
	var pairs []rowPair
	if m <= knnExactMax {
		cand := make([][]neighbor, m)
		parallelRows(m, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				maxEarlier[i], cand[i] = t.scanEarlier(vd.m.row(i), i)
			}
		})
		for i, l := range cand {
			for _, nb := range l {
				pairs = append(pairs, rowPair{nb.j, int32(i), nb.s})
			}
		}
	} else {
		t.exact = false
		g := knnGraph(vd.m, max(t.th.Neighbors, 16), 0)
		for i, l := range g {
			best := float32(0)
			n := 0
			for _, nb := range l {
				if int(nb.j) >= i {
					continue
				}
				best = max(best, nb.s)
				if n < t.th.Neighbors && float64(nb.s) >= t.th.TopicalOverlap {
					pairs = append(pairs, rowPair{nb.j, int32(i), nb.s})
					n++
				}
			}
			maxEarlier[i] = best
		}
	}
	for i := range m {
		t.addVectorSums(vd.m.row(i), i, maxEarlier[i])
	}
	if t.judge != nil {
		t.pairs = len(pairs)
		t.contradictions = judgePairs(t.docs, vd, pairs, t.judge, 0)
	}
	return t
}

// scanEarlier compares v with rows [0, n): the highest cosine, and the
// Neighbors most similar rows with cosine ≥ TopicalOverlap.
func (t *BranchTracker) scanEarlier(v []float32, n int) (float32, []neighbor) {
	ov := float32(t.th.TopicalOverlap)
	scan := func(lo, hi int) (float32, topk.Heap) {
		best := float32(-1)
		h := topk.Heap{K: t.th.Neighbors}
		for j := lo; j < hi; j++ {
			s := semantic.Dot(v, t.rows[j])
			best = max(best, s)
			if s >= ov && h.Wants(s) {
				h.Push(topk.Scored{I: j, S: s})
			}
		}
		return best, h
	}
	if n*len(v) < topk.ParallelMinWork {
		best, h := scan(0, n)
		return best, heapToNeighbors(h)
	}
	var mu sync.Mutex
	best := float32(-1)
	all := topk.Heap{K: t.th.Neighbors}
	parallelRows(n, func(lo, hi int) {
		b, h := scan(lo, hi)
		mu.Lock()
		defer mu.Unlock()
		best = max(best, b)
		for _, it := range h.Items {
			if all.Wants(it.S) {
				all.Push(it)
			}
		}
	})
	return best, heapToNeighbors(all)
}

// addVectorSums adds row i (with its most similar earlier cosine) to the
// coherence, information gain and redundancy sums; rows before i must
// already be in t.rows.
func (t *BranchTracker) addVectorSums(v []float32, i int, maxEarlier float32) {
	if i > 0 {
		t.coh += max(0, float64(semantic.Dot(t.rows[i-1], v)))
		t.gain += 1 - max(0, float64(maxEarlier))
		if float64(maxEarlier) >= t.th.NearDuplicate {
			t.dups++
		}
	}
}

func (t *BranchTracker) addConfidence(p int, d Doc) {
	if d.Confidence == nil {
		return
	}
	x, y := float64(p), *d.Confidence
	t.sp += x
	t.sy += y
	t.spy += x * y
	t.spp += x * x
	t.nConf++
}

func (t *BranchTracker) setGoal(goal semantic.Vector) {
	t.goal, t.goalDim, t.goalSum = nil, false, 0
	if len(goal) == 0 {
		return
	}
	t.goal = semantic.AsUnit(goal)
	t.goalDim = t.dim == 0 || len(goal) == t.dim
	if t.goalDim {
		for _, r := range t.rows {
			t.goalSum += max(0, float64(semantic.Dot(r, t.goal)))
		}
	}
}

// SetGoal changes the goal (nil: none); O(m·dim).
func (t *BranchTracker) SetGoal(goal semantic.Vector) { t.setGoal(goal) }

// Len returns the number of thoughts tracked.
func (t *BranchTracker) Len() int { return len(t.docs) }

// Add records a new thought of the branch and returns the updated
// evaluation. A thought with a lower step than the last one is inserted in
// order by re-evaluating the whole branch.
func (t *BranchTracker) Add(d Doc) Evaluation {
	if len(t.docs) > 0 && d.Step < t.lastStep {
		confirmed := t.confirmed
		*t = *NewBranchTracker(append(slices.Clone(t.docs), d), t.goal, t.judge, t.th)
		t.confirmed = confirmed
		return t.Evaluation()
	}
	p := len(t.docs)
	t.docs = append(t.docs, d)
	t.lastStep = d.Step
	t.addConfidence(p, d)
	if len(d.Vector) == 0 || (t.dim != 0 && len(d.Vector) != t.dim) {
		return t.Evaluation()
	}
	if t.dim == 0 {
		t.dim = len(d.Vector)
		if t.goal != nil {
			t.goalDim = len(t.goal) == t.dim
		}
	}
	v := semantic.AsUnit(d.Vector)
	i := len(t.rows)
	best, cand := t.scanEarlier(v, i)
	t.rows = append(t.rows, v)
	t.addVectorSums(v, i, best)
	if t.goal != nil && t.goalDim {
		t.goalSum += max(0, float64(semantic.Dot(v, t.goal)))
	}
	if t.judge != nil && len(cand) > 0 {
		// Map rows back to docs: rows are the docs with vectors, in order.
		rowDoc := make([]int, 0, len(t.rows))
		for k, x := range t.docs {
			if len(x.Vector) == t.dim {
				rowDoc = append(rowDoc, k)
			}
		}
		if len(rowDoc) == len(t.rows) {
			t.pairs += len(cand)
			for _, nb := range cand {
				a := t.docs[rowDoc[nb.j]]
				if ok, conf, reason := t.judge(a, d); ok {
					t.contradictions = append(t.contradictions, Contradiction{ThoughtA: Ref(a), ThoughtB: Ref(d), Similarity: float64(nb.s), Confidence: conf, Reason: reason})
				}
			}
		}
	}
	return t.Evaluation()
}

// Evaluation returns the evaluation of the thoughts added so far.
func (t *BranchTracker) Evaluation() Evaluation {
	th := t.th
	m := len(t.rows)
	ev := Evaluation{Thoughts: len(t.docs), WithVectors: m, Unavailable: map[string]string{}, Issues: []string{}, Suggestions: []string{}, Exact: t.exact}
	f := func(x float64) *float64 { return &x }
	circ, lost := t.circular()
	ev.Circular = circ
	if m >= 2 {
		ev.CoherenceScore = f(th.Calibration.Relatedness((t.coh - lost) / float64(m-1)))
		ev.InformationGain = f(clampUnit(t.gain / float64(m-1)))
		ev.RedundancyScore = f(float64(t.dups) / float64(m-1))
		if t.judge != nil {
			extra := t.confirmedExtra()
			ev.Contradictions = append(slices.Clone(t.contradictions), extra...)
			slices.SortStableFunc(ev.Contradictions, func(x, y Contradiction) int { return cmp.Compare(y.Confidence, x.Confidence) })
			score := 0.0
			if n := t.pairs + len(extra); n > 0 {
				score = float64(len(ev.Contradictions)) / float64(n)
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
	case t.goal == nil:
		ev.Unavailable["goalAlignment"] = "no goal set for the session"
	case m == 0:
		ev.Unavailable["goalAlignment"] = "no thought of the branch has a vector"
	case !t.goalDim:
		ev.Unavailable["goalAlignment"] = fmt.Sprintf("goal vector has %d dimensions, thoughts have %d", len(t.goal), t.dim)
	case m < 2:
		ev.Unavailable["goalAlignment"] = "needs at least 2 thoughts with vectors, the branch has 1: one thought's similarity to the goal says little"
	default:
		ev.GoalAlignment = f(th.Calibration.Relatedness(t.goalSum / float64(m)))
	}

	if t.nConf >= 2 {
		// Slope over positions 0…n−1, rescaled to positions in [0, 1].
		n := float64(t.nConf)
		den := n*t.spp - t.sp*t.sp
		b := 0.0
		if den != 0 {
			b = (n*t.spy - t.sp*t.sy) / den * float64(len(t.docs)-1)
		}
		ev.ConfidenceGradient = f(clampUnit(0.5 + b/2))
	} else {
		ev.Unavailable["confidenceGradient"] = fmt.Sprintf("needs at least 2 thoughts with a confidence, the branch has %d", t.nConf)
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
	tooFew := false // the issue "too few thoughts" says why every metric is null
	if wsum > 0 {
		o := sum / wsum
		ev.OverallScore = &o
		ev.Quality = th.quality(o)
	} else {
		ev.Quality = "Unrated"
		switch {
		case len(t.docs) == 0:
			ev.Issues = append(ev.Issues, "nothing to evaluate: the branch has no thought")
		case m < 2 && t.nConf < 2:
			tooFew = true
			ev.Issues = append(ev.Issues, fmt.Sprintf("too few thoughts to evaluate: every metric compares at least 2 thoughts, the branch has %d", len(t.docs)))
		default:
			ev.Issues = append(ev.Issues, "nothing to evaluate: no thought has a vector or a confidence")
		}
	}

	ev.issues(th, m)
	if ev.OverallScore != nil && *ev.OverallScore < th.Pivot && m < minTrendThoughts {
		ev.PivotReason = fmt.Sprintf("no pivot verdict: overall score %.2f is below the pivot threshold %.2f, but it rests on %d thought(s) with vectors; a pivot needs a trend over at least %d",
			*ev.OverallScore, th.Pivot, m, minTrendThoughts)
	} else if ev.OverallScore != nil && *ev.OverallScore < th.Pivot {
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
	if len(ev.Unavailable) == 0 || tooFew {
		ev.Unavailable = nil
	}
	return ev
}

// evalCircularWindow is how many of a branch's last thoughts the evaluation
// reads for circular arguments (which are a few thoughts long), so that
// re-evaluating after each added thought stays cheap on long branches.
const evalCircularWindow = 64

// evalCircularClaims bounds the claims of the window of evalCircularWindow
// thoughts.
const evalCircularClaims = 160

// circular returns the circular arguments among the last evalCircularWindow
// thoughts and the coherence their consecutive pairs contributed.
func (t *BranchTracker) circular() ([]CircularReasoning, float64) {
	from := max(0, len(t.docs)-evalCircularWindow)
	// Long thoughts: the window holds at most evalCircularClaims claims
	// (the last thought always), so that the cost of a write does not grow
	// with the square of the text.
	for n := 0; from < len(t.docs)-1; from++ {
		n = 0
		for _, d := range t.docs[from:] {
			n += max(1, len(d.Claims))
		}
		if n <= evalCircularClaims {
			break
		}
	}
	found := circularSupport(t.docs[from:], nil, nil)
	if len(found) == 0 {
		return nil, 0
	}
	// Rows are the docs with vectors, in order.
	row := make([]int, len(t.docs))
	r := 0
	for k, d := range t.docs {
		row[k] = -1
		if len(d.Vector) != 0 && len(d.Vector) == t.dim && r < len(t.rows) {
			row[k] = r
			r++
		}
	}
	in := map[string][]int{}
	for c, f := range found {
		for _, x := range f.Thoughts {
			in[x.ID] = append(in[x.ID], c)
		}
	}
	lost := 0.0
	prev := -1 // the previous doc with a vector
	for k := range t.docs {
		if row[k] < 0 {
			continue
		}
		if prev >= from && row[prev] == row[k]-1 {
			for _, c := range in[t.docs[k].ID] {
				if slices.Contains(in[t.docs[prev].ID], c) {
					lost += max(0, float64(semantic.Dot(t.rows[row[prev]], t.rows[row[k]])))
					break
				}
			}
		}
		prev = k
	}
	return found, lost
}

// issues derives the issues and suggestions from the metrics.
// Low coherence and weak goal alignment are issues only over at least
// minTrendThoughts thoughts with vectors (m): below, they rest on one or
// two cosines.
func (ev *Evaluation) issues(th Thresholds, m int) {
	if n := len(ev.Circular); n > 0 {
		var ids []string
		for _, x := range ev.Circular[0].Thoughts {
			ids = append(ids, x.ID)
		}
		ev.Issues = append(ev.Issues, fmt.Sprintf("%d circular argument(s): thoughts %s support a claim with a restatement of itself", n, strings.Join(ids, ", ")))
		ev.Suggestions = append(ev.Suggestions, "support the claim with independent evidence (a measurement, an outside fact, a result) instead of a restatement of it")
	}
	if n := len(ev.Contradictions); n > 0 {
		var pairs []string
		for _, c := range ev.Contradictions[:min(3, n)] {
			pairs = append(pairs, fmt.Sprintf("#%d and #%d (%s)", c.ThoughtA.Step, c.ThoughtB.Step, c.Reason))
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
		}
		ev.Issues = append(ev.Issues, fmt.Sprintf("%d contradiction(s) between thoughts %s%s", n, strings.Join(pairs, "; "), more))
		c := ev.Contradictions[0]
		ev.Suggestions = append(ev.Suggestions, fmt.Sprintf("resolve the contradiction between #%d and #%d, or reconcile the two sides (synthesizeDialectical)", c.ThoughtA.Step, c.ThoughtB.Step))
	}
	if v := ev.CoherenceScore; v != nil && *v < issueCoherence && m >= minTrendThoughts {
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
	if v := ev.GoalAlignment; v != nil && *v < issueGoal && m >= minTrendThoughts {
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

// A Finding is what a session-level check says of a branch (see
// Evaluation.WithFindings).
type Finding struct {
	// Kind is one of the Finding* kinds.
	Kind string `json:"kind"`
	// Reason is in the evaluation's issues ("closed: …"), not repeated.
	Reason string `json:"-"`
}

// The kinds of finding: the branch's own reasoning closed it, it wandered
// away from the goal, it was off the goal from its first thought, or it
// holds a circular argument.
const (
	FindingClosed   = "closed"
	FindingDrifting = "drifting"
	FindingOffGoal  = "off_goal"
	FindingCircular = "circular"
)

// findingPenalty is the share of the overall score a finding takes away:
// a drifting or off-goal branch is away from the goal, a closed one was
// ruled out, a circular argument can still be repaired with independent
// support.
var findingPenalty = map[string]float64{FindingDrifting: 0.6, FindingOffGoal: 0.6, FindingClosed: 0.5, FindingCircular: 0.25}

// WithFindings returns e with the session-level findings applied: each
// multiplies the overall score by 1 − its penalty (drifting and off the
// goal 0.6, closed 0.5, circular 0.25), so that such a branch ranks
// below a sound one of the same metrics, and quality follows the new
// score. A drifting or closed branch should be pivoted away from whatever
// its score.
func (e Evaluation) WithFindings(fs []Finding, th Thresholds) Evaluation {
	if len(fs) == 0 {
		return e
	}
	th = th.withDefaults()
	e.Findings = fs
	var issues []string
	for _, f := range fs {
		issues = append(issues, f.Kind+": "+f.Reason)
		if e.OverallScore != nil {
			o := *e.OverallScore * (1 - findingPenalty[f.Kind])
			e.OverallScore = &o
		}
		if f.Kind != FindingCircular {
			e.ShouldPivot = true
			e.PivotReason = "the branch is " + strings.ReplaceAll(f.Kind, "_", " ") // its reason is in Issues
		}
	}
	e.Issues = append(issues, e.Issues...)
	if o := e.OverallScore; o != nil {
		e.Quality = th.quality(*o)
	}
	return e
}

// quality is the quality of an overall score o.
func (t Thresholds) quality(o float64) string {
	switch {
	case o >= t.Excellent:
		return "Excellent"
	case o >= t.Good:
		return "Good"
	case o >= t.Moderate:
		return "Moderate"
	}
	return "Poor"
}

// qualityRank orders the qualities, best first.
var qualityRank = map[string]int{"Excellent": 0, "Good": 1, "Moderate": 2, "Poor": 3, "Unrated": 4}

// AtMost returns e with its quality no better than q and, when that
// lowered it, the reason among its issues (after the findings'); the
// score is kept.
func (e Evaluation) AtMost(q, reason string) Evaluation {
	if qualityRank[e.Quality] >= qualityRank[q] {
		return e
	}
	e.Quality = q
	at := min(len(e.Findings), len(e.Issues))
	e.Issues = slices.Insert(slices.Clone(e.Issues), at, reason)
	return e
}
