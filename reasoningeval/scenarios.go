package reasoningeval

// Scenario sessions: whole labelled sessions written through branch-thinking
// and scored on the advice its analyses give (contradictions, circular
// reasoning, drift, strongest paths, dialectical synthesis, evaluation,
// similarity search). The format and the scoring are those of the scenario
// set's README (reasoningeval/testdata/scenarios/README.md).
//
// Results are read as the JSON a model reads, not as Go types: a measure
// finds thoughts by their "id" or "thoughtId" wherever the result puts them,
// so it keeps scoring when a result's shape changes.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/render"
)

// Scenario is one labelled session.
type Scenario struct {
	ID       string            `json:"id"`
	Domain   string            `json:"domain"`
	Goal     string            `json:"goal"`
	Thoughts []ScenarioThought `json:"thoughts"`
	Truth    ScenarioTruth     `json:"truth"`
}

// ScenarioThought is one thought of a scenario, written in order of N.
type ScenarioThought struct {
	N          int      `json:"n"`
	Branch     string   `json:"branch"`
	Type       string   `json:"type"`
	Content    string   `json:"content"`
	Confidence *float64 `json:"confidence"`
	// CrossRefs are written with the thought, as a model writes them.
	CrossRefs []branching.CrossRef `json:"crossRefs,omitempty"`
}

// ScenarioTruth is what was planted in a scenario; thoughts are named by N.
type ScenarioTruth struct {
	Contradictions [][2]int `json:"contradictions"`
	Circular       [][]int  `json:"circular"`
	Drifting       []string `json:"drifting"`
	Rejected       []string `json:"rejected"`
	Recommendation int      `json:"recommendation"`
	Queries        []struct {
		Q      string `json:"q"`
		Answer int    `json:"answer"`
	} `json:"queries"`
}

// ReadScenarios parses a scenario set (JSON Lines), refusing a line that
// names a thought it does not hold.
func ReadScenarios(r io.Reader) ([]Scenario, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var out []Scenario
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var s Scenario
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if s.Goal == "" || len(s.Thoughts) == 0 {
			return nil, fmt.Errorf("line %d (%s): a scenario needs goal and thoughts", line, s.ID)
		}
		have := map[int]bool{}
		for _, t := range s.Thoughts {
			have[t.N] = true
		}
		var named []int
		for _, p := range s.Truth.Contradictions {
			named = append(named, p[:]...)
		}
		for _, c := range s.Truth.Circular {
			named = append(named, c...)
		}
		for _, q := range s.Truth.Queries {
			named = append(named, q.Answer)
		}
		if s.Truth.Recommendation != 0 {
			named = append(named, s.Truth.Recommendation)
		}
		for _, n := range named {
			if !have[n] {
				return nil, fmt.Errorf("line %d (%s): truth names thought %d, which the session does not hold", line, s.ID, n)
			}
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenarios")
	}
	return out, nil
}

// Review budget of a surfaced contradiction (scenario README): a group of
// more than reviewGroupMax entries, or an entry past the first
// reviewCallMax of the call, does not count.
const (
	reviewGroupMax = 6
	reviewCallMax  = 30
)

