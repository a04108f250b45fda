package mcpserver

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// The database session a new user wrote (reasoningeval/testdata/scenarios,
// CC0), replayed over MCP: both planted contradictions — "a single
// PostgreSQL primary handles that volume" / "a single PostgreSQL server
// cannot hold our 2 TB", and "an application bug cannot leak rows across
// tenants" / "row-level security does not keep tenants apart" — are in the
// first findContradictions call's review, each pair in one group within the
// budget (6 claims a group, 30 a call), and nothing is falsely asserted.
func TestDatabaseSessionReview(t *testing.T) {
	f, err := os.Open("../reasoningeval/testdata/scenarios/database-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sc struct {
		Goal     string `json:"goal"`
		Thoughts []struct {
			N          int      `json:"n"`
			Branch     string   `json:"branch"`
			Type       string   `json:"type"`
			Content    string   `json:"content"`
			Confidence *float64 `json:"confidence"`
		} `json:"thoughts"`
		Truth struct {
			Contradictions [][2]int `json:"contradictions"`
		} `json:"truth"`
	}
	r := bufio.NewReader(f)
	line, _ := r.ReadBytes('\n')
	if err := json.Unmarshal(line, &sc); err != nil {
		t.Fatal(err)
	}
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "database"}
	s.cmd("setGoal", map[string]any{"goal": sc.Goal})
	ids := map[int]string{}
	steps := map[int]float64{}
	for _, th := range sc.Thoughts {
		extra := []any{"branchId", th.Branch}
		if th.Confidence != nil {
			extra = append(extra, "confidence", *th.Confidence)
		}
		out := s.thought(th.Content, th.Type, extra...)
		ids[th.N] = out["thoughtId"].(string)
		steps[th.N] = out["step"].(float64)
	}
	con := s.cmd("findContradictions", nil)
	planted := map[[2]string]bool{}
	for _, p := range sc.Truth.Contradictions {
		planted[[2]string{ids[p[0]], ids[p[1]]}] = true
		planted[[2]string{ids[p[1]], ids[p[0]]}] = true
	}
	for _, c := range list(con, "contradictions") {
		m := c.(map[string]any)
		if !planted[[2]string{obj(m, "thoughtA")["id"].(string), obj(m, "thoughtB")["id"].(string)}] {
			t.Errorf("a false assertion: %v", m)
		}
	}
	entries := 0
	together := map[[2]int]bool{}
	for _, g := range list(obj(con, "review"), "groups") {
		claims := list(g.(map[string]any), "claims")
		if len(claims) > 6 {
			t.Fatalf("a group of %d claims: %v", len(claims), g)
		}
		in := map[float64]bool{}
		for _, c := range claims {
			entries++
			if entries <= 30 {
				in[c.(map[string]any)["step"].(float64)] = true
			}
		}
		for _, p := range sc.Truth.Contradictions {
			if in[steps[p[0]]] && in[steps[p[1]]] {
				together[p] = true
			}
		}
	}
	for _, p := range sc.Truth.Contradictions {
		if !together[p] {
			t.Errorf("planted pair #%d/#%d is not in one group of the first review: %v", p[0], p[1], obj(con, "review"))
		}
	}
}
