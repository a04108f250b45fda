package httpserver

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tenantsTokens returns tokens for alice and ops.
func tenantsTokens(t *testing.T) (tokens *Tokens, alice, ops string) {
	t.Helper()
	alice, lineA, _ := NewToken("alice")
	ops, lineO, _ := NewToken("ops")
	tokens, err := ParseTokens(lineA + "\n" + lineO + "\n")
	if err != nil {
		t.Fatal(err)
	}
	return tokens, alice, ops
}

// doGet sends GET url with the token (if any) and extra headers, without
// following redirects, and returns the response with its body read.
func doGet(t *testing.T, url, token string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// A 401 carries an RFC 6750 challenge, with error="invalid_token" when a
// token was given but is wrong; /metrics, which counts every tenant's
// calls, is for the tenants in MetricsTenants only.
func TestBearerChallengeAndMetricsScope(t *testing.T) {
	tokens, alice, ops := tenantsTokens(t)
	srv, reg := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens, Metrics: reg, MetricsTenants: []string{"ops"}}))
	for _, c := range []struct {
		path, token string
		code        int
		challenge   string
	}{
		{"/mcp", "", 401, `Bearer realm="thinkgraph"`},
		{"/mcp", "tg_wrong", 401, `Bearer realm="thinkgraph", error="invalid_token", error_description="the token is not known to this server"`},
		{"/metrics", "", 401, `Bearer realm="thinkgraph"`},
		{"/metrics", "tg_wrong", 401, `Bearer realm="thinkgraph", error="invalid_token", error_description="the token is not known to this server"`},
		{"/metrics", alice, 403, `Bearer realm="thinkgraph", error="insufficient_scope"`},
		{"/metrics", ops, 200, ""},
	} {
		resp, body := doGet(t, url+c.path, c.token, nil)
		if resp.StatusCode != c.code || resp.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("%s with token %.8q: %d %q, want %d %q (%s)", c.path, c.token, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), c.code, c.challenge, body)
		}
		if c.code == 200 && !strings.Contains(body, "thinkgraph_tool_calls_total") {
			t.Errorf("metrics for ops: %s", body)
		}
	}
}

// The viewer's ?token= login sets the cookie only for a valid token; the
// cookie is Secure over TLS terminated by a trusted proxy only.
func TestViewerTokenLogin(t *testing.T) {
	tokens, alice, ops := tenantsTokens(t)
	srv, _ := thinkgraphServer(t)
	viewer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "tenant %s", auth.TokenInfoFromContext(r.Context()).UserID)
	})
	trusting, _, _ := start(t, New(srv, true, Options{Tokens: tokens, Viewer: viewer, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}))
	untrusting, _, _ := start(t, New(srv, true, Options{Tokens: tokens, Viewer: viewer, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}))
	login := func(url, token string, header map[string]string) (*http.Response, string) {
		return doGet(t, url+"/sessions/x?token="+token, "", header)
	}
	resp, _ := login(trusting, alice, nil)
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || len(cookies) != 1 || cookies[0].Value != alice || cookies[0].Secure || !cookies[0].HttpOnly {
		t.Fatalf("login with alice's token: %d %+v", resp.StatusCode, cookies)
	}
	if loc := resp.Header.Get("Location"); loc != "/sessions/x" {
		t.Fatalf("redirect to %q", loc)
	}
	aliceCookie := map[string]string{"Cookie": "thinkgraph_token=" + alice}
	if resp, body := doGet(t, trusting+"/", "", aliceCookie); resp.StatusCode != 200 || body != "tenant alice" {
		t.Fatalf("with the cookie: %d %s", resp.StatusCode, body)
	}
	// A link with a token that is not valid here (a cross-site link, a
	// typo) neither logs the person out nor into anything.
	for _, bad := range []string{"tg_bogus", ops + "x"} {
		resp, body := login(trusting, bad, aliceCookie)
		if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("login with %q: %d %+v %q", bad, resp.StatusCode, resp.Cookies(), body)
		}
	}
	https := map[string]string{"X-Forwarded-Proto": "https"}
	if resp, _ := login(trusting, ops, https); len(resp.Cookies()) != 1 || !resp.Cookies()[0].Secure {
		t.Errorf("behind a trusted TLS proxy: %+v", resp.Cookies())
	}
	if resp, _ := login(untrusting, ops, https); len(resp.Cookies()) != 1 || resp.Cookies()[0].Secure {
		t.Errorf("X-Forwarded-Proto from an untrusted address was believed: %+v", resp.Cookies())
	}
}

