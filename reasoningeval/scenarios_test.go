package reasoningeval

import (
	"context"
	"os"
	"strings"
	"testing"
)

func readScenarios(t *testing.T, path string) []Scenario {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

func TestReadScenariosRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"no goal":         `{"id":"x","thoughts":[{"n":1,"branch":"main","content":"A."}]}`,
		"no thoughts":     `{"id":"x","goal":"g"}`,
		"unknown thought": `{"id":"x","goal":"g","thoughts":[{"n":1,"branch":"main","content":"A."}],"truth":{"recommendation":2}}`,
		"not JSON":        `{"id":`,
		"empty":           "\n",
	} {
		if _, err := ReadScenarios(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A hand-made session whose every measure is worked out by hand: the
// recommendation closes main, which is the only path that can hold it; the
// query repeats a thought's words; nothing is planted where the checks
// have nothing to find, so those figures are null with a reason.
func TestRunScenariosCounts(t *testing.T) {
	svc, _, model := newService(t)
	scs, err := ReadScenarios(strings.NewReader(`{"id":"h1","goal":"Choose where the nightly backups are stored.","thoughts":[{"n":1,"branch":"main","type":"analysis","content":"The nightly backups are 40 GB and must be kept for thirty days.","confidence":0.8},{"n":2,"branch":"tape","type":"hypothesis","content":"Tape in the basement would hold thirty days of backups cheaply.","confidence":0.5},{"n":3,"branch":"main","type":"synthesis","content":"Store the nightly backups in object storage with a thirty-day lifecycle rule.","confidence":0.8}],"truth":{"contradictions":[],"circular":[],"drifting":[],"rejected":[],"recommendation":3,"queries":[{"q":"object storage with a thirty-day lifecycle rule","answer":3}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunScenarios(context.Background(), scs, svc, model)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || res.Thoughts != 3 || res.PathSessions != 1 || res.PathTop3 != 1 || res.Queries != 1 || res.SimilarTop1 != 1 {
		t.Errorf("counts: %+v", res)
	}
	if res.FoundRate != nil || res.CircularRecall != nil || res.DriftRecall != nil || res.EvalBelowRate != nil || res.WrongAgreementRate != nil {
		t.Errorf("a figure with nothing planted is not null: %s", res)
	}
	if res.FalseAssertions != 0 || res.CircularFalse != 0 || res.DriftFalse != 0 {
		t.Errorf("false findings on a session without any problem: %s", res)
	}
	out := res.String()
	for _, want := range []string{"similar queries=1 top1=1.00 (1)", "null: no planted contradiction", "max_bytes ", "findContradictions="} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The review budget of the README: a pair counts when both thoughts sit in
// one group of at most 6 entries among the first 30 of the call.
func TestReviewPairsBudget(t *testing.T) {
	s := &session{n: map[string]int{}}
	for i := 1; i <= 40; i++ {
		s.n[string(rune('a'+i%26))+string(rune('A'+i/26))] = i
	}
	id := func(n int) string { return string(rune('a'+n%26)) + string(rune('A'+n/26)) }
	claims := func(ns ...int) []any {
		var out []any
		for _, n := range ns {
			out = append(out, map[string]any{"thoughtId": id(n), "text": "x"})
		}
		return out
	}
	res := map[string]any{"review": map[string]any{"groups": []any{
		map[string]any{"group": 1, "claims": claims(1, 2)},
		map[string]any{"group": 2, "claims": claims(3, 4, 5, 6, 7, 8, 9)}, // 7 entries: over the group budget
		map[string]any{"group": 3, "thoughts": []any{map[string]any{"id": id(10)}, map[string]any{"id": id(11)}}},
		map[string]any{"group": 4, "claims": claims(12, 13, 14, 15, 16, 17)},
		map[string]any{"group": 5, "claims": claims(18, 19, 20, 21, 22, 23)},
		map[string]any{"group": 6, "claims": claims(24, 25, 26, 27, 28, 29)}, // entries 24-29
		map[string]any{"group": 7, "claims": claims(30, 31, 32)},             // entries 30-32: 31 and 32 past the call budget
	}}}
	got := s.reviewPairs(res)
	for _, c := range []struct {
		a, b int
		want bool
	}{{1, 2, true}, {3, 4, false}, {10, 11, true}, {12, 17, true}, {24, 29, true}, {30, 31, false}, {1, 10, false}} {
		if got[[2]int{c.a, c.b}] != c.want {
			t.Errorf("pair %d/%d counted %v, want %v", c.a, c.b, !c.want, c.want)
		}
	}
}

// The scenario sets in testdata (the 8 dev sessions and the database
// session), through the default offline engine: the figures must not fall
// below what the analyses reached when they were last raised. Raise a floor
// when the advice gets better; never lower one to let a change through.
func TestScenarioFloors(t *testing.T) {
	for _, c := range []struct {
		file   string
		floors func(t *testing.T, r ScenarioResult)
	}{
		{"testdata/scenarios/dev.jsonl", func(t *testing.T, r ScenarioResult) {
			atLeast(t, "surfaced contradictions", r.SurfacedRate, 0.9)
			loopFloors(t, r, 0.93, 2, 8000)
			atMost(t, "false assertions", r.FalseAssertions, 0)
			atLeast(t, "circular recall", r.CircularRecall, 0.75)
			atMost(t, "circular false findings", r.CircularFalse, 0)
			atLeast(t, "drift recall", r.DriftRecall, 1)
			atMost(t, "drift false flags", r.DriftFalse, 0)
			atLeast(t, "recommendation on the top path", r.PathTop1Rate, 1)
			atMost(t, "top path in a rejected branch", r.PathInRejected, 0)
			atMostRate(t, "wrong agreements", r.WrongAgreementRate, 0)
			atLeast(t, "tensions", r.TensionRate, 0.9)
			atLeast(t, "drifting branch below sound ones", r.EvalBelowRate, 1)
			atLeast(t, "findSimilar top-1", r.SimilarTop1Rate, 0.5)
			atLeast(t, "findSimilar top-3", r.SimilarTop3Rate, 0.83)
			oneJudgement(t, r)
		}},
		{"testdata/scenarios/code-dev.jsonl", func(t *testing.T, r ScenarioResult) {
			atMost(t, "false assertions", r.FalseAssertions, 0)
			atLeast(t, "surfaced contradictions", r.SurfacedRate, 0.74)
			atLeast(t, "circular recall", r.CircularRecall, 1)
			atMost(t, "circular false findings", r.CircularFalse, 0)
			atLeast(t, "tensions", r.TensionRate, 0.75)
			loopFloors(t, r, 1, 3, 12500)
			atLeast(t, "drift recall", r.DriftRecall, 1)
			atMost(t, "drift false flags", r.DriftFalse, 1)
			atLeast(t, "recommendation on the top path", r.PathTop1Rate, 1)
			atMost(t, "top path in a rejected branch", r.PathInRejected, 0)
			oneJudgement(t, r)
		}},
		{"testdata/scenarios/judgement.jsonl", func(t *testing.T, r ScenarioResult) {
			atMost(t, "false assertions", r.FalseAssertions, 0)
			loopFloors(t, r, 1, 1, 5000)
			atLeast(t, "surfaced contradictions", r.SurfacedRate, 1)
			atLeast(t, "drift recall", r.DriftRecall, 1)
			atMost(t, "drift false flags", r.DriftFalse, 0)
			atLeast(t, "recommendation on the top path", r.PathTop1Rate, 1)
			atLeast(t, "drifting branch below sound ones", r.EvalBelowRate, 1)
			oneJudgement(t, r)
		}},
		{"testdata/scenarios/database-session.jsonl", func(t *testing.T, r ScenarioResult) {
			atLeast(t, "circular recall", r.CircularRecall, 1)
			atLeast(t, "drift recall", r.DriftRecall, 1)
			atMost(t, "drift false flags", r.DriftFalse, 0)
			atMost(t, "top path in a rejected branch", r.PathInRejected, 0)
			atLeast(t, "recommendation on the top path", r.PathTop1Rate, 1)
			atLeast(t, "drifting branch below sound ones", r.EvalBelowRate, 1)
			atLeast(t, "surfaced contradictions", r.SurfacedRate, 1)
			atMostRate(t, "wrong agreements", r.WrongAgreementRate, 0)
			atLeast(t, "tensions", r.TensionRate, 1)
			loopFloors(t, r, 1, 2, 10000)
			oneJudgement(t, r)
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			svc, _, model := newService(t)
			res, err := RunScenarios(context.Background(), readScenarios(t, c.file), svc, model)
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + res.String())
			c.floors(t, res)
		})
	}
}

// loopFloors holds the figures of the whole loop with a perfect judge
// (README): planted contradictions recorded, none false, and per session
// at most so many judge calls and bytes read.
func loopFloors(t *testing.T, r ScenarioResult, recorded, calls, bytes float64) {
	t.Helper()
	atLeast(t, "loop: planted contradictions recorded", r.LoopRecordedRate, recorded)
	atMost(t, "loop: false contradictions recorded", r.LoopFalse, 0)
	per := func(n int) float64 { return float64(n) / float64(r.Sessions) }
	if r.Sessions == 0 || per(r.LoopJudgeCalls) > calls || per(r.LoopBytes) > bytes {
		t.Errorf("loop: %.2f judge calls and %.0f bytes per session, above %.0f and %.0f", per(r.LoopJudgeCalls), per(r.LoopBytes), calls, bytes)
	}
}

// oneJudgement holds the checks of one judgement (README): every write's
// evaluation is evaluate's, the report's branch figures are evaluate's, no
// write of a drifting branch from its third thought on is praised; and
// writes did carry evaluations, so the first check checked something.
func oneJudgement(t *testing.T, r ScenarioResult) {
	t.Helper()
	if r.WriteEvaluations == 0 || r.ReportBranches == 0 {
		t.Errorf("nothing to compare: %d write evaluations, %d report branches", r.WriteEvaluations, r.ReportBranches)
	}
	atMost(t, "write evaluations that differ from evaluate", r.WriteDisagree, 0)
	atMost(t, "report branch figures that differ from evaluate", r.ReportDisagree, 0)
	atMost(t, "off-goal writes called Good or Excellent", r.OffGoalPraised, 0)
}

func atLeast(t *testing.T, name string, v *float64, min float64) {
	t.Helper()
	if v == nil || *v < min {
		t.Errorf("%s = %s, below its floor %.2f", name, fig2(v), min)
	}
}

func atMostRate(t *testing.T, name string, v *float64, max float64) {
	t.Helper()
	if v == nil || *v > max {
		t.Errorf("%s = %s, above its ceiling %.2f", name, fig2(v), max)
	}
}

func atMost(t *testing.T, name string, v, max int) {
	t.Helper()
	if v > max {
		t.Errorf("%s = %d, above its ceiling %d", name, v, max)
	}
}
