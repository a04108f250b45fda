package mcpserver

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoningeval"
)

// writeScenarioFile writes the first session of a scenario file over MCP
// (writeScenario) and returns the overlap warnings its thoughts got.
func writeScenarioFile(t *testing.T, s btSession, file string) []string {
	t.Helper()
	f, err := os.Open("../reasoningeval/testdata/scenarios/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scs, err := reasoningeval.ReadScenarios(f)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd("setGoal", map[string]any{"goal": scs[0].Goal})
	var warnings []string
	for _, th := range scs[0].Thoughts {
		extra := []any{"branchId", th.Branch}
		if th.Confidence != nil {
			extra = append(extra, "confidence", *th.Confidence)
		}
		if w := obj(s.thought(th.Content, th.Type, extra...), "overlapWarning"); w != nil {
			warnings = append(warnings, fmt.Sprintf("#%d -> %v", th.N, w["suggestedBranch"]))
		}
	}
	return warnings
}

// stepsOf returns the steps named in a result entry: by "steps", or the
// "step" of its thought references.
func stepsOf(v any) []int {
	var out []int
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if st, ok := x["step"].(float64); ok {
				out = append(out, int(st))
			}
			for k, e := range x {
				if k == "steps" {
					for _, st := range e.([]any) {
						out = append(out, int(st.(float64)))
					}
				} else if k != "step" {
					walk(e)
				}
			}
		}
	}
	walk(v)
	return out
}

func hasSteps(steps []int, want ...int) bool {
	for _, w := range want {
		if !slices.Contains(steps, w) {
			return false
		}
	}
	return true
}

