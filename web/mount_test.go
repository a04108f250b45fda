package web

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"

	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// TestMountedBehindTokens: served by httpserver at /, the viewer needs a
// token, takes it once from ?token= into a cookie, and shows the token's
// tenant's sessions only; /mcp still needs the header.
func TestMountedBehindTokens(t *testing.T) {
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := reasoning.New(store, reasoning.Config{})
	think(t, svc, "alice", "alice-1", "alice's thought", 0.9)
	think(t, svc, "bob", "bob-1", "bob's thought", 0.9)
	tokA, lineA, _ := httpserver.NewToken("alice")
	_, lineB, _ := httpserver.NewToken("bob")
	tokens, err := httpserver.ParseTokens(lineA + "\n" + lineB)
	if err != nil {
		t.Fatal(err)
	}
	mcp := mcpserver.New(svc, mcpserver.Options{})
	h := httpserver.New(mcp.ForTenant, true, httpserver.Options{Tokens: tokens, Viewer: New(svc, Options{NoAnalysis: true})}).Handler()
	srv := httptest.NewServer(h)
	defer srv.Close()
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	res, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", res.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err = c.Get(url + "/sessions/alice-1?token=" + tokA)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Request.URL.RawQuery != "" || !strings.Contains(string(body), "alice&#39;s thought") {
		t.Fatalf("with ?token: %d %q", res.StatusCode, res.Request.URL)
	}
	// A link with a token not valid here (bob's, mistyped) is refused and
	// leaves alice signed in.
	res, err = c.Get(url + "/sessions/bob-1?token=" + tokA + "x")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("with a bad ?token: %d", res.StatusCode)
	}
	for path, want := range map[string]int{"/": 200, "/sessions/bob-1": 404, "/sessions/alice-1/graph": 200} {
		res, err := c.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want || strings.Contains(string(b), "bob") {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
	// The cookie is not a credential for /mcp.
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("/mcp with the cookie only: %d", res.StatusCode)
	}
	// The Host check covers the viewer (DNS rebinding).
	req, _ = http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer "+tokA)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d", res.StatusCode)
	}
}

// TestEventsOutliveRequestTimeout: served by httpserver, whose responses
// must be written within its request timeout, the viewer's event stream
// still reports a change made after several timeouts.
func TestEventsOutliveRequestTimeout(t *testing.T) {
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "e.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := reasoning.New(store, reasoning.Config{})
	think(t, svc, thinkgraph.LocalTenant, "slow-1", "first", 0.9)
	mcp := mcpserver.New(svc, mcpserver.Options{})
	h := httpserver.New(mcp.ForTenant, true, httpserver.Options{RequestTimeout: 200 * time.Millisecond,
		Viewer: New(svc, Options{NoAnalysis: true, Poll: 50 * time.Millisecond})}).Handler()
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/sessions/slow-1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if e, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- e
			}
		}
		close(events)
	}()
	if e := <-events; e != "version" {
		t.Fatalf("first event %q", e)
	}
	time.Sleep(time.Second) // five request timeouts
	think(t, svc, thinkgraph.LocalTenant, "slow-1", "second", 0.9)
	select {
	case e := <-events:
		if e != "change" {
			t.Fatalf("event %q (the stream ended?)", e)
		}
	case <-time.After(time.Minute): // a hang guard, not a timing assertion
		t.Fatal("no change event")
	}
}
