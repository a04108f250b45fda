package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newUserEnv is an environment with a fresh home and no database setting:
// where the default database would go, and nothing else.
func newUserEnv(t *testing.T) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "HOME" && k != "XDG_DATA_HOME" && k != "DATABASE_PATH" && k != "DATABASE_URL" {
			env = append(env, kv)
		}
	}
	return home, append(env, "HOME="+home, "LOG_LEVEL=warn")
}

// What a new user hits first: --help on every command prints its help and
// exits 0; the commands that only read never create a database or its
// directory.
func TestCLIHelpAndReadOnlyCommandsTouchNothing(t *testing.T) {
	home, env := newUserEnv(t)
	run := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	for _, args := range [][]string{
		{"serve", "--help"}, {"tools", "-h"}, {"sessions", "--help"}, {"sessions", "list", "--help"},
		{"sessions", "show", "--help"}, {"sessions", "show", "some-id", "--help"}, {"export", "--help"}, {"export", "some-id", "-help"},
		{"view", "--help"}, {"invocations", "--help"}, {"eval", "--help"}, {"eval", "sick", "--help"}, {"eval", "reasoning", "--help"},
		{"token", "--help"}, {"help"}, {"--help"},
	} {
		stdout, stderr, code := run(args...)
		if code != 0 || !strings.Contains(strings.ToLower(stdout), "usage") || strings.Contains(stderr, "not found") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
	}
	if stdout, _, code := run("sessions", "list"); code != 0 || !strings.Contains(stdout, "no sessions yet (no database at "+home) {
		t.Errorf("sessions list: exit %d: %s", code, stdout)
	}
	if stdout, _, code := run("invocations"); code != 0 || !strings.Contains(stdout, "no invocations") {
		t.Errorf("invocations: exit %d: %s", code, stdout)
	}
	for _, args := range [][]string{{"sessions", "show", "abc"}, {"export", "abc"}, {"export", "abc", "--format", "json"}} {
		if _, stderr, code := run(args...); code == 0 || !strings.Contains(stderr, "no database at") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	entries, err := os.ReadDir(home)
	if err != nil || len(entries) != 0 {
		t.Fatalf("the commands created %v in the home directory (%v)", entries, err)
	}
	// A NaN confidence threshold is refused at start.
	env = append(env, "THINKGRAPH_CONFIDENCE_THRESHOLD=NaN")
	if _, stderr, code := run("serve"); code == 0 || !strings.Contains(stderr, "THINKGRAPH_CONFIDENCE_THRESHOLD must be a number in (0, 1]") {
		t.Errorf("NaN threshold: exit %d: %s", code, stderr)
	}
}

// An unreachable OpenAI-compatible provider is ProviderUnavailable, not
// LangbaseUnavailable; "invocations" shows the model of every provider's
// calls, failed ones too; "sessions list" shows the tenant.
func TestCLIProvidersInvocationsAndTenant(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/pipes/run":
			_ = json.NewEncoder(w).Encode(map[string]any{"success": true, "completion": `{"thought": "Rent first.", "confidence": 0.7}`, "threadId": "t",
				"raw": map[string]any{"model": "openai:gpt-4o-mini", "usage": map[string]any{"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}})
		default:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"error":{"message":"overloaded"}}`))
		}
	}))
	defer fake.Close()
	db := filepath.Join(t.TempDir(), "tg.db")
	_, env := newUserEnv(t)
	cmd := exec.Command(binary, "serve", "--db", db)
	cmd.Env = append(env, "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL="+fake.URL+"/v1", "LANGBASE_API_KEY=lb-test", "LANGBASE_BASE_URL="+fake.URL,
		"MAX_RETRIES=0", "THINKGRAPH_LLM_PROVIDER=openai")
	client := mcp.NewClient(&mcp.Implementation{Name: "new-user", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confer", Arguments: map[string]any{"message": "Rent or buy?", "session_id": "money"}})
	if err != nil || !res.IsError {
		t.Fatalf("confer: %v %v", res, err)
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"code":"ProviderUnavailableError"`) {
		t.Errorf("an OpenAI-compatible failure: %s", b)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "reasoning_linear", Arguments: map[string]any{"content": "Rent or buy?", "session_id": "money"}})
	if err != nil || res.IsError {
		t.Fatalf("reasoning_linear: %v %v", res, err)
	}
	cs.Close()

	out, err := exec.Command(binary, "invocations", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "linear-reasoning-v1 (openai:gpt-4o-mini)") || !strings.Contains(string(out), "openai    gpt-4o-mini") {
		t.Errorf("invocations: %v\n%s", err, out)
	}
	out, err = exec.Command(binary, "sessions", "list", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "TENANT") || !strings.Contains(string(out), "money  local") {
		t.Errorf("sessions list: %v\n%s", err, out)
	}
}
