package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// TestTenantsApart: over HTTP with bearer tokens, tenant bob tries every
// tool, every session resource and every viewer page with the ids of
// alice's sessions, and the same with ids nobody uses. The answers are the
// same (ids, generated ids and times aside): nothing tells bob that alice
// uses an id. Bob's writes start sessions of his own, and alice's sessions
// stay as they were.
func TestTenantsApart(t *testing.T) {
	svc := semanticService(t)
	// A model that answers every request with the same JSON step.
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		answer := `{"thought": "Caching the queries lowers the latency", "confidence": 0.7, "branches": [{"thought": "Cache", "confidence": 0.6}], "recommended": 0}`
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
			"usage":   map[string]any{"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
		})
	}))
	t.Cleanup(model.Close)
	cfg := llm.DefaultConfig()
	cfg.Provider, cfg.OpenAI.APIKey, cfg.OpenAI.BaseURL, cfg.MaxRetries = llm.ProviderOpenAI, "sk-test", model.URL+"/v1", 0
	svc.EnableLLM(cfg, nil)

	url, tokA, tokB := twoTenants(t, svc)
	alice, bob := mcpClient(t, url, tokA), mcpClient(t, url, tokB)
	ctx := context.Background()

	tools, err := bob.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Alice's sessions: one per tool, each with a thought and a
	// branch-thinking thought.
	aliceIDs := map[string]string{}
	for _, tool := range tools.Tools {
		id := "alice-" + strings.NewReplacer(".", "-", "_", "-").Replace(tool.Name)
		aliceIDs[tool.Name] = id
		mustTool(t, alice, "think", map[string]any{"thought": "Alice's secret plan for " + tool.Name, "session_id": id})
		mustTool(t, alice, "branch-thinking", map[string]any{"content": "Alice's secret analysis", "type": "analysis", "session_id": id})
	}
	aliceBefore := map[string]string{}
	for _, id := range aliceIDs {
		aliceBefore[id] = exportOf(t, alice, id)
	}

	// Every resource and viewer page, before bob writes anything.
	templates, err := bob.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	taken, unused := aliceIDs["think"], "nobody-uses-this"
	for _, tmpl := range templates.ResourceTemplates {
		uri := func(id string) string { return strings.Replace(tmpl.URITemplate, "{+session_id}", id, 1) }
		same(t, "resource "+tmpl.URITemplate, taken, unused, readResource(bob, uri(taken)), readResource(bob, uri(unused)))
	}
	if list := readResource(bob, "thinkgraph://sessions"); strings.Contains(list, "alice") {
		t.Errorf("bob's session list names alice's sessions: %s", list)
	}
	pages := []string{"/sessions/%s", "/sessions/%s/graph", "/sessions/%s/events"}
	for _, f := range []string{"json", "markdown", "mermaid", "dot", "html", "svg"} {
		pages = append(pages, "/sessions/%s/export/"+f)
	}
	for _, p := range pages {
		same(t, "viewer "+p, taken, unused, page(t, url, tokB, fmt.Sprintf(p, taken)), page(t, url, tokB, fmt.Sprintf(p, unused)))
	}
	if list := page(t, url, tokB, "/"); strings.Contains(list, "alice") {
		t.Errorf("bob's viewer lists alice's sessions: %s", list)
	}

	// Every tool: with alice's id, then with an unused one.
	for _, tool := range tools.Tools {
		args := toolArgs(tool)
		call := func(id string) string {
			a := map[string]any{"session_id": id}
			for k, v := range args {
				a[k] = v
			}
			res, err := bob.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: a})
			if err != nil {
				return "protocol error: " + err.Error()
			}
			b, _ := json.Marshal(res)
			return string(b)
		}
		id := aliceIDs[tool.Name]
		same(t, "tool "+tool.Name, id, "unused-"+id, call(id), call("unused-"+id))
	}

	// Bob's writes went to sessions of his own; alice's are as they were.
	for tool, id := range aliceIDs {
		if got := exportOf(t, alice, id); got != aliceBefore[id] {
			t.Errorf("alice's session %s changed after bob's %s", id, tool)
		}
	}
	// Both go on with their own "alice-think".
	if out := mustTool(t, alice, "think", map[string]any{"thought": "Alice goes on", "session_id": aliceIDs["think"]}); !strings.Contains(out, `"step":3,`) {
		t.Errorf("alice's next thought: %s", out)
	}
	path := mustTool(t, bob, "show_current_path", map[string]any{"session_id": aliceIDs["think"]})
	if strings.Contains(path, "Alice") || !strings.Contains(path, `"session_id":"`+aliceIDs["think"]+`"`) {
		t.Errorf("bob's own %s: %s", aliceIDs["think"], path)
	}
	if got := exportOf(t, bob, aliceIDs["think"]); strings.Contains(got, "Alice") {
		t.Errorf("bob's export of his %s holds alice's thoughts", aliceIDs["think"])
	}
}

