package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rpcLine is one JSON-RPC message the server wrote.
type rpcLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func readRPC(t *testing.T, out *bufio.Reader, stderr *bytes.Buffer) rpcLine {
	t.Helper()
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's answer: %v (got %q)\nstderr: %s", err, line, stderr.String())
	}
	var m rpcLine
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("the server wrote %q: %v", line, err)
	}
	return m
}

// sendLine writes one frame and its newline to the server's stdin.
func sendLine(t *testing.T, stdin io.Writer, frame string) {
	t.Helper()
	if _, err := io.WriteString(stdin, frame+"\n"); err != nil {
		t.Fatal(err)
	}
}

// Every bad frame on stdin gets its JSON-RPC error (or, a notification,
// nothing) and the server goes on serving: a ping after each is answered.
func TestStdioBadFramesKeepServing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	cmd, stdin, out, stderr := startInitialized(t, db)
	defer func() { stdin.Close(); cmd.Wait() }()
	defer time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() }).Stop() // a hang guard: reads fail instead
	send := func(frame string) { t.Helper(); sendLine(t, stdin, frame) }
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	deep := `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`
	huge := `{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"` + strings.Repeat("x", 16<<20) + `"}}`
	cases := []struct {
		name  string
		frame string
		code  int    // 0: no answer (a notification)
		id    string // the id of the answer, as JSON
	}{
		{"invalid JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "null"},
		{"NaN", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"think","arguments":{"thought":"x","confidence":NaN}}}`, -32700, "null"},
		{"a number", `123`, -32600, "null"},
		{"an empty array", `[]`, -32600, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, "null"},
		{"nesting deeper than 1000", deep, -32600, `"deep"`},
		{"a frame over 16 MiB", huge, -32600, "null"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, -32600, "4"},
		{"no jsonrpc", `{"id":5,"method":"ping"}`, -32600, "5"},
		{"an object id", `{"jsonrpc":"2.0","id":{"n":6},"method":"ping"}`, -32600, "null"},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
		{"a method that is no string", `{"jsonrpc":"2.0","id":7,"method":7}`, -32600, "7"},
		{"trailing data", `{"jsonrpc":"2.0","id":8,"method":"ping"} {"jsonrpc":"2.0","id":9,"method":"ping"}`, -32700, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\",\"params\":{\"a\":\"\xff\xfe\"}}", -32700, "null"},
		{"a bad response", `{"jsonrpc":"2.0","id":11,"error":"no"}`, -32600, "11"},
		// Ids the SDK would not echo exactly, and what it would not answer.
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "1.5"},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, "9007199254740993"},
		{"an id past 64 bits", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, -32600, "123456789012345678901234567890"},
		{"an id with an exponent", `{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, -32600, "1e2"},
		{"id -0", `{"jsonrpc":"2.0","id":-0,"method":"ping"}`, -32600, "-0"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"an id and no method", `{"jsonrpc":"2.0","id":"x"}`, -32600, `"x"`},
		{"a lone surrogate id", `{"jsonrpc":"2.0","id":"a\ud800b","method":"ping"}`, -32600, `"a\ud800b"`},
		{"a bad notification", `{"jsonrpc":"1.0","method":"notifications/progress"}`, 0, ""},
		{"a notification nested too deep", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`, 0, ""},
	}
	for i, c := range cases {
		send(c.frame)
		ping := fmt.Sprintf(`"ping-%d"`, i)
		send(`{"jsonrpc":"2.0","id":` + ping + `,"method":"ping"}`)
		if c.code != 0 {
			got := readRPC(t, out, stderr)
			if got.Error == nil || got.Error.Code != c.code || string(got.ID) != c.id {
				t.Errorf("%s: got id %s error %+v, want id %s code %d", c.name, got.ID, got.Error, c.id, c.code)
			} else if got.Error.Message == "" {
				t.Errorf("%s: an error without a message", c.name)
			}
		}
		if got := readRPC(t, out, stderr); string(got.ID) != ping || got.Error != nil {
			t.Fatalf("%s: the ping after it got id %s error %+v", c.name, got.ID, got.Error)
		}
	}
	// Ids up to 2^53-1 in magnitude come back exactly as sent.
	for _, id := range []string{"9007199254740991", "-9007199254740991", "0", "-7", `"9007199254740993"`} {
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got := readRPC(t, out, stderr); string(got.ID) != id || got.Error != nil {
			t.Errorf("ping with id %s: answered id %s error %+v", id, got.ID, got.Error)
		}
	}
	// And tools still work, on the database.
	send(`{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"think","arguments":{"thought":"still serving","session_id":"bad-frames"}}}`)
	if got := readRPC(t, out, stderr); string(got.ID) != `"last"` || got.Error != nil || !strings.Contains(string(got.Result), `"step\":1`) {
		t.Fatalf("think after the bad frames: id %s error %+v result %s", got.ID, got.Error, got.Result)
	}
	stdin.Close()
	waitExit(t, cmd, stderr)
	if got := storedThoughts(t, db, "bad-frames"); got[1] != "still serving" {
		t.Fatalf("stored %v", got)
	}
}