// A ?token= link followed from another site does not switch the viewer's
// login: with alice's cookie and Sec-Fetch-Site cross-site (or same-site),
// bob's token sets no cookie; the answer names bob's tenant and links to
// the same URL, which, followed from the viewer's origin (or typed), signs
// in. The request still reaches the viewer as alice's without the token.
func TestViewerTokenLoginCrossSite(t *testing.T) {
	tokens, alice, bob := tenantsTokens(t) // bob is the tenant "ops"
	srv, _ := thinkgraphServer(t)
	viewer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "tenant %s", auth.TokenInfoFromContext(r.Context()).UserID)
	})
	url, _, _ := start(t, New(srv, true, Options{Tokens: tokens, Viewer: viewer}))
	aliceCookie := "thinkgraph_token=" + alice
	for _, site := range []string{"cross-site", "same-site"} {
		resp, body := doGet(t, url+"/?token="+bob, "", map[string]string{"Cookie": aliceCookie, "Sec-Fetch-Site": site})
		if resp.StatusCode != http.StatusOK || len(resp.Cookies()) != 0 || resp.Header.Get("Set-Cookie") != "" {
			t.Fatalf("Sec-Fetch-Site %s with bob's token: %d, cookies %+v, want 200 and no cookie", site, resp.StatusCode, resp.Cookies())
		}
		if !strings.Contains(body, "<strong>ops</strong>") || !strings.Contains(body, `href="/?token=`+bob+`"`) || strings.Contains(body, "tenant alice") {
			t.Fatalf("Sec-Fetch-Site %s: the page does not name the link's tenant and link to sign in: %s", site, body)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("the confirmation page can be framed: CSP %q", csp)
		}
	}
	// alice is still signed in.
	if resp, body := doGet(t, url+"/", "", map[string]string{"Cookie": aliceCookie, "Sec-Fetch-Site": "cross-site"}); resp.StatusCode != 200 || body != "tenant alice" {
		t.Fatalf("alice after the cross-site link: %d %s", resp.StatusCode, body)
	}
	// Following the page's link (same-origin), typing the URL (none), or a
	// client that sends no Sec-Fetch-Site signs in.
	for _, site := range []string{"same-origin", "none", ""} {
		h := map[string]string{"Cookie": aliceCookie}
		if site != "" {
			h["Sec-Fetch-Site"] = site
		}
		resp, _ := doGet(t, url+"/?token="+bob, "", h)
		if c := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(c) != 1 || c[0].Value != bob {
			t.Errorf("Sec-Fetch-Site %q: %d %+v, want 303 setting bob's cookie", site, resp.StatusCode, c)
		}
	}
	// A bad token from another site is still a 401.
	if resp, _ := doGet(t, url+"/?token=tg_bogus", "", map[string]string{"Cookie": aliceCookie, "Sec-Fetch-Site": "cross-site"}); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Errorf("a bogus token from another site: %d %+v", resp.StatusCode, resp.Cookies())
	}
}