// The database session of the scenario README, rebuilt over MCP, gets the
// advice its truth calls for: both planted contradictions in the first
// review, the circular argument found, the cost branch (and only it)
// drifting and evaluated below every sound branch, the ruled-out MongoDB
// branch closed, the decision (#24) on the strongest path, the two
// contradictions as tensions and never as agreements, questions instead of
// rewritten sentences, gaps only where something was left open, fresh
// suggestions, and prune acting on what evaluation finds.
func TestDatabaseSessionAdviceOverMCP(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "database"}
	warnings := writeScenarioFile(t, s, "database-session.jsonl")
	if len(warnings) != 0 {
		t.Errorf("overlap warnings on a session where every thought is where it belongs: %v", warnings)
	}

	con := s.cmd("findContradictions", nil)
	groups := list(obj(con, "review"), "groups")
	for _, pair := range [][2]int{{7, 13}, {8, 11}} {
		found := false
		for _, g := range groups {
			if hasSteps(stepsOf(g), pair[0], pair[1]) {
				found = true
			}
		}
		if !found {
			t.Errorf("contradiction #%d/#%d not in the first review: %v", pair[0], pair[1], groups)
		}
	}

	circ := s.cmd("detectCircular", nil)
	if f := list(circ, "circularReasoning"); len(f) == 0 || !slices.ContainsFunc(f, func(x any) bool {
		st := stepsOf(x.(map[string]any)["thoughts"])
		return hasSteps(st, 14, 15) || hasSteps(st, 15, 16) || hasSteps(st, 14, 16)
	}) {
		t.Errorf("circular argument #14-#16 not found: %v", circ)
	}

	drift := s.cmd("detectDrift", nil)
	if d := list(drift, "drifting"); !slices.Equal(d, []any{"cost"}) {
		t.Errorf("drifting = %v, want [cost]: %v", d, drift)
	}

	paths := list(s.cmd("findStrongestPaths", nil), "paths")
	top := paths[0].(map[string]any)
	if st := stepsOf(top["thoughts"]); st[len(st)-1] != 24 || top["concludes"] != true {
		t.Errorf("top path %v does not lead to the decision #24: %v", st, top)
	}
	for _, p := range paths {
		pm := p.(map[string]any)
		st := stepsOf(pm["thoughts"])
		if st[len(st)-1] == 6 && obj(pm, "closed")["by"] != "words" {
			t.Errorf("the MongoDB path is not closed by its own words: %v", pm)
		}
	}

	score := func(branch string) (float64, map[string]any) {
		ev := obj(s.cmd("evaluate", map[string]any{"branchId": branch}), "evaluation")
		v, _ := ev["overallScore"].(float64)
		return v, ev
	}
	cost, costEv := score("cost")
	// Away from the goal: drifting, or (as the session's other thoughts
	// stand over MCP, think's included) off it from its first thought.
	if f := fmt.Sprint(costEv["findings"]); !strings.Contains(f, "drifting") && !strings.Contains(f, "off_goal") || costEv["shouldPivot"] != true {
		t.Errorf("evaluate cost: %v", costEv)
	}
	for _, b := range []string{"main", "postgres-rls", "db-per-tenant", "distributed-sql", "hybrid"} {
		if v, ev := score(b); v <= cost {
			t.Errorf("drifting branch cost (%.2f) not below %s (%.2f): %v", cost, b, v, ev)
		}
	}
	if _, one := score("nosql-check"); !strings.Contains(fmt.Sprint(one["issues"]), "too few thoughts to evaluate") {
		t.Errorf("one-thought branch: %v", one)
	}

	dia := s.cmd("synthesizeDialectical", map[string]any{"branches": []any{"postgres-rls", "db-per-tenant"}})
	for _, a := range list(obj(dia, "commonGround"), "agreements") {
		if st := stepsOf(a); hasSteps(st, 8, 11) {
			t.Errorf("the planted contradiction #8/#11 is an agreement: %v", dia)
		}
	}
	if !slices.ContainsFunc(list(dia, "tensions"), func(x any) bool { return hasSteps(stepsOf(x), 8, 11) }) {
		t.Errorf("#8/#11 not a tension: %v", list(dia, "tensions"))
	}
	if st := fmt.Sprint(obj(dia, "synthesis")["statement"]); !strings.Contains(st, "holds #8") || !strings.Contains(st, "holds #11") || !strings.Contains(st, "Open:") {
		t.Errorf("statement: %s", st)
	}

	gaps := s.cmd("detectKnowledgeGaps", nil)
	for _, g := range list(gaps, "gaps") {
		gm := g.(map[string]any)
		if obj(gm, "thought")["branchId"] == "nosql-check" || strings.Contains(fmt.Sprint(gm["reason"]), "depends on no thought") {
			t.Errorf("not a real gap: %v", gm)
		}
	}

	cf := s.cmd("generateCounterfactuals", map[string]any{"branchId": "postgres-rls"})
	for _, c := range list(cf, "counterfactuals") {
		q := fmt.Sprint(c.(map[string]any)["question"])
		if !strings.HasPrefix(q, "What if #") || strings.Contains(q, "not the case") {
			t.Errorf("counterfactual question %q", q)
		}
	}
	if len(list(cf, "counterfactuals")) == 0 {
		t.Errorf("no counterfactual on postgres-rls: %v", cf)
	}

	var cmds []string
	for _, x := range list(s.cmd("suggestTools", nil), "suggestions") {
		m := x.(map[string]any)
		cmds = append(cmds, fmt.Sprint(m["tool"], ":", m["command"]))
	}
	if slices.Contains(cmds, "backtrack:<nil>") || !slices.Contains(cmds, "branch-thinking:detectDrift") {
		t.Errorf("suggestTools: %v", cmds)
	}

	pr := s.cmd("prune", nil)
	var pruned []string
	for _, p := range list(pr, "pruned") {
		pruned = append(pruned, fmt.Sprint(p.(map[string]any)["branchId"]))
	}
	slices.Sort(pruned)
	if !slices.Equal(pruned, []string{"cost", "nosql-check"}) {
		t.Errorf("prune pruned %v, want the drifting and the closed branch: %v", pruned, pr)
	}
}

