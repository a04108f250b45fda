package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// The new user's case: a contradictory cross-reference from a new branch
// to main, whose latest thought is not the one it contradicts ("cheap
// flights" against "a cabin"; the conflict is with "held in Lisbon"). The
// reference names no thought, so nothing is asserted: the review asks
// which of main's claims it contradicts, first; synthesizeDialectical shows
// it as an open tension. Once judge answers, the pair is a contradiction in
// every analysis.
func TestDeclaredContradictionCountsEverywhere(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "declared"}
	s.cmd("setGoal", map[string]any{"goal": "Choose where the team meets for the offsite"})
	s.thought("The offsite should be held in Lisbon", "hypothesis", "confidence", 0.7)
	s.thought("Lisbon has cheap direct flights for most of the team", "validation", "confidence", 0.8)
	s.thought("The offsite should be held in a cabin in the mountains", "hypothesis", "branchId", "mountains", "confidence", 0.6,
		"crossRefs", []any{map[string]any{"toBranch": "main", "type": "contradictory", "reason": "one venue only"}})
	s.thought("A remote cabin keeps the team away from distractions", "analysis", "branchId", "mountains", "confidence", 0.7)

	dia := s.cmd("synthesizeDialectical", map[string]any{"branches": []any{"main", "mountains"}})
	if len(list(dia, "tensions")) == 0 {
		t.Fatalf("declared contradiction not a tension: %v", dia)
	}
	ten := list(dia, "tensions")[0].(map[string]any)
	if ten["status"] != "open" || !strings.Contains(fmt.Sprint(ten["signs"]), "declares it contradicts branch main") {
		t.Fatalf("tension = %v", ten)
	}
	con := s.cmd("findContradictions", map[string]any{"verbose": true})
	if con["count"] != float64(0) {
		t.Fatalf("a cross-reference naming no thought asserted a contradiction: %v", con)
	}
	g := list(obj(con, "review"), "groups")[0].(map[string]any)
	if !strings.Contains(fmt.Sprint(g["signs"]), "#3 declares it contradicts branch main") || len(list(g, "claims")) != 3 {
		t.Fatalf("the first review group is not the cross-reference's question: %v", g)
	}
	s.cmd("judge", map[string]any{"group": g["group"], "verdict": "contradiction", "conflicts": []any{[]any{3, 1}}})
	con = s.cmd("findContradictions", nil)
	if con["count"] != float64(1) || list(con, "contradictions")[0].(map[string]any)["source"] != "declared" {
		t.Fatalf("findContradictions after judge: %v", con)
	}
	dia = s.cmd("synthesizeDialectical", map[string]any{"branches": []any{"main", "mountains"}})
	if ten := list(dia, "tensions")[0].(map[string]any); ten["status"] != "stated" {
		t.Fatalf("tension after judge = %v", ten)
	}
	ev := s.cmd("evaluate", map[string]any{"branchId": "mountains"})
	evo := obj(ev, "evaluation")
	if len(list(evo, "contradictions")) != 1 || evo["contradictionScore"] == float64(0) {
		t.Fatalf("evaluate: %v", evo)
	}
}

// reviewGroup returns the review group of a findContradictions result that
// holds claims of every one of texts (by their thoughts' content), or nil.
func reviewGroup(t *testing.T, res map[string]any, texts ...string) map[string]any {
	t.Helper()
	for _, g := range list(obj(res, "review"), "groups") {
		m := g.(map[string]any)
		found := 0
		for _, text := range texts {
			for _, c := range list(m, "claims") {
				if strings.HasPrefix(text, strings.TrimRight(fmt.Sprint(c.(map[string]any)["text"]), ",.;")) {
					found++
					break
				}
			}
		}
		if found == len(texts) {
			return m
		}
	}
	return nil
}

// stepOf returns the step of the claim of a review group whose text starts
// text.
func stepOf(t *testing.T, g map[string]any, text string) float64 {
	t.Helper()
	for _, c := range list(g, "claims") {
		m := c.(map[string]any)
		if strings.HasPrefix(text, strings.TrimRight(fmt.Sprint(m["text"]), ",.;")) {
			return m["step"].(float64)
		}
	}
	t.Fatalf("no claim of %q in %v", text, g)
	return 0
}