// A client that never reads a large GET response does not hold the
// handler past RequestTimeout; the MCP event stream (GET /mcp) is not cut
// by it.
func TestGetWriteDeadline(t *testing.T) {
	wrote := make(chan error, 1)
	big := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 1<<20)
		var err error
		for i := 0; i < 256 && err == nil; i++ { // 256 MiB: more than any socket buffers
			_, err = w.Write(chunk)
		}
		wrote <- err
	})
	srv := mcp.NewServer(&mcp.Implementation{Name: "deadlines", Version: "1"}, nil)
	hs := New(only(srv), true, Options{Viewer: big, RequestTimeout: 300 * time.Millisecond})
	url, _, _ := start(t, hs)

	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /export HTTP/1.1\r\nHost: localhost\r\n\r\n") // and never read
	select {
	case err := <-wrote:
		if err == nil {
			t.Fatal("256 MiB written to a client that reads nothing")
		}
	case <-time.After(time.Minute): // a hang guard, not a timing assertion
		t.Fatal("the handler is still writing to a client that reads nothing")
	}

	// The event streams outlive the request timeout: a notification sent
	// on them after several timeouts still arrives, on the session's
	// stream (GET /mcp, protocol 2025-11-25) and on subscriptions/listen
	// (2026-07-28), which shutdown does not wait for as for a call.
	changed := make(chan string, 2)
	// A server with tools offers their list's changes to listen for.
	srv.AddTool(&mcp.Tool{Name: "early", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	for _, era := range []string{legacyEra, modernEra} {
		client := mcp.NewClient(&mcp.Implementation{Name: "listener", Version: "1"}, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- era },
		})
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", MaxRetries: -1},
			&mcp.ClientSessionOptions{ProtocolVersion: era})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if v := cs.InitializeResult().ProtocolVersion; v != era {
			t.Fatalf("negotiated %s, want %s", v, era)
		}
	}
	time.Sleep(time.Second) // more than three request timeouts
	if n := hs.inFlight.Load(); n != 0 {
		t.Errorf("%d calls in flight with only event streams open", n)
	}
	srv.AddTool(&mcp.Tool{Name: "late", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	got := map[string]bool{}
	for len(got) < 2 {
		select {
		case era := <-changed:
			got[era] = true
		case <-time.After(time.Minute): // a hang guard, not a timing assertion
			t.Fatalf("tools/list_changed arrived only for %v", got)
		}
	}
}

// An MCP session idle for SessionIdleTimeout is closed and its memory
// reclaimed; its client gets an error, and a new session works.
func TestSessionIdleTimeout(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{SessionIdleTimeout: 200 * time.Millisecond}))
	cs, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs, "think", map[string]any{"thought": "before the pause", "session_id": "idle"}); isErr {
		t.Fatal(text)
	}
	sessions := func() (n int) {
		for range srv("").Sessions() {
			n++
		}
		return n
	}
	deadline := time.Now().Add(time.Minute) // a hang guard, not a timing assertion
	for sessions() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := sessions(); n != 0 {
		t.Fatalf("%d sessions still open after being idle", n)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": "after", "session_id": "idle"}}); err == nil {
		t.Fatal("a call on the expired session succeeded")
	}
	cs2, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs2, "think", map[string]any{"thought": "after the pause", "session_id": "idle"}); isErr || !strings.Contains(text, `"step":2`) {
		t.Fatal(text)
	}
}

// Resources are a tenant's own: they are read with cacheScope private.
func TestResourcesArePrivate(t *testing.T) {
	tokens, alice, _ := tenantsTokens(t)
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens}))
	cs, err := connect(t, url, alice)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs, "think", map[string]any{"thought": "mine", "session_id": "own"}); isErr {
		t.Fatal(text)
	}
	for _, uri := range []string{"thinkgraph://sessions", "thinkgraph://sessions/own", "thinkgraph://sessions/own/context",
		"thinkgraph://sessions/own/summary", "thinkgraph://sessions/own/json", "thinkgraph://sessions/own/markdown", "thinkgraph://sessions/own/mermaid"} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if res.CacheScope != "private" {
			t.Errorf("%s: cacheScope %q", uri, res.CacheScope)
		}
	}
}

