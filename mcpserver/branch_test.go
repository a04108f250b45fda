package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

const bt = "branch-thinking"

// btSession calls branch-thinking on one explicit session.
type btSession struct {
	t  *testing.T
	cs *mcp.ClientSession
	id string
}

func (s btSession) args(m map[string]any) map[string]any {
	m["session_id"] = s.id
	return m
}

func (s btSession) thought(content, typ string, extra ...any) map[string]any {
	s.t.Helper()
	m := map[string]any{"content": content, "type": typ}
	for i := 0; i < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return mustCall(s.t, s.cs, bt, s.args(m))
}

func (s btSession) cmd(typ string, data map[string]any) map[string]any {
	s.t.Helper()
	c := map[string]any{"type": typ}
	if data != nil {
		c["data"] = data
	}
	return mustCall(s.t, s.cs, bt, s.args(map[string]any{"command": c}))
}

func (s btSession) fail(args map[string]any, code, field string) map[string]any {
	s.t.Helper()
	out, text := mustFail(s.t, s.cs, bt, s.args(args))
	if out["code"] != code || out["status"] != "failed" || out["error"] == "" {
		s.t.Fatalf("want %s, got %v (%s)", code, out, text)
	}
	if field != "" {
		d, _ := out["details"].(map[string]any)
		if d["field"] != field {
			s.t.Fatalf("want field %q, got %v", field, out)
		}
	}
	return out
}

func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

func obj(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
}

// The seed's "complete reasoning session" example.
func TestBranchThinkingSeedSession(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "seed-1"}
	goal := mustCall(t, s.cs, bt, s.args(map[string]any{"command": map[string]any{"type": "setGoal", "goal": "Design a scalable authentication system"}}))
	if goal["goal"] != "Design a scalable authentication system" || goal["session_id"] != "seed-1" {
		t.Fatal(goal)
	}
	a := s.thought("Breaking down authentication requirements", "analysis", "keyPoints", []string{"security", "scalability", "user-experience"})
	if a["branchId"] != "main" || a["activeBranch"] != "main" || a["numThoughts"] != float64(1) || a["branchState"] != "active" || a["thoughtId"] == "" {
		t.Fatal(a)
	}
	if _, ok := a["evaluation"]; ok {
		t.Fatalf("a branch of one thought is not rated, and its result has no evaluation: %v", a)
	}
	h := s.thought("OAuth2 with JWT tokens for stateless auth", "hypothesis", "branchId", "oauth-solution", "confidence", 0.8)
	if h["branchId"] != "oauth-solution" || h["activeBranch"] != "oauth-solution" || h["numThoughts"] != float64(1) || h["createdBranch"] != true ||
		h["parentStep"] != a["step"] {
		t.Fatal(h)
	}
	v := s.thought("JWT tokens enable horizontal scaling", "validation", "branchId", "oauth-solution", "confidence", "0.9")
	if v["numThoughts"] != float64(2) || v["parentStep"] != h["step"] {
		t.Fatal(v)
	}
	ev := obj(v, "evaluation")
	for _, k := range []string{"coherenceScore", "contradictionScore", "informationGain", "goalAlignment", "confidenceGradient", "redundancyScore"} {
		if _, ok := obj(ev, "metrics")[k]; !ok {
			t.Fatalf("metric %s missing: %v", k, ev)
		}
	}
	if ev["score"] == nil || ev["quality"] == "" {
		t.Fatal(ev)
	}
	alt := s.thought("Session-based auth with Redis", "hypothesis", "branchId", "session-solution", "crossRefs", []map[string]any{{
		"toBranch": "oauth-solution", "type": "alternative", "reason": "Different state management approach", "strength": 0.7}})
	if alt["branchId"] != "session-solution" || alt["crossRefs"] != float64(1) {
		t.Fatal(alt)
	}
	// A new branch without parentBranchId forks from the session's root
	// thought, not from the latest thought of the active branch.
	if alt["parentStep"] != a["step"] {
		t.Fatalf("fork: %v", alt)
	}
	eval := s.cmd("evaluate", nil)
	e1 := obj(eval, "evaluation")
	if eval["branchId"] != "session-solution" || e1["quality"] == nil || e1["thoughtCount"] != float64(1) {
		t.Fatal(eval)
	}
	eval = mustCall(t, s.cs, bt, s.args(map[string]any{"command": map[string]any{"type": "evaluate", "branchId": "oauth-solution"}}))
	e2 := obj(eval, "evaluation")
	for _, k := range []string{"coherenceScore", "contradictionScore", "informationGain", "goalAlignment", "overallScore", "quality", "issues", "suggestions"} {
		if _, ok := e2[k]; !ok {
			t.Fatalf("evaluation.%s missing: %v", k, e2)
		}
	}
	if e2["thoughtCount"] != float64(2) || e2["goalAlignment"] == nil {
		t.Fatal(e2)
	}
	// Both alternatives hang from the root: two leaves, paths of 3 and 2.
	paths := s.cmd("findStrongestPaths", map[string]any{"topK": "2"})
	var lens []int
	for _, p := range list(paths, "paths") {
		lens = append(lens, len(list(p.(map[string]any), "thoughts")))
	}
	slices.Sort(lens)
	if !reflect.DeepEqual(lens, []int{2, 3}) {
		t.Fatal(paths)
	}
	ls := s.cmd("list", nil)
	var ids []string
	for _, b := range list(ls, "branches") {
		m := b.(map[string]any)
		ids = append(ids, m["id"].(string))
		for _, k := range []string{"id", "state", "thoughtCount", "priority", "confidence"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("list entry lacks %s: %v", k, m)
			}
		}
		if m["id"] == "oauth-solution" && (m["thoughtCount"] != float64(2) || m["confidence"] != 0.85) {
			t.Fatal(m)
		}
	}
	slices.Sort(ids)
	if !reflect.DeepEqual(ids, []string{"main", "oauth-solution", "session-solution"}) || ls["activeBranch"] != "session-solution" {
		t.Fatal(ls)
	}
	exp := s.cmd("export", nil)
	doc := obj(exp, "document")
	if doc["format"] != "thinkgraph.session" || doc["version"] != float64(reasoning.ExchangeVersion) || len(list(doc, "thoughts")) != 4 || len(list(doc, "links")) != 1 ||
		obj(doc, "session")["goal"] != "Design a scalable authentication system" {
		t.Fatal(exp)
	}
}

