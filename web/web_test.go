package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	thinklog "github.com/thinkgraph/thinkgraph/reasoning/think"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// semanticService is a service on a real SQLite file with the semantic
// engine on the offline lexical embedder, closed when t ends.
func semanticService(t *testing.T) *reasoning.Service {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "v.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := reasoning.New(store, reasoning.Config{})
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc
}

// newTestViewer serves the viewer behind bearer tokens "tok-a" (tenant a)
// and "tok-b" (tenant b) on a real SQLite file, with the semantic engine.
func newTestViewer(t *testing.T) (*httptest.Server, *reasoning.Service) {
	t.Helper()
	svc := semanticService(t)
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		if tenant, ok := strings.CutPrefix(tok, "tok-"); ok {
			return &auth.TokenInfo{UserID: tenant, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	h := auth.RequireBearerToken(verify, nil)(New(svc, Options{Poll: 50 * time.Millisecond}))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, svc
}

func think(t *testing.T, svc *reasoning.Service, tenant, session, text string, conf float64) {
	t.Helper()
	if _, err := thinklog.New(svc).Think(context.Background(), thinklog.Input{Session: reasoning.SessionRef{ID: session, Explicit: true, Tenant: tenant},
		Thought: text, Confidence: &conf}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, srv *httptest.Server, token, path string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

func TestViewerEscapesUserText(t *testing.T) {
	srv, svc := newTestViewer(t)
	ctx := context.Background()
	evil := `<script>alert("x")</script> & "quotes" 'single' ` + "`tick`\n</svg><img src=x onerror=alert(1)>"
	think(t, svc, "a", "evil-1", evil, 0.3)
	think(t, svc, "a", "evil-1", "The cache is fast", 0.9)
	think(t, svc, "a", "evil-1", "The cache is not fast", 0.8)
	if err := svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		s, err := tx.LockSession(ctx, "a", "evil-1")
		if err != nil {
			return err
		}
		s.Goal = `<script>goal()</script>`
		return tx.UpdateSession(ctx, s)
	}); err != nil {
		t.Fatal(err)
	}

	code, hdr, page := get(t, srv, "tok-a", "/sessions/evil-1")
	if code != 200 || !strings.Contains(hdr.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("%d %v", code, hdr)
	}
	for _, bad := range []string{"<script>alert", "<script>goal", "<img src=x", "</svg><img"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains raw %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;goal()&lt;/script&gt;", "&lt;script&gt;alert(", `class="node on-path current`, `class="contradiction"`,
		`<script type="application/json" id="tg-data">`, `\u003cscript\u003ealert(\"x\")`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The only script elements are the viewer's and the data block.
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d script elements", n)
	}
	code, _, list := get(t, srv, "tok-a", "/")
	if code != 200 || !strings.Contains(list, `<a href="/sessions/evil-1">evil-1</a>`) || strings.Contains(list, "<script>goal") ||
		!strings.Contains(list, "&lt;script&gt;goal()&lt;/script&gt;") {
		t.Errorf("list: %d\n%s", code, list)
	}
	code, _, js := get(t, srv, "tok-a", "/sessions/evil-1/graph")
	var p struct {
		Steps          int    `json:"steps"`
		SVG            string `json:"svg"`
		Contradictions int    `json:"contradictions"`
		Data           struct {
			Thoughts []json.RawMessage `json:"thoughts"`
		} `json:"data"`
		Bands []string `json:"bands"`
	}
	if code != 200 || json.Unmarshal([]byte(js), &p) != nil || p.Steps != 3 || len(p.Data.Thoughts) != 3 || len(p.Bands) != 1 || p.Contradictions != 1 ||
		strings.Contains(p.SVG, "<script") || strings.Contains(js, "<script") {
		t.Errorf("graph: %d %+v", code, p)
	}
	code, hdr, md := get(t, srv, "tok-a", "/sessions/evil-1/export/markdown")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Disposition"), "attachment") || !strings.Contains(md, "&lt;script&gt;alert") {
		t.Errorf("export: %d %v", code, hdr)
	}
	if code, _, _ := get(t, srv, "tok-a", "/sessions/evil-1/export/json"); code != 200 {
		t.Errorf("export json: %d", code)
	}
	if code, hdr, _ := get(t, srv, "tok-a", "/assets/viewer.js"); code != 200 || !strings.Contains(hdr.Get("Content-Type"), "javascript") {
		t.Errorf("asset: %d %v", code, hdr)
	}
	// The assets are files: no directory is listed.
	for _, p := range []string{"/assets/", "/assets", "/assets/.", "/assets/nothing.js", "/assets/%2e%2e/web.go"} {
		if code, _, body := get(t, srv, "tok-a", p); code != http.StatusNotFound || strings.Contains(body, "viewer.js") {
			t.Errorf("GET %s: %d %.200s, want 404 without a listing", p, code, body)
		}
	}
}

func TestViewerTenancy(t *testing.T) {
	srv, svc := newTestViewer(t)
	think(t, svc, "a", "mine-1", "tenant a's thought", 0.9)
	think(t, svc, "b", "theirs-1", "tenant b's secret", 0.9)
	_, _, list := get(t, srv, "tok-a", "/")
	if !strings.Contains(list, "mine-1") || strings.Contains(list, "theirs-1") {
		t.Errorf("list of a: %s", list)
	}
	for _, path := range []string{"/sessions/theirs-1", "/sessions/theirs-1/graph", "/sessions/theirs-1/events", "/sessions/theirs-1/export/json", "/sessions/nope"} {
		if code, _, body := get(t, srv, "tok-a", path); code != 404 || strings.Contains(body, "secret") {
			t.Errorf("%s as a: %d %s", path, code, body)
		}
	}
	if code, _, _ := get(t, srv, "tok-b", "/sessions/theirs-1"); code != 200 {
		t.Errorf("b's own session: %d", code)
	}
	if code, _, _ := get(t, srv, "bad", "/"); code != 401 {
		t.Errorf("bad token: %d", code)
	}
}

func TestViewerSearchAndSort(t *testing.T) {
	srv, svc := newTestViewer(t)
	think(t, svc, "a", "alpha", "one", 0.9)
	think(t, svc, "a", "beta", "one", 0.9)
	think(t, svc, "a", "beta", "two", 0.9)
	think(t, svc, "a", "gamma", "one", 0.9)
	order := func(body string) string {
		var ids []string
		for _, id := range []string{"alpha", "beta", "gamma"} {
			if i := strings.Index(body, `data-id="`+id+`"`); i >= 0 {
				ids = append(ids, fmt.Sprintf("%06d%s", i, id))
			}
		}
		out := ""
		for len(ids) > 0 {
			m := 0
			for i := range ids {
				if ids[i] < ids[m] {
					m = i
				}
			}
			out += ids[m][6:] + " "
			ids = append(ids[:m], ids[m+1:]...)
		}
		return strings.TrimSpace(out)
	}
	if _, _, b := get(t, srv, "tok-a", "/"); order(b) != "gamma beta alpha" {
		t.Errorf("by recency: %s", order(b))
	}
	if _, _, b := get(t, srv, "tok-a", "/?sort=steps"); order(b) != "beta gamma alpha" {
		t.Errorf("by steps: %s", order(b))
	}
	if _, _, b := get(t, srv, "tok-a", "/?q=ALP"); order(b) != "alpha" {
		t.Errorf("search: %s", order(b))
	}
}

// TestViewerEventsOnNewThought: the event stream reports a new thought
// within a second.
func TestViewerEventsOnNewThought(t *testing.T) {
	srv, svc := newTestViewer(t)
	think(t, svc, "a", "live-1", "first", 0.9)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/sessions/live-1/events", nil)
	req.Header.Set("Authorization", "Bearer tok-a")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	events := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(res.Body)
		var ev string
		for sc.Scan() {
			line := sc.Text()
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				ev = e
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				events <- ev + " " + d
			}
		}
		close(events)
	}()
	if e := <-events; !strings.HasPrefix(e, `version {"steps":1,`) {
		t.Fatalf("first event %q", e)
	}
	start := time.Now()
	think(t, svc, "a", "live-1", "second", 0.9)
	select {
	case e := <-events:
		if !strings.HasPrefix(e, `change {"steps":2,`) {
			t.Fatalf("event %q", e)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("change seen after %v", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no change event")
	}
}

// The panel's overview: the goal, branches with their evaluation, what the
// analyses found and the unexplored alternatives, in the graph document.
func TestViewerOverview(t *testing.T) {
	srv, svc := newTestViewer(t)
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: "ov", Explicit: true, Tenant: "a"}
	bt := branching.NewBranchThinking(svc, nil)
	goal := "Pick a <session> store"
	if _, err := bt.Command(ctx, branching.CommandInput{Session: ref, Type: "setGoal", Goal: &goal}); err != nil {
		t.Fatal(err)
	}
	for _, th := range []branching.BranchThoughtInput{
		{Content: "The cache is fast", Type: "analysis"},
		{Content: "The cache is not fast", Type: "critique"},
		{Content: "Use PostgreSQL", Type: "hypothesis", BranchID: "pg"},
	} {
		th.Session = ref
		if _, err := bt.AddThought(ctx, th); err != nil {
			t.Fatal(err)
		}
	}
	code, _, body := get(t, srv, "tok-a", "/sessions/ov/graph")
	if code != 200 {
		t.Fatal(code, body)
	}
	var doc struct {
		Data struct {
			Overview overview `json:"overview"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	ov := doc.Data.Overview
	if ov.Goal != "Pick a <session> store" || len(ov.Branches) != 2 || ov.Branches[0].ID != "main" || ov.Branches[0].Thoughts != 2 {
		t.Errorf("overview: %+v", ov)
	}
	if len(ov.Contradictions) != 1 || fmt.Sprint(ov.Contradictions[0].Steps) != "[1 2]" {
		t.Errorf("contradictions: %+v", ov.Contradictions)
	}
	if _, _, page := get(t, srv, "tok-a", "/sessions/ov"); !strings.Contains(page, `id="tg-overview"`) || strings.Contains(page, "<session>") {
		t.Error("the page has no overview, or raw user text")
	}
}
