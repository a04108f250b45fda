package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

const (
	sessionsURI      = "thinkgraph://sessions"
	sessionURIPrefix = sessionsURI + "/"
)

// sessionViews are the representations of a session served as resources,
// by the suffix of their URI ("" is the session overview).
var sessionViews = []struct {
	suffix, name, title, mime, desc string
}{
	{"", "session", "A reasoning session", "application/json",
		"Overview of a session: goal, mode, branches with their thought counts, the path to the current thought, unexplored alternatives, the feedback people gave in the viewer (human_feedback, refuted_thoughts), and the URIs of the other views."},
	{"markdown", "session-markdown", "Session report (Markdown)", "text/markdown",
		"The session as a report: goal, branches, every thought with its confidence, cross-references, contradictions and circular reasoning found, and branch evaluations."},
	{"mermaid", "session-mermaid", "Session graph (Mermaid)", "text/vnd.mermaid",
		"The thought graph as a Mermaid flowchart: branches as subgraphs, the current path in thick edges, contradictions in red, cross-references labelled."},
	{"svg", "session-svg", "Session graph (SVG)", "image/svg+xml",
		"The thought graph drawn as the viewer draws it (what the graph app shows): branches as columns, confidence as colour, contradictions marked."},
	{"json", "session-json", "Session export (JSON)", "application/json",
		"The lossless, versioned exchange document of the session (what branch-thinking's export returns and its import reads)."},
	{"context", "session-context", "Think log of a session", "text/plain",
		"The session's think log as the think tool formats it (\"Previous thoughts in this session:\" then \"Step N (timestamp):\" and the thought), followed by its summary."},
	{"summary", "session-summary", "Summary of a session", "application/json",
		"JSON summary of a session: session_id, total_steps, context_size, created_at, last_updated, human_feedback (counts by kind, undelivered, refuted_thoughts)."},
}

// resourceState is what the resource surface keeps: the session loader and
// the subscriptions, by session id, so tool calls notify only sessions
// somebody is watching.
type resourceState struct {
	once   sync.Once
	loader *render.Loader

	mu sync.Mutex
	// subs counts the subscriptions to each watched session, per MCP
	// session (whose subscriptions end when it closes).
	subs map[watchKey]map[*mcp.ServerSession]int
	// seen is the last version of each watched session that subscribers
	// were told about.
	seen map[watchKey]sessionVersion
	// stopWatch stops the watcher; nil while nothing is watched.
	stopWatch chan struct{}
	// poll is how often the watcher reads the watched sessions
	// (watchInterval unless a test sets it).
	poll time.Duration
	// pending are the URIs whose notifications/resources/updated are
	// waiting to be sent, in order, each once however often it changed
	// meanwhile; sending is set while a goroutine sends them.
	pending []string
	sending bool
}

// watchKey names a watched session: session ids are per tenant.
type watchKey struct{ tenant, id string }

// watchInterval is how often watched sessions are checked for changes
// made outside this process's tool calls (another process on the same
// database, another replica), so that subscribers hear of them within
// about a second.
const watchInterval = time.Second

type sessionVersion struct {
	steps   int
	updated time.Time
}

func (s *Server) renderLoader() *render.Loader {
	s.res.once.Do(func() {
		l := render.NewLoader(s.svc, s.opts.Analyst)
		l.MaxAnalysed, l.Limiter = s.opts.MaxAnalysed, s.opts.Limiter
		if l.MaxAnalysed == 0 {
			l.MaxAnalysed = render.DefaultMaxAnalysed
		}
		l.MaxAnalysed = max(l.MaxAnalysed, 0)
		if l.MaxAnalysed > 0 {
			l.MaxAnalysedLongText = render.DefaultMaxAnalysedLongText
		}
		s.res.loader = l
	})
	return s.res.loader
}

// drawn bounds a drawing to the latest Options.MaxDrawn thoughts.
func (s *Server) drawn(g *render.Graph) *render.Graph {
	n := s.opts.MaxDrawn
	if n == 0 {
		n = render.DefaultMaxDrawn
	}
	return g.Latest(n)
}

// codeBusy is the JSON-RPC error code of a resource read refused by the
// render Limiter (a BusyError): a server error code of JSON-RPC 2.0.
const codeBusy = -32010