// Where a new branch starts: without parentBranchId at the session's root
// thought (alternatives are siblings, whatever was written last), with it at
// that branch's latest thought; in a session whose main branch is empty, a
// new branch is a root of its own.
func TestBranchThinkingForkPoints(t *testing.T) {
	e := newTestEnv(t)
	s := btSession{t, e.connect(), "forks"}
	root := s.thought("Which store should hold sessions?", "question")
	m2 := s.thought("Sessions are small and read often", "analysis")
	a1 := s.thought("PostgreSQL", "hypothesis", "branchId", "pg")
	a2 := s.thought("PostgreSQL is already deployed", "validation", "branchId", "pg")
	b1 := s.thought("Redis", "hypothesis", "branchId", "redis")
	c1 := s.thought("PostgreSQL with a cache in front", "hypothesis", "branchId", "pg-cache", "parentBranchId", "pg")
	d1 := s.thought("Keep them in memory", "hypothesis", "branchId", "memory", "parentBranchId", "main")
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"main continues", m2["parentStep"], root["step"]},
		{"pg forks from the root", a1["parentStep"], root["step"]},
		{"pg continues", a2["parentStep"], a1["step"]},
		{"redis forks from the root, not from pg", b1["parentStep"], root["step"]},
		{"pg-cache forks from pg's latest", c1["parentStep"], a2["step"]},
		{"memory forks from main's latest", d1["parentStep"], m2["step"]},
	} {
		if c.got != c.want {
			t.Errorf("%s: parentStep %v, want %v", c.name, c.got, c.want)
		}
	}
	want := map[string][2]any{"redis": {"main", root["step"]}, "pg-cache": {"pg", a2["step"]}, "memory": {"main", m2["step"]}}
	for _, b := range list(s.cmd("list", nil), "branches") {
		m := b.(map[string]any)
		if w, ok := want[m["id"].(string)]; ok && (m["parentBranchId"] != w[0] || m["forkStep"] != w[1]) {
			t.Errorf("branch %v: parent %v fork %v, want %v", m["id"], m["parentBranchId"], m["forkStep"], w)
		}
	}

	// main has no thought: the first branches are roots of their own.
	s = btSession{t, s.cs, "no-main"}
	x := s.thought("Cache everything", "hypothesis", "branchId", "x")
	x2 := s.thought("Caches go stale", "critique", "branchId", "x")
	y := s.thought("Cache nothing", "hypothesis", "branchId", "y")
	if _, ok := x["parentStep"]; ok {
		t.Errorf("x: %v", x)
	}
	if _, ok := y["parentStep"]; ok || x2["parentStep"] != x["step"] {
		t.Errorf("y forks from nothing: %v", y)
	}
}