// The claims the offline judge cannot decide are put to the model in
// review groups; the model answers a group in one judge call, the answer is
// stored as verdict links, counted by every analysis from then on, and an
// answered group is not asked again until a new claim joins it.
func TestReviewAnsweredByTheModel(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "candidates"}
	prices := [2]string{"Raising prices will keep our customers loyal", "Customers never stay loyal after a price rise"}
	dough := [2]string{"The bread dough needs to rest overnight in the fridge", "The bread dough must be baked right after kneading, without resting"}
	notice := [2]string{"The contract can be terminated with one month's notice", "Staffing stays flexible because the contract can be terminated with one month's notice"}
	for _, c := range []string{prices[0], prices[1], dough[0], dough[1], notice[0], notice[1]} {
		s.thought(c, "analysis")
	}
	// A premise and an argument that restates it are detectCircular's
	// question: once it asked them, findContradictions does not.
	circ := s.cmd("detectCircular", nil)
	cg := list(obj(circ, "review"), "groups")
	if circ["count"] != float64(0) || len(cg) != 1 {
		t.Fatalf("detectCircular: %v", circ)
	}
	con := s.cmd("findContradictions", map[string]any{"verbose": true})
	gd, gp := reviewGroup(t, con, dough[0], dough[1]), reviewGroup(t, con, prices[0], prices[1])
	if con["count"] != float64(0) || gd == nil || gp == nil || !strings.HasPrefix(fmt.Sprint(obj(con, "review")["question"]), "Can each group's claims all be true at once") {
		t.Fatalf("review: %v", con)
	}
	if reviewGroup(t, con, notice[0], notice[1]) != nil {
		t.Fatalf("findContradictions asks the pair detectCircular asked: %v", con)
	}
	key := gd["group"]
	a, b := stepOf(t, gd, dough[0]), stepOf(t, gd, dough[1])
	// A text is quoted once: a later call without verbose lists the groups
	// already quoted by key alone, and no claim again.
	again := obj(s.cmd("findContradictions", nil), "review")
	if !slices.Contains(list(again, "askedBefore"), key) {
		t.Fatalf("the group quoted before is not listed by key: %v", again)
	}
	for _, g := range list(again, "groups") {
		if cl := list(g.(map[string]any), "claims"); len(cl) > 0 {
			t.Fatalf("claims quoted twice: %v", g)
		}
	}

	// Bad answers are refused with the field named.
	judge := func(data map[string]any) map[string]any {
		return map[string]any{"command": map[string]any{"type": "judge", "data": data}}
	}
	s.fail(judge(map[string]any{"group": key, "verdict": "maybe"}), "ValidationError", "verdict")
	s.fail(judge(map[string]any{"group": key, "verdict": "contradiction"}), "ValidationError", "conflicts")
	s.fail(judge(map[string]any{"group": key, "verdict": "contradiction", "conflicts": []any{[]any{a, 99}}}), "ValidationError", "conflicts[0]")
	s.fail(judge(map[string]any{"group": "99.1-1.1", "verdict": "consistent"}), "ValidationError", "group")
	s.fail(judge(map[string]any{"group": "not a key", "verdict": "consistent"}), "ValidationError", "group")
	s.fail(judge(map[string]any{"conflicts": []any{[]any{a, b}}, "verdict": "contradiction"}), "ValidationError", "group")

	// "contradiction": stored, then counted by findContradictions and evaluate.
	j := s.cmd("judge", map[string]any{"group": key, "verdict": "contradiction", "conflicts": []any{[]any{a, fmt.Sprintf("#%v", b)}}, "reason": "resting overnight is resting"})
	if !slices.Contains(list(j, "stored"), any(fmt.Sprintf("#%v/#%v contradiction", a, b))) || j["message"] == "" {
		t.Fatal(j)
	}
	con = s.cmd("findContradictions", map[string]any{"verbose": true})
	if con["count"] != float64(1) || reviewGroup(t, con, dough[0], dough[1]) != nil {
		t.Fatalf("after the answer: %v", con)
	}
	if c := list(con, "contradictions")[0].(map[string]any); c["source"] != "declared" || obj(c, "thoughtA")["content"] != refText(dough[0]) {
		t.Fatal(c)
	}
	if ev := obj(s.cmd("evaluate", nil), "evaluation"); len(list(ev, "contradictions")) != 1 || ev["contradictionScore"] == float64(0) {
		t.Fatalf("evaluate: %v", ev)
	}
	// The same answer again stores nothing new.
	if j := s.cmd("judge", map[string]any{"group": key, "verdict": "contradiction", "conflicts": []any{[]any{a, b}}}); len(list(j, "stored")) != 0 {
		t.Fatalf("the same answer stored again: %v", j)
	}
	// "consistent": never asked again, and not a contradiction.
	s.cmd("judge", map[string]any{"group": gp["group"], "verdict": "consistent"})
	for range 2 {
		con = s.cmd("findContradictions", map[string]any{"verbose": true})
		if reviewGroup(t, con, prices[0], prices[1]) != nil || con["count"] != float64(1) {
			t.Fatalf("a consistent group is asked again: %v", con)
		}
	}
	// A new claim that joins the answered group opens it again.
	joined := "Raising prices will not keep our customers loyal"
	s.thought(joined, "analysis")
	con = s.cmd("findContradictions", map[string]any{"verbose": true})
	if reviewGroup(t, con, prices[0], joined) == nil {
		t.Fatalf("the new claim is not asked with the group it joined: %v", con)
	}

	// Circularity: the review group asked first, answered circular by
	// group, then not_circular on the two thoughts.
	claims := list(cg[0].(map[string]any), "claims")
	ca, cb := claims[0].(map[string]any)["step"], claims[1].(map[string]any)["step"] // steps name thoughts
	if !strings.HasPrefix(notice[0], fmt.Sprint(claims[0].(map[string]any)["text"])) {
		t.Fatalf("circular review: %v", cg)
	}
	// Quoted once: the next call lists the group by key, verbose shows it.
	if again := obj(s.cmd("detectCircular", nil), "review"); len(list(again, "groups")) != 0 || !slices.Contains(list(again, "askedBefore"), cg[0].(map[string]any)["group"]) {
		t.Fatalf("detectCircular again: %v", again)
	}
	if v := obj(s.cmd("detectCircular", map[string]any{"verbose": true}), "review"); len(list(v, "groups")) != 1 {
		t.Fatalf("detectCircular verbose: %v", v)
	}
	s.cmd("judge", map[string]any{"group": cg[0].(map[string]any)["group"], "verdict": "circular"})
	circ = s.cmd("detectCircular", nil)
	if circ["count"] != float64(1) || list(circ, "circularReasoning")[0].(map[string]any)["kind"] != "declared" || len(list(obj(circ, "review"), "groups")) != 0 {
		t.Fatalf("after circular: %v", circ)
	}
	j = s.cmd("judge", map[string]any{"thoughtId": cb, "otherThoughtId": ca, "verdict": "not_circular"})
	if j["previousVerdict"] != "circular" {
		t.Fatal(j)
	}
	if circ = s.cmd("detectCircular", nil); circ["count"] != float64(0) || len(list(obj(circ, "review"), "groups")) != 0 {
		t.Fatalf("after not_circular: %v", circ)
	}

	// The verdicts travel with the session: export, import, and the
	// imported session answers as the original does.
	doc := obj(s.cmd("export", nil), "document")
	imp := s.cmd("import", doc)
	if imp["links"] != float64(4) {
		t.Fatalf("import: %v", imp)
	}
	s2 := btSession{t, s.cs, imp["session_id"].(string)}
	con = s2.cmd("findContradictions", map[string]any{"verbose": true})
	if con["count"] != float64(2) || reviewGroup(t, con, dough[0], dough[1]) != nil ||
		reviewGroup(t, con, prices[0], prices[1]) != nil && reviewGroup(t, con, prices[0], prices[1], joined) == nil {
		t.Fatalf("imported findContradictions: %v", con)
	}
	if circ = s2.cmd("detectCircular", nil); circ["count"] != float64(0) || len(list(obj(circ, "review"), "groups")) != 0 {
		t.Fatalf("imported detectCircular: %v", circ)
	}
}

