package branching_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
	"github.com/thinkgraph/thinkgraph/render"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// judgementSession writes the session of reasoningeval's judgement set
// (a contradictory cross-reference to a branch whose latest thought is not
// the one it means, a branch off the goal from its first thought, a
// recommendation followed by a conditional follow-up) and returns the tool,
// the session and the step of each thought by its n.
func judgementSession(t *testing.T) (*branching.BranchThinking, reasoning.SessionRef, map[int]int) {
	t.Helper()
	bt := newTool(t)
	ref := reasoning.SessionRef{ID: "judged", Explicit: true}
	return bt, ref, writeScenario(t, bt, ref, readScenarios(t, "judgement.jsonl")[0])
}

// readScenarios reads a scenario set of reasoningeval's testdata.
func readScenarios(t *testing.T, name string) []reasoningeval.Scenario {
	t.Helper()
	f, err := os.Open("../../reasoningeval/testdata/scenarios/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := reasoningeval.ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

// writeScenario writes sc's goal and thoughts, in the set's order, to the
// session ref with bt and returns the step of each thought by its n.
func writeScenario(t *testing.T, bt *branching.BranchThinking, ref reasoning.SessionRef, sc reasoningeval.Scenario) map[int]int {
	t.Helper()
	ctx := context.Background()
	if _, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "setGoal", Goal: &sc.Goal}); err != nil {
		t.Fatal(err)
	}
	steps := map[int]int{}
	for _, th := range sc.Thoughts {
		out, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: ref, Content: th.Content, Type: th.Type, BranchID: th.Branch, Confidence: th.Confidence, CrossRefs: th.CrossRefs})
		if err != nil {
			t.Fatal(err)
		}
		steps[th.N] = out.Step
	}
	return steps
}

// newTool is branch-thinking on a fresh SQLite file with the offline
// engine.
func newTool(t *testing.T) *branching.BranchThinking {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bt.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	emb, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := contradict.NewContradictor(nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Contradictor: c}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return branching.NewBranchThinking(svc, nil)
}

func command[R any](t *testing.T, bt *branching.BranchThinking, in branching.CommandInput) R {
	t.Helper()
	out, err := bt.Command(context.Background(), in)
	if err != nil {
		t.Fatalf("%s: %v", in.Type, err)
	}
	return out.(R)
}