// The seed's "semantic navigation" example, and focus/history.
func TestBranchThinkingSemanticNavigation(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "nav"}
	c := s.thought("Caching strategies improve performance", "observation")
	s.thought("Profiling shows the database dominates request latency", "analysis")
	s.thought("Gardening tomatoes needs daily watering", "observation", "branchId", "garden")
	sim := s.cmd("findSimilar", map[string]any{"query": "performance optimization", "limit": 5})
	res := list(sim, "results")
	if len(res) != 3 || res[0].(map[string]any)["thoughtId"] != c["thoughtId"] || sim["totalFound"] != float64(3) {
		t.Fatal(sim)
	}
	if s.cmd("list", nil)["activeBranch"] != "garden" {
		t.Fatal("active branch")
	}
	j := s.cmd("jumpToRelated", map[string]any{"thoughtId": c["thoughtId"], "limit": 3})
	if j["activeBranch"] != "main" || j["branchId"] != "main" || j["previousBranch"] != "garden" || len(list(j, "related")) != 2 ||
		obj(j, "from")["step"] != c["step"] {
		t.Fatal(j)
	}
	// Focus moves the active branch: a thought without branchId goes there.
	f := mustCall(t, s.cs, bt, s.args(map[string]any{"command": map[string]any{"type": "focus", "branchId": "garden"}}))
	if f["activeBranch"] != "garden" || f["numThoughts"] != float64(1) {
		t.Fatal(f)
	}
	n := s.thought("Tomatoes also need stakes", "observation")
	if n["branchId"] != "garden" || n["numThoughts"] != float64(2) {
		t.Fatal(n)
	}
	hist := s.cmd("history", map[string]any{"branchId": "main"})
	th := list(hist, "thoughts")
	if len(th) != 2 || th[0].(map[string]any)["content"] != "Caching strategies improve performance" || obj(hist, "branch")["thoughtCount"] != float64(2) {
		t.Fatal(hist)
	}
	path := s.cmd("semanticPath", map[string]any{"fromThoughtId": c["thoughtId"], "toThoughtId": n["thoughtId"]})
	if _, ok := path["found"]; !ok || path["session_id"] != "nav" {
		t.Fatal(path)
	}
}

// plantedSession writes a session with a contradiction, a circular
// argument, a drifting branch, open questions and an unvalidated hypothesis.
func plantedSession(s btSession) {
	s.cmd("setGoal", map[string]any{"goal": "Choose a database for the session store"})
	s.thought("We should use PostgreSQL for the session store", "hypothesis", "confidence", 0.8, "keyPoints", []string{"durability", "SQL"})
	s.thought("PostgreSQL replication keeps sessions durable across failures", "validation", "confidence", 0.8)
	s.thought("We should not use PostgreSQL for the session store", "critique", "branchId", "kv", "parentBranchId", "main", "keyPoints", []string{"latency", "durability"})
	s.thought("Redis keeps sessions in memory with lower latency", "hypothesis", "branchId", "kv", "confidence", 0.7)
	s.thought("The session store is fast because it keeps sessions in memory", "analysis", "branchId", "circle")
	s.thought("Memory access has low latency", "observation", "branchId", "circle")
	s.thought("It keeps sessions in memory because the session store is fast", "synthesis", "branchId", "circle")
	for _, c := range []string{"Database indexes speed up session lookups", "B-tree indexes on the session table speed up lookups",
		"The query planner uses the session table indexes", "My cat enjoys sleeping in the afternoon sun",
		"Gardening tomatoes requires daily watering", "The football match ended in a draw"} {
		s.thought(c, "analysis", "branchId", "drift", "parentBranchId", "main")
	}
	s.thought("How many concurrent sessions must the store hold?", "question", "branchId", "main")
}

