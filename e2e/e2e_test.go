// Package e2e runs thinkgraph end to end through the official MCP TypeScript
// SDK clients (npm @modelcontextprotocol/sdk v1 and @modelcontextprotocol/client
// v2, pinned in package-lock.json): client.mjs, sampling.mjs and tools.mjs spawn the
// binary over stdio and assert on every answer.
//
// It needs Node and the npm packages: npm ci --prefix e2e.
package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph/testdeps"
)

func TestMain(m *testing.M) { testdeps.Main(m) }

func TestTypeScriptSDKClient(t *testing.T) {
	binary, tmp := setup(t, "sdk")
	runNode(t, "client.mjs", binary, filepath.Join(tmp, "e2e.db"))
}

// TestTypeScriptSDKSampling: the reasoning tools reach the client's own
// model through both TypeScript SDK lines, v1 (sampling requests during the
// call, protocol 2025-11-25) and v2 (input_required results, 2026-07-28).
func TestTypeScriptSDKSampling(t *testing.T) {
	binary, tmp := setup(t, "sdk", "client")
	runNode(t, "sampling.mjs", binary, tmp)
}

// TestTypeScriptSDKToolLists: the tools a client is offered under the
// default settings, each toolset and with a provider configured (an
// OpenAI-compatible endpoint that fails the test if listing calls it).
func TestTypeScriptSDKToolLists(t *testing.T) {
	binary, tmp := setup(t, "sdk")
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("listing tools called the provider: %s %s", r.Method, r.URL)
		http.Error(w, "unexpected", http.StatusInternalServerError)
	}))
	defer provider.Close()
	runNode(t, "tools.mjs", binary, tmp, provider.URL+"/v1")
}

// setup skips (or, under CI, fails) when node or the named npm packages
// are missing, and builds the binary into a temporary directory.
func setup(t *testing.T, packages ...string) (binary, tmp string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testdeps.Missing(t, testdeps.Node, "node is not on PATH")
	}
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(dir(), "node_modules", "@modelcontextprotocol", p, "package.json")); err != nil {
			testdeps.Missing(t, testdeps.E2EPackages, "e2e/node_modules/@modelcontextprotocol/"+p+" is missing")
		}
	}
	tmp = t.TempDir()
	binary = filepath.Join(tmp, "thinkgraph")
	build := exec.Command("go", "build", "-o", binary, "./cmd/thinkgraph")
	build.Dir = filepath.Dir(dir())
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return binary, tmp
}

// runNode runs a script of this directory and fails the test if it fails.
func runNode(t *testing.T, script string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir(), script)}, args...)...)
	cmd.Dir = dir()
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}

// dir is this package's directory.
func dir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Dir(self)
}
