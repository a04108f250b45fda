package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// importSession stores a session of n thoughts (one branch, each thought a
// child of the one before) as tenant's session id.
func importSession(t *testing.T, svc *reasoning.Service, tenant, id string, n int) reasoning.SessionRef {
	t.Helper()
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	doc := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion,
		Session:  reasoning.ExchangeSession{ID: id, ActiveBranch: "main", StepCount: n, CreatedAt: at, UpdatedAt: at},
		Branches: []reasoning.ExchangeBranch{{ID: "main", State: "active", Priority: 1}}}
	parent := ""
	for i := 1; i <= n; i++ {
		tid := fmt.Sprintf("%s-%d", id, i)
		doc.Thoughts = append(doc.Thoughts, reasoning.ExchangeThought{ID: tid, Step: i, BranchID: "main", ParentID: parent,
			Content: fmt.Sprintf("Step %d: the queue holds %d jobs at peak.", i, i*7%900), CreatedAt: at})
		parent = tid
	}
	doc.Session.CurrentThoughtID = parent
	if _, err := svc.RestoreSession(context.Background(), doc, tenant); err != nil {
		t.Fatal(err)
	}
	return reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenant}
}

// Over the real HTTP server, with the viewer and MCP sharing one render
// limiter: a session above MaxAnalysed is exported with a note instead of
// the analyses; the /svg resource draws its latest MaxDrawn thoughts and
// says so; while a tenant's heavy render runs, that tenant's next one is
// refused as busy (503 with Retry-After from the viewer, an error naming
// the bound from MCP) and another tenant's is served, until both slots in
// all are taken; once they are given back, the same requests are served.
func TestLargeSessionRendersBounded(t *testing.T) {
	svc := semanticService(t)
	alice := importSession(t, svc, "alice", "big", render.HeavyThoughts+200)
	bob := importSession(t, svc, "bob", "big", render.HeavyThoughts+10)
	carol := importSession(t, svc, "carol", "big", render.HeavyThoughts+10)
	lim := &render.Limiter{Wait: 200 * time.Millisecond}
	url, tokens := costServer(t, svc, mcpserver.Options{MaxAnalysed: 500, MaxDrawn: 100, Limiter: lim}, Options{MaxAnalysed: 500}, "carol")
	srv := &httptest.Server{URL: url}
	download := func(tenant, format string) (int, http.Header, string) {
		t.Helper()
		return get(t, srv, tokens[tenant], "/sessions/big/export/"+format)
	}
	aliceMCP := mcpClient(t, url, tokens["alice"])
	read := func(view string) (string, error) {
		res, err := aliceMCP.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/big/" + view})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}

	// Too large to analyse: said, not silently left out.
	code, _, md := download("alice", "markdown")
	if code != 200 || !strings.Contains(md, "Not analysed: the session has 1200 thoughts, more than the 500 analysed") {
		t.Fatalf("markdown export of 1,200 thoughts: %d %.300s", code, md)
	}
	if text, err := read("markdown"); err != nil || !strings.Contains(text, "more than the 500 analysed") {
		t.Fatalf("markdown resource: %v %.300s", err, text)
	}
	// The drawing of the resource: the latest 100 thoughts.
	svg, err := read("svg")
	if err != nil || !strings.Contains(svg, "The latest 100 of 1200 thoughts (steps 1101–1200)") || strings.Count(svg, `data-step="`) != 100 {
		t.Fatalf("svg resource: %v, %d nodes, %.300s", err, strings.Count(svg, `data-step="`), svg)
	}
	// The download draws them all.
	if code, _, all := download("alice", "svg"); code != 200 || strings.Count(all, `data-step="`) != 1200 {
		t.Fatalf("svg export: %d, %d nodes", code, strings.Count(all, `data-step="`))
	}

	// alice's slot taken: alice is busy, bob is served.
	loader := &render.Loader{Svc: svc, Limiter: lim}
	releaseAlice, err := loader.Heavy(context.Background(), alice, false)
	if err != nil {
		t.Fatal(err)
	}
	code, hdr, body := download("alice", "json")
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(body, "busy") {
		t.Errorf("alice's export while her render runs: %d %q %s", code, hdr.Get("Retry-After"), body)
	}
	if _, err := read("mermaid"); err == nil || !strings.Contains(err.Error(), "busy") || !strings.Contains(err.Error(), "1 per tenant") {
		t.Errorf("alice's resource while her render runs: %v", err)
	}
	if code, _, _ := download("bob", "mermaid"); code != 200 {
		t.Errorf("bob's export while alice's render runs: %d", code)
	}
	// bob's slot taken too: both in all; carol is busy.
	releaseBob, err := loader.Heavy(context.Background(), bob, false)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, body := download("carol", "dot"); code != http.StatusServiceUnavailable || !strings.Contains(body, "2 in all") {
		t.Errorf("carol's export with both slots taken: %d %s", code, body)
	}
	releaseAlice()
	releaseBob()
	for _, tenant := range []string{"alice", "carol"} {
		if code, _, body := download(tenant, "json"); code != 200 || !strings.Contains(body, `"format": "thinkgraph.session"`) {
			t.Errorf("%s's export once the slots are free: %d %.200s", tenant, code, body)
		}
	}
	_ = carol
}
