package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	nethttp "net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

// integrityCheck runs SQLite's integrity check on the file.
func integrityCheck(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatal(err)
	}
	if res != "ok" {
		t.Fatalf("integrity_check: %s", res)
	}
}

// killTrials is the number of SIGKILL trials (THINKGRAPH_KILL_TRIALS, default 100).
func killTrials() int {
	if n, err := strconv.Atoi(os.Getenv("THINKGRAPH_KILL_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 100
}

// SIGKILL at a random point during concurrent writes, many times over one
// database file: after every kill, each acknowledged thought is stored and
// the file passes SQLite's integrity check.
func TestKillAtRandomPoints(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kill.db")
	ctx := context.Background()
	trials := killTrials()
	acked := map[string]bool{} // content
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for trial := 0; trial < trials; trial++ {
		cs, cmd := spawn(t, db)
		var mu sync.Mutex
		var wg sync.WaitGroup
		stop := make(chan struct{})
		var acks atomic.Int64
		for w := 0; w < 3; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					content := fmt.Sprintf("trial %d worker %d thought %d", trial, w, i)
					tool, args := "think", map[string]any{"thought": content, "session_id": fmt.Sprintf("kill-%d", w)}
					if i%3 == 2 {
						tool = "sequentialthinking"
						args = map[string]any{"thought": content, "session_id": fmt.Sprintf("kill-%d", w), "thoughtNumber": i + 1, "totalThoughts": i + 1, "nextThoughtNeeded": true}
					}
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
					if err != nil {
						return
					}
					if res.IsError {
						t.Errorf("trial %d: tool error: %v", trial, res.Content[0].(*mcp.TextContent).Text)
						return
					}
					mu.Lock()
					acked[content] = true
					mu.Unlock()
					acks.Add(1)
				}
			}()
		}
		// Kill at a random point once writes are flowing: after 1 to 40
		// acknowledged calls of this trial, plus up to 3 ms.
		want := int64(1 + rng.IntN(40))
		for deadline := time.Now().Add(10 * time.Second); acks.Load() < want && time.Now().Before(deadline); {
			time.Sleep(200 * time.Microsecond)
		}
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		close(stop)
		wg.Wait()
		cs.Close()
	}
	integrityCheck(t, db)
	stored := map[string]bool{}
	for w := 0; w < 3; w++ {
		for _, content := range storedThoughts(t, db, fmt.Sprintf("kill-%d", w)) {
			stored[content] = true
		}
	}
	lost := 0
	for content := range acked {
		if !stored[content] {
			lost++
			if lost < 5 {
				t.Errorf("acknowledged but not stored: %q", content)
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d acknowledged thoughts lost over %d kills", lost, len(acked), trials)
	}
	if len(acked) < trials {
		t.Fatalf("only %d thoughts acknowledged over %d trials: the kills came too early to test anything", len(acked), trials)
	}
	t.Logf("%d kills, %d acknowledged thoughts, all stored; integrity ok", trials, len(acked))
}

// Eight server processes write 1,000 thoughts each into one file.
func TestEightProcessesThousandCallsEach(t *testing.T) {
	const procs, each = 8, 1000
	db := filepath.Join(t.TempDir(), "eight.db")
	// Half into one shared session, half into the process's own.
	thinkFromProcesses(t, db, procs, each, func(p, i int) string {
		if i%2 == 1 {
			return fmt.Sprintf("own-%d", p)
		}
		return "shared"
	})
	total := len(storedThoughts(t, db, "shared"))
	for p := 0; p < procs; p++ {
		total += len(storedThoughts(t, db, fmt.Sprintf("own-%d", p)))
	}
	if total != procs*each {
		t.Fatalf("%d thoughts stored, want %d", total, procs*each)
	}
	integrityCheck(t, db)
}

// The disk fills up (the server's file size limit is reached): calls fail
// with a clear StoreUnavailableError and store nothing; once there is room
// again the same process carries on, and the file is intact.
func TestDiskFullThenRecovery(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		testdeps.Missing(t, testdeps.UtilLinux, "prlimit is not on PATH")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "full.db")
	ctx := context.Background()
	// Create the database, then allow it to grow by about 400 KB only.
	cs, _ := spawn(t, db)
	if _, err := think(ctx, cs, map[string]any{"thought": "before", "session_id": "full"}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	cmd := exec.Command("prlimit", "--fsize=500000:unlimited", binary, "serve", "--db", db)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=error")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "full", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	big := fmt.Sprintf("%08000d", 0)
	acked := 0
	var failure string
	for i := 0; i < 200 && failure == ""; i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": fmt.Sprintf("%d %s", i, big), "session_id": "full"}})
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if res.IsError {
			failure = res.Content[0].(*mcp.TextContent).Text
			break
		}
		acked++
	}
	if failure == "" {
		t.Fatal("the file size limit was never reached")
	}
	if !regexpMatch(`^Error: the database is unavailable \(disk I/O error: is the disk full or failing\?\); this call was not stored`, failure) &&
		!regexpMatch(`^Error: the database is unavailable \(the disk is full\)`, failure) {
		t.Fatalf("error when the disk is full: %q", failure)
	}
	// Room again: lift the limit of the running process.
	if out, err := exec.Command("prlimit", "--pid", strconv.Itoa(cmd.Process.Pid), "--fsize=unlimited").CombinedOutput(); err != nil {
		t.Fatalf("prlimit: %v %s", err, out)
	}
	out, err := think(ctx, cs, map[string]any{"thought": "after recovery", "session_id": "full"})
	if err != nil {
		t.Fatalf("after the disk has room again: %v", err)
	}
	if int(out["step"].(float64)) != acked+2 {
		t.Fatalf("step %v after %d acknowledged (+1 before): a failed call left a trace", out["step"], acked)
	}
	cs.Close()
	integrityCheck(t, db)
	if got := storedThoughts(t, db, "full"); len(got) != acked+2 || got[acked+2] != "after recovery" {
		t.Fatalf("%d thoughts stored, want %d", len(got), acked+2)
	}
}

