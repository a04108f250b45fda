package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/think"
	"github.com/thinkgraph/thinkgraph/render"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// connectWith opens a client connection with options (notification
// handlers).
func (e *testEnv) connectWith(opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	e.t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func read(t *testing.T, cs *mcp.ClientSession, uri string) *mcp.ResourceContents {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return res.Contents[0]
}

func TestSessionResources(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	mustCall(t, cs, "think", map[string]any{"thought": "Cache <script>alert(1)</script>", "session_id": "res-1", "confidence": 0.9})
	mustCall(t, cs, "think", map[string]any{"thought": "Then \"measure\"", "session_id": "res-1", "confidence": 0.4})
	// Another tenant's session is neither listed nor readable.
	if _, err := think.New(e.srv.svc).Think(context.Background(), think.Input{Session: reasoning.SessionRef{ID: "other-1", Explicit: true, Tenant: "acme"}, Thought: "secret"}); err != nil {
		t.Fatal(err)
	}

	list := read(t, cs, "thinkgraph://sessions")
	var l struct {
		Sessions []sessionListEntry `json:"sessions"`
		Count    int                `json:"count"`
	}
	if err := json.Unmarshal([]byte(list.Text), &l); err != nil || l.Count != 1 || l.Sessions[0].ID != "res-1" ||
		l.Sessions[0].Steps != 2 || l.Sessions[0].URI != "thinkgraph://sessions/res-1" {
		t.Fatalf("list: %v %s", err, list.Text)
	}

	ov := read(t, cs, "thinkgraph://sessions/res-1")
	var o render.SessionOverview
	if err := json.Unmarshal([]byte(ov.Text), &o); err != nil || o.Steps != 2 || len(o.CurrentPath) != 2 || o.CurrentPath[1].Thought != "Then \"measure\"" ||
		o.Resources["markdown"] != "thinkgraph://sessions/res-1/markdown" || ov.MIMEType != "application/json" {
		t.Fatalf("overview: %v %s", err, ov.Text)
	}
	md := read(t, cs, "thinkgraph://sessions/res-1/markdown")
	if md.MIMEType != "text/markdown" || !strings.Contains(md.Text, "# Reasoning session res-1") ||
		!strings.Contains(md.Text, "Cache &lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(md.Text, "Not analysed: the semantic engine is not enabled") {
		t.Fatalf("markdown: %s", md.Text)
	}
	mm := read(t, cs, "thinkgraph://sessions/res-1/mermaid")
	if !strings.HasPrefix(mm.Text, "flowchart TD\n") || !strings.Contains(mm.Text, "t1 ==> t2") || strings.Contains(mm.Text, "<script>") {
		t.Fatalf("mermaid: %s", mm.Text)
	}
	js := read(t, cs, "thinkgraph://sessions/res-1/json")
	var doc reasoning.Exchange
	if err := json.Unmarshal([]byte(js.Text), &doc); err != nil || doc.Format != reasoning.ExchangeFormat || len(doc.Thoughts) != 2 {
		t.Fatalf("json: %v %s", err, js.Text)
	}
	// The think tool's templates still work.
	if c := read(t, cs, "thinkgraph://sessions/res-1/context"); !strings.HasPrefix(c.Text, "Previous thoughts in this session:") {
		t.Fatalf("context: %s", c.Text)
	}
	// Session ids may hold ':' and '@', as such or percent-encoded.
	mustCall(t, cs, "think", map[string]any{"thought": "y", "session_id": "wf:a@b.c"})
	for _, uri := range []string{"thinkgraph://sessions/wf:a@b.c", "thinkgraph://sessions/wf:a@b.c/markdown", "thinkgraph://sessions/wf%3Aa%40b.c/context"} {
		if c := read(t, cs, uri); !strings.Contains(c.Text, "wf:a@b.c") && !strings.Contains(c.Text, "Step 1") {
			t.Errorf("%s: %s", uri, c.Text)
		}
	}
	for _, uri := range []string{"thinkgraph://sessions/other-1", "thinkgraph://sessions/other-1/markdown", "thinkgraph://sessions/missing/json",
		"thinkgraph://sessions/res-1/nope"} {
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s: want not found", uri)
		}
	}

	// Completion offers the caller's sessions only.
	mustCall(t, cs, "think", map[string]any{"thought": "x", "session_id": "res-2"})
	for _, ref := range []*mcp.CompleteReference{{Type: "ref/resource", URI: "thinkgraph://sessions/{+session_id}/markdown"}, {Type: "ref/prompt", Name: "review-reasoning"}} {
		c, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "session_id", Value: "res"}})
		if err != nil || strings.Join(c.Completion.Values, ",") != "res-2,res-1" || c.Completion.Total != 2 {
			t.Errorf("complete: %v %+v", err, c)
		}
	}
	c, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "review-reasoning"},
		Argument: mcp.CompleteParamsArgument{Name: "session_id", Value: "oth"}})
	if err != nil || len(c.Completion.Values) != 0 {
		t.Errorf("complete other tenant: %v %+v", err, c)
	}
}

