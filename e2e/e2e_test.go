// Package e2e runs thinkgraph end to end through the official MCP TypeScript
// SDK clients (npm @modelcontextprotocol/sdk v1 and @modelcontextprotocol/client
// v2, pinned in package-lock.json): client.mjs, sampling.mjs and tools.mjs spawn the
// binary over stdio, eras.mjs also talks to `serve --http` (default and
// --stateless), and each asserts on every answer; the MCP Inspector's CLI
// (npm @modelcontextprotocol/inspector) writes in each protocol era.
//
// It needs Node and the npm packages: npm ci --prefix e2e.
package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// TestTypeScriptSDKEras: both eras of the protocol on every transport
// (eras.mjs): the v2 client pinned to 2026-07-28 and in mode "auto" over
// stdio, the default HTTP endpoint and --stateless; 2025-era clients (v2
// legacy, v1) on the default endpoint, with their sessions. The HTTP servers
// run with a tokens file of two tenants.
func TestTypeScriptSDKEras(t *testing.T) {
	binary, tmp := setup(t, "sdk", "client")
	tokensFile, tokens := newTokens(t, binary, tmp, "alpha", "beta")
	defaultURL := serveHTTP(t, binary, tokensFile, filepath.Join(tmp, "http.db"))
	stateless := serveHTTP(t, binary, tokensFile, filepath.Join(tmp, "stateless.db"), "--stateless")
	runNode(t, "eras.mjs", binary, tmp, defaultURL, stateless, tokens["alpha"], tokens["beta"])
}

// TestInspectorCLIEras: the MCP Inspector's CLI (npm
// @modelcontextprotocol/inspector) finds no portability error in the
// tools' schemas, and writes to the default HTTP endpoint in each protocol
// era it offers; "auto" ends in 2026-07-28, whose results carry the
// server's identity in _meta.
func TestInspectorCLIEras(t *testing.T) {
	binary, tmp := setup(t, "inspector")
	tokensFile, tokens := newTokens(t, binary, tmp, "alpha")
	token := tokens["alpha"]
	url := serveHTTP(t, binary, tokensFile, filepath.Join(tmp, "inspector.db"))
	inspector := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, filepath.Join(dir(), "node_modules", ".bin", "mcp-inspector"),
			append([]string{"--cli", url, "--header", "Authorization: Bearer " + token, "--format", "json"}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+tmp) // its catalog
		return cmd.CombinedOutput()
	}
	// Its check of the tools' schemas for what some clients reject
	// (exit 6 on an error; warnings are only counted).
	if out, err := inspector("--method", "tools/list", "--strict"); err != nil {
		t.Errorf("inspector tools/list --strict: %v\n%s", err, out)
	}
	for i, era := range []string{"legacy", "auto", "modern"} {
		out, err := inspector("--protocol-era", era, "--method", "tools/call", "--tool-name", "think",
			"--tool-arg", "thought=from the Inspector ("+era+")", "session_id=inspector", "-q")
		if err != nil {
			t.Fatalf("inspector --protocol-era %s: %v\n%s", era, err, out)
		}
		var res struct {
			Result struct {
				Meta              map[string]any `json:"_meta"`
				StructuredContent struct {
					Step int `json:"step"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("inspector --protocol-era %s: %v\n%s", era, err, out)
		}
		_, modern := res.Result.Meta["io.modelcontextprotocol/serverInfo"]
		if res.Result.StructuredContent.Step != i+1 || modern != (era != "legacy") {
			t.Errorf("inspector --protocol-era %s: step %d (want %d), 2026-07-28 %v\n%s", era, res.Result.StructuredContent.Step, i+1, modern, out)
		}
	}
}

// newTokens makes a token for each tenant with `binary token new` and
// writes their tokens file into dir: it returns the file and the tokens by
// tenant.
func newTokens(t *testing.T, binary, dir string, tenants ...string) (string, map[string]string) {
	t.Helper()
	tokens, lines := map[string]string{}, ""
	for _, tenant := range tenants {
		out, err := exec.Command(binary, "token", "new", tenant).Output()
		if err != nil {
			t.Fatalf("token new %s: %v", tenant, err)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "token: "); ok {
				tokens[tenant] = v
			}
			if v, ok := strings.CutPrefix(l, "tokens-file line: "); ok {
				lines += v + "\n"
			}
		}
	}
	file := filepath.Join(dir, "tokens")
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	return file, tokens
}

// serveHTTP starts `binary serve --http` on a free loopback port, with no
// LLM provider, and returns its MCP endpoint once it is ready; the server
// stops with the test.
func serveHTTP(t *testing.T, binary, tokensFile, db string, flags ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, append([]string{"serve", "--http", addr, "--db", db}, flags...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "LANGBASE_") && !strings.HasPrefix(kv, "THINKGRAPH_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "LOG_LEVEL=warn", "THINKGRAPH_TOKENS_FILE="+tokensFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("serve %v stderr:\n%s", flags, stderr.String())
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return "http://" + addr + "/mcp"
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve --http %s %v did not start:\n%s", addr, flags, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
