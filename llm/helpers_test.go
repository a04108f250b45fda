package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-SECRET-0123456789abcdef"

// testConfig returns a configuration whose every provider points at url.
func testConfig(url string) Config {
	cfg := DefaultConfig()
	cfg.Langbase.APIKey = testKey
	cfg.Langbase.BaseURL = url
	cfg.OpenAI.APIKey = testKey
	cfg.OpenAI.BaseURL = url + "/v1"
	cfg.Anthropic.APIKey = testKey
	cfg.Anthropic.BaseURL = url
	cfg.Timeout = 10 * time.Second
	cfg.MaxRetries = 2
	cfg.RetryDelay = time.Millisecond
	return cfg
}

// recorded is one request seen by a fake server.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// fakeServer answers each request with the next of its handlers (the last
// one repeats) and records the requests.
type fakeServer struct {
	*httptest.Server
	mu       sync.Mutex
	reqs     []recorded
	handlers []http.HandlerFunc
}

func newFakeServer(t *testing.T, handlers ...http.HandlerFunc) *fakeServer {
	t.Helper()
	fs := &fakeServer{handlers: handlers}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fs.mu.Lock()
		n := len(fs.reqs)
		fs.reqs = append(fs.reqs, recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		h := fs.handlers[min(n, len(fs.handlers)-1)]
		fs.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *fakeServer) requests() []recorded {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]recorded(nil), fs.reqs...)
}

func jsonReply(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// blockUntilCancelled blocks until the client aborts the request, then
// closes done.
func blockUntilCancelled(arrived, done chan struct{}) http.HandlerFunc {
	var once sync.Once
	return func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(arrived) })
		<-r.Context().Done()
		select {
		case <-done:
		default:
			close(done)
		}
	}
}

// assertJSON checks that got and want are the same JSON value.
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON: %v", err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("body mismatch\n got: %s\nwant: %s", gb, wb)
	}
}

// testCancellation cancels a call while the server holds it and checks that
// the call returns context.Canceled and that the server saw the abort.
func testCancellation(t *testing.T, mk func(url string) Provider) {
	t.Helper()
	arrived, done := make(chan struct{}), make(chan struct{})
	srv := newFakeServer(t, blockUntilCancelled(arrived, done))
	p := mk(srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	errc := make(chan error, 1)
	go func() {
		_, err := p.Complete(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		errc <- err
	}()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
			t.Fatalf("err = %v, want context canceled", err)
		}
		if k := ErrorKind(err); k != "" {
			t.Errorf("ErrorKind = %q for a cancelled call, want none", k)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Complete did not return after cancellation")
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("server did not see the request cancelled")
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("server saw %d requests after cancel, want 1", n)
	}
}

// testTimeout checks that a server that never answers gives a *TimeoutError
// after 1+MaxRetries attempts.
func testTimeout(t *testing.T, mk func(cfg Config) Provider) {
	t.Helper()
	arrived, done := make(chan struct{}), make(chan struct{})
	srv := newFakeServer(t, blockUntilCancelled(arrived, done))
	cfg := testConfig(srv.URL)
	cfg.Timeout = 30 * time.Millisecond
	cfg.MaxRetries = 1
	_, err := mk(cfg).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	var te *TimeoutError
	if !errorsAs(err, &te) {
		t.Fatalf("err = %v (%T), want *TimeoutError", err, err)
	}
	if ErrorKind(err) != KindTimeout {
		t.Errorf("ErrorKind = %q", ErrorKind(err))
	}
	if te.Attempts != 2 {
		t.Errorf("Attempts = %d, want 2", te.Attempts)
	}
	if n := len(srv.requests()); n != 2 {
		t.Errorf("server saw %d requests, want 2", n)
	}
}

// testNoLeak checks that the key never appears in the error when the
// server echoes the request headers back.
func testNoLeak(t *testing.T, mk func(cfg Config) Provider) {
	t.Helper()
	echo := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			msg := "bad key " + r.Header.Get("Authorization") + " " + r.Header.Get("X-Api-Key") + " " + testKey
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
			w.Write(b)
		}
	}
	for _, status := range []int{401, 500} {
		srv := newFakeServer(t, echo(status))
		cfg := testConfig(srv.URL)
		cfg.MaxRetries = 1
		var logs bytes.Buffer
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		var progress []string
		ctx := WithProgress(context.Background(), func(_ int, msg string) { progress = append(progress, msg) })
		_, err := mk(cfg).Complete(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
		if err == nil {
			t.Fatal("want error")
		}
		if status == 500 && (logs.Len() == 0 || len(progress) < 3) {
			t.Errorf("status 500: want a logged and reported retry, got logs %q progress %q", logs.String(), progress)
		}
		for _, s := range []string{err.Error(), strings.TrimSpace(fmtAll(err)), logs.String(), strings.Join(progress, "\n")} {
			if strings.Contains(s, testKey) || strings.Contains(s, "SECRET") {
				t.Errorf("status %d: error leaks the key: %s", status, s)
			}
		}
	}
}