func TestBranchThinkingAnalysesFindPlantedProblems(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "planted"}
	plantedSession(s)

	con := s.cmd("findContradictions", nil)
	found := false
	for _, c := range list(con, "contradictions") {
		m := c.(map[string]any)
		if obj(m, "thoughtA")["content"] == "We should use PostgreSQL for the session store" && obj(m, "thoughtB")["content"] == "We should not use PostgreSQL for the session store" {
			found = true
		}
	}
	if !found || con["count"].(float64) < 1 {
		t.Fatalf("planted contradiction not found: %v", con)
	}
	circ := s.cmd("detectCircular", nil)
	if circ["count"].(float64) < 1 || !strings.Contains(fmt.Sprint(circ), "circular_support") {
		t.Fatalf("planted circular argument not found: %v", circ)
	}
	drift := s.cmd("detectDrift", nil)
	if !slices.Contains(list(drift, "drifting"), any("drift")) {
		t.Fatalf("planted drift not found: %v", drift)
	}
	gaps := s.cmd("detectKnowledgeGaps", nil)
	if obj(gaps, "byKind")["open_question"] == nil {
		t.Fatalf("open question not found: %v", gaps)
	}
	stats := s.cmd("statistics", nil)
	if stats["totalThoughts"] != float64(14) || stats["totalBranches"] != float64(4) || obj(stats, "thoughtsByType")["analysis"] != float64(7) {
		t.Fatal(stats)
	}
	prof := s.cmd("compareProfiles", nil)
	if len(list(prof, "profiles")) != 4 || len(list(prof, "comparisons")) != 6 {
		t.Fatal(prof)
	}
	if m := s.cmd("suggestMerges", map[string]any{"minSimilarity": 0.1}); len(list(m, "suggestions")) == 0 {
		t.Fatal(m)
	}
	cf := s.cmd("generateCounterfactuals", map[string]any{"branchId": "main", "count": 2})
	cfs := list(cf, "counterfactuals")
	if cf["method"] != "offline" || len(cfs) != 2 {
		t.Fatal(cf)
	}
	first := cfs[0].(map[string]any)
	// A question the model can answer, naming the thoughts that rest on
	// the claim; never a rewritten sentence.
	if q, _ := first["question"].(string); !strings.HasPrefix(q, "What if #") || !strings.Contains(q, "did not hold") ||
		len(list(first, "dependentSteps")) == 0 || first["counterfactual"] != nil {
		t.Fatal(first)
	}
	dia := s.cmd("synthesizeDialectical", nil) // picks main vs kv from the contradiction
	if dia["method"] != "offline" || obj(dia, "thesis")["branchId"] == nil || len(list(dia, "tensions")) == 0 ||
		!slices.Contains(list(obj(dia, "commonGround"), "sharedKeyPoints"), any("durability")) || obj(dia, "synthesis")["statement"] == "" {
		t.Fatal(dia)
	}
	sug := s.cmd("suggestTools", nil)
	var cmds []string
	for _, x := range list(sug, "suggestions") {
		m := x.(map[string]any)
		if m["reason"] == "" {
			t.Fatal(m)
		}
		cmds = append(cmds, fmt.Sprint(m["tool"], ":", m["command"]))
	}
	for _, want := range []string{"branch-thinking:synthesizeDialectical", "branch-thinking:detectCircular", "branch-thinking:detectDrift"} {
		if !slices.Contains(cmds, want) {
			t.Fatalf("suggestTools lacks %s: %v", want, cmds)
		}
	}

	// Auto-evaluation settings.
	tog := s.cmd("toggleAutoEval", nil)
	if obj(tog, "autoEval")["enabled"] != false {
		t.Fatal(tog)
	}
	if n := s.thought("Memcached is another option", "hypothesis", "branchId", "kv"); n["evaluation"] != nil {
		t.Fatal("evaluation with auto-eval off")
	}
	cfg := s.cmd("configAutoEval", map[string]any{"enabled": "true", "thresholds": map[string]any{"excellent": 0.9, "good": "0.7", "moderate": 0.5}, "suggestPivotThreshold": 0.99})
	if obj(cfg, "autoEval")["suggestPivotThreshold"] != 0.99 || obj(obj(cfg, "autoEval"), "thresholds")["good"] != 0.7 {
		t.Fatal(cfg)
	}
	if n := s.thought("Memcached lacks persistence", "critique", "branchId", "kv"); obj(n, "evaluation")["shouldPivot"] != true || obj(n, "evaluation")["pivotReason"] == "" {
		t.Fatalf("pivot under a 0.99 threshold: %v", n)
	}
	// Prune marks weak branches, deletes nothing.
	pr := s.cmd("prune", map[string]any{"threshold": 0.99})
	if len(list(pr, "pruned")) == 0 || pr["message"] == "" {
		t.Fatal(pr)
	}
	ls := s.cmd("list", nil)
	pruned := 0
	for _, b := range list(ls, "branches") {
		if b.(map[string]any)["state"] == "pruned" {
			pruned++
		}
	}
	if pruned != len(list(pr, "pruned")) || s.cmd("statistics", nil)["totalThoughts"] != float64(16) {
		t.Fatal(ls)
	}
}

