package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// eval scenarios prints a line per measure of the scenario README for the
// database session, and refuses what it cannot read.
func TestEvalScenarios(t *testing.T) {
	path := filepath.Join("..", "..", "reasoningeval", "testdata", "scenarios", "database-session.jsonl")
	out, err := exec.Command(binary, "eval", "scenarios", path, "--misses").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"sessions=1 thoughts=24 ", "contradictions planted=2 ", "circular chains=1 ", "drift branches=1 ",
		"strongest_path sessions=1 ", "synthesis pairs=2 ", "evaluate drifting=1 ", "similar queries=2 ", "max_bytes "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if out, err := exec.Command(binary, "eval", "scenarios", "--help").CombinedOutput(); err != nil || !strings.Contains(strings.ToLower(string(out)), "usage") {
		t.Errorf("--help: %v\n%s", err, out)
	}
	if out, err := exec.Command(binary, "eval", "scenarios", filepath.Join(t.TempDir(), "missing.jsonl")).CombinedOutput(); err == nil {
		t.Fatalf("missing file accepted: %s", out)
	}
}