// resourceError is the error of a resource read: not found for a session
// that does not exist (or is another tenant's), busy for a BusyError.
func resourceError(uri string, err error) error {
	switch te := thinkgraph.AsError(err); te.Code {
	case thinkgraph.CodeSessionNotFound, thinkgraph.CodeValidation:
		return mcp.ResourceNotFoundError(uri)
	case thinkgraph.CodeBusy:
		return &jsonrpc.Error{Code: codeBusy, Message: te.Message + ": " + strings.Join(te.Suggestions, "; ")}
	}
	return err
}

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		Name: "sessions", Title: "Reasoning sessions", URI: sessionsURI, MIMEType: "application/json",
		Description: "The caller's sessions, most recently updated first (at most 200): id, goal, mode, steps, timestamps and URI.",
	}, s.readSessions)
	// {+session_id}: session ids may hold ':' and '@', which a plain
	// {session_id} would only match percent-encoded. Every template has the
	// same handler, which parses the URI itself.
	for _, v := range sessionViews {
		uri := sessionURIPrefix + "{+session_id}"
		if v.suffix != "" {
			uri += "/" + v.suffix
		}
		s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
			Name: v.name, Title: v.title, URITemplate: uri, MIMEType: v.mime, Description: v.desc,
		}, s.readSession)
	}
	s.mcp.AddReceivingMiddleware(s.toolCallMiddleware)
}

// sessionListEntry is one session of thinkgraph://sessions.
type sessionListEntry struct {
	ID        string    `json:"session_id"`
	URI       string    `json:"uri"`
	Goal      string    `json:"goal,omitempty"`
	Mode      string    `json:"mode,omitempty"`
	Steps     int       `json:"total_steps"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"last_updated"`
}

func (s *Server) readSessions(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	list, err := s.tenantSessions(ctx, tenantOf(req.Extra), 200)
	if err != nil {
		return nil, err
	}
	out := make([]sessionListEntry, 0, len(list))
	for _, ss := range list {
		out = append(out, sessionListEntry{ID: ss.ID, URI: sessionURIPrefix + ss.ID, Goal: ss.Goal, Mode: ss.Mode, Steps: ss.StepCount,
			CreatedAt: ss.CreatedAt, UpdatedAt: ss.UpdatedAt})
	}
	b, err := json.MarshalIndent(map[string]any{"sessions": out, "count": len(out)}, "", "  ")
	if err != nil {
		return nil, err
	}
	return private(&mcp.ResourceContents{URI: sessionsURI, MIMEType: "application/json", Text: string(b)}), nil
}

// private is the result of reading a resource: every resource is one
// tenant's (its sessions), so only the caller's own client may cache it
// (the SDK would mark it public).
func private(contents ...*mcp.ResourceContents) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: contents, Cacheable: mcp.Cacheable{CacheScope: "private"}}
}

// tenantSessions lists the sessions of tenant, most recently updated first.
func (s *Server) tenantSessions(ctx context.Context, tenant string, limit int) ([]thinkgraph.Session, error) {
	var list []thinkgraph.Session
	err := s.svc.Store().View(ctx, func(tx thinkgraph.Tx) error {
		var err error
		list, err = tx.Sessions(ctx, thinkgraph.SessionFilter{Tenant: tenant, Limit: limit})
		return err
	})
	slices.SortStableFunc(list, func(a, b thinkgraph.Session) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	return list, err
}

// parseSessionURI splits thinkgraph://sessions/ID[/VIEW].
func parseSessionURI(uri string) (id, view string, ok bool) {
	rest, ok := strings.CutPrefix(uri, sessionURIPrefix)
	if !ok || rest == "" {
		return "", "", false
	}
	id, view, _ = strings.Cut(rest, "/")
	if u, err := url.PathUnescape(id); err == nil {
		id = u
	}
	for _, v := range sessionViews {
		if v.suffix == view {
			return id, view, reasoning.ValidateSessionID(id) == nil
		}
	}
	return "", "", false
}

func (s *Server) readSession(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, view, ok := parseSessionURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenantOf(req.Extra)}
	text := func(mime, body string) *mcp.ReadResourceResult {
		return private(&mcp.ResourceContents{URI: uri, MIMEType: mime, Text: body})
	}
	switch view {
	case "context", "summary":
		// They read every thought of a session with feedback.
		release, err := s.renderLoader().Heavy(ctx, ref, false)
		if err != nil {
			return nil, resourceError(uri, err)
		}
		defer release()
		return s.readContext(ctx, req, ref, view)
	case "json":
		var buf strings.Builder
		release, err := s.renderLoader().Heavy(ctx, ref, false)
		if err == nil {
			err = s.svc.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
				doc, err := reasoning.ExportSession(ctx, tx, sess, time.Now().UTC())
				if err != nil {
					return err
				}
				return reasoning.WriteExchange(&buf, doc)
			})
			release()
		}
		if err != nil {
			return nil, resourceError(uri, err)
		}
		return text("application/json", buf.String()), nil
	}
	progress := s.progressReporter(ctx, req.Session, req.Params.GetProgressToken(), 2)
	analyze := view == "markdown" || view == "svg"
	var buf strings.Builder
	var mime string
	err := s.renderLoader().Render(ctx, ref, analyze, func(g *render.Graph) error {
		progress(1, fmt.Sprintf("loaded %d thoughts", len(g.Thoughts)))
		switch view {
		case "markdown":
			mime = "text/markdown"
			return render.Markdown(&buf, g)
		case "mermaid":
			mime = "text/vnd.mermaid"
			return render.Mermaid(&buf, g)
		case "svg":
			mime = "image/svg+xml"
			return render.SVG(&buf, s.drawn(g))
		}
		mime = "application/json"
		views := map[string]string{}
		for _, v := range sessionViews[1:] {
			views[v.suffix] = sessionURIPrefix + g.Session.ID + "/" + v.suffix
		}
		return render.Overview(&buf, g, views)
	})
	if err != nil {
		return nil, resourceError(uri, err)
	}
	progress(2, "rendered")
	return text(mime, buf.String()), nil
}

