package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/metrics"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// start serves h on a loopback port and returns its base URL; the server
// shuts down when the test ends.
func start(t *testing.T, s *Server) (string, context.CancelFunc, chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String(), cancel, done
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session (protocol 2025-11-25, the last with
// sessions) on url for token ("": none).
func connect(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	return connectWith(t, url, token, nil, legacyEra)
}

// The newest protocol version with MCP sessions, and the first without.
const legacyEra, modernEra = "2025-11-25", "2026-07-28"

// connectWith connects with client options, on protocol version ("": the
// newest).
func connectWith(t *testing.T, url, token string, opts *mcp.ClientOptions, version string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// thinkgraphServer returns thinkgraph's MCP servers by tenant, on a fresh
// database, and their metrics.
func thinkgraphServer(t *testing.T) (func(tenant string) *mcp.Server, *metrics.Registry) {
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	reg := metrics.New()
	return mcpserver.New(reasoning.New(store, reasoning.Config{}), mcpserver.Options{Metrics: reg}).ForTenant, reg
}

// only serves srv to every tenant.
func only(srv *mcp.Server) func(string) *mcp.Server { return func(string) *mcp.Server { return srv } }

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func TestTokensAndTenantIsolation(t *testing.T) {
	tokA, lineA, err := NewToken("alice")
	if err != nil {
		t.Fatal(err)
	}
	tokB, lineB, _ := NewToken("bob")
	tokens, err := ParseTokens("# team tokens\n" + lineA + "\n\n" + lineB + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if tenant, ok := tokens.Tenant(tokB); !ok || tenant != "bob" {
		t.Fatalf("Tenant(bob's token) = %q %v", tenant, ok)
	}
	if _, ok := tokens.Tenant(tokB + "x"); ok {
		t.Fatal("a wrong token was accepted")
	}
	srv, reg := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens, Metrics: reg, MetricsTenants: []string{"alice"}}))

	if _, err := connect(t, url, ""); err == nil {
		t.Fatal("connected without a token")
	}
	if _, err := connect(t, url, "tg_wrong"); err == nil {
		t.Fatal("connected with a wrong token")
	}
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/metrics without a token: %d", resp.StatusCode)
	}

	alice, err := connect(t, url, tokA)
	if err != nil {
		t.Fatal(err)
	}
	bob, err := connect(t, url, tokB)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, alice, "think", map[string]any{"thought": "alice's plan", "session_id": "plan"}); isErr {
		t.Fatal(text)
	}
	// Session ids are per tenant: bob's "plan" is his own session
	// (TestTenantsApart tries every tool, resource and viewer page).
	if text, isErr := callText(t, bob, "think", map[string]any{"thought": "bob was here", "session_id": "plan"}); isErr || !strings.Contains(text, `"step":1`) {
		t.Fatalf("bob's own plan: %v %s", isErr, text)
	}
	// Alice's session is untouched.
	text, _ := callText(t, alice, "show_current_path", map[string]any{"session_id": "plan"})
	if !strings.Contains(text, `"total_nodes":1`) || strings.Contains(text, "bob") {
		t.Fatal(text)
	}
	// Metrics with a token.
	req, _ := http.NewRequest("GET", url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+tokA)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `thinkgraph_tool_calls_total{tool="think",outcome="ok"} 2`) {
		t.Fatalf("metrics:\n%s", body)
	}
}

func TestParseTokensErrors(t *testing.T) {
	for _, text := range []string{"", "# only a comment\n", "abc alice\n", strings.Repeat("a", 64) + " bad/tenant\n", strings.Repeat("a", 64) + "\n"} {
		if _, err := ParseTokens(text); err == nil {
			t.Errorf("ParseTokens(%q) accepted", text)
		}
	}
}

func TestHostAndOriginChecks(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{AllowedOrigins: []string{"https://app.example.com"}}))
	do := func(host, origin string) int {
		req, _ := http.NewRequest("GET", url+"/healthz", nil)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cases := []struct {
		host, origin string
		want         int
	}{
		{"", "", 200},
		{"localhost:8080", "", 200},
		{"[::1]:8080", "", 200},
		{"evil.example.com", "", 403},
		{"evil.example.com:80", "", 403},
		{"", "http://localhost:3000", 200},
		{"", "https://app.example.com", 200},
		{"", "https://evil.example.com", 403},
		{"", "null", 403},
	}
	for _, c := range cases {
		if got := do(c.host, c.origin); got != c.want {
			t.Errorf("Host %q Origin %q: %d, want %d", c.host, c.origin, got, c.want)
		}
	}
	// MCP over the loopback server without tokens works.
	cs, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs, "think", map[string]any{"thought": "over http"}); isErr || !strings.Contains(text, `"step":1`) {
		t.Fatal(text)
	}
}