// A branch the model closes with prune {branchId, reason} is a dead end
// for the strongest paths, with its reason; a new thought on it reopens
// it. prune refuses a reason without a branch.
func TestCloseBranchOverMCP(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "close"}
	s.cmd("setGoal", map[string]any{"goal": "Choose a message queue for order events"})
	s.thought("Order events need ordering per order and replay", "analysis", "confidence", 0.8)
	s.thought("Kafka keeps an ordered, replayable log per partition", "hypothesis", "branchId", "kafka", "confidence", 0.95)
	s.thought("SQS FIFO queues keep order per message group", "hypothesis", "branchId", "sqs", "confidence", 0.6)
	pathTo := func(leaf int) map[string]any {
		for _, p := range list(s.cmd("findStrongestPaths", map[string]any{"topK": 5}), "paths") {
			pm := p.(map[string]any)
			if st := stepsOf(pm["thoughts"]); st[len(st)-1] == leaf {
				return pm
			}
		}
		t.Fatalf("no path to #%d", leaf)
		return nil
	}
	if c := pathTo(2)["closed"]; c != nil {
		t.Fatalf("open branch closed: %v", c)
	}
	out := s.cmd("prune", map[string]any{"branchId": "kafka", "reason": "we cannot run brokers"})
	if len(list(out, "pruned")) != 1 || !strings.Contains(fmt.Sprint(out["message"]), "Closed branch") {
		t.Fatalf("prune kafka: %v", out)
	}
	paths := list(s.cmd("findStrongestPaths", nil), "paths")
	if st := stepsOf(paths[0].(map[string]any)["thoughts"]); st[len(st)-1] == 2 {
		t.Errorf("the closed branch is still the strongest path: %v", paths)
	}
	if c := obj(pathTo(2), "closed"); c["by"] != "marked" || c["reason"] != "we cannot run brokers" {
		t.Errorf("closed = %v", c)
	}
	s.thought("Managed Kafka removes the brokers from our hands", "analysis", "branchId", "kafka", "confidence", 0.8)
	if c := pathTo(4); c["closed"] != nil {
		t.Errorf("a new thought did not reopen the branch: %v", c)
	}
	s.fail(map[string]any{"command": map[string]any{"type": "prune", "data": map[string]any{"reason": "why"}}}, "ValidationError", "reason")
}

// The first dev scenario (anticoagulation, s-dev-01) over MCP, one check
// per kind of advice: the drifting falls branch flagged alone and evaluated
// below the sound ones, warfarin's ruled-out branch closed and never the
// strongest path, the recommendation (#21) on it, the planted cross-branch
// contradictions never agreements (and #2/#14 a tension), a paraphrase query finding
// its thought among the first three.
func TestDevScenarioAdviceOverMCP(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "dev01"}
	if w := writeScenarioFile(t, s, "dev.jsonl"); len(w) != 0 {
		t.Errorf("overlap warnings: %v", w)
	}
	if d := list(s.cmd("detectDrift", nil), "drifting"); !slices.Equal(d, []any{"falls"}) {
		t.Errorf("drifting = %v", d)
	}
	falls, _ := obj(s.cmd("evaluate", map[string]any{"branchId": "falls"}), "evaluation")["overallScore"].(float64)
	for _, b := range []string{"main", "doac", "laao"} {
		if v, _ := obj(s.cmd("evaluate", map[string]any{"branchId": b}), "evaluation")["overallScore"].(float64); v <= falls {
			t.Errorf("falls (%.2f) not below %s (%.2f)", falls, b, v)
		}
	}
	paths := list(s.cmd("findStrongestPaths", nil), "paths")
	top := stepsOf(paths[0].(map[string]any)["thoughts"])
	if top[len(top)-1] != 21 {
		t.Errorf("top path %v", top)
	}
	for _, p := range paths[:len(paths)-1] {
		if st := stepsOf(p.(map[string]any)["thoughts"]); st[len(st)-1] == 10 {
			t.Errorf("the ruled-out warfarin path ranks above another: %v", paths)
		}
	}
	// #7/#13 ("she lives alone" / "her husband, who shares the flat")
	// rests on common knowledge no review group of the offline engine
	// joins yet: it must not be an agreement.
	for _, c := range []struct {
		a, b     int
		branches []any
		tension  bool
	}{{2, 14, []any{"main", "laao"}, true}, {7, 13, []any{"doac", "laao"}, false}} {
		dia := s.cmd("synthesizeDialectical", map[string]any{"branches": c.branches})
		if slices.ContainsFunc(list(obj(dia, "commonGround"), "agreements"), func(x any) bool { return hasSteps(stepsOf(x), c.a, c.b) }) {
			t.Errorf("#%d/#%d is an agreement", c.a, c.b)
		}
		if c.tension && !slices.ContainsFunc(list(dia, "tensions"), func(x any) bool { return hasSteps(stepsOf(x), c.a, c.b) }) {
			t.Errorf("#%d/#%d is no tension: %v", c.a, c.b, list(dia, "tensions"))
		}
	}
	sim := s.cmd("findSimilar", map[string]any{"query": "how often would a patient have to tumble each year before blood thinners do more harm than good", "limit": 3})
	if !slices.ContainsFunc(list(sim, "results"), func(x any) bool { return x.(map[string]any)["step"] == float64(3) }) {
		t.Errorf("findSimilar: %v", sim)
	}
}