// ScenarioResult is the outcome of a scenario run. Counts are kept beside
// the figures; a figure that cannot be computed is nil with the reason in
// Undefined.
type ScenarioResult struct {
	Embedder string
	Sessions int
	Thoughts int

	Contradictions, Found, Surfaced, FalseAssertions int
	FoundRate, SurfacedRate                          *float64
	ContradictionBytes                               []int // per session, the findContradictions result

	CircularChains, CircularFound, CircularFalse int
	CircularRecall                               *float64

	DriftingBranches, DriftFound, DriftFalse int
	DriftRecall                              *float64

	PathSessions, PathTop1, PathTop3, PathInRejected int
	PathTop1Rate, PathTop3Rate                       *float64

	SynthesisPairs, WrongAgreements, Tensions int
	WrongAgreementRate, TensionRate           *float64

	EvalSessions, EvalBelow int
	EvalBelowRate           *float64

	// One judgement (README): writes whose result carries an evaluation,
	// those whose evaluation differs from evaluate on that branch at once,
	// writes from the third thought of a drifting branch on and those
	// called Good or Excellent; branches of the markdown report and those
	// whose figures differ from evaluate's.
	Writes, WriteEvaluations, WriteDisagree int
	OffGoalWrites, OffGoalPraised           int
	ReportBranches, ReportDisagree          int

	// The whole loop with a perfect judge (README): planted contradictions
	// listed at the end, others listed, judge calls, rounds and bytes read.
	LoopRecorded, LoopFalse, LoopJudgeCalls, LoopRounds, LoopBytes int
	LoopRecordedRate                                               *float64

	Queries, SimilarTop1, SimilarTop3 int
	SimilarTop1Rate, SimilarTop3Rate  *float64

	// MaxBytes is, per command, the largest result of the run.
	MaxBytes  map[string]int
	Misses    []Miss
	Undefined []string
}

// session is one scenario written to a fresh session.
type session struct {
	sc     Scenario
	ref    reasoning.SessionRef
	ids    map[int]string // n -> thought id
	byStep map[int]string // step -> thought id
	n      map[string]int // thought id -> n
	// first is the first findContradictions result (its size firstSize),
	// where the loop starts.
	first     map[string]any
	firstSize int
}

// RunScenarios writes each scenario to a fresh session of svc (its
// semantic engine enabled) through branch-thinking, setGoal first, and
// scores every measure of the README.
func RunScenarios(ctx context.Context, scs []Scenario, svc *reasoning.Service, embedder string) (ScenarioResult, error) {
	res := ScenarioResult{Embedder: embedder, MaxBytes: map[string]int{}}
	bt := branching.NewBranchThinking(svc, nil)
	for _, sc := range scs {
		s, err := res.write(ctx, bt, sc)
		if err != nil {
			return ScenarioResult{}, fmt.Errorf("%s: %w", sc.ID, err)
		}
		res.Sessions++
		res.Thoughts += len(sc.Thoughts)
		report := func(ctx context.Context, bt *branching.BranchThinking, s *session) error {
			return res.report(ctx, bt, svc, s)
		}
		// The loop comes last: the verdicts it stores change what the
		// other measures read.
		for _, step := range []func(context.Context, *branching.BranchThinking, *session) error{
			res.contradictions, res.circular, res.drift, res.paths, res.synthesis, res.evaluate, res.similar, report, res.loop,
		} {
			if err := step(ctx, bt, s); err != nil {
				return ScenarioResult{}, fmt.Errorf("%s: %w", sc.ID, err)
			}
		}
	}
	res.finish()
	return res, nil
}