// TestResourceSubscriptionsLoggingAndProgress runs on the protocol before
// 2026-07-28 (resources/subscribe, logging/setLevel) and on 2026-07-28
// (subscriptions/listen, the log level in each request's _meta).
func TestResourceSubscriptionsLoggingAndProgress(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) { testSubscriptions(t, version) })
	}
}

func testSubscriptions(t *testing.T, version string) {
	e := newTestEnv(t)
	var mu sync.Mutex
	var updated []string
	var logs []*mcp.LoggingMessageParams
	var progress []*mcp.ProgressNotificationParams
	got := make(chan struct{}, 64)
	cs := e.connectWith(&mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			updated = append(updated, r.Params.URI)
			mu.Unlock()
			got <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, r.Params)
			mu.Unlock()
			got <- struct{}{}
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params)
			mu.Unlock()
			got <- struct{}{}
		},
	}, version)
	ctx := context.Background()
	mustCall(t, cs, "think", map[string]any{"thought": "first", "session_id": "sub-1"})
	if _, err := think.New(e.srv.svc).Think(ctx, think.Input{Session: reasoning.SessionRef{ID: "other-2", Explicit: true, Tenant: "acme"}, Thought: "secret"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "thinkgraph://sessions/sub-1/markdown"}); err != nil {
		t.Fatal(err)
	}
	// Under 2026-07-28 the subscription runs in the background, so ask the
	// handler directly too.
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "thinkgraph://sessions/other-2"}); err == nil && version != "" {
		t.Error("subscribed to another tenant's session")
	}
	if err := e.srv.subscribe(ctx, &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: "thinkgraph://sessions/other-2"}}); err == nil {
		t.Error("subscribe handler accepted another tenant's session")
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			mu.Lock()
			done := ok()
			mu.Unlock()
			if done {
				return
			}
			select {
			case <-got:
			case <-deadline:
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	// A read-only call changes nothing: no notification.
	mustCall(t, cs, "show_current_path", map[string]any{"session_id": "sub-1"})
	if version == "" {
		// The listen stream is set up in the background.
		time.Sleep(100 * time.Millisecond)
	}
	mustCall(t, cs, "think", map[string]any{"thought": "second", "session_id": "sub-1"})
	wait("resource updated", func() bool { return len(updated) > 0 })
	mu.Lock()
	if len(updated) != 1 || updated[0] != "thinkgraph://sessions/sub-1/markdown" {
		t.Errorf("updated: %v", updated)
	}
	if len(logs) != 0 {
		t.Errorf("logs before setLevel: %v", logs)
	}
	mu.Unlock()

	var meta mcp.Meta
	if version == "" {
		meta = mcp.Meta{mcp.MetaKeyLogLevel: "warning"}
	} else if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	// info (below warning), then a tool error (warning).
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "think", Arguments: map[string]any{"thought": "third", "session_id": "sub-1"}}); err != nil {
		t.Fatal(err)
	}
	if r, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "think", Arguments: map[string]any{"thought": "", "session_id": "sub-1"}}); err != nil || !r.IsError {
		t.Fatal(err)
	}
	wait("a warning", func() bool { return len(logs) > 0 })
	mu.Lock()
	if len(logs) != 1 || logs[0].Level != "warning" || logs[0].Logger != "thinkgraph" {
		t.Errorf("logs: %+v", logs)
	}
	mu.Unlock()

	p := &mcp.ReadResourceParams{URI: "thinkgraph://sessions/sub-1/mermaid"}
	p.SetProgressToken("tok-1")
	if _, err := cs.ReadResource(ctx, p); err != nil {
		t.Fatal(err)
	}
	wait("progress", func() bool { return len(progress) >= 2 })
	mu.Lock()
	if progress[0].ProgressToken != "tok-1" || progress[0].Progress != 1 || progress[1].Progress != 2 || progress[1].Total != 2 {
		t.Errorf("progress: %+v %+v", progress[0], progress[1])
	}
	mu.Unlock()
}