// feedbackSummary counts a session's feedback for its summary resource.
type feedbackSummary struct {
	Refute      int      `json:"refute"`
	Confirm     int      `json:"confirm"`
	Comment     int      `json:"comment"`
	Undelivered int      `json:"undelivered"`
	Refuted     []string `json:"refuted_thoughts"`
}

func (s *Server) readContext(ctx context.Context, req *mcp.ReadResourceRequest, ref reasoning.SessionRef, kind string) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	w, err := s.svc.Context(ctx, ref)
	if err != nil {
		if te := thinkgraph.AsError(err); te.Code == thinkgraph.CodeSessionNotFound || te.Code == thinkgraph.CodeValidation {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, err
	}
	fs := feedbackSummary{Refuted: []string{}}
	err = s.svc.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		fb, err := tx.Feedback(ctx, sess.Key)
		if err != nil || len(fb) == 0 {
			return err
		}
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
		if err != nil {
			return err
		}
		for _, f := range fb {
			switch f.Kind {
			case thinkgraph.FeedbackRefute:
				fs.Refute++
			case thinkgraph.FeedbackConfirm:
				fs.Confirm++
			default:
				fs.Comment++
			}
			if f.DeliveredAt == nil {
				fs.Undelivered++
			}
		}
		fs.Refuted = render.RefutedIDs(fb, ths)
		return nil
	})
	if err != nil {
		return nil, err
	}
	summary, err := json.MarshalIndent(struct {
		reasoning.ContextSummary
		HumanFeedback feedbackSummary `json:"human_feedback"`
	}{w.Summary, fs}, "", "  ")
	if err != nil {
		return nil, err
	}
	if kind == "summary" {
		return private(&mcp.ResourceContents{URI: uri, MIMEType: "application/json", Text: string(summary)}), nil
	}
	return private(
		&mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: w.Formatted()},
		&mcp.ResourceContents{URI: sessionURIPrefix + ref.ID + "/summary", MIMEType: "application/json", Text: string(summary)},
	), nil
}

// complete offers the caller's session ids for the session_id argument of
// the resource templates and the prompts.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if p == nil || p.Argument.Name != "session_id" {
		return res, nil
	}
	list, err := s.tenantSessions(ctx, tenantOf(req.Extra), 0)
	if err != nil {
		return nil, err
	}
	const max = 100 // the protocol's cap on values
	for _, ss := range list {
		if strings.HasPrefix(ss.ID, p.Argument.Value) {
			res.Completion.Total++
			if len(res.Completion.Values) < max {
				res.Completion.Values = append(res.Completion.Values, ss.ID)
			}
		}
	}
	res.Completion.HasMore = res.Completion.Total > len(res.Completion.Values)
	return res, nil
}

