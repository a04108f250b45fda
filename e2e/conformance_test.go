package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// conformanceScenarios are the scenarios of the official MCP conformance
// suite (npm @modelcontextprotocol/conformance, pinned in package-lock.json)
// that apply to any server. The others of its active suite call fixture
// tools, resources and prompts of the SDKs' reference test server
// (test_simple_text, test://static-text, …) that thinkgraph does not have.
var conformanceScenarios = []string{
	"server-initialize",
	"ping",
	"tools-list",
	"resources-list",
	"prompts-list",
	"completion-complete",
	"logging-set-level",
	"server-sse-multiple-streams",
	"dns-rebinding-protection",
}

// TestConformanceSuite runs those scenarios against `thinkgraph serve
// --http` on a loopback port.
func TestConformanceSuite(t *testing.T) {
	binary, tmp := setup(t, "conformance")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, binary, "serve", "--http", "127.0.0.1:0", "--db", filepath.Join(tmp, "conformance.db"))
	srv.Env = []string{"LOG_FORMAT=json", "LOG_LEVEL=info", "HOME=" + tmp}
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	// The server logs its URL (with the port it got) once it listens.
	var url string
	lines := bufio.NewScanner(stderr)
	for url == "" && lines.Scan() {
		var rec struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(lines.Bytes(), &rec) == nil && rec.URL != "" {
			url = strings.Replace(rec.URL, "127.0.0.1", "localhost", 1)
		}
	}
	if url == "" {
		t.Fatalf("the server did not say where it listens: %v", lines.Err())
	}
	go func() {
		for lines.Scan() {
		}
	}()
	for _, scenario := range conformanceScenarios {
		t.Run(scenario, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, filepath.Join(dir(), "node_modules", ".bin", "conformance"), "server", "--url", url, "--scenario", scenario)
			cmd.Dir = dir()
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), " 0 failed") {
				t.Fatalf("conformance %s: %v\n%s", scenario, err, out)
			}
		})
	}
}