// One judge call answers a whole review: judge {verdicts} stores each
// answer as the one-group form does, in one transaction, an error naming
// the entry and storing nothing; a pair one answer names a conflict is not
// stored compatible by another; a key that names no group says so first.
func TestJudgeWholeReview(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "whole"}
	prices := [2]string{"Raising prices will keep our customers loyal", "Customers never stay loyal after a price rise"}
	dough := [2]string{"The bread dough needs to rest overnight in the fridge", "The bread dough must be baked right after kneading, without resting"}
	for _, c := range []string{prices[0], prices[1], dough[0], dough[1]} {
		s.thought(c, "analysis")
	}
	con := s.cmd("findContradictions", nil)
	gd, gp := reviewGroup(t, con, dough[0], dough[1]), reviewGroup(t, con, prices[0], prices[1])
	if gd == nil || gp == nil || !strings.Contains(fmt.Sprint(obj(con, "review")["answer"]), "verdicts") {
		t.Fatalf("review: %v", con)
	}
	a, b := stepOf(t, gd, dough[0]), stepOf(t, gd, dough[1])
	judge := func(verdicts ...map[string]any) map[string]any {
		return map[string]any{"command": map[string]any{"type": "judge", "data": map[string]any{"verdicts": verdicts}}}
	}
	contra := map[string]any{"group": gd["group"], "verdict": "contradiction", "conflicts": []any{[]any{a, b}}}
	consistent := map[string]any{"group": gp["group"], "verdict": "consistent"}

	// Errors name the entry, and nothing of the call is stored.
	s.fail(judge(consistent, map[string]any{"group": gd["group"], "verdict": "contradiction", "conflicts": []any{[]any{a, 99}}}), "ValidationError", "verdicts[1].conflicts[0]")
	s.fail(judge(consistent, map[string]any{"group": "99.1-1.1", "verdict": "consistent"}), "ValidationError", "verdicts[1].group")
	s.fail(judge(consistent, map[string]any{"group": gd["group"], "verdict": "maybe"}), "ValidationError", "verdicts[1].verdict")
	s.fail(judge(map[string]any{"verdict": "consistent"}), "ValidationError", "verdicts[0].group")
	if out := s.fail(map[string]any{"command": map[string]any{"type": "judge", "data": map[string]any{"verdicts": []any{}}}}, "ValidationError", "thoughtId"); !strings.Contains(fmt.Sprint(out["error"]), "'verdicts'") {
		t.Fatalf("judge with no answer: %v", out)
	}
	s.fail(map[string]any{"command": map[string]any{"type": "judge", "data": map[string]any{"verdicts": []any{consistent}, "group": gd["group"]}}}, "ValidationError", "group")
	if stats := s.cmd("statistics", nil); stats["totalCrossReferences"] != float64(0) {
		t.Fatalf("a refused call stored verdicts: %v", stats)
	}
	// A group that does not exist is named as such, before its conflicts.
	out := s.fail(map[string]any{"command": map[string]any{"type": "judge", "data": map[string]any{"group": "99.1-1.1", "verdict": "contradiction"}}}, "ValidationError", "group")
	if !strings.Contains(fmt.Sprint(out["error"]), "no group of the review has this key") {
		t.Fatalf("a key naming no group: %v", out)
	}

	// The whole review in one call: each answer stored as the one-group form.
	j := s.cmd("judge", map[string]any{"verdicts": []any{contra, consistent}})
	if j["groups"] != float64(2) || j["stored"] != float64(2) || !slices.Equal(list(j, "contradictions"), []any{fmt.Sprintf("#%v/#%v", a, b)}) || j["message"] == "" {
		t.Fatalf("judge {verdicts}: %v", j)
	}
	con = s.cmd("findContradictions", map[string]any{"verbose": true})
	if con["count"] != float64(1) || reviewGroup(t, con, dough[0], dough[1]) != nil || reviewGroup(t, con, prices[0], prices[1]) != nil {
		t.Fatalf("after judge {verdicts}: %v", con)
	}
	// Answering again stores nothing new; a pair one answer calls a
	// conflict is not made compatible by another answer of the call.
	both := map[string]any{"group": fmt.Sprintf("%v-%v", gd["group"], strings.SplitN(fmt.Sprint(gp["group"]), "-", 2)[0]), "verdict": "consistent"}
	if j := s.cmd("judge", map[string]any{"verdicts": []any{contra, both}}); j["stored"] == float64(0) || len(list(j, "contradictions")) != 0 {
		t.Fatalf("judge {verdicts} again: %v", j)
	}
	if con = s.cmd("findContradictions", nil); con["count"] != float64(1) {
		t.Fatalf("a conflict of one answer made compatible by another: %v", con)
	}
}