// subscribe accepts subscriptions to the session list and to the views of
// the caller's sessions; another tenant's session does not exist.
func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if uri == sessionsURI {
		return nil
	}
	id, _, ok := parseSessionURI(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	// The server's own tenant, not tenantOf(req.Extra): a subscription
	// opened by subscriptions/listen (protocol 2026-07-28) arrives without
	// the listen request's Extra.
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: s.tenant}
	var v sessionVersion
	err := s.svc.View(ctx, ref, func(_ thinkgraph.Tx, sess *thinkgraph.Session) error {
		v = sessionVersion{sess.StepCount, sess.UpdatedAt}
		return nil
	})
	if err != nil {
		if te := thinkgraph.AsError(err); te.Code == thinkgraph.CodeSessionNotFound {
			return mcp.ResourceNotFoundError(uri)
		}
		return err
	}
	key := watchKey{ref.Tenant, id}
	s.res.mu.Lock()
	defer s.res.mu.Unlock()
	if s.res.subs == nil {
		s.res.subs, s.res.seen = map[watchKey]map[*mcp.ServerSession]int{}, map[watchKey]sessionVersion{}
	}
	if s.res.subs[key] == nil {
		s.res.subs[key] = map[*mcp.ServerSession]int{}
		s.res.seen[key] = v
	}
	if req.Session != nil && !s.res.subscriber(req.Session) {
		// The first subscription of this connection: drop all of its
		// subscriptions when it closes.
		go func(ss *mcp.ServerSession) {
			_ = ss.Wait()
			s.res.mu.Lock()
			for k, by := range s.res.subs {
				delete(by, ss)
				s.res.forget(k)
			}
			s.res.mu.Unlock()
		}(req.Session)
	}
	s.res.subs[key][req.Session]++
	if s.res.stopWatch == nil {
		s.res.stopWatch = make(chan struct{})
		go s.watch(s.res.stopWatch)
	}
	return nil
}

func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	id, _, ok := parseSessionURI(req.Params.URI)
	if !ok {
		return nil
	}
	key := watchKey{s.tenant, id}
	s.res.mu.Lock()
	defer s.res.mu.Unlock()
	if by := s.res.subs[key]; by[req.Session] > 0 {
		by[req.Session]--
		if by[req.Session] == 0 {
			delete(by, req.Session)
		}
		s.res.forget(key)
	}
	return nil
}

// subscriber reports whether ss holds a subscription. Call with mu held.
func (r *resourceState) subscriber(ss *mcp.ServerSession) bool {
	for _, by := range r.subs {
		if by[ss] > 0 {
			return true
		}
	}
	return false
}

// forget stops watching key when nobody subscribes to it any more, and
// stops the watcher when nothing is watched. Call with mu held.
func (r *resourceState) forget(key watchKey) {
	if len(r.subs[key]) > 0 {
		return
	}
	delete(r.subs, key)
	delete(r.seen, key)
	if len(r.subs) == 0 && r.stopWatch != nil {
		close(r.stopWatch)
		r.stopWatch = nil
	}
}

// watch checks the watched sessions every poll interval until stop is
// closed, notifying subscribers of changes made elsewhere.
func (s *Server) watch(stop chan struct{}) {
	s.res.mu.Lock()
	every := s.res.poll
	s.res.mu.Unlock()
	if every <= 0 {
		every = watchInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-stop
		cancel()
	}()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		s.res.mu.Lock()
		keys := make([]watchKey, 0, len(s.res.subs))
		for k := range s.res.subs {
			keys = append(keys, k)
		}
		s.res.mu.Unlock()
		for _, k := range keys {
			s.notifyIfChanged(ctx, reasoning.SessionRef{ID: k.id, Explicit: true, Tenant: k.tenant})
		}
	}
}

// toolCallMiddleware wraps every tools/call: it reports progress of calls
// that asked for it, sends a logging notification about the call (at the
// level the client set with logging/setLevel), and tells subscribers of
// the session the call touched (the tool's handler says which, addTool)
// when it changed.
func (s *Server) toolCallMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		start := time.Now()
		stop := s.heartbeat(ctx, call.Session, call.Params.GetProgressToken(), call.Params.Name)
		t := new(touched)
		res, err := next(context.WithValue(ctx, touchedKey{}, t), method, req)
		stop()
		tr, _ := res.(*mcp.CallToolResult)
		sessionID := ""
		if t.session != nil {
			sessionID = t.session.ID
		}
		s.logCall(ctx, call.Session, call.Params.Name, sessionID, tr, err, time.Since(start))
		if t.session != nil {
			s.notifyIfChanged(ctx, *t.session)
		}
		return res, err
	}
}