// Host names are case-insensitive: LOCALHOST and LocalHost reach /mcp and
// the other paths of a loopback server like localhost (the MCP SDK's own
// DNS-rebinding check compares "localhost" exactly); another host is still
// refused.
func TestHostCheckIgnoresCase(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{}))
	port := url[strings.LastIndex(url, ":")+1:]
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct {
		host string
		want int
	}{
		{"LOCALHOST:" + port, 200},
		{"LocalHost:" + port, 200},
		{"LOCALHOST", 200},
		{"evil.example:" + port, 403},
	} {
		for _, path := range []string{"/mcp", "/healthz"} {
			method, body := "GET", ""
			if path == "/mcp" {
				method, body = "POST", initialize
			}
			req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
			req.Host = c.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want || (c.want == 200 && path == "/mcp" && !strings.Contains(string(b), `"protocolVersion"`)) {
				t.Errorf("%s with Host %q: %d %s, want %d", path, c.host, resp.StatusCode, b, c.want)
			}
		}
	}
}

func TestHealthReadyAndBodyLimit(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	var failing bool
	url, _, _ := start(t, New(srv, true, Options{MaxBodyBytes: 1024, Ready: func(context.Context) error {
		if failing {
			return errors.New("db down")
		}
		return nil
	}}))
	get := func(path string) int {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if get("/healthz") != 200 || get("/readyz") != 200 {
		t.Fatal("not healthy")
	}
	failing = true
	if get("/readyz") != 503 || get("/healthz") != 200 {
		t.Fatal("readyz should fail and healthz not")
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", 2000) + `"}}`
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Fatalf("2 KB body over a 1 KB limit: %d", resp.StatusCode)
	}
}

// Shutdown lets an in-flight call finish before the server stops.
func TestGracefulShutdownFinishesInFlightCalls(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	started := make(chan struct{})
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: &jsonschema.Schema{Type: "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "finished"}}}, nil
	})
	url, cancel, done := start(t, New(only(srv), true, Options{}))
	cs, err := connect(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	result := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		if err != nil {
			result <- "error: " + err.Error()
			return
		}
		result <- res.Content[0].(*mcp.TextContent).Text
	}()
	<-started
	cancel() // SIGTERM
	if got := <-result; got != "finished" {
		t.Fatalf("in-flight call: %s", got)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	done <- nil // for the cleanup
}

// On protocol 2026-07-28 a tool reaches the client's model through
// input_required results, on the default endpoint as on a stateless one:
// every round is a new HTTP request on a new MCP session, and the
// suspended call is bound to the tenant that started it.
func TestMultiRoundTripSampling(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) { testMultiRoundTripSampling(t, stateless) })
	}
}

func testMultiRoundTripSampling(t *testing.T, stateless bool) {
	tokens, tokA, tokB := tenantsTokens(t) // bob is the tenant "ops"
	srv, reg := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens, Metrics: reg, Stateless: stateless}))
	sampler := func(manual bool, token string) *mcp.ClientSession {
		t.Helper()
		opts := &mcp.ClientOptions{CreateMessageWithToolsHandler: func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			return &mcp.CreateMessageWithToolsResult{Model: "m", Role: "assistant", Content: []mcp.Content{&mcp.TextContent{Text: `{"thought": "from the client's model", "confidence": 0.6}`}}}, nil
		}}
		if manual {
			opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
		}
		hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-sampler", Version: "1"}, opts).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		if v := cs.InitializeResult().ProtocolVersion; v < "2026-07-28" {
			t.Fatalf("negotiated %s", v)
		}
		return cs
	}
	alice := sampler(false, tokA)
	if text, isErr := callText(t, alice, "think", map[string]any{"thought": "start", "session_id": "s"}); isErr {
		t.Fatal(text)
	}
	text, isErr := callText(t, alice, "reasoning_linear", map[string]any{"content": "go on", "session_id": "s"})
	if isErr || !strings.Contains(text, "from the client's model") {
		t.Fatal(text)
	}

	// Bob cannot resume alice's suspended call, even with its state.
	manual := sampler(true, tokA)
	args := map[string]any{"content": "and then?", "session_id": "s"}
	first, err := manual.CallTool(context.Background(), &mcp.CallToolParams{Name: "reasoning_linear", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("%+v %v", first, err)
	}
	var responses = mcp.InputResponseMap{}
	for id := range first.InputRequests {
		responses[id] = &mcp.CreateMessageWithToolsResult{Model: "m", Role: "assistant", Content: []mcp.Content{&mcp.TextContent{Text: "resumed"}}}
	}
	bob := sampler(true, tokB)
	res, err := bob.CallTool(context.Background(), &mcp.CallToolParams{Name: "reasoning_linear", Arguments: args, RequestState: first.RequestState, InputResponses: responses})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "requestState") {
		t.Fatalf("bob resumed alice's call: %+v %v", res, err)
	}
	res, err = manual.CallTool(context.Background(), &mcp.CallToolParams{Name: "reasoning_linear", Arguments: args, RequestState: first.RequestState, InputResponses: responses})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"content":"resumed"`) {
		t.Fatalf("%+v %v", res, err)
	}
}