// twoTenants serves svc over HTTP (MCP and the viewer) with the bearer
// tokens of tenants alice and bob, and returns its URL and the tokens.
func twoTenants(t *testing.T, svc *reasoning.Service) (url, tokA, tokB string) {
	t.Helper()
	tokA, lineA, _ := httpserver.NewToken("alice")
	tokB, lineB, _ := httpserver.NewToken("bob")
	tokens, err := httpserver.ParseTokens(lineA + "\n" + lineB)
	if err != nil {
		t.Fatal(err)
	}
	h := httpserver.New(mcpserver.New(svc, mcpserver.Options{}).ForTenant, true,
		httpserver.Options{Tokens: tokens, Viewer: New(svc, Options{NoAnalysis: true})}).Handler()
	srv := httptest.NewServer(h)
	// Closed after the clients (cleanups run last first).
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), tokA, tokB
}

// mcpClient connects to the server's /mcp with a bearer token.
func mcpClient(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearer{token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "tenant", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mustTool calls a tool that must succeed and returns its result as JSON.
func mustTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError {
		t.Fatalf("%s: %s", name, b)
	}
	return string(b)
}

// exportOf is the session's exchange document without the time it was
// exported at.
func exportOf(t *testing.T, cs *mcp.ClientSession, id string) string {
	t.Helper()
	var out struct {
		Document map[string]any `json:"document"`
	}
	if err := json.Unmarshal([]byte(mustTool(t, cs, "branch-thinking", map[string]any{"command": map[string]any{"type": "export"}, "session_id": id})), &out); err != nil {
		t.Fatal(err)
	}
	delete(out.Document, "exportedAt")
	b, _ := json.Marshal(out.Document)
	return string(b)
}

func readResource(cs *mcp.ClientSession, uri string) string {
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(res)
	return string(b)
}

// page returns the status and body of a viewer page (the first event of an
// event stream).
func page(t *testing.T, url, token, path string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	buf := make([]byte, 1<<20)
	n, _ := io.ReadAtLeast(res.Body, buf, 1)
	return fmt.Sprintf("%d %s", res.StatusCode, buf[:n])
}

// toolArgs fills a tool's required arguments from its input schema, with
// the content its calls need to get past validation.
func toolArgs(tool *mcp.Tool) map[string]any {
	schema, _ := tool.InputSchema.(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	args := map[string]any{}
	for _, r := range required {
		name := r.(string)
		p, _ := props[name].(map[string]any)
		switch typ := fmt.Sprint(p["type"]); {
		case strings.Contains(typ, "string"):
			args[name] = "Caching the queries lowers the latency"
		case strings.Contains(typ, "integer"), strings.Contains(typ, "number"):
			args[name] = 1
		case strings.Contains(typ, "boolean"):
			args[name] = false
		}
	}
	switch tool.Name {
	case "branch-thinking":
		args["content"], args["type"] = "Caching the queries lowers the latency", "hypothesis"
	case "select_path":
		args["alternatives"] = []any{map[string]any{"thought": "Cache the queries", "confidence": 0.7}}
		args["selected_index"] = 0
	case "think":
		args["confidence"] = 0.4
	}
	return args
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?`)
	msRE   = regexp.MustCompile(`"(latency_ms|latencyMs|duration_ms|elapsed_ms)":\d+`)
)

// same checks that answer a (for id a) and answer b (for id b) are the
// same but for the ids, generated ids and times.
func same(t *testing.T, what, a, b, answerA, answerB string) {
	t.Helper()
	norm := func(s, id string) string {
		s = strings.ReplaceAll(s, id, "ID")
		s = uuidRE.ReplaceAllString(s, "UUID")
		s = timeRE.ReplaceAllString(s, "TIME")
		return msRE.ReplaceAllString(s, `"$1":0`)
	}
	if na, nb := norm(answerA, a), norm(answerB, b); na != nb {
		t.Errorf("%s: answers differ for another tenant's id and an unused one:\n%s\n%s", what, clipText(na), clipText(nb))
	}
	if strings.Contains(answerA, "Alice") {
		t.Errorf("%s: the answer shows alice's content: %s", what, clipText(answerA))
	}
}

func clipText(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}
