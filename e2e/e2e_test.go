// Package e2e runs thinkgraph end to end through the official MCP TypeScript
// SDK client (npm @modelcontextprotocol/sdk, pinned in package-lock.json):
// client.mjs spawns the binary over stdio and asserts on every answer.
//
// It needs Node and the npm packages: npm ci --prefix e2e.
package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

const hint = "run npm ci --prefix e2e"

func TestTypeScriptSDKClient(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Dir(self)
	root := filepath.Dir(dir)

	missing := func(why string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %s", why, hint)
		}
		t.Skipf("%s: %s", why, hint)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing("e2e/node_modules is missing")
	}

	tmp := t.TempDir()
	binary := filepath.Join(tmp, "thinkgraph")
	build := exec.Command("go", "build", "-o", binary, "./cmd/thinkgraph")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), binary, filepath.Join(tmp, "e2e.db"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