// A call before initialize is refused with -32600 naming initialize (the
// SDK answered it with error code 0); ping is answered; after initialize
// the same call works.
func TestStdioCallBeforeInitialize(t *testing.T) {
	cmd, stdin, out, stderr := startServe(t, filepath.Join(t.TempDir(), "tg.db"))
	defer func() { stdin.Close(); cmd.Wait() }()
	defer time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() }).Stop() // a hang guard: reads fail instead
	send := func(frame string) { t.Helper(); sendLine(t, stdin, frame) }
	call := `{"jsonrpc":"2.0","id":"early","method":"tools/call","params":{"name":"think","arguments":{"thought":"too early","session_id":"early"}}}`
	send(call)
	if got := readRPC(t, out, stderr); string(got.ID) != `"early"` || got.Error == nil || got.Error.Code != -32600 || !strings.Contains(got.Error.Message, "initialize") {
		t.Fatalf("tools/call before initialize: id %s error %+v", got.ID, got.Error)
	}
	send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := readRPC(t, out, stderr); string(got.ID) != `"p"` || got.Error != nil {
		t.Fatalf("ping before initialize: id %s error %+v", got.ID, got.Error)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if got := readRPC(t, out, stderr); string(got.ID) != "1" || got.Error != nil {
		t.Fatalf("initialize: id %s error %+v", got.ID, got.Error)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(call)
	if got := readRPC(t, out, stderr); string(got.ID) != `"early"` || got.Error != nil || !strings.Contains(string(got.Result), `"step\":1`) {
		t.Fatalf("tools/call after initialize: id %s error %+v %s", got.ID, got.Error, got.Result)
	}
}

// printf 'initialize\ninitialized\ncall\n' | thinkgraph serve: stdin ends
// while the call is in flight; both calls are answered, the thought is
// stored, and the server exits cleanly.
func TestStdioClosedStdinAnswersCallsInFlight(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard, not a timing assertion
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--db", db)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"think","arguments":{"thought":"piped in","session_id":"piped"}}}` + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("exit: %v\nstderr: %s", err, stderr.String())
	}
	out := bufio.NewReader(&stdout)
	if got := readRPC(t, out, &stderr); string(got.ID) != "1" || !strings.Contains(string(got.Result), `"protocolVersion"`) {
		t.Fatalf("initialize: id %s error %+v", got.ID, got.Error)
	}
	if got := readRPC(t, out, &stderr); string(got.ID) != "2" || got.Error != nil || !strings.Contains(string(got.Result), `"step\":1`) {
		t.Fatalf("think: id %s error %+v result %s", got.ID, got.Error, got.Result)
	}
	if got := storedThoughts(t, db, "piped"); got[1] != "piped in" {
		t.Fatalf("stored %v", got)
	}
}

// A call waiting on the client's model (MCP sampling) when stdin ends: the
// client can no longer answer, so the server answers its own request with
// an error, the call ends with that error and the server exits. While the
// call is in flight, another call with its id is refused.
func TestStdioClosedStdinAnswersServerRequests(t *testing.T) {
	cmd, stdin, out, stderr := startServe(t, filepath.Join(t.TempDir(), "tg.db"))
	defer cmd.Process.Kill()
	defer time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() }).Stop() // a hang guard: reads fail instead
	send := func(frame string) { t.Helper(); sendLine(t, stdin, frame) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"x","version":"1"}}}`)
	readRPC(t, out, stderr)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	var tools struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(readRPC(t, out, stderr).Result, &tools); err != nil {
		t.Fatal(err)
	}
	var linear string // the tool's name depends on the toolset settings
	for _, tool := range tools.Tools {
		if strings.Contains(tool.Name, "linear") {
			linear = tool.Name
		}
	}
	if linear == "" {
		t.Fatalf("no reasoning linear tool in %+v", tools)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + linear + `","arguments":{"content":"hello"}}}`)
	if got := readRPC(t, out, stderr); got.Method != "sampling/createMessage" {
		t.Fatalf("want the server's sampling request, got %+v", got)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := readRPC(t, out, stderr); string(got.ID) != "2" || got.Error == nil || got.Error.Code != -32600 {
		t.Fatalf("a second call with id 2: id %s error %+v", got.ID, got.Error)
	}
	stdin.Close()
	got := readRPC(t, out, stderr)
	if string(got.ID) != "2" || !strings.Contains(string(got.Result), `"isError":true`) || !strings.Contains(string(got.Result), "closed stdin") {
		t.Fatalf("the call waiting on sampling: id %s error %+v result %s", got.ID, got.Error, got.Result)
	}
	waitExit(t, cmd, stderr)
}