// The Markdown export evaluates as evaluate does: with the session goal,
// the same judge and the stated verdicts, so its figures are evaluate's.
func TestExportAgreesWithEvaluate(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	s := btSession{t, cs, "export-eval"}
	s.cmd("setGoal", map[string]any{"goal": "Choose where the team meets for the offsite"})
	s.thought("The offsite should be held in Lisbon", "hypothesis", "confidence", 0.7)
	s.thought("Lisbon has cheap direct flights for most of the team", "validation", "confidence", 0.8)
	s.thought("The team meets in Lisbon in spring when the weather is mild", "analysis", "confidence", 0.6)
	s.thought("The offsite should be held in a cabin in the mountains", "hypothesis", "branchId", "mountains", "confidence", 0.6,
		"crossRefs", []any{map[string]any{"toBranch": "main", "type": "contradictory", "reason": "one venue only"}})
	s.thought("A remote cabin keeps the team away from distractions", "analysis", "branchId", "mountains", "confidence", 0.4)

	md := read(t, cs, "thinkgraph://sessions/export-eval/markdown").Text
	if strings.Contains(md, "set a goal (setGoal)") {
		t.Fatalf("the export evaluates without the goal:\n%s", md)
	}
	for _, b := range []string{"main", "mountains"} {
		ev := obj(s.cmd("evaluate", map[string]any{"branchId": b}), "evaluation")
		f := func(k string) string {
			v, ok := ev[k].(float64)
			if !ok {
				return "n/a"
			}
			return fmt.Sprintf("%.2f", v)
		}
		want := []string{fmt.Sprintf("### Branch %s: %s (overall %s)", b, ev["quality"], f("overallScore")),
			"| goal alignment | " + f("goalAlignment") + " |", "| contradiction | " + f("contradictionScore") + " |"}
		sec := md[strings.Index(md, "### Branch "+b+":"):]
		if i := strings.Index(sec[4:], "### "); i >= 0 {
			sec = sec[:i+4]
		}
		for _, w := range want {
			if !strings.Contains(sec, w) {
				t.Errorf("branch %s: export lacks %q (evaluate: %v)\n%s", b, w, ev, sec)
			}
		}
		if f("goalAlignment") == "n/a" {
			t.Errorf("branch %s: evaluate has no goal alignment: %v", b, ev)
		}
	}
	if !strings.Contains(md, "one venue only") {
		t.Errorf("the declared contradiction is not in the export:\n%s", md)
	}
}