func TestBranchThinkingCleanSessionReportsNothing(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "clean"}
	s.cmd("setGoal", map[string]any{"goal": "Speed up the API with a cache"})
	s.thought("The API latency comes from slow database queries", "analysis", "confidence", 0.8)
	s.thought("A cache in front of the database queries lowers the API latency", "hypothesis", "confidence", 0.7)
	s.thought("Load tests show the cache lowers the API latency of database queries", "validation", "confidence", 0.9)
	s.thought("Cache invalidation keeps the database queries and the API latency low", "analysis", "confidence", 0.8)
	for _, c := range []string{"findContradictions", "detectCircular"} {
		if out := s.cmd(c, nil); out["count"] != float64(0) {
			t.Fatalf("%s on a clean session: %v", c, out)
		}
	}
	if d := s.cmd("detectDrift", nil); len(list(d, "drifting")) != 0 {
		t.Fatalf("drift on a clean session: %v", d)
	}
}

// export → import → export is lossless apart from ids.
func TestBranchThinkingExportImportRoundTrip(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "orig"}
	plantedSession(s)
	mustCall(t, s.cs, "think", map[string]any{"thought": "A think-log thought is exported too", "confidence": 0.3, "session_id": "orig"})
	d1 := obj(s.cmd("export", nil), "document")
	imp := mustCall(t, s.cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": d1}})
	newID, _ := imp["session_id"].(string)
	if newID == "" || newID == "orig" || imp["sourceSessionId"] != "orig" || imp["thoughts"] != float64(15) || len(obj(imp, "thoughtIdMap")) != 15 {
		t.Fatal(imp)
	}
	s2 := btSession{t, s.cs, newID}
	d2 := obj(s2.cmd("export", nil), "document")
	if normalize(t, d1) != normalize(t, d2) {
		t.Fatalf("round trip differs:\n%s\n%s", normalize(t, d1), normalize(t, d2))
	}
	// The imported session works like any other.
	if c := s2.cmd("findContradictions", nil); c["count"].(float64) < 1 {
		t.Fatal(c)
	}
	// Importing into a store that has the source session reports it.
	imp2 := mustCall(t, s.cs, bt, map[string]any{"command": map[string]any{"type": "import", "data": d1}})
	if len(list(imp2, "conflicts")) != 1 {
		t.Fatal(imp2)
	}
	// Malformed and future documents.
	future := clone(d1)
	future["version"] = reasoning.ExchangeVersion + 1
	s.fail(map[string]any{"command": map[string]any{"type": "import", "data": future}}, "ValidationError", "data.version")
	bad := clone(d1)
	ths := list(bad, "thoughts")
	ths[3].(map[string]any)["parentId"] = "nope"
	s.fail(map[string]any{"command": map[string]any{"type": "import", "data": bad}}, "ValidationError", "data.thoughts[3].parentId")
	s.fail(map[string]any{"command": map[string]any{"type": "import", "data": map[string]any{"hello": 1}}}, "ValidationError", "data.format")
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// normalize replaces every id by its position so two exports compare.
func normalize(t *testing.T, doc map[string]any) string {
	t.Helper()
	d := clone(doc)
	ids := map[string]string{}
	for i, th := range list(d, "thoughts") {
		ids[th.(map[string]any)["id"].(string)] = fmt.Sprintf("T%d", i)
	}
	for i, l := range list(d, "links") {
		ids[l.(map[string]any)["id"].(string)] = fmt.Sprintf("L%d", i)
	}
	ids[obj(d, "session")["id"].(string)] = "S"
	delete(d, "exportedAt")
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case string:
			if n, ok := ids[x]; ok {
				return n
			}
		}
		return v
	}
	b, _ := json.Marshal(walk(d))
	return string(b)
}