// seedReadOnly stores a thought "kept" in session "ro" of a database file
// in a new directory, then makes the file read-only.
func seedReadOnly(t *testing.T) (dir, db string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "tg-ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	db = filepath.Join(dir, "ro.db")
	cs, _ := spawn(t, db)
	if _, err := think(context.Background(), cs, map[string]any{"thought": "kept", "session_id": "ro"}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	return dir, db
}

// A database file the server may not write, in a directory it may not
// write either: it refuses to start with a message saying so; once
// writable, everything is there.
func TestReadOnlyDatabase(t *testing.T) {
	dir, db := seedReadOnly(t)
	cmd := asUnprivileged(t, dir, "serve", "--db", db)
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("started on a read-only database: %s", out)
	}
	if !regexpMatch(`(?i)read-?only|readonly|unable to open|cannot be opened`, string(out)) || !strings.Contains(string(out), "permission denied") {
		t.Fatalf("unclear error: %s", out)
	}
	if os.Geteuid() != 0 {
		_ = os.Chmod(db, 0o644)
		_ = os.Chmod(dir, 0o755)
	}
	integrityCheck(t, db)
	if got := storedThoughts(t, db, "ro"); got[1] != "kept" {
		t.Fatal(got)
	}
}

// A new database in a directory the server may not write: SQLite says only
// "unable to open database file"; the server says permission denied and
// names the directory.
func TestReadOnlyDatabaseDirectory(t *testing.T) {
	dir, err := os.MkdirTemp("", "tg-rodir")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "new.db")
	cmd := asUnprivileged(t, dir, "serve", "--db", db)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("started in a read-only directory: %s", out)
	}
	if !strings.Contains(string(out), "permission denied") || !strings.Contains(string(out), "directory "+dir) || !strings.Contains(string(out), "--db") {
		t.Fatalf("the error does not say permission denied for the directory: %s", out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the database file was created")
	}
}

// A database file the server may not write in a directory it may (issue
// 38, case 7): the server starts and says at once, naming the file, that it
// cannot write it; /readyz says so; a write is refused as read-only, not
// as a passing outage to retry; reads still work.
func TestReadOnlyDatabaseFile(t *testing.T) {
	dir, db := seedReadOnly(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if os.Geteuid() == 0 {
		_ = os.Chmod(dir, 0o777) // the server (nobody) may write the directory
	}
	cmd := asUnprivileged(t, "", "serve", "--http", addr, "--db", db)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var http *mcp.ClientSession
	for i := 0; i < 100; i++ {
		http, err = mcp.NewClient(&mcp.Implementation{Name: "ro", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, nil)
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the server did not start on a read-only file: %v\n%s", err, stderr.String())
	}
	defer http.Close()
	if log := stderr.String(); !strings.Contains(log, "cannot be written") || !strings.Contains(log, db) || !strings.Contains(log, "read-only") {
		t.Errorf("the start does not say the file is read-only, naming it:\n%s", log)
	}
	resp, body := getBody(t, "http://"+addr+"/readyz")
	if resp.StatusCode != 503 || !strings.Contains(body, "read-only") || !strings.Contains(body, db) {
		t.Errorf("/readyz on a read-only file: %d %q", resp.StatusCode, body)
	}
	res, err := http.CallTool(context.Background(), &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": "lost?", "session_id": "ro"}})
	if err != nil || !res.IsError {
		t.Fatalf("a write to a read-only file: %v %+v", err, res)
	}
	errBody, _ := json.Marshal(res.StructuredContent)
	if text := string(errBody); !strings.Contains(text, `"code":"StoreReadOnlyError"`) || !strings.Contains(text, db) || strings.Contains(text, "retry when it is back") {
		t.Errorf("the write's error: %s", text)
	}
	path, err := http.CallTool(context.Background(), &mcp.CallToolParams{Name: "show_current_path", Arguments: map[string]any{"session_id": "ro"}})
	if err != nil || path.IsError || !strings.Contains(path.Content[0].(*mcp.TextContent).Text, "kept") {
		t.Errorf("a read of a read-only file: %v %+v", err, path)
	}
}

// getBody GETs url and returns the response with its body read.
func getBody(t *testing.T, url string) (*nethttp.Response, string) {
	t.Helper()
	resp, err := nethttp.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// asUnprivileged returns the command running the binary with args so that
// it may read but not write dir (mode 0555 for the test's user; root
// ignores file modes, so as root it runs as nobody through setpriv and dir
// stays root's); with dir "", it runs so without changing any directory.
func asUnprivileged(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		if dir == "" {
			return exec.Command(binary, args...)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return exec.Command(binary, args...)
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		testdeps.Missing(t, testdeps.UtilLinux, "running as root without setpriv: cannot take write access from the server")
	}
	for _, p := range []string{dir, filepath.Dir(binary), binary} {
		if st, err := os.Stat(p); err == nil && p != "" {
			_ = os.Chmod(p, st.Mode()|0o055)
		}
	}
	_ = os.Chmod(filepath.Dir(binary), 0o755)
	return exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", binary}, args...)...)
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