// postMCP posts body to /mcp with the MCP headers (and session, if any)
// and returns the status, the Mcp-Session-Id answered and the body.
func postMCP(t *testing.T, url, session, body string) (int, string, string) {
	t.Helper()
	var headers map[string]string
	if session != "" {
		headers = map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"}
	}
	return postMCPWith(t, url, headers, body)
}

// postMCPWith is postMCP with these headers.
func postMCPWith(t *testing.T, url string, headers map[string]string, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

// JSON-RPC ids over HTTP: an id the SDK would not echo exactly, id null
// and an id without a method are refused with 400 and -32600 naming the
// id as sent; ids up to 2^53-1 come back exactly; a call before
// initialize (no MCP session) is -32600, not the SDK's code 0.
func TestJSONRPCIdsOverHTTP(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{}))
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	think := `{"jsonrpc":"2.0","id":"early","method":"tools/call","params":{"name":"think","arguments":{"thought":"x"}}}`
	code, _, body := postMCP(t, url, "", think)
	if code != http.StatusBadRequest || !strings.Contains(body, `"id":"early"`) || !strings.Contains(body, `"code":-32600`) || !strings.Contains(body, "initialize") {
		t.Errorf("tools/call before initialize: %d %s", code, body)
	}
	if code, _, body := postMCP(t, url, "", `{"jsonrpc":"2.0","id":"p","method":"ping"}`); code != 200 || !strings.Contains(body, `"id":"p","result":{}`) {
		t.Errorf("ping without a session: %d %s", code, body)
	}
	code, session, body := postMCP(t, url, "", initialize)
	if code != 200 || session == "" {
		t.Fatalf("initialize: %d %q %s", code, session, body)
	}
	postMCP(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range []struct{ frame, id string }{
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "1.5"},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "9007199254740993"},
		{`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, "123456789012345678901234567890"},
		{`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, "1e2"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null"},
		{`{"jsonrpc":"2.0","id":"x"}`, `"x"`},
	} {
		code, _, body := postMCP(t, url, session, c.frame)
		if code != http.StatusBadRequest || !strings.Contains(body, `"id":`+c.id+`,`) || !strings.Contains(body, `"code":-32600`) {
			t.Errorf("%s: %d %s, want 400 with id %s and -32600", c.frame, code, body, c.id)
		}
	}
	for _, id := range []string{"9007199254740991", "-9007199254740991", "0"} {
		if code, _, body := postMCP(t, url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`); code != 200 || !strings.Contains(body, `"id":`+id+`,"result"`) {
			t.Errorf("ping with id %s: %d %s", id, code, body)
		}
	}
	if code, _, body := postMCP(t, url, session, think); code != 200 || !strings.Contains(body, `\"step\":1`) {
		t.Errorf("tools/call in the session: %d %s", code, body)
	}
}

// Issue 38, cases 9 and 10: over HTTP, what stdio refuses is refused the
// same way, 400 with a JSON-RPC body (it was 200 for trailing data, a
// plain-text 400 for bad ids, empty batches and deep nesting, and invalid
// UTF-8 was stored with U+FFFD); a lone surrogate id is refused naming the
// id as sent (it was echoed as U+FFFD); the session goes on serving.
func TestBadFramesOverHTTP(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{}))
	code, session, body := postMCP(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if code != 200 || session == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	postMCP(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`
	for _, c := range []struct {
		name, frame string
		code        int
		id          string
	}{
		{"invalid JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "null"},
		{"NaN", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":NaN}}`, -32700, "null"},
		{"trailing data", `{"jsonrpc":"2.0","id":8,"method":"ping"} {"jsonrpc":"2.0","id":9,"method":"ping"}`, -32700, "null"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":8,"method":"ping"}x`, -32700, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"think\",\"arguments\":{\"thought\":\"\xff\xfe\",\"session_id\":\"utf\"}}}", -32700, "null"},
		{"an empty body", ``, -32700, "null"},
		{"a number", `123`, -32600, "null"},
		{"an empty batch", `[]`, -32600, "null"},
		{"nesting deeper than 1000", deep, -32600, `"deep"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, -32600, "4"},
		{"an object id", `{"jsonrpc":"2.0","id":{"n":6},"method":"ping"}`, -32600, "null"},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
		{"a lone surrogate id", `{"jsonrpc":"2.0","id":"a\ud800b","method":"ping"}`, -32600, `"a\ud800b"`},
		{"a lone low surrogate id", `{"jsonrpc":"2.0","id":"\udc00","method":"ping"}`, -32600, `"\udc00"`},
	} {
		code, _, body := postMCP(t, url, session, c.frame)
		var got struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil || code != http.StatusBadRequest || got.Error == nil || got.Error.Code != c.code || string(got.ID) != c.id || got.Error.Message == "" {
			t.Errorf("%s: %d %s, want 400 with id %s and %d", c.name, code, body, c.id, c.code)
		}
	}
	// A surrogate pair is a character: the id comes back as sent.
	if code, _, body := postMCP(t, url, session, `{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"ping"}`); code != 200 || !strings.Contains(body, `"result":{}`) {
		t.Errorf("a ping with a surrogate pair id: %d %s", code, body)
	}
	if code, _, body := postMCP(t, url, session, `{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"think","arguments":{"thought":"still serving","session_id":"utf"}}}`); code != 200 || !strings.Contains(body, `\"step\":1`) {
		t.Errorf("think after the bad frames: %d %s (the invalid UTF-8 one was stored?)", code, body)
	}
}