func TestBranchThinkingErrors(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "errs"}
	s.thought("Start", "analysis")
	s.thought("Other", "analysis", "branchId", "b1")

	out := s.fail(map[string]any{"command": map[string]any{"type": "dance"}}, "ValidationError", "command.type")
	if !strings.Contains(out["error"].(string), "findContradictions") {
		t.Fatal(out)
	}
	s.fail(map[string]any{"content": strings.Repeat("x", 10001), "type": "analysis"}, "ValidationError", "content")
	s.fail(map[string]any{"content": "x", "type": "musing"}, "ValidationError", "type")
	s.fail(map[string]any{"content": "x"}, "ValidationError", "type")
	s.fail(map[string]any{}, "ValidationError", "content")
	s.fail(map[string]any{"content": "x", "type": "analysis", "command": map[string]any{"type": "list"}}, "ValidationError", "content")
	s.fail(map[string]any{"content": "x", "type": "analysis", "confidence": "high"}, "ValidationError", "confidence")
	s.fail(map[string]any{"command": map[string]any{"type": "findStrongestPaths", "data": map[string]any{"k": 2}}}, "ValidationError", "k")
	s.fail(map[string]any{"command": map[string]any{"type": "findSimilar"}}, "ValidationError", "query")

	out = s.fail(map[string]any{"command": map[string]any{"type": "focus", "branchId": "nope"}}, "BranchNotFoundError", "branchId")
	if !strings.Contains(fmt.Sprint(out["suggestions"]), "b1") || !strings.Contains(fmt.Sprint(out["suggestions"]), "main") {
		t.Fatal(out)
	}
	s.fail(map[string]any{"content": "x", "type": "analysis", "crossRefs": []map[string]any{{"toBranch": "ghost", "type": "builds_upon"}}}, "BranchNotFoundError", "crossRefs[0].toBranch")
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": "new", "parentBranchId": "ghost"}, "BranchNotFoundError", "parentBranchId")
	s.fail(map[string]any{"command": map[string]any{"type": "jumpToRelated", "data": map[string]any{"thoughtId": "ghost"}}}, "ThoughtNotFoundError", "thoughtId")
	s.fail(map[string]any{"command": map[string]any{"type": "semanticPath", "data": map[string]any{"fromThoughtId": "ghost", "toThoughtId": "ghost2"}}}, "ThoughtNotFoundError", "fromThoughtId")

	// b1 builds upon main; main building upon b1 closes a loop.
	s.thought("b1 builds on main", "analysis", "branchId", "b1", "crossRefs", []map[string]any{{"toBranch": "main", "type": "builds_upon", "reason": "extends", "strength": "0.6"}})
	out = s.fail(map[string]any{"content": "main builds on b1", "type": "analysis", "branchId": "main", "crossRefs": []map[string]any{{"toBranch": "b1", "type": "builds_upon"}}},
		"CircularReferenceError", "crossRefs[0].toBranch")
	if !strings.Contains(out["error"].(string), "main → b1 → main") {
		t.Fatal(out)
	}
	// b2's parent is b1 (whose parent is main); making main's parent b2 closes the chain.
	s.thought("b2 starts", "analysis", "branchId", "b2", "parentBranchId", "b1")
	s.fail(map[string]any{"content": "x", "type": "analysis", "branchId": "main", "parentBranchId": "b2"}, "CircularReferenceError", "parentBranchId")

	// Without the semantic engine the analyses are SemanticModelError; the
	// graph commands still work.
	plain := newTestEnv(t)
	p := btSession{t, plain.connect(), "plain"}
	p.thought("Works without embeddings", "analysis")
	if ls := p.cmd("list", nil); len(list(ls, "branches")) != 1 {
		t.Fatal(ls)
	}
	p.fail(map[string]any{"command": map[string]any{"type": "findContradictions"}}, "SemanticModelError", "")
}

// Leniency: numbers as strings, branchId and goal inside command or data,
// a single key point as a string.
func TestBranchThinkingLenientInput(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "lenient"}
	r := s.thought("A", "analysis", "confidence", "0.5", "keyPoints", "only one")
	if r["numThoughts"] != float64(1) {
		t.Fatal(r)
	}
	s.thought("B", "analysis", "branchId", "x")
	f := mustCall(t, s.cs, bt, s.args(map[string]any{"command": map[string]any{"type": "focus", "data": map[string]any{"branchId": "main"}}}))
	if f["activeBranch"] != "main" {
		t.Fatal(f)
	}
	g := s.cmd("setGoal", map[string]any{"goal": "in data"})
	if g["goal"] != "in data" {
		t.Fatal(g)
	}
	// The connection's own session works without session_id.
	cs := e.connect()
	out := mustCall(t, cs, bt, map[string]any{"content": "no session id", "type": "observation"})
	if out["session_id"] == "" || out["numThoughts"] != float64(1) {
		t.Fatal(out)
	}
}

