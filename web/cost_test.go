package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// costServer serves svc over HTTP as thinkgraph serve --http does (MCP and
// the viewer sharing one render limiter) for the tenants alice and bob
// (and any others named), and returns its URL and their tokens.
func costServer(t *testing.T, svc *reasoning.Service, opts mcpserver.Options, vopts Options, others ...string) (url string, tokens map[string]string) {
	t.Helper()
	tokens = map[string]string{}
	var lines []string
	for _, tenant := range append([]string{"alice", "bob"}, others...) {
		tok, line, _ := httpserver.NewToken(tenant)
		tokens[tenant] = tok
		lines = append(lines, line)
	}
	parsed, err := httpserver.ParseTokens(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if opts.Limiter == nil {
		opts.Limiter = render.NewLimiter()
	}
	vopts.Limiter = opts.Limiter
	viewer := New(svc, vopts)
	h := httpserver.New(mcpserver.New(svc, opts).ForTenant, true, httpserver.Options{Tokens: parsed, Viewer: viewer}).Handler()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), tokens
}

// importDoc imports doc through branch-thinking's import over MCP and
// returns the new session's id, or the tool error's text.
func importDoc(t *testing.T, cs *mcp.ClientSession, doc map[string]any) (string, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "branch-thinking",
		Arguments: map[string]any{"command": map[string]any{"type": "import", "data": doc}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		return "", res.Content[0].(*mcp.TextContent).Text
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.SessionID == "" {
		t.Fatalf("import: %s", b)
	}
	return out.SessionID, ""
}

// chainDoc is an exchange document of n thoughts in one branch, each a
// child of the one before, with the content and metadata given.
func chainDoc(n int, content func(i int) string, metadata json.RawMessage) map[string]any {
	var ths []map[string]any
	parent := ""
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("t%d", i)
		th := map[string]any{"id": id, "step": i, "branchId": "main", "parentId": parent, "content": content(i)}
		if metadata != nil {
			th["metadata"] = metadata
		}
		ths = append(ths, th)
		parent = id
	}
	return map[string]any{"format": reasoning.ExchangeFormat, "version": reasoning.ExchangeVersion,
		"session":  map[string]any{"id": "doc", "activeBranch": "main", "stepCount": n, "currentThoughtId": parent},
		"branches": []map[string]any{{"id": "main", "state": "active", "priority": 1}},
		"thoughts": ths}
}

// nested is JSON of arrays nested depth deep, the innermost holding n
// numbers.
func nested(depth, n int) json.RawMessage {
	inner := "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]"
	return json.RawMessage(strings.Repeat("[1,", depth-1) + inner + strings.Repeat("]", depth-1))
}

// Case 1 of issue 38: metadata nested beyond MaxMetadataDepth is refused
// at import, naming the field; metadata nested as deep as allowed exports
// (the viewer's download and the /json resource) within 10 times the
// bytes the session stores, where indenting every level made it 35 times.
func TestNestedMetadataExportsInProportion(t *testing.T) {
	svc := semanticService(t)
	url, tokens := costServer(t, svc, mcpserver.Options{}, Options{})
	cs := mcpClient(t, url, tokens["alice"])
	text := func(i int) string { return fmt.Sprintf("Thought %d on the cache.", i) }

	_, msg := importDoc(t, cs, chainDoc(10, text, nested(reasoning.MaxMetadataDepth+1, 1)))
	if !strings.Contains(msg, "data.thoughts[0].metadata") || !strings.Contains(msg, fmt.Sprint(reasoning.MaxMetadataDepth)) {
		t.Fatalf("metadata nested %d deep: %q, want a ValidationError naming data.thoughts[0].metadata and the bound", reasoning.MaxMetadataDepth+1, msg)
	}
	id, msg := importDoc(t, cs, chainDoc(100, text, nested(reasoning.MaxMetadataDepth, 3000)))
	if msg != "" {
		t.Fatal(msg)
	}
	var size thinkgraph.SessionSize
	err := svc.View(context.Background(), reasoning.SessionRef{ID: id, Explicit: true, Tenant: "alice"}, func(tx thinkgraph.Tx, s *thinkgraph.Session) error {
		var err error
		size, err = tx.SessionSize(context.Background(), s.Key)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	code, _, export := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/"+id+"/export/json")
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/" + id + "/json"})
	if err != nil || code != 200 {
		t.Fatalf("export %d, resource %v", code, err)
	}
	t.Logf("stored %d bytes; export %d bytes (%.2f×), resource %d", size.Bytes, len(export), float64(len(export))/float64(size.Bytes), len(res.Contents[0].Text))
	for what, n := range map[string]int{"the JSON download": len(export), "the /json resource": len(res.Contents[0].Text)} {
		if int64(n) > 10*size.Bytes {
			t.Errorf("%s is %d bytes, more than 10 times the %d bytes stored", what, n, size.Bytes)
		}
	}
	var doc reasoning.Exchange
	if err := json.Unmarshal([]byte(export), &doc); err != nil || len(doc.Thoughts) != 100 {
		t.Fatalf("the export: %v", err)
	}
	var meta bytes.Buffer
	if err := json.Compact(&meta, doc.Thoughts[0].Metadata); err != nil || meta.String() != string(nested(reasoning.MaxMetadataDepth, 3000)) {
		t.Fatalf("the export does not give the metadata back: %v %.100s", err, meta.String())
	}
}