// A contradictory cross-reference that names a branch only asserts
// nothing: the link points at the branch, and the review asks which of
// the branch's claims the thought contradicts (first, before the groups
// the grouping found); answered, the pair is a stated contradiction.
func TestDeclaredContradictionIsAsked(t *testing.T) {
	bt, ref, step := judgementSession(t)
	ctx := context.Background()
	err := bt.Service().View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		links, err := tx.Links(ctx, sess.Key)
		if err != nil {
			return err
		}
		if len(links) != 1 || links[0].Type != "contradictory" || links[0].ToThought != "" || links[0].ToBranch != "hotel" {
			t.Errorf("the cross-reference is stored as %+v, want a link to branch hotel and no thought", links)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res := command[*branching.ContradictionsResult](t, bt, branching.CommandInput{Session: ref, Type: "findContradictions"})
	if len(res.Contradictions) != 0 {
		t.Fatalf("a declared contradiction without a thought was asserted: %+v", res.Contradictions)
	}
	if len(res.Review.Groups) == 0 {
		t.Fatal("no review group")
	}
	g := res.Review.Groups[0]
	var in []int
	for _, c := range g.Claims {
		in = append(in, c.Step)
	}
	if !slices.Contains(in, step[10]) || !slices.Contains(in, step[6]) || !strings.Contains(g.Signs, "declares it contradicts branch hotel") {
		t.Fatalf("the first group %+v does not ask about #%d against the hotel branch's #%d", g, step[10], step[6])
	}
	for _, c := range g.Claims {
		if c.Step != step[10] && c.Step >= step[10] {
			t.Errorf("claim of #%d, written after the cross-reference, in the question", c.Step)
		}
	}
	j := command[*branching.GroupJudgeResult](t, bt, branching.CommandInput{Session: ref, Type: "judge", Group: g.Group, Verdict: "contradiction",
		Conflicts: [][]string{{"#" + strconv.Itoa(step[10]), "#" + strconv.Itoa(step[6])}}})
	if len(j.Stored) == 0 {
		t.Fatalf("judge stored nothing: %+v", j)
	}
	res = command[*branching.ContradictionsResult](t, bt, branching.CommandInput{Session: ref, Type: "findContradictions"})
	if len(res.Contradictions) != 1 || res.Contradictions[0].ThoughtA.Step != step[6] || res.Contradictions[0].ThoughtB.Step != step[10] {
		t.Fatalf("after the answer: %+v, want #%d/#%d", res.Contradictions, step[6], step[10])
	}
	for _, g2 := range res.Review.Groups {
		if g2.Group == g.Group {
			t.Errorf("the answered question is asked again: %+v", g2)
		}
	}
}

// A branch off the goal from its first thought is flagged by detectDrift
// (as off the goal) and by evaluate (finding off_goal), and no write of it
// was praised; the strongest path ends in the recommendation, not in the
// conditional follow-up written after it on another branch.
func TestOffGoalBranchAndConclusion(t *testing.T) {
	bt, ref, step := judgementSession(t)
	dr := command[*branching.DriftResult](t, bt, branching.CommandInput{Session: ref, Type: "detectDrift"})
	if !slices.Contains(dr.Drifting, "menu") {
		t.Fatalf("menu not flagged: %+v", dr)
	}
	for _, b := range dr.Branches {
		if b.Branch == "menu" && (!b.OffGoal || !strings.Contains(b.Reason, "each of its 3 thoughts")) {
			t.Errorf("menu flagged as %+v, want off the goal", b)
		}
		if b.Branch != "menu" && b.Drifting {
			t.Errorf("focused branch %s flagged: %+v", b.Branch, b)
		}
	}
	ev := command[*branching.EvaluateResult](t, bt, branching.CommandInput{Session: ref, Type: "evaluate", BranchID: "menu"})
	if !slices.ContainsFunc(ev.Evaluation.Findings, func(f analyze.Finding) bool { return f.Kind == analyze.FindingOffGoal }) || ev.Evaluation.Quality != "Poor" && ev.Evaluation.Quality != "Moderate" {
		t.Errorf("evaluate menu: %+v", ev.Evaluation)
	}
	k := 3
	ps := command[*branching.PathsResult](t, bt, branching.CommandInput{Session: ref, Type: "findStrongestPaths", TopK: &k})
	top := ps.Paths[0].Thoughts
	if top[len(top)-1].Step != step[16] && !slices.ContainsFunc(top, func(r analyze.ThoughtRef) bool { return r.Step == step[16] }) {
		t.Errorf("the top path %v does not hold the recommendation #%d", top, step[16])
	}
}

// A circular argument stated with judge counts in evaluate, as detectCircular
// lists it; and every surface gives a branch the figures evaluate gives.
func TestStatedCircularCountsEverywhere(t *testing.T) {
	bt, ref, step := judgementSession(t)
	before := command[*branching.EvaluateResult](t, bt, branching.CommandInput{Session: ref, Type: "evaluate", BranchID: "university"})
	command[*branching.JudgeResult](t, bt, branching.CommandInput{Session: ref, Type: "judge", ThoughtID: "#" + strconv.Itoa(step[9]), OtherThoughtID: "#" + strconv.Itoa(step[11]), Verdict: "circular"})
	circ := command[*branching.CircularResult](t, bt, branching.CommandInput{Session: ref, Type: "detectCircular"})
	if !slices.ContainsFunc(circ.Circular, func(c analyze.CircularReasoning) bool { return c.Kind == "declared" }) {
		t.Fatalf("detectCircular does not list the stated argument: %+v", circ.Circular)
	}
	after := command[*branching.EvaluateResult](t, bt, branching.CommandInput{Session: ref, Type: "evaluate", BranchID: "university"})
	if !slices.ContainsFunc(after.Evaluation.Findings, func(f analyze.Finding) bool { return f.Kind == analyze.FindingCircular }) {
		t.Fatalf("evaluate counts no circular finding: %+v", after.Evaluation)
	}
	if *after.Evaluation.OverallScore >= *before.Evaluation.OverallScore {
		t.Errorf("the stated argument cost nothing: %.3f before, %.3f after", *before.Evaluation.OverallScore, *after.Evaluation.OverallScore)
	}
	g, err := render.NewLoader(bt.Service(), bt.Analyst()).Load(context.Background(), ref, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range g.Analysis.Evaluations {
		ev := command[*branching.EvaluateResult](t, bt, branching.CommandInput{Session: ref, Type: "evaluate", BranchID: e.Branch})
		if e.Quality != ev.Evaluation.Quality || *e.OverallScore != *ev.Evaluation.OverallScore || len(e.Findings) != len(ev.Evaluation.Findings) {
			t.Errorf("branch %s: the export says %s %.3f %v, evaluate %s %.3f %v", e.Branch, e.Quality, *e.OverallScore, e.Findings,
				ev.Evaluation.Quality, *ev.Evaluation.OverallScore, ev.Evaluation.Findings)
		}
	}
}