// THINKGRAPH_JUDGE=llm against a provider speaking the OpenAI chat
// completions wire format: bounded calls, verdicts stored and cached per
// pair of texts, one invocation row per call, and a failed call leaves the
// offline verdict.
func TestLLMJudgeSettlesCandidates(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		body := string(b)
		if strings.Contains(body, "loyal") {
			http.Error(w, `{"error":{"message":"overloaded","type":"server_error"}}`, http.StatusInternalServerError)
			return
		}
		// The group's statements are numbered in the user message; the
		// model names the conflicting pair by those numbers.
		answer := `{"verdict": "consistent"}`
		if strings.Contains(body, "dough") {
			if !strings.Contains(body, `1. The bread dough needs to rest`) || !strings.Contains(body, `2. The bread dough must be baked`) {
				http.Error(w, `{"error":{"message":"unexpected prompt","type":"invalid_request_error"}}`, http.StatusBadRequest)
				return
			}
			answer = `{"verdict": "contradiction", "conflicts": [[1, 2]], "reason": "resting and not resting"}`
		}
		content, _ := json.Marshal(answer)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"judge-model","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52}}`, content)
	}))
	t.Cleanup(srv.Close)
	count := func() int { mu.Lock(); defer mu.Unlock(); return calls }

	e := newSemanticTestEnvConfig(t, reasoning.Config{Judge: reasoning.JudgeLLM})
	cfg := llm.DefaultConfig()
	cfg.OpenAI.APIKey, cfg.OpenAI.BaseURL, cfg.MaxRetries = "sk-test", srv.URL, 0
	e.srv.svc.EnableLLM(cfg, nil)
	s := btSession{t, e.connect(), "llm-judge"}
	prices := [2]string{"Raising prices will keep our customers loyal", "Customers never stay loyal after a price rise"}
	dough := [2]string{"The bread dough needs to rest overnight in the fridge", "The bread dough must be baked right after kneading, without resting"}
	for _, c := range []string{prices[0], prices[1], dough[0], dough[1]} {
		s.thought(c, "analysis")
	}
	con := s.cmd("findContradictions", map[string]any{"verbose": true})
	rep := obj(con, "llmJudge")
	if n := count(); n != int(rep["asked"].(float64)) || n > 5 || rep["settled"] != float64(1) || rep["failed"] != float64(1) || rep["error"] == "" {
		t.Fatalf("%d calls, report %v", n, rep)
	}
	if con["count"] != float64(1) || obj(list(con, "contradictions")[0].(map[string]any), "thoughtA")["content"] != refText(dough[0]) ||
		reviewGroup(t, con, prices[0], prices[1]) == nil || reviewGroup(t, con, dough[0], dough[1]) != nil {
		t.Fatalf("after the LLM judge: %v", con)
	}
	var invs []thinkgraph.Invocation
	if err := e.store.View(context.Background(), func(tx thinkgraph.Tx) error {
		var err error
		invs, err = tx.Invocations(context.Background(), thinkgraph.InvocationFilter{SessionID: "llm-judge"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, inv := range invs {
		if inv.ToolName != "branch-thinking.judge" {
			t.Fatalf("invocation %+v", inv)
		}
		if !inv.Success {
			failed++
		}
	}
	if len(invs) != count() || failed != 1 {
		t.Fatalf("%d invocation rows (%d failed) for %d calls", len(invs), failed, count())
	}
	// The settled group is not asked again; the failed one is.
	before := count()
	con = s.cmd("findContradictions", map[string]any{"verbose": true})
	if count() != before+1 || con["count"] != float64(1) {
		t.Fatalf("second call: %d new calls, %v", count()-before, con)
	}
	// The same two texts in another session: the cached verdict, no call.
	o := btSession{t, e.connect(), "llm-judge-2"}
	o.thought(dough[0], "analysis")
	o.thought(dough[1], "analysis")
	before = count()
	con = o.cmd("findContradictions", map[string]any{"verbose": true})
	if count() != before || obj(con, "llmJudge")["cached"] != float64(1) || con["count"] != float64(1) {
		t.Fatalf("cached verdict: %d calls, %v", count()-before, con)
	}
}

// The new user's cases of issue 19: a reason clause whose own negation
// ("no server") is not the claim's, and a condition said once as a leading
// phrase and once as the subject of "makes" ("With one repository" / "A
// monorepo makes"). The first is the same claim with a negation once the
// reason is a claim of its own: asserted. The second needs to know that a
// monorepo is one repository: put to the model, both claims in one group.
func TestReasonClauseAndCausativeContradictions(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "issue19"}
	pairs := [][2]string{
		{"JWT tokens enable horizontal scaling because no server keeps session state", "JWT tokens do not enable horizontal scaling"},
		{"With one repository, CI build times will decrease", "A monorepo makes build times increase sharply"},
	}
	for _, p := range pairs {
		s.thought(p[0], "hypothesis")
		s.thought(p[1], "critique")
	}
	con := s.cmd("findContradictions", map[string]any{"verbose": true})
	found := false
	for _, c := range list(con, "contradictions") {
		m := c.(map[string]any)
		a, b := obj(m, "thoughtA")["content"], obj(m, "thoughtB")["content"]
		found = found || a == refText(pairs[0][0]) && b == refText(pairs[0][1])
	}
	if !found || con["count"] != float64(1) {
		t.Errorf("pair %q / %q not asserted alone: %v", pairs[0][0], pairs[0][1], con)
	}
	if reviewGroup(t, con, pairs[1][0], pairs[1][1]) == nil {
		t.Errorf("pair %q / %q not put to the model: %v", pairs[1][0], pairs[1][1], con)
	}
}

// Judging a pair twice stores one verdict, and a verdict replaced by a
// later one is counted nowhere: statistics and the report count the pair
// once, as its latest verdict says.
func TestJudgeTwiceCountsOnce(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	s := btSession{t, cs, "twice"}
	a := s.thought("The nightly export finishes before six", "analysis")["thoughtId"]
	b := s.thought("The nightly export runs until eight", "analysis")["thoughtId"]
	judge := func(verdict string) map[string]any {
		return s.cmd("judge", map[string]any{"thoughtId": a, "otherThoughtId": b, "verdict": verdict})
	}
	judge("contradiction")
	if j := judge("contradiction"); !strings.HasPrefix(fmt.Sprint(j["message"]), "Nothing new") {
		t.Fatalf("the same verdict again: %v", j)
	}
	judge("compatible")
	judge("contradiction")
	st := s.cmd("statistics", nil)
	refs := obj(st, "crossReferences")
	if refs["contradictory"] != float64(1) || refs["compatible"] != nil || st["totalCrossReferences"] != float64(1) {
		t.Fatalf("statistics count replaced verdicts: %v", st)
	}
	md := read(t, cs, "thinkgraph://sessions/twice/markdown").Text
	if n, c := strings.Count(md, ": contradictory (strength"), strings.Count(md, ": compatible (strength"); n != 1 || c != 0 {
		t.Fatalf("the report lists %d contradictory and %d compatible links:\n%s", n, c, md)
	}
}
