// Package viewer tests thinkgraph's web viewer in a real browser: Debian's
// Chromium driven by Playwright (npm playwright-core, pinned in
// package-lock.json, with executablePath; it never downloads a browser).
// viewer.test.mjs opens a session of 200 thoughts in 5 branches, checks the
// nodes are drawn, clicks one and reads its text in the panel, adds a
// thought through MCP and sees it appear, saves a screenshot, writes a
// branch-thinking session through MCP and checks its drawing at a desktop
// and a phone width (text inside its boxes as the browser measures it,
// children below parents, labels off the boxes, the overview in the panel,
// no page wider than the window, no node under the side panel, a wider
// drawing scrolling in its pane; screenshots viewer-desktop*.png and
// viewer-phone*.png), checks the graph app (ui://thinkgraph/graph) through
// the TypeScript client and in a page that plays an MCP Apps host
// (app-in-host.png), and measures the first render of a 2,000-thought
// session.
//
// It needs Node, the npm packages (npm ci --prefix e2e/viewer) and Chromium
// (apt-get install -y chromium); without them it skips, unless CI is set.
// The screenshot goes to $VIEWER_ARTIFACTS (default e2e/viewer/artifacts).
package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/sequential"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

func TestMain(m *testing.M) { testdeps.Main(m) }

// seed writes n thoughts into session id: a main line, and branches-1
// branches forking from its first thoughts, as sequentialthinking does.
// The thought at step special holds markup.
func seed(t *testing.T, svc *reasoning.Service, id string, n, branches, special int, specialText string) {
	t.Helper()
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: thinkgraph.LocalTenant}
	topics := []string{"the cache hit rate", "the queue depth", "an index on orders", "the retry policy", "the memory budget",
		"the request rate", "the error budget", "a read replica", "connection pooling"}
	verbs := []string{"should improve", "may not matter for", "depends on", "is the bottleneck of", "needs measuring against"}
	per := n / branches
	for i := 1; i <= n; i++ {
		text := fmt.Sprintf("Step %d: %s %s %s.", i, topics[i%len(topics)], verbs[(i/3)%len(verbs)], topics[(i*7+3)%len(topics)])
		if i == special {
			text = specialText
		}
		in := sequential.Input{Session: ref, ThoughtNumber: i, TotalThoughts: n, NextThoughtNeeded: i < n, Thought: text}
		if b := (i - 1) / per; b > 0 && b < branches {
			from := b
			in.BranchFromThought, in.BranchID = &from, fmt.Sprintf("branch-%d", b)
		}
		if _, err := sequential.New(svc).Think(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
}

func TestViewerInChromium(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Dir(self)
	root := filepath.Dir(filepath.Dir(dir))
	node, err := exec.LookPath("node")
	if err != nil {
		testdeps.Missing(t, testdeps.Node, "node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		testdeps.Missing(t, testdeps.ViewerPkgs, "e2e/viewer/node_modules is missing")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		testdeps.Missing(t, testdeps.Chromium, chromium+" is missing")
	}

	tmp := t.TempDir()
	binary := filepath.Join(tmp, "thinkgraph")
	build := exec.Command("go", "build", "-o", binary, "./cmd/thinkgraph")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// Seed the database as a server with the offline semantic engine
	// would have written it (thoughts with their vectors).
	db := filepath.Join(tmp, "viewer.db")
	ctx := context.Background()
	store, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		t.Fatal(err)
	}
	special := "It <script>tgInjected(0)</script> is \"quoted\" & `ticked`\nsecond line"
	start := time.Now()
	seed(t, svc, "large-2000", 2000, 5, 0, "")
	seed(t, svc, "small-200", 200, 5, 150, special)
	svc.Close()
	store.Close()
	t.Logf("seeded 2,200 thoughts in %v", time.Since(start).Round(time.Millisecond))

	runCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	view := exec.CommandContext(runCtx, binary, "view", "--db", db)
	view.Env = append(os.Environ(), "LOG_LEVEL=warn", "DATABASE_URL=")
	view.Stderr = os.Stderr
	stdout, err := view.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := view.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = view.Process.Signal(os.Interrupt); _ = view.Wait() }()
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("thinkgraph view printed no URL: %v", err)
	}
	url = strings.TrimSpace(url)

	artifacts := os.Getenv("VIEWER_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(dir, "artifacts")
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	dbFile, err := os.Open(filepath.Join(root, "reasoningeval", "testdata", "scenarios", "database-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dbSession, err := reasoningeval.ReadScenarios(dbFile)
	dbFile.Close()
	if err != nil || len(dbSession) != 1 {
		t.Fatalf("database session: %v", err)
	}
	spec, _ := json.Marshal(map[string]any{
		"url": url, "chromium": chromium, "session200": "small-200", "session2000": "large-2000", "dbSession": dbSession[0],
		"expect":     map[string]any{"step": 150, "content": special},
		"screenshot": filepath.Join(artifacts, "viewer-200.png"), "shots": artifacts,
	})
	specFile := filepath.Join(tmp, "spec.json")
	if err := os.WriteFile(specFile, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(runCtx, node, filepath.Join(dir, "viewer.test.mjs"), specFile)
	cmd.Dir = dir
	out, err := cmd.Output()
	var res struct {
		Nodes200 int      `json:"nodes200"`
		LiveMS   int      `json:"liveMs"`
		Failures []string `json:"failures"`
		Mermaid  map[string]struct {
			Chars, Edges, Thoughts int
			FitsDefaults           bool
		} `json:"mermaid"`
		First2000 []struct {
			Wall, TTFB, Response, DCL, Ready int
			Layout, Style, Script, Task      int
			Painted                          int
			FCP                              *int
		} `json:"first2000"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		t.Fatalf("node viewer.test.mjs: %v %v\n%s", err, jerr, out)
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	if err != nil && len(res.Failures) == 0 {
		t.Errorf("node viewer.test.mjs: %v", err)
	}
	t.Logf("200-thought session: %d nodes; a thought added through MCP appeared after %d ms; screenshot %s",
		res.Nodes200, res.LiveMS, filepath.Join(artifacts, "viewer-200.png"))
	for id, m := range res.Mermaid {
		t.Logf("Mermaid export of %s (%d thoughts): %d characters, %d edges; within mermaid's default limits (50,000 characters, 500 edges): %v",
			id, m.Thoughts, m.Chars, m.Edges, m.FitsDefaults)
	}
	for i, r := range res.First2000 {
		kind := "warm (server cache)"
		if i == 0 {
			kind = "cold (server renders and analyses)"
		}
		t.Logf("2,000-thought session, first render %s: painted %d ms after navigation start (response end %d ms, DOMContentLoaded %d ms, script done %d ms; wall from the test %d ms; main thread until the data arrived: layout %d ms, style %d ms, script %d ms, all tasks %d ms)",
			kind, r.Painted, r.Response, r.DCL, r.Ready, r.Wall, r.Layout, r.Style, r.Script, r.Task)
	}
}
