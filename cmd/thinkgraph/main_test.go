package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

// binary is the thinkgraph binary built once for the process tests.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv("THINKGRAPH_TEST_ROOTS_CHILD") == "1" { // TestFallbackRoots's child needs no binary
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "thinkgraph-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "thinkgraph")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	testdeps.Report()
	os.Exit(code)
}

// spawn starts "thinkgraph serve" on db as a subprocess and connects the
// SDK's client to it over stdio.
func spawn(t *testing.T, db string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--db", db)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "process-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	return cs, cmd
}

func think(ctx context.Context, cs *mcp.ClientSession, args map[string]any) (map[string]any, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("tool error: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	return out, json.Unmarshal(b, &out)
}

// storedThoughts opens the database file directly and returns the thoughts of
// a session by step.
func storedThoughts(t *testing.T, db, session string) map[int]string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got := map[int]string{}
	err = store.View(context.Background(), func(tx thinkgraph.Tx) error {
		sess, err := tx.Session(context.Background(), thinkgraph.LocalTenant, session)
		if err != nil {
			return err
		}
		ths, err := tx.Thoughts(context.Background(), thinkgraph.ThoughtFilter{Session: sess.Key})
		for _, th := range ths {
			if _, dup := got[th.Step]; dup {
				t.Errorf("step %d stored twice", th.Step)
			}
			got[th.Step] = th.Content
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestStdioSubprocess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sub", "dir", "tg.db") // directories are created
	cs, _ := spawn(t, db)
	defer cs.Close()
	ctx := context.Background()
	out, err := think(ctx, cs, map[string]any{"thought": "first"})
	if err != nil {
		t.Fatal(err)
	}
	if out["step"] != float64(1) || out["status"] != "success" || out["session_id"] == "" {
		t.Fatal(out)
	}
	out, err = think(ctx, cs, map[string]any{"thought": "second", "confidence": "0.3"})
	if err != nil {
		t.Fatal(err)
	}
	if out["step"] != float64(2) || out["status"] != "branch" {
		t.Fatal(out)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": ""}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Error: 'thought' parameter is required" {
		t.Fatalf("empty thought: %+v", res)
	}
}

func TestRestartContinuesSession(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	ctx := context.Background()
	cs, _ := spawn(t, db)
	for i := 1; i <= 3; i++ {
		if _, err := think(ctx, cs, map[string]any{"thought": fmt.Sprint("before ", i), "session_id": "restart"}); err != nil {
			t.Fatal(err)
		}
	}
	cs.Close()

	cs, _ = spawn(t, db)
	defer cs.Close()
	out, err := think(ctx, cs, map[string]any{"thought": "after restart", "session_id": "restart"})
	if err != nil {
		t.Fatal(err)
	}
	if out["step"] != float64(4) {
		t.Fatalf("step after restart: %v", out)
	}
}

// Four server processes on one database file write 250 thoughts each into one
// session: every write lands, with a unique step.
func TestConcurrentProcessesOneFile(t *testing.T) {
	const procs, each = 4, 250
	db := filepath.Join(t.TempDir(), "tg.db")
	thinkFromProcesses(t, db, procs, each, func(p, i int) string { return "shared" })
	got := storedThoughts(t, db, "shared")
	if len(got) != procs*each {
		t.Fatalf("%d thoughts stored, want %d", len(got), procs*each)
	}
	for step := 1; step <= procs*each; step++ {
		if _, ok := got[step]; !ok {
			t.Fatalf("step %d missing", step)
		}
	}
}

// thinkFromProcesses starts procs server processes on db and has each send
// each think calls ("p<process>-<i>") into the session session(p, i), all
// processes at once; every call must succeed.
func thinkFromProcesses(t *testing.T, db string, procs, each int, session func(p, i int) string) {
	t.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for p := 0; p < procs; p++ {
		cs, _ := spawn(t, db)
		defer cs.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := think(ctx, cs, map[string]any{"thought": fmt.Sprintf("p%d-%d", p, i), "session_id": session(p, i)}); err != nil {
					errs <- fmt.Errorf("process %d call %d: %w", p, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The server is killed with SIGKILL while calls are in flight; every thought
// whose call was acknowledged is in the database after a restart.
func TestKillNineKeepsAcknowledgedThoughts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	ctx := context.Background()
	cs, cmd := spawn(t, db)
	var mu sync.Mutex
	acked := map[int]string{}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				content := fmt.Sprintf("worker %d thought %d", w, i)
				out, err := think(ctx, cs, map[string]any{"thought": content, "session_id": "crash"})
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[int(out["step"].(float64))] = content
				n := len(acked)
				mu.Unlock()
				if n >= 200 && w == 0 {
					// Kill while the other workers have calls in flight.
					_ = cmd.Process.Signal(syscall.SIGKILL)
					return
				}
			}
		}()
	}
	wg.Wait()
	cs.Close() // waits for the killed process

	got := storedThoughts(t, db, "crash")
	mu.Lock()
	defer mu.Unlock()
	if len(acked) < 200 {
		t.Fatalf("only %d acknowledged before the kill", len(acked))
	}
	for step, content := range acked {
		if got[step] != content {
			t.Errorf("acknowledged step %d (%q) stored as %q", step, content, got[step])
		}
	}
	// And the database is healthy: a restarted server continues the session.
	cs, _ = spawn(t, db)
	defer cs.Close()
	out, err := think(ctx, cs, map[string]any{"thought": "after the crash", "session_id": "crash"})
	if err != nil {
		t.Fatal(err)
	}
	if int(out["step"].(float64)) != len(got)+1 {
		t.Fatalf("step after restart %v, %d stored before", out["step"], len(got))
	}
}

func TestCLISessionsAndVersion(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	cs, _ := spawn(t, db)
	if _, err := think(context.Background(), cs, map[string]any{"thought": "Design the cache\nsecond line", "session_id": "cli-session", "confidence": 0.5}); err != nil {
		t.Fatal(err)
	}
	cs.Close()

	out, err := exec.Command(binary, "sessions", "list", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "cli-session") || !strings.Contains(string(out), "STEPS") {
		t.Fatalf("sessions list: %v\n%s", err, out)
	}
	out, err = exec.Command(binary, "sessions", "show", "cli-session", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Step 1 · main · think confidence 0.5 ← current [branch point]") ||
		!strings.Contains(string(out), "Design the cache\nsecond line") {
		t.Fatalf("sessions show: %v\n%s", err, out)
	}
	out, err = exec.Command(binary, "sessions", "show", "missing", "--db", db).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `session "missing" not found`) {
		t.Fatalf("show missing: %v\n%s", err, out)
	}
	out, err = exec.Command(binary, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "thinkgraph ") {
		t.Fatalf("version: %v %s", err, out)
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "LOG_LEVEL=loud", "DATABASE_PATH="+db)
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "LOG_LEVEL must be trace, debug, info, warn or error") {
		t.Fatalf("bad LOG_LEVEL: %v %s", err, out)
	}
}

func TestDefaultDatabasePath(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	c, err := loadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := c.databasePath(""); p != "/home/u/.local/share/thinkgraph/thinkgraph.db" {
		t.Fatalf("no XDG_DATA_HOME: %s", p)
	}
	env["XDG_DATA_HOME"] = "/data"
	if p, _ := c.databasePath(""); p != "/data/thinkgraph/thinkgraph.db" {
		t.Fatalf("XDG_DATA_HOME: %s", p)
	}
	env["DATABASE_PATH"] = "/x/y.db"
	c, _ = loadConfig(func(k string) string { return env[k] })
	if p, _ := c.databasePath(""); p != "/x/y.db" {
		t.Fatalf("DATABASE_PATH: %s", p)
	}
	if p, _ := c.databasePath("/flag.db"); p != "/flag.db" {
		t.Fatalf("--db: %s", p)
	}
}

func TestServeHTTPSubprocess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	cmd := exec.Command(binary, "serve", "--http", "0.0.0.0:0", "--db", db)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "refusing to listen on 0.0.0.0:0 without authentication") {
		t.Fatalf("non-loopback without tokens: %v %s", err, out)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd = exec.Command(binary, "serve", "--http", addr, "--db", db)
	var stderr lockedBuffer // read while the server writes it
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var cs *mcp.ClientSession
	for i := 0; i < 100; i++ {
		client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, nil)
		cs, err = client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, nil)
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	res, err := think(context.Background(), cs, map[string]any{"thought": "over HTTP", "session_id": "http-s"})
	if err != nil || res["step"] != float64(1) {
		t.Fatalf("%v %v", res, err)
	}
	cs.Close()
	resp, err := http.Get("http://" + addr + "/readyz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("readyz: %v %v", resp, err)
	}
	resp.Body.Close()
	// The log names the viewer's address.
	if !strings.Contains(stderr.String(), "the reasoning viewer") || !strings.Contains(stderr.String(), "http://"+addr+"/") {
		t.Errorf("serve --http does not log the viewer's address:\n%s", stderr.String())
	}
	// SIGTERM: a clean exit.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
	}
	if got := storedThoughts(t, db, "http-s"); got[1] != "over HTTP" {
		t.Fatal(got)
	}
}

