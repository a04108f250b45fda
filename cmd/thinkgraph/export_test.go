package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/sequential"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// seedExportSession writes a small session with two branches for tenant.
func seedExportSession(t *testing.T, db, id, tenant string) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := reasoning.New(store, reasoning.Config{})
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenant}
	one, two := 1, 2
	for _, in := range []sequential.Input{
		{Session: ref, Thought: "The cache is fast", ThoughtNumber: 1, TotalThoughts: 3, NextThoughtNeeded: true},
		{Session: ref, Thought: "It <script>alert(1)</script> is \"quoted\"", ThoughtNumber: 2, TotalThoughts: 3, NextThoughtNeeded: true},
		{Session: ref, Thought: "The cache is not fast", ThoughtNumber: 3, TotalThoughts: 3, BranchFromThought: &one, BranchID: "alt"},
		{Session: ref, Thought: "Use a queue", ThoughtNumber: 3, TotalThoughts: 3, BranchFromThought: &two, BranchID: "queue"},
	} {
		if _, err := sequential.New(svc).Think(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
}

func runExport(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"export"}, args...), strings.NewReader(""), &out, &errb, func(string) string { return "" })
	return out.String(), errb.String(), err
}

func TestExportFormats(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	seedExportSession(t, db, "exp-1", "acme")

	md, stderr, err := runExport(t, "exp-1", "--db", db, "--format", "markdown")
	if err != nil {
		t.Fatalf("%v %s", err, stderr)
	}
	for _, want := range []string{"# Reasoning session exp-1", "### Branch alt", "### Branch queue",
		"It &lt;script&gt;alert(1)&lt;/script&gt; is \"quoted\"", "## Contradictions", "The cache is not fast"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Not analysed") {
		t.Errorf("markdown was not analysed:\n%s", md)
	}
	mmd, _, err := runExport(t, "--db", db, "--format", "mermaid", "--no-analysis", "exp-1")
	if err != nil || !strings.HasPrefix(mmd, "flowchart TD\n") || !strings.Contains(mmd, `subgraph b1["alt"]`) || strings.Contains(mmd, "<script>") {
		t.Errorf("mermaid: %v\n%s", err, mmd)
	}
	dot, _, err := runExport(t, "exp-1", "--db", db, "--format", "dot")
	if err != nil || !strings.HasPrefix(dot, `digraph "exp-1" {`) || !strings.Contains(dot, `subgraph "cluster_1"`) {
		t.Errorf("dot: %v\n%s", err, dot)
	}
	html, _, err := runExport(t, "exp-1", "--db", db, "--format", "html")
	if err != nil || !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(html, "<script>alert") {
		t.Errorf("html: %v", err)
	}
	js, _, err := runExport(t, "exp-1", "--db", db, "--format", "json")
	var doc map[string]any
	if err != nil || json.Unmarshal([]byte(js), &doc) != nil || doc["format"] != reasoning.ExchangeFormat || len(doc["thoughts"].([]any)) != 4 {
		t.Errorf("json: %v\n%s", err, js)
	}

	if _, _, err := runExport(t, "missing", "--db", db); err == nil || !strings.Contains(err.Error(), `session "missing" not found`) {
		t.Errorf("missing session: %v", err)
	}
	if _, _, err := runExport(t, "exp-1", "--db", db, "--format", "pdf"); err == nil || exitCode(err) != 2 {
		t.Errorf("bad format: %v", err)
	}
	if _, _, err := runExport(t, "--db", db); err == nil || exitCode(err) != 2 {
		t.Errorf("no id: %v", err)
	}
}