// write writes a scenario to a fresh session, setGoal first, and checks
// that each write's evaluation is evaluate's on that branch at once, and
// that no write from the third thought of a drifting branch on is called
// Good or Excellent (one judgement).
func (r *ScenarioResult) write(ctx context.Context, bt *branching.BranchThinking, sc Scenario) (*session, error) {
	s := &session{sc: sc, ref: reasoning.SessionRef{ID: reasoning.NewID()}, ids: map[int]string{}, byStep: map[int]string{}, n: map[string]int{}}
	goal := sc.Goal
	if _, err := bt.Command(ctx, branching.CommandInput{Session: s.ref, Type: "setGoal", Goal: &goal}); err != nil {
		return nil, fmt.Errorf("setGoal: %w", err)
	}
	ths := slices.Clone(sc.Thoughts)
	slices.SortStableFunc(ths, func(a, b ScenarioThought) int { return a.N - b.N })
	written := map[string]int{} // thoughts written per branch
	for _, t := range ths {
		out, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: s.ref, Content: t.Content, Type: t.Type, BranchID: t.Branch, Confidence: t.Confidence, CrossRefs: t.CrossRefs})
		if err != nil {
			return nil, fmt.Errorf("thought %d: %w", t.N, err)
		}
		s.ids[t.N], s.n[out.ThoughtID], s.byStep[out.Step] = out.ThoughtID, t.N, out.ThoughtID
		written[t.Branch]++
		r.Writes++
		if ev := out.Evaluation; ev != nil {
			r.WriteEvaluations++
			score, quality, err := r.evaluation(ctx, bt, s, t.Branch)
			if err != nil {
				return nil, err
			}
			if quality != ev.Quality || !sameScore(score, ev.Score) {
				r.WriteDisagree++
				r.miss(s, "judgement", "write #%d (%s): %s %s, evaluate %s %s", t.N, t.Branch, ev.Quality, fmtScore(ev.Score), quality, fmtScore(score))
			}
		}
		if slices.Contains(sc.Truth.Drifting, t.Branch) && written[t.Branch] >= 3 {
			r.OffGoalWrites++
			if ev := out.Evaluation; ev != nil && (ev.Quality == "Good" || ev.Quality == "Excellent") {
				r.OffGoalPraised++
				r.miss(s, "judgement", "write #%d, thought %d of drifting branch %q, called %s", t.N, written[t.Branch], t.Branch, ev.Quality)
			}
		}
	}
	return s, nil
}

// sameScore reports whether two overall scores agree within 0.005 (both
// null counts as agreeing).
func sameScore(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) < 0.005
}

// evaluation is evaluate's overall score and quality of a branch.
func (r *ScenarioResult) evaluation(ctx context.Context, bt *branching.BranchThinking, s *session, branch string) (*float64, string, error) {
	res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "evaluate", BranchID: branch})
	if err != nil {
		return nil, "", err
	}
	ev, _ := res["evaluation"].(map[string]any)
	q, _ := ev["quality"].(string)
	if v, ok := ev["overallScore"].(float64); ok {
		return &v, q, nil
	}
	return nil, q, nil
}

// reportBranch matches a branch's figures in the markdown report.
var reportBranch = regexp.MustCompile(`(?m)^### Branch (.+): (\S+) \(overall ([0-9.]+|—)\)$`)