// Issue 38, case 12: a stateless server sends no log notification to a
// client that set no level (the SDK makes up each request's session at
// level info); the call is answered.
func TestStatelessSendsNoLogsUnasked(t *testing.T) {
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, true, Options{Stateless: true}))
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"think","arguments":{"thought":"a step","session_id":"stateless"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `\"step\":1`) || strings.Contains(string(b), "notifications/message") {
		t.Errorf("a stateless call with no log level: %d %s", resp.StatusCode, b)
	}
}

// One endpoint serves both eras: a 2026-07-28 client (server/discover, no
// Mcp-Session-Id) writes beside 2025-era sessions, opens no MCP session and
// so is not counted against the session bounds, and keeps its tenant.
func TestBothEras(t *testing.T) {
	tokens, tokA, tokB := tenantsTokens(t) // bob is the tenant "ops"
	srv, _ := thinkgraphServer(t)
	url, _, _ := start(t, New(srv, false, Options{Tokens: tokens, MaxSessionsPerTenant: 1}))
	legacy, err := connect(t, url, tokA)
	if err != nil {
		t.Fatal(err)
	}
	if legacy.ID() == "" {
		t.Fatal("the 2025-era client has no Mcp-Session-Id")
	}
	if _, err := connect(t, url, tokA); err == nil {
		t.Fatal("a second 2025-era session past MaxSessionsPerTenant 1")
	}
	modern, err := connectWith(t, url, tokA, nil, modernEra)
	if err != nil {
		t.Fatalf("a 2026-07-28 client beside a tenant's full sessions: %v", err)
	}
	if v := modern.InitializeResult().ProtocolVersion; v != modernEra || modern.ID() != "" {
		t.Fatalf("negotiated %s with session %q, want %s and none", v, modern.ID(), modernEra)
	}
	// The connection's reasoning session (2025) and a named one (2026).
	for i, want := range []string{`"step":1`, `"step":2`} {
		if text, isErr := callText(t, legacy, "think", map[string]any{"thought": fmt.Sprintf("on the connection %d", i)}); isErr || !strings.Contains(text, want) {
			t.Fatalf("2025-era write %d: %s", i, text)
		}
		if text, isErr := callText(t, modern, "think", map[string]any{"thought": fmt.Sprintf("named %d", i), "session_id": "both"}); isErr || !strings.Contains(text, want) {
			t.Fatalf("2026-07-28 write %d: %s", i, text)
		}
	}
	other, err := connectWith(t, url, tokB, nil, modernEra)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, other, "think", map[string]any{"thought": "bob's own", "session_id": "both"}); isErr || !strings.Contains(text, `"step":1`) {
		t.Fatalf("bob reached alice's session: %s", text)
	}
	// The era is the MCP-Protocol-Version header's, which mirrors the
	// _meta of a 2026-07-28 request: without it, the SDK says the header
	// is required.
	discover := func(header string) string {
		headers := map[string]string{"Authorization": "Bearer " + tokA}
		if header != "" {
			headers["MCP-Protocol-Version"], headers["Mcp-Method"] = header, "server/discover"
		}
		status, _, body := postMCPWith(t, url, headers, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{`+
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}`)
		return fmt.Sprintf("%d %s", status, body)
	}
	if got := discover(modernEra); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, `"supportedVersions"`) {
		t.Errorf("server/discover on 2026-07-28: %s", got)
	}
	if got := discover(""); !strings.HasPrefix(got, "400 ") || !strings.Contains(got, "Mcp-Protocol-Version header is required") {
		t.Errorf("server/discover without the header: %s", got)
	}
}