// notifyIfChanged sends notifications/resources/updated for every view of
// the session when it changed since subscribers were last told.
func (s *Server) notifyIfChanged(ctx context.Context, ref reasoning.SessionRef) {
	key := watchKey{ref.Tenant, ref.ID}
	s.res.mu.Lock()
	watched := len(s.res.subs[key]) > 0
	s.res.mu.Unlock()
	if !watched {
		return
	}
	var v sessionVersion
	if err := s.svc.View(ctx, ref, func(_ thinkgraph.Tx, sess *thinkgraph.Session) error {
		v = sessionVersion{sess.StepCount, sess.UpdatedAt}
		return nil
	}); err != nil {
		return
	}
	s.res.mu.Lock()
	seen, watched := s.res.seen[key]
	changed := watched && seen != v
	if changed {
		s.res.seen[key] = v
	}
	s.res.mu.Unlock()
	if !changed {
		return
	}
	uris := make([]string, 0, len(sessionViews))
	for _, view := range sessionViews {
		uri := sessionURIPrefix + ref.ID
		if view.suffix != "" {
			uri += "/" + view.suffix
		}
		uris = append(uris, uri)
	}
	s.queueUpdated(uris)
}

// queueUpdated has notifications/resources/updated sent for uris by a
// goroutine of its own, never by the tool call that changed the session: a
// subscriber that does not read its event stream holds up at most its own
// notifications and that goroutine (over HTTP a stream that takes no event
// for StreamWriteTimeout is cut), never a tool call. A URI queued again
// before it is sent is sent once, so the queue holds at most one entry per
// watched view.
func (s *Server) queueUpdated(uris []string) {
	s.res.mu.Lock()
	for _, uri := range uris {
		if !slices.Contains(s.res.pending, uri) {
			s.res.pending = append(s.res.pending, uri)
		}
	}
	start := !s.res.sending
	s.res.sending = true
	s.res.mu.Unlock()
	if start {
		go s.sendUpdated()
	}
}

// sendUpdated sends the queued notifications until none is left.
func (s *Server) sendUpdated() {
	for {
		s.res.mu.Lock()
		uris := s.res.pending
		s.res.pending = nil
		if len(uris) == 0 {
			s.res.sending = false
			s.res.mu.Unlock()
			return
		}
		s.res.mu.Unlock()
		for _, uri := range uris {
			if err := s.mcp.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				s.log.Warn("resource update notification failed", "uri", uri, "err", err)
			}
		}
	}
}

// logCall sends a logging notification about a tool call to the client that
// made it: info when it succeeded, warning for a tool error, error for an
// internal failure. The SDK drops it unless the client asked for logs at
// that level (logging/setLevel).
func (s *Server) logCall(ctx context.Context, ss *mcp.ServerSession, tool, sessionID string, res *mcp.CallToolResult, err error, d time.Duration) {
	if ss == nil {
		return
	}
	if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo == nil {
		// A stateless request (before protocol 2026-07-28) runs on a
		// session the SDK makes up, at level info although no client set
		// one: nothing is sent until a level is set.
		return
	}
	level, outcome := mcp.LoggingLevel("info"), "ok"
	data := map[string]any{"tool": tool, "duration_ms": d.Milliseconds()}
	switch {
	case err != nil:
		level, outcome = "error", "protocol_error"
		data["error"] = err.Error()
	case res != nil && res.IsError:
		level, outcome = "warning", "tool_error"
		if len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				data["error"] = tc.Text
			}
		}
	}
	data["outcome"] = outcome
	if sessionID != "" {
		data["session_id"] = sessionID
	}
	_ = ss.Log(ctx, &mcp.LoggingMessageParams{Logger: "thinkgraph", Level: level, Data: data})
}

// heartbeatInterval is how often a running tool call reports progress.
const heartbeatInterval = time.Second

// heartbeat reports progress for a tool call that asked for it (a
// progressToken): every second while it runs, the seconds elapsed, so a
// client can tell a slow LLM-backed call from a stuck one. It returns a
// function that stops it.
func (s *Server) heartbeat(ctx context.Context, ss *mcp.ServerSession, token any, tool string) func() {
	if token == nil || ss == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(heartbeatInterval)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n),
					Message: fmt.Sprintf("%s running for %d s", tool, n)})
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// progressReporter returns a function reporting progress out of total for a
// request that carried a progress token; a no-op otherwise.
func (s *Server) progressReporter(ctx context.Context, ss *mcp.ServerSession, token any, total float64) func(float64, string) {
	if token == nil || ss == nil {
		return func(float64, string) {}
	}
	return func(done float64, msg string) {
		if err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: done, Total: total, Message: msg}); err != nil && !errors.Is(err, context.Canceled) {
			s.log.Debug("progress notification failed", "err", err)
		}
	}
}