// A thought that fits another branch clearly better than its own gets an
// overlapWarning; one that fits its own branch does not.
func TestBranchThinkingOverlapWarning(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "overlap"}
	for _, c := range []string{"PostgreSQL indexes speed up database queries", "Database query plans use PostgreSQL indexes",
		"Slow database queries need PostgreSQL indexes"} {
		s.thought(c, "analysis", "branchId", "db")
	}
	s.thought("Tomatoes need daily watering in the garden", "observation", "branchId", "garden")
	s.thought("Garden soil for tomatoes needs compost", "observation", "branchId", "garden")
	fits := s.thought("Compost and daily watering keep garden tomatoes healthy", "observation", "branchId", "garden")
	if fits["overlapWarning"] != nil {
		t.Fatalf("warning for a thought that fits its branch: %v", fits)
	}
	off := s.thought("PostgreSQL indexes make database queries fast", "analysis", "branchId", "garden")
	w := obj(off, "overlapWarning")
	if w == nil || w["suggestedBranch"] != "db" || w["suggestedSimilarity"].(float64) < w["currentSimilarity"].(float64)+0.15 {
		t.Fatalf("no overlap warning: %v", off)
	}
	if off["branchId"] != "garden" {
		t.Fatal("the thought must stay where it was sent")
	}
}

// FuzzBranchThinking sends arbitrary arguments to branch-thinking (the seed
// corpus runs with go test): every call is answered, and every rejection is
// a structured tool error that is never an internal error.
func FuzzBranchThinking(f *testing.F) {
	for _, s := range []string{
		`{"content": "a", "type": "analysis"}`, `{"content": "a", "type": "analysis", "confidence": "0.5", "keyPoints": "k"}`,
		`{"content": "a", "type": "analysis", "branchId": "b", "parentBranchId": "main", "crossRefs": [{"toBranch": "main", "type": "builds_upon", "strength": "2"}]}`,
		`{"content": "b", "type": "hypothesis", "branchId": "main", "crossRefs": [{"toBranch": "b", "type": "builds_upon"}]}`,
		`{"command": {"type": "list"}}`, `{"command": {"type": "focus", "branchId": 5}}`, `{"command": {"type": "history", "data": []}}`,
		`{"command": {"type": "evaluate", "data": {"branchId": "b"}}}`, `{"command": {"type": "findSimilar", "data": {"query": "a", "limit": "-1"}}}`,
		`{"command": {"type": "jumpToRelated", "data": {"thoughtId": ""}}}`, `{"command": {"type": "semanticPath", "data": {"fromThoughtId": "x", "toThoughtId": 1}}}`,
		`{"command": {"type": "setGoal", "goal": ""}}`, `{"command": {"type": "configAutoEval", "data": {"thresholds": {"excellent": 0.1}}}}`,
		`{"command": {"type": "configAutoEval", "data": {"thresholds": [1]}}}`, `{"command": {"type": "toggleAutoEval", "data": null}}`,
		`{"command": {"type": "generateCounterfactuals", "data": {"count": 0}}}`, `{"command": {"type": "synthesizeDialectical", "data": {"branches": "main,b"}}}`,
		`{"command": {"type": "synthesizeDialectical", "data": {"branches": [1, 2]}}}`, `{"command": {"type": "prune", "data": {"threshold": "x"}}}`,
		`{"command": {"type": "import", "data": {"format": "thinkgraph.session", "version": 1, "branches": [{"id": "main", "state": "active"}], "thoughts": [{"id": "t", "step": 1, "branchId": "main", "content": "c"}], "session": {"stepCount": 1}}}}`,
		`{"command": {"type": "import", "data": "{\"format\": 3}"}}`, `{"command": {"type": "import", "data": {"format": "thinkgraph.session", "version": 1.5}}}`,
		`{"command": {"type": "import", "data": {"format": "thinkgraph.session", "version": 1, "thoughts": {"a": 1}}}}`,
		`{"command": {"type": "suggestTools"}}`, `{"command": {"type": "export"}, "content": "x"}`, `{"command": "list"}`, `{"command": {}}`,
		`{"session_id": "s"}`, `null`, `{"type": "analysis"}`,
	} {
		f.Add(s)
	}
	store, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"), sqlite.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		f.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		f.Fatal(err)
	}
	defer svc.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(svc, Options{}).MCP().Connect(context.Background(), st, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer cs.Close()
	f.Fuzz(func(t *testing.T, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: bt, Arguments: json.RawMessage(args)})
		if err != nil {
			if strings.Contains(err.Error(), "connection closed") || strings.Contains(err.Error(), "EOF") {
				t.Fatalf("%s: the server went away: %v", args, err)
			}
			return
		}
		if res.IsError {
			text := res.Content[0].(*mcp.TextContent).Text
			b, _ := json.Marshal(res.StructuredContent)
			if !strings.HasPrefix(text, "Error: ") || !strings.Contains(string(b), `"code"`) || strings.Contains(string(b), `"InternalError"`) {
				t.Fatalf("%s: bad error %q %s", args, text, b)
			}
		}
	})
}