// report checks that the branch figures of the session's markdown report
// (the thinkgraph://sessions/{id}/markdown resource, the export and the
// review-reasoning prompt) are evaluate's (one judgement).
func (r *ScenarioResult) report(ctx context.Context, bt *branching.BranchThinking, svc *reasoning.Service, s *session) error {
	g, err := render.NewLoader(svc, bt.Analyst()).Load(ctx, s.ref, true)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := render.Markdown(&b, g); err != nil {
		return err
	}
	for _, m := range reportBranch.FindAllStringSubmatch(b.String(), -1) {
		branch := strings.ReplaceAll(m[1], `\`, "")
		r.ReportBranches++
		score, quality, err := r.evaluation(ctx, bt, s, branch)
		if err != nil {
			return err
		}
		var reported *float64
		if v, err := strconv.ParseFloat(m[3], 64); err == nil {
			reported = &v
		}
		if m[2] != quality || !sameScore(reported, roundedScore(score)) {
			r.ReportDisagree++
			r.miss(s, "judgement", "report: branch %s %s (overall %s), evaluate %s %s", branch, m[2], m[3], quality, fmtScore(score))
		}
	}
	return nil
}

// roundedScore is v to 2 decimals, as the report writes it.
func roundedScore(v *float64) *float64 {
	if v == nil {
		return nil
	}
	x := math.Round(*v*100) / 100
	return &x
}

// loop is the whole review loop with a perfect judge (README), from the
// first review on: every group of each findContradictions review
// answered, contradiction with the planted pairs inside it as conflicts,
// else consistent, all in one judge {verdicts} call, until a review shows
// no group (at most maxLoopRounds); then what contradictions lists.
func (r *ScenarioResult) loop(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	planted := map[[2]int]bool{}
	for _, p := range s.sc.Truth.Contradictions {
		planted[ordered(p[0], p[1])] = true
	}
	var last map[string]any
	for round := 0; ; round++ {
		// The loop starts from the first review (contradictions).
		res, size := s.first, s.firstSize
		if round > 0 || res == nil {
			var err error
			if res, size, err = r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "findContradictions"}); err != nil {
				return err
			}
		}
		r.LoopBytes += size
		last = res
		rev, _ := res["review"].(map[string]any)
		var keys []string
		for _, g := range list(rev, "groups") {
			gm, _ := g.(map[string]any)
			if k, ok := gm["group"].(string); ok {
				keys = append(keys, k)
			}
		}
		for _, k := range list(rev, "askedBefore") {
			if k, ok := k.(string); ok && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 || round == maxLoopRounds {
			break
		}
		r.LoopRounds++
		// The whole review in one judge {verdicts} call.
		in := branching.CommandInput{Session: s.ref, Type: "judge", Verdicts: []branching.GroupVerdict{}}
		for _, key := range keys {
			v := branching.GroupVerdict{Group: key, Verdict: "consistent"}
			steps := groupSteps(key)
			for i, a := range steps {
				for _, b := range steps[i+1:] {
					na, nb := s.n[s.byStep[a]], s.n[s.byStep[b]]
					if planted[ordered(na, nb)] {
						v.Verdict = "contradiction"
						v.Conflicts = append(v.Conflicts, []string{strconv.Itoa(a), strconv.Itoa(b)})
					}
				}
			}
			in.Verdicts = append(in.Verdicts, v)
		}
		_, size, err := r.command(ctx, bt, in)
		if err != nil {
			return err
		}
		r.LoopJudgeCalls++
		r.LoopBytes += size
	}
	listed := map[[2]int]bool{}
	for _, c := range list(last, "contradictions") {
		if ns := s.thoughtsIn(c); len(ns) == 2 {
			listed[ordered(ns[0], ns[1])] = true
		}
	}
	for p := range listed {
		if !planted[p] {
			r.LoopFalse++
			r.miss(s, "loop", "false contradiction #%d/#%d at the end of the loop", p[0], p[1])
		}
	}
	for p := range planted {
		if listed[p] {
			r.LoopRecorded++
		} else {
			r.miss(s, "loop", "#%d/#%d never recorded", p[0], p[1])
		}
	}
	return nil
}

// maxLoopRounds bounds the perfect judge's rounds (README).
const maxLoopRounds = 10

// groupSteps are the steps a review group's key names ("7.1-13.2").
func groupSteps(key string) []int {
	var out []int
	for _, p := range strings.Split(key, "-") {
		if step, err := strconv.Atoi(strings.SplitN(p, ".", 2)[0]); err == nil && !slices.Contains(out, step) {
			out = append(out, step)
		}
	}
	return out
}

// command runs a branch-thinking command and returns its result as the
// JSON a model reads, decoded, recording its size.
func (r *ScenarioResult) command(ctx context.Context, bt *branching.BranchThinking, in branching.CommandInput) (map[string]any, int, error) {
	out, err := bt.Command(ctx, in)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", in.Type, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, 0, err
	}
	r.MaxBytes[in.Type] = max(r.MaxBytes[in.Type], len(b))
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, 0, err
	}
	return m, len(b), nil
}

// thoughtsIn returns the thoughts an entry of a result names, by "id" or
// "thoughtId", by "step" or by their steps in a "steps" list at any depth (an object)
// or itself (a string id), as Ns of the session; ids of no thought are
// skipped.
func (s *session) thoughtsIn(v any) []int {
	var out []int
	add := func(id string) {
		if n, ok := s.n[id]; ok && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			add(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				switch k {
				case "id", "thoughtId":
					if id, ok := e.(string); ok {
						add(id)
					}
				case "step":
					if f, ok := e.(float64); ok {
						add(s.byStep[int(f)])
					}
				case "steps":
					l, _ := e.([]any)
					for _, st := range l {
						if f, ok := st.(float64); ok {
							add(s.byStep[int(f)])
						}
					}
				default:
					if _, ok := e.(string); !ok {
						walk(e)
					}
				}
			}
		}
	}
	walk(v)
	return out
}

// entryThought is the thought one review entry names: its own "thoughtId",
// "id" or "step" (not a nested one).
func (s *session) entryThought(v any) (int, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		if id, ok := v.(string); ok {
			n, ok := s.n[id]
			return n, ok
		}
		return 0, false
	}
	for _, k := range []string{"thoughtId", "id"} {
		if id, ok := m[k].(string); ok {
			if n, ok := s.n[id]; ok {
				return n, true
			}
		}
	}
	if f, ok := m["step"].(float64); ok {
		n, ok := s.n[s.byStep[int(f)]]
		return n, ok
	}
	return 0, false
}

func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

// pairIn reports whether one entry of l names both thoughts a and b.
func (s *session) pairIn(l []any, a, b int) bool {
	for _, e := range l {
		ns := s.thoughtsIn(e)
		if slices.Contains(ns, a) && slices.Contains(ns, b) {
			return true
		}
	}
	return false
}

// reviewPairs are the pairs of thoughts shown together in one review group
// within the budget.
func (s *session) reviewPairs(res map[string]any) map[[2]int]bool {
	out := map[[2]int]bool{}
	rev, _ := res["review"].(map[string]any)
	seen := 0
	for _, g := range list(rev, "groups") {
		gm, _ := g.(map[string]any)
		entries := list(gm, "claims")
		if entries == nil {
			entries = list(gm, "thoughts")
		}
		var ns []int
		for _, e := range entries {
			seen++
			if seen > reviewCallMax {
				break
			}
			if n, ok := s.entryThought(e); ok {
				ns = append(ns, n)
			}
		}
		if len(entries) <= reviewGroupMax {
			for _, a := range ns {
				for _, b := range ns {
					if a < b {
						out[[2]int{a, b}] = true
					}
				}
			}
		}
		if seen >= reviewCallMax {
			break
		}
	}
	return out
}

func ordered(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func (r *ScenarioResult) miss(s *session, kind, detail string, args ...any) {
	r.Misses = append(r.Misses, Miss{ID: s.sc.ID, Kind: kind, Detail: fmt.Sprintf(detail, args...)})
}

func (r *ScenarioResult) contradictions(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	res, size, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "findContradictions"})
	if err != nil {
		return err
	}
	r.ContradictionBytes = append(r.ContradictionBytes, size)
	s.first, s.firstSize = res, size
	planted := map[[2]int]bool{}
	for _, p := range s.sc.Truth.Contradictions {
		planted[ordered(p[0], p[1])] = true
	}
	asserted := map[[2]int]bool{}
	for _, c := range list(res, "contradictions") {
		if ns := s.thoughtsIn(c); len(ns) == 2 {
			asserted[ordered(ns[0], ns[1])] = true
		}
	}
	for p := range asserted {
		if !planted[p] {
			r.FalseAssertions++
			r.miss(s, "contradiction", "false assertion #%d/#%d", p[0], p[1])
		}
	}
	review := s.reviewPairs(res)
	cands := list(res, "candidates")
	for _, p := range s.sc.Truth.Contradictions {
		k := ordered(p[0], p[1])
		r.Contradictions++
		switch {
		case asserted[k]:
			r.Found++
			r.Surfaced++
		case review[k] || s.pairIn(cands, k[0], k[1]):
			r.Surfaced++
			r.miss(s, "contradiction", "#%d/#%d surfaced, not asserted", k[0], k[1])
		default:
			r.miss(s, "contradiction", "#%d/#%d missed", k[0], k[1])
		}
	}
	return nil
}

func (r *ScenarioResult) circular(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "detectCircular"})
	if err != nil {
		return err
	}
	var findings [][]int
	for _, f := range list(res, "circularReasoning") {
		fm, _ := f.(map[string]any)
		findings = append(findings, s.thoughtsIn(fm["thoughts"]))
	}
	names := func(f, chain []int) bool {
		k := 0
		for _, n := range chain {
			if slices.Contains(f, n) {
				k++
			}
		}
		return k >= 2
	}
	for _, chain := range s.sc.Truth.Circular {
		r.CircularChains++
		if slices.ContainsFunc(findings, func(f []int) bool { return names(f, chain) }) {
			r.CircularFound++
		} else {
			r.miss(s, "circular", "chain %v missed", chain)
		}
	}
	for _, f := range findings {
		if !slices.ContainsFunc(s.sc.Truth.Circular, func(chain []int) bool { return names(f, chain) }) {
			r.CircularFalse++
			r.miss(s, "circular", "false finding %v", f)
		}
	}
	return nil
}

func (r *ScenarioResult) drift(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "detectDrift"})
	if err != nil {
		return err
	}
	var flagged []string
	for _, b := range list(res, "drifting") {
		if id, ok := b.(string); ok {
			flagged = append(flagged, id)
		}
	}
	for _, b := range s.sc.Truth.Drifting {
		r.DriftingBranches++
		if slices.Contains(flagged, b) {
			r.DriftFound++
		} else {
			r.miss(s, "drift", "branch %q not flagged", b)
		}
	}
	for _, b := range flagged {
		if !slices.Contains(s.sc.Truth.Drifting, b) {
			r.DriftFalse++
			r.miss(s, "drift", "focused branch %q flagged", b)
		}
	}
	return nil
}

func (r *ScenarioResult) paths(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	k := 3
	res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "findStrongestPaths", TopK: &k})
	if err != nil {
		return err
	}
	paths := list(res, "paths")
	r.PathSessions++
	rec := s.sc.Truth.Recommendation
	var on []bool
	for _, p := range paths {
		pm, _ := p.(map[string]any)
		on = append(on, slices.Contains(s.thoughtsIn(pm["thoughts"]), rec))
	}
	switch {
	case len(on) > 0 && on[0]:
		r.PathTop1++
		r.PathTop3++
	case slices.Contains(on, true):
		r.PathTop3++
		r.miss(s, "path", "recommendation #%d on path %d, not the top one", rec, slices.Index(on, true)+1)
	default:
		r.miss(s, "path", "recommendation #%d on none of %d paths", rec, len(on))
	}
	if len(paths) > 0 {
		pm, _ := paths[0].(map[string]any)
		ths := list(pm, "thoughts")
		if len(ths) > 0 {
			if n, ok := s.entryThought(ths[len(ths)-1]); ok && slices.Contains(s.sc.Truth.Rejected, s.branchOf(n)) {
				r.PathInRejected++
				r.miss(s, "path", "top path ends in rejected branch %q", s.branchOf(n))
			}
		}
	}
	return nil
}

func (s *session) branchOf(n int) string {
	for _, t := range s.sc.Thoughts {
		if t.N == n {
			return t.Branch
		}
	}
	return ""
}

func (r *ScenarioResult) synthesis(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	for _, p := range s.sc.Truth.Contradictions {
		ba, bb := s.branchOf(p[0]), s.branchOf(p[1])
		if ba == bb {
			continue
		}
		res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "synthesizeDialectical", Branches: []string{ba, bb}})
		if err != nil {
			return err
		}
		r.SynthesisPairs++
		cg, _ := res["commonGround"].(map[string]any)
		if s.pairIn(list(cg, "agreements"), p[0], p[1]) {
			r.WrongAgreements++
			r.miss(s, "synthesis", "#%d/#%d listed as an agreement", p[0], p[1])
		}
		// A tension names the pair when one entry of at most
		// reviewGroupMax thoughts holds both.
		found := false
		for _, t := range list(res, "tensions") {
			ns := s.thoughtsIn(t)
			if len(ns) <= reviewGroupMax && slices.Contains(ns, p[0]) && slices.Contains(ns, p[1]) {
				found = true
				break
			}
		}
		if found {
			r.Tensions++
		} else {
			r.miss(s, "synthesis", "#%d/#%d (%s/%s) not a tension", p[0], p[1], ba, bb)
		}
	}
	return nil
}

func (r *ScenarioResult) evaluate(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	if len(s.sc.Truth.Drifting) == 0 {
		return nil
	}
	var branches []string
	for _, t := range s.sc.Thoughts {
		if !slices.Contains(branches, t.Branch) {
			branches = append(branches, t.Branch)
		}
	}
	score := map[string]*float64{}
	for _, b := range branches {
		res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "evaluate", BranchID: b})
		if err != nil {
			return err
		}
		ev, _ := res["evaluation"].(map[string]any)
		if v, ok := ev["overallScore"].(float64); ok {
			score[b] = &v
		}
	}
	for _, d := range s.sc.Truth.Drifting {
		r.EvalSessions++
		below := score[d] != nil
		var over []string
		for _, b := range branches {
			if slices.Contains(s.sc.Truth.Drifting, b) || slices.Contains(s.sc.Truth.Rejected, b) {
				continue
			}
			if !below || score[b] == nil || *score[d] >= *score[b] {
				below = false
				over = append(over, b)
			}
		}
		if below {
			r.EvalBelow++
		} else {
			r.miss(s, "evaluate", "drifting branch %q (%s) not below %s", d, fmtScore(score[d]), strings.Join(over, ", "))
		}
	}
	return nil
}

func fmtScore(v *float64) string {
	if v == nil {
		return "no score"
	}
	return fmt.Sprintf("%.2f", *v)
}

func (r *ScenarioResult) similar(ctx context.Context, bt *branching.BranchThinking, s *session) error {
	limit := 3
	for qi, q := range s.sc.Truth.Queries {
		res, _, err := r.command(ctx, bt, branching.CommandInput{Session: s.ref, Type: "findSimilar", Query: q.Q, Limit: &limit})
		if err != nil {
			return err
		}
		r.Queries++
		rank := 0
		for i, h := range list(res, "results") {
			if n, ok := s.entryThought(h); ok && n == q.Answer {
				rank = i + 1
				break
			}
		}
		if rank == 1 {
			r.SimilarTop1++
		} else {
			r.miss(s, "similar", "query %d (answer #%d) ranked %d", qi, q.Answer, rank)
		}
		if rank >= 1 && rank <= 3 {
			r.SimilarTop3++
		}
	}
	return nil
}

func (r *ScenarioResult) finish() {
	set := func(dst **float64, n, d int, what string) {
		if *dst = ratio(n, d); *dst == nil {
			r.Undefined = append(r.Undefined, what)
		}
	}
	set(&r.FoundRate, r.Found, r.Contradictions, "no planted contradiction: contradiction figures are null")
	r.SurfacedRate = ratio(r.Surfaced, r.Contradictions)
	set(&r.CircularRecall, r.CircularFound, r.CircularChains, "no planted circular chain: circular recall is null")
	set(&r.DriftRecall, r.DriftFound, r.DriftingBranches, "no drifting branch: drift recall is null")
	set(&r.PathTop1Rate, r.PathTop1, r.PathSessions, "no session: strongest-path figures are null")
	r.PathTop3Rate = ratio(r.PathTop3, r.PathSessions)
	set(&r.WrongAgreementRate, r.WrongAgreements, r.SynthesisPairs, "no planted contradiction across two branches: synthesis figures are null")
	r.TensionRate = ratio(r.Tensions, r.SynthesisPairs)
	set(&r.EvalBelowRate, r.EvalBelow, r.EvalSessions, "no drifting branch: the evaluate figure is null")
	set(&r.SimilarTop1Rate, r.SimilarTop1, r.Queries, "no query: findSimilar figures are null")
	r.LoopRecordedRate = ratio(r.LoopRecorded, r.Contradictions)
	r.SimilarTop3Rate = ratio(r.SimilarTop3, r.Queries)
}

func fig2(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%.2f", *v)
}

// String formats the result: one line per measure of the README, then the
// largest result per command and the null reasons.
func (r ScenarioResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sessions=%d thoughts=%d embedder=%s\n", r.Sessions, r.Thoughts, r.Embedder)
	mean, top := 0, 0
	for _, n := range r.ContradictionBytes {
		mean += n
		top = max(top, n)
	}
	if len(r.ContradictionBytes) > 0 {
		mean /= len(r.ContradictionBytes)
	}
	fmt.Fprintf(&b, "contradictions planted=%d found=%s (%d) surfaced=%s (%d) false_assertions=%d bytes_mean=%d bytes_max=%d\n",
		r.Contradictions, fig2(r.FoundRate), r.Found, fig2(r.SurfacedRate), r.Surfaced, r.FalseAssertions, mean, top)
	fmt.Fprintf(&b, "circular chains=%d found=%s (%d) false=%d\n", r.CircularChains, fig2(r.CircularRecall), r.CircularFound, r.CircularFalse)
	fmt.Fprintf(&b, "drift branches=%d recall=%s (%d) false_flags=%d\n", r.DriftingBranches, fig2(r.DriftRecall), r.DriftFound, r.DriftFalse)
	fmt.Fprintf(&b, "strongest_path sessions=%d top1=%s (%d) top3=%s (%d) top_in_rejected=%d\n",
		r.PathSessions, fig2(r.PathTop1Rate), r.PathTop1, fig2(r.PathTop3Rate), r.PathTop3, r.PathInRejected)
	fmt.Fprintf(&b, "synthesis pairs=%d wrong_agreement=%s (%d) tension=%s (%d)\n",
		r.SynthesisPairs, fig2(r.WrongAgreementRate), r.WrongAgreements, fig2(r.TensionRate), r.Tensions)
	fmt.Fprintf(&b, "evaluate drifting=%d below_sound=%s (%d)\n", r.EvalSessions, fig2(r.EvalBelowRate), r.EvalBelow)
	fmt.Fprintf(&b, "similar queries=%d top1=%s (%d) top3=%s (%d)\n", r.Queries, fig2(r.SimilarTop1Rate), r.SimilarTop1, fig2(r.SimilarTop3Rate), r.SimilarTop3)
	fmt.Fprintf(&b, "judgement writes=%d evaluated=%d differ=%d off_goal_writes=%d praised=%d report_branches=%d report_differ=%d\n",
		r.Writes, r.WriteEvaluations, r.WriteDisagree, r.OffGoalWrites, r.OffGoalPraised, r.ReportBranches, r.ReportDisagree)
	perSession := func(n int) string {
		if r.Sessions == 0 {
			return "null"
		}
		return fmt.Sprintf("%.2f", float64(n)/float64(r.Sessions))
	}
	fmt.Fprintf(&b, "loop recorded=%s (%d) false=%d judge_calls=%s rounds=%s bytes=%s (per session)\n",
		fig2(r.LoopRecordedRate), r.LoopRecorded, r.LoopFalse, perSession(r.LoopJudgeCalls), perSession(r.LoopRounds), perSession(r.LoopBytes))
	cmds := make([]string, 0, len(r.MaxBytes))
	for c := range r.MaxBytes {
		cmds = append(cmds, c)
	}
	sort.Strings(cmds)
	b.WriteString("max_bytes")
	for _, c := range cmds {
		fmt.Fprintf(&b, " %s=%d", c, r.MaxBytes[c])
	}
	b.WriteString("\n")
	for _, u := range r.Undefined {
		fmt.Fprintf(&b, "null: %s\n", u)
	}
	return strings.TrimRight(b.String(), "\n")
}