func TestEvalSick(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sick.txt")
	data := "pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tSemEval_set\n" +
		"1\tA man is playing a guitar\tA man is playing a guitar\tENTAILMENT\t5.0\tTEST\n" +
		"2\tA man is playing a guitar\tA man is not playing a guitar\tCONTRADICTION\t4.0\tTEST\n" +
		"3\tA man is playing a guitar\tA woman is slicing an onion\tNEUTRAL\t1.0\tTEST\n" +
		"4\tA dog runs in the park\tA dog is running in a park\tENTAILMENT\t4.8\tTEST\n" +
		"5\tA dog runs in the park\tThe cat sleeps on the sofa\tNEUTRAL\t1.2\tTRAIN\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(binary, "eval", "sick", path, "--split", "TEST").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := strings.TrimSpace(string(out))
	for _, want := range []string{"split=TEST", "n=4 ", "spearman=", "pearson=", "precision=1.0000", "recall=1.0000", "f1=1.0000"} {
		if !strings.Contains(line, want) {
			t.Errorf("output %q lacks %q", line, want)
		}
	}
	if out, err := exec.Command(binary, "eval", "sick", filepath.Join(t.TempDir(), "missing.txt")).CombinedOutput(); err == nil {
		t.Fatalf("missing file accepted: %s", out)
	}
}

func TestInvocationsCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	store, err := sqlite.Open(context.Background(), db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = store.Update(context.Background(), func(tx thinkgraph.Tx) error {
		return tx.AddInvocation(context.Background(), &thinkgraph.Invocation{ID: "i1", SessionID: "s1", ToolName: "reasoning.linear",
			Provider: "langbase", PipeName: "linear-reasoning-v1", LatencyMS: 42, Success: false, Error: "Timeout: took too long", TotalTokens: 0,
			CreatedAt: time.Now()})
	})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(binary, "invocations", "--session", "s1", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "reasoning.linear") || !strings.Contains(string(out), "42 ms") ||
		!strings.Contains(string(out), "error: Timeout: took too long") {
		t.Fatalf("%v\n%s", err, out)
	}
	out, _ = exec.Command(binary, "invocations", "--session", "other", "--db", db).CombinedOutput()
	if !strings.Contains(string(out), "no invocations") {
		t.Fatal(string(out))
	}
}

// TestStdioExitsAfterInitializeOnly: a client that sends initialize and
// closes stdin without finishing the handshake must not leave the server
// running.
func TestStdioExitsAfterInitializeOnly(t *testing.T) {
	cmd, stdin, _, stderr := startInitialized(t, filepath.Join(t.TempDir(), "tg.db"))
	stdin.Close()
	waitExit(t, cmd, stderr)
}

// waitExit waits for the server to exit cleanly once its stdin is closed.
func waitExit(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		cmd.Process.Kill()
		t.Fatalf("the server kept running after stdin closed\nstderr: %s", stderr.String())
	}
}

// TestStdioFirstCallAfterHandshake: the first call after the handshake is
// answered and its thought is stored.
func TestStdioFirstCallAfterHandshake(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	cmd, stdin, out, stderr := startInitialized(t, db)
	defer func() { stdin.Close(); cmd.Wait() }()
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"think","arguments":{"thought":"after the handshake","session_id":"late-db"}}}`)
	line, err := out.ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":2`) || strings.Contains(line, `"isError":true`) || !strings.Contains(line, `"step":1`) {
		t.Fatalf("think answer %q: %v\nstderr: %s", line, err, stderr.String())
	}
	if got := storedThoughts(t, db, "late-db"); got[1] != "after the handshake" {
		t.Fatalf("stored %v", got)
	}
}

// startInitialized starts "thinkgraph serve --db db" over stdio and has its
// initialize answered; the handshake is left unfinished.
func startInitialized(t *testing.T, db string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd, stdin, out, stderr := startServe(t, db)
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"protocolVersion"`) {
		t.Fatalf("initialize answer %q: %v", line, err)
	}
	return cmd, stdin, out, stderr
}

// startServe starts "thinkgraph serve --db db" over stdio with pipes to
// its stdin and stdout.
func startServe(t *testing.T, db string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--db", db)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, bufio.NewReader(stdout), stderr
}

// Over stdio, branch-thinking commands that write no thought (focus,
// toggleAutoEval, configAutoEval, prune) on a session_id nobody used answer
// SessionNotFoundError and leave no session behind; setGoal, which the
// original's sessions start with, starts one and says it has no thoughts yet.
func TestCommandsOnUnknownSessionStartNone(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	cs, _ := spawn(t, db)
	ctx := context.Background()
	call := func(session string, command map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "branch-thinking", Arguments: map[string]any{"session_id": session, "command": command}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	for i, cmd := range []map[string]any{
		{"type": "focus", "branchId": "main"},
		{"type": "toggleAutoEval"},
		{"type": "configAutoEval", "data": map[string]any{"enabled": false}},
		{"type": "prune"},
	} {
		id := fmt.Sprintf("typo-%d", i)
		if text, isErr := call(id, cmd); !isErr || !strings.Contains(text, `session "`+id+`" not found`) {
			t.Errorf("%v on an unknown session: error %v %s", cmd["type"], isErr, text)
		}
	}
	if text, isErr := call("fresh", map[string]any{"type": "setGoal", "goal": "Pick a queue"}); isErr || !strings.Contains(text, "no thoughts yet") {
		t.Fatalf("setGoal on a new session: error %v %s", isErr, text)
	}
	cs.Close()
	store, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var ids []string
	_ = store.View(ctx, func(tx thinkgraph.Tx) error {
		ss, err := tx.Sessions(ctx, thinkgraph.SessionFilter{Tenant: thinkgraph.LocalTenant})
		for _, s := range ss {
			ids = append(ids, s.ID)
		}
		return err
	})
	if len(ids) != 1 || ids[0] != "fresh" {
		t.Fatalf("sessions stored: %v, want only fresh", ids)
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a subprocess writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