// TestResourceUpdatesStayWithTheirTenant: alice and ops both subscribe to
// thinkgraph://sessions/plan, each meaning a session "plan" of their own. A
// change to one tenant's plan is announced to that tenant only. Each client
// also subscribes to a marker session of its own, written after the other
// tenant's plan: notifications reach a client in the order they are sent,
// so a notification about the other tenant's plan would come before the
// marker's.
func TestResourceUpdatesStayWithTheirTenant(t *testing.T) {
	tokens, aliceTok, opsTok := tenantsTokens(t)
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens}))
	type tenant struct {
		name   string
		cs     *mcp.ClientSession
		mu     sync.Mutex
		heard  []string
		notify chan struct{}
	}
	ctx := context.Background()
	join := func(name, token string) *tenant {
		tn := &tenant{name: name, notify: make(chan struct{}, 16)}
		cs, err := connectWith(t, url, token, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
				tn.mu.Lock()
				tn.heard = append(tn.heard, strings.TrimPrefix(r.Params.URI, "thinkgraph://sessions/"))
				tn.mu.Unlock()
				select {
				case tn.notify <- struct{}{}:
				default: // until reads heard anyway
				}
			},
		}, "2025-11-25") // resources/subscribe: subscribed once it returns
		if err != nil {
			t.Fatal(err)
		}
		tn.cs = cs
		for _, id := range []string{"plan", name + "-marker"} {
			if text, isErr := callText(t, cs, "think", map[string]any{"thought": name + "'s " + id, "session_id": id}); isErr {
				t.Fatal(text)
			}
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "thinkgraph://sessions/" + id}); err != nil {
				t.Fatal(err)
			}
		}
		return tn
	}
	alice, ops := join("alice", aliceTok), join("ops", opsTok)
	write := func(tn *tenant, id string) {
		t.Helper()
		if text, isErr := callText(t, tn.cs, "think", map[string]any{"thought": "more from " + tn.name, "session_id": id}); isErr {
			t.Fatal(text)
		}
	}
	// until waits for tn's notification about id and returns what tn heard.
	until := func(tn *tenant, id string) []string {
		t.Helper()
		deadline := time.After(time.Minute) // a hang guard, not a timing assertion
		for {
			tn.mu.Lock()
			heard := slices.Clone(tn.heard)
			tn.mu.Unlock()
			if slices.Contains(heard, id) {
				return heard
			}
			select {
			case <-tn.notify:
			case <-deadline:
				t.Fatalf("%s never heard of %s (heard %v)", tn.name, id, heard)
			}
		}
	}
	write(alice, "plan")
	until(alice, "plan")
	write(ops, "ops-marker")
	if heard := until(ops, "ops-marker"); !slices.Equal(heard, []string{"ops-marker"}) {
		t.Errorf("ops heard %v after alice's plan changed, want only its marker", heard)
	}
	write(ops, "plan")
	until(ops, "plan")
	write(alice, "alice-marker")
	if heard := until(alice, "alice-marker"); !slices.Equal(heard, []string{"plan", "alice-marker"}) {
		t.Errorf("alice heard %v after ops's plan changed, want her plan, then her marker", heard)
	}
	if heard := until(ops, "plan"); !slices.Equal(heard, []string{"ops-marker", "plan"}) {
		t.Errorf("ops heard %v, want its marker, then its plan", heard)
	}
}