// Every command of branching.BranchCommands answers through the MCP tool
// (the data fields this test has a sample for filled in, which must include
// the required ones), is in the input schema's enum, and
// an unknown or missing command type lists all of them.
func TestBranchThinkingEveryCommandReachable(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "every"}
	a := s.thought("Caching cuts database load", "analysis")
	b := s.thought("Caching adds stale reads", "analysis", "branchId", "b1")
	doc := obj(s.cmd("export", nil), "document")
	samples := map[string]any{"branchId": "main", "query": "caching", "thoughtId": a["thoughtId"], "otherThoughtId": b["thoughtId"],
		"fromThoughtId": a["thoughtId"], "toThoughtId": b["thoughtId"], "goal": "Decide on caching", "verdict": "compatible",
		"branches": []string{"main", "b1"}}
	var names []string
	for _, c := range branching.BranchCommands {
		names = append(names, c.Name)
		var data map[string]any
		for i, f := range c.FieldNames() {
			v, ok := samples[f]
			if !ok && (i >= len(c.Fields) || strings.HasPrefix(c.Fields[i][len(f):], "?")) {
				continue
			}
			if !ok {
				t.Fatalf("%s: no sample value for its required field %q; add one to this test", c.Name, f)
			}
			if data == nil {
				data = map[string]any{}
			}
			data[f] = v
		}
		if c.Document != "" {
			data = doc
		}
		if out := s.cmd(c.Name, data); out["command"] != c.Name {
			t.Fatalf("%s answered as %v: %v", c.Name, out["command"], out)
		}
	}
	if len(names) != 25 || names[0] != "list" || names[len(names)-1] != "judge" {
		t.Fatalf("want the seed's 24 commands then judge, got %v", names)
	}

	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, tool := range tools.Tools {
		if tool.Name == bt {
			raw, _ := json.Marshal(tool.InputSchema)
			var sch struct {
				Properties struct {
					Command struct {
						Properties struct {
							Type struct {
								Enum []string `json:"enum"`
							} `json:"type"`
						} `json:"properties"`
					} `json:"command"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(raw, &sch); err != nil {
				t.Fatal(err)
			}
			enum = sch.Properties.Command.Properties.Type.Enum
		}
	}
	if !slices.Equal(enum, names) {
		t.Fatalf("schema enum %v, want %v", enum, names)
	}

	all := strings.Join(names, ", ")
	for typ, want := range map[string]string{"dance": `unknown command "dance"; valid commands: ` + all, "": "'command.type' is required; valid commands: " + all} {
		out := s.fail(map[string]any{"command": map[string]any{"type": typ}}, "ValidationError", "command.type")
		if out["error"] != want || obj(out, "details")["expected"] != "one of: "+all {
			t.Fatalf("type %q: %v", typ, out)
		}
	}
}

// Every data field of branching.BranchCommands is read by parseCommand: a
// value of the wrong form is an error naming it, not silently ignored.
func TestBranchThinkingEveryCommandFieldIsRead(t *testing.T) {
	e := newTestEnv(t)
	s := btSession{t, e.connect(), "fields"}
	s.thought("A thought, so that the session exists", "analysis")
	for _, c := range branching.BranchCommands {
		for _, f := range c.FieldNames() {
			out, text := mustFail(t, s.cs, bt, s.args(map[string]any{"command": map[string]any{"type": c.Name, "data": map[string]any{f: [][]int{{1}}}}}))
			if d := obj(out, "details"); out["code"] != "ValidationError" || !strings.HasPrefix(fmt.Sprint(d["field"]), f) {
				t.Fatalf("%s with a nested array as %q: %v (%s)", c.Name, f, out, text)
			}
		}
	}
}