func TestPrompts(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	ctx := context.Background()
	lp, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range lp.Prompts {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "debate,explore-alternatives,review-reasoning,think-step-by-step" {
		t.Errorf("prompts: %v", names)
	}
	text := func(r *mcp.GetPromptResult) string { return r.Messages[0].Content.(*mcp.TextContent).Text }
	r, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "think-step-by-step", Arguments: map[string]string{"problem": "Why is the sky blue?", "session_id": "p-1"}})
	if err != nil || !strings.Contains(text(r), "<<<\nWhy is the sky blue?\n>>>") || !strings.Contains(text(r), `"session_id": "p-1"`) {
		t.Fatalf("think-step-by-step: %v %v", err, r)
	}
	r, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explore-alternatives", Arguments: map[string]string{"problem": "Pick a database", "alternatives": "9"}})
	if err != nil || !strings.Contains(text(r), "write 5 distinct alternatives") || !strings.Contains(text(r), "get_unexplored_branches") {
		t.Fatalf("explore-alternatives: %v %v", err, r)
	}
	r, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "debate", Arguments: map[string]string{"question": "Monolith or services?", "thesis": "Monolith"}})
	if err != nil || !strings.Contains(text(r), "Thesis:\n<<<\nMonolith\n>>>") || !strings.Contains(text(r), "synthesizeDialectical") {
		t.Fatalf("debate: %v %v", err, r)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "debate", Arguments: map[string]string{}}); err == nil {
		t.Error("debate without a question")
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review-reasoning", Arguments: map[string]string{"session_id": "nope"}}); err == nil {
		t.Error("review of a missing session")
	}
	mustCall(t, cs, "think", map[string]any{"thought": "The cache is fast", "session_id": "p-2"})
	r, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review-reasoning", Arguments: map[string]string{"session_id": "p-2"}})
	if err != nil || len(r.Messages) != 2 {
		t.Fatalf("review-reasoning: %v %v", err, r)
	}
	res := r.Messages[1].Content.(*mcp.EmbeddedResource).Resource
	if res.URI != "thinkgraph://sessions/p-2/markdown" || !strings.Contains(res.Text, "The cache is fast") || !strings.Contains(text(r), "findContradictions") {
		t.Errorf("review-reasoning: %+v", res)
	}
}

// TestToolCallHeartbeat: a tool call that asked for progress hears every
// second that it is still running.
func TestToolCallHeartbeat(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a second")
	}
	e := newTestEnv(t)
	got := make(chan *mcp.ProgressNotificationParams, 4)
	e.connectWith(&mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		got <- r.Params
	}}, "2025-11-25")
	var ss *mcp.ServerSession
	for s := range e.srv.MCP().Sessions() {
		ss = s
	}
	stop := e.srv.heartbeat(context.Background(), ss, "hb-1", "reasoning_tree")
	select {
	case p := <-got:
		if p.ProgressToken != "hb-1" || p.Progress != 1 || p.Message != "reasoning_tree running for 1 s" {
			t.Errorf("progress %+v", p)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no heartbeat")
	}
	stop()
	if stop := e.srv.heartbeat(context.Background(), ss, nil, "think"); stop == nil {
		t.Fatal("nil stop")
	}
}

// A subscriber hears of changes that another process makes to the same
// database, without any call on its own connection: two servers on one
// SQLite file stand for two `thinkgraph serve` processes.
func TestSubscriptionSeesOtherProcessWrites(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shared.db")
			open := func() *testEnv {
				store, err := sqlite.Open(context.Background(), path, sqlite.Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { store.Close() })
				return &testEnv{t: t, store: store, srv: New(reasoning.New(store, reasoning.Config{}), Options{Version: "test"})}
			}
			watcher, writer := open(), open()
			watcher.srv.res.poll = 20 * time.Millisecond
			updated := make(chan string, 16)
			cs := watcher.connectWith(&mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
				updated <- r.Params.URI
			}}, version)
			other := writer.connect()
			mustCall(t, other, "think", map[string]any{"thought": "first", "session_id": "shared"})
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "thinkgraph://sessions/shared"}); err != nil {
				t.Fatal(err)
			}
			// The subscription is in place when the watcher runs.
			deadline := time.Now().Add(5 * time.Second)
			for {
				watcher.srv.res.mu.Lock()
				running := watcher.srv.res.stopWatch != nil
				watcher.srv.res.mu.Unlock()
				if running {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no watcher after subscribing")
				}
				time.Sleep(5 * time.Millisecond)
			}
			select {
			case uri := <-updated:
				t.Fatalf("notified of %s before any change", uri)
			case <-time.After(100 * time.Millisecond):
			}
			mustCall(t, other, "think", map[string]any{"thought": "second, from the other process", "session_id": "shared"})
			select {
			case uri := <-updated:
				if uri != "thinkgraph://sessions/shared" {
					t.Fatalf("updated %s", uri)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the subscriber never heard of the other process's write")
			}
			// Closing the connection ends its subscriptions and the watcher.
			cs.Close()
			deadline = time.Now().Add(5 * time.Second)
			for {
				watcher.srv.res.mu.Lock()
				running, n := watcher.srv.res.stopWatch != nil, len(watcher.srv.res.subs)
				watcher.srv.res.mu.Unlock()
				if !running && n == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after close: watcher running %v, %d watched sessions", running, n)
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}