// MCP sessions are bounded per tenant and in total: an initialize beyond
// the tenant's bound is 429, beyond the total 503, each with a JSON-RPC
// error naming the variable; a session that ends makes room again.
func TestSessionBounds(t *testing.T) {
	alice, lineA, _ := NewToken("alice")
	bob, lineB, _ := NewToken("bob")
	carol, lineC, _ := NewToken("carol")
	tokens, err := ParseTokens(lineA + "\n" + lineB + "\n" + lineC + "\n")
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{Tokens: tokens, MaxSessions: 5, MaxSessionsPerTenant: 3}))
	initialize := func(token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	var aliceSessions []*mcp.ClientSession
	for i := 0; i < 3; i++ {
		cs, err := connect(t, url, alice)
		if err != nil {
			t.Fatalf("alice's session %d: %v", i+1, err)
		}
		aliceSessions = append(aliceSessions, cs)
	}
	if code, body := initialize(alice); code != http.StatusTooManyRequests || !strings.Contains(body, `"id":"init"`) || !strings.Contains(body, "THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT") {
		t.Errorf("alice's 4th session: %d %s, want 429 naming the bound", code, body)
	}
	if _, err := connect(t, url, alice); err == nil {
		t.Error("the SDK client opened a 4th session for alice")
	}
	for i := 0; i < 2; i++ {
		if _, err := connect(t, url, bob); err != nil {
			t.Fatalf("bob's session %d: %v", i+1, err)
		}
	}
	if code, body := initialize(carol); code != http.StatusServiceUnavailable || !strings.Contains(body, "THINKGRAPH_HTTP_MAX_SESSIONS") {
		t.Errorf("carol's session with 5 open: %d %s, want 503 naming the bound", code, body)
	}
	// The open sessions still work.
	if text, isErr := callText(t, aliceSessions[0], "think", map[string]any{"thought": "still served"}); isErr {
		t.Fatal(text)
	}
	// alice ends one: carol (or alice) may open one again.
	aliceSessions[2].Close()
	deadline := time.Now().Add(10 * time.Second) // a hang guard: the close is asynchronous on the server
	for {
		cs, err := connect(t, url, carol)
		if err == nil {
			cs.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no room after alice closed a session: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Concurrent initializes cannot pass the bound together: of 16 at once,
// exactly the bound's number opens a session.
func TestSessionBoundUnderConcurrentInitializes(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{MaxSessionsPerTenant: 4}))
	var wg sync.WaitGroup
	codes := make(chan int, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, _ := postMCP(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[http.StatusOK] != 4 || got[http.StatusTooManyRequests] != 12 {
		t.Fatalf("status counts %v, want 4 × 200 and 12 × 429", got)
	}
}

// subscriptions/listen streams (protocol 2026-07-28), which hold a
// connection as a session's event stream does, are bounded as sessions
// are: past the tenant's bound 429, past the total 503, each with the
// JSON-RPC error naming the variable; a stream that ends makes room.
func TestListenBounds(t *testing.T) {
	tokens, alice, ops := tenantsTokens(t)
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{Tokens: tokens, MaxSessions: 3, MaxSessionsPerTenant: 2}))
	// listen opens a stream for token: its status and, while it is open
	// (200), its response, to close; else the body.
	listen := func(token string) (int, *http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{`+
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}`))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Authorization": "Bearer " + token, "MCP-Protocol-Version": modernEra, "Mcp-Method": "subscriptions/listen"} {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusOK {
			t.Cleanup(func() { resp.Body.Close() })
			return resp.StatusCode, resp, ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, nil, string(b)
	}
	var first *http.Response
	for i := range 2 {
		status, resp, body := listen(alice)
		if status != http.StatusOK {
			t.Fatalf("alice's listen stream %d: %d %s", i+1, status, body)
		}
		first = cmp.Or(first, resp)
	}
	if status, _, body := listen(alice); status != http.StatusTooManyRequests || !strings.Contains(body, `"id":"l"`) || !strings.Contains(body, "THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT") {
		t.Errorf("alice's third listen stream: %d %s, want 429 naming the bound", status, body)
	}
	if status, _, body := listen(ops); status != http.StatusOK {
		t.Fatalf("ops's listen stream: %d %s", status, body)
	}
	if status, _, body := listen(ops); status != http.StatusServiceUnavailable || !strings.Contains(body, "THINKGRAPH_HTTP_MAX_SESSIONS)") {
		t.Errorf("a listen stream past the total: %d %s, want 503 naming the bound", status, body)
	}
	// Other calls are not bounded by the streams.
	cs, err := connectWith(t, url, alice, nil, modernEra)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs, "think", map[string]any{"thought": "beside the streams", "session_id": "l"}); isErr {
		t.Fatal(text)
	}
	first.Body.Close()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) { // a hang guard
		status, _, body := listen(alice)
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice's listen stream after closing one: %d %s", status, body)
		}
	}
}
