// Package web is thinkgraph's reasoning viewer: an HTTP handler serving the
// list of the caller's sessions and, per session, the thought graph drawn as
// server-side SVG (package render) with a side panel, kept live by
// server-sent events.
//
// The viewer reads through the reasoning service, so it has the tenancy of
// the MCP endpoint: the tenant is the bearer token's (auth.TokenInfo.UserID,
// set by the token middleware in front of it), else the local tenant, and a
// session of another tenant does not exist. Every piece of user text is
// escaped (render.EscapeHTML on the hand-written pages, the render package's
// SVG escaping, JSON with HTML escaping), the page's script only ever sets
// textContent, and a Content Security Policy forbids inline scripts.
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/render"
)

//go:embed assets
var assets embed.FS

// Options configure the viewer.
type Options struct {
	// Tenant is the tenant of requests that carry no token (default: the
	// local tenant).
	Tenant string
	// Poll is how often an event stream checks its session for changes
	// (default 250 ms).
	Poll time.Duration
	// Analyze marks contradictions and circular chains (needs the semantic
	// engine on the service; default on, see NoAnalysis).
	NoAnalysis bool
	// MaxSessions bounds the session list (default 500).
	MaxSessions int
	// MaxAnalysed is the largest session analysed for a page or a download
	// (default render.DefaultMaxAnalysed; negative: no bound).
	MaxAnalysed int
	// Limiter bounds the renders of large sessions, shared with the MCP
	// resources of the same process (default: one of the viewer's own).
	Limiter *render.Limiter
	// Analyst holds the judgement of the sessions, shared with the MCP
	// server of the same process (default: one of the viewer's own).
	Analyst *analysis.Analyst
	Logger  *slog.Logger
}

// Viewer is the viewer's HTTP handler.
type Viewer struct {
	svc    *reasoning.Service
	loader *render.Loader
	// exporter evaluates the branches too, as evaluate does: the page does
	// not show evaluations, the downloads do.
	exporter *render.Loader
	opts     Options
	mux      *http.ServeMux

	mu    sync.Mutex
	cache map[viewKey]*cached // the last rendered graph of each session
	// analyzing marks sessions analysed in the background; gen counts the
	// analyses finished per session, so event streams announce them.
	analyzing map[viewKey]bool
	gen       map[viewKey]int
}

// viewKey names a session: session ids are unique only within a tenant,
// and one tenant's page must hear nothing of another's session.
type viewKey struct{ tenant, id string }

func keyOf(ref reasoning.SessionRef) viewKey { return viewKey{ref.Tenant, ref.ID} }

// cached is a rendered session, valid while its version is unchanged.
type cached struct {
	version  version
	page     *graphPayload
	analyzed bool
}

// syncAnalysisMax is the largest session analysed while the page waits;
// larger ones are drawn at once and their contradictions and circular
// chains marked when the background analysis is done (the page is told by
// its event stream).
const syncAnalysisMax = 500

// version identifies a state of a session: it changes with every write.
type version struct {
	Steps   int       `json:"steps"`
	Updated time.Time `json:"updated"`
}

// New returns the viewer on svc.
func New(svc *reasoning.Service, opts Options) *Viewer {
	if opts.Tenant == "" {
		opts.Tenant = thinkgraph.LocalTenant
	}
	if opts.Poll <= 0 {
		opts.Poll = 250 * time.Millisecond
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 500
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxAnalysed == 0 {
		opts.MaxAnalysed = render.DefaultMaxAnalysed
	}
	if opts.Limiter == nil {
		opts.Limiter = render.NewLimiter()
	}
	if opts.Analyst == nil {
		opts.Analyst = analysis.New(svc)
	}
	loader, exporter := render.NewLoader(svc, opts.Analyst), render.NewLoader(svc, opts.Analyst)
	for _, l := range []*render.Loader{loader, exporter} {
		l.MaxAnalysed, l.Limiter = max(opts.MaxAnalysed, 0), opts.Limiter
		if l.MaxAnalysed > 0 {
			l.MaxAnalysedLongText = render.DefaultMaxAnalysedLongText
		}
	}
	loader.NoEvaluation = true
	v := &Viewer{svc: svc, loader: loader, exporter: exporter, opts: opts, mux: http.NewServeMux(), cache: map[viewKey]*cached{},
		analyzing: map[viewKey]bool{}, gen: map[viewKey]int{}}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded directory is part of the build
	}
	v.mux.HandleFunc("GET /assets/{file}", func(w http.ResponseWriter, r *http.Request) {
		// Files only: no directory listing.
		if st, err := fs.Stat(static, r.PathValue("file")); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		http.ServeFileFS(w, r, static, r.PathValue("file"))
	})
	v.mux.HandleFunc("GET /{$}", v.list)
	v.mux.HandleFunc("GET /sessions/{id}", v.session)
	v.mux.HandleFunc("GET /sessions/{id}/graph", v.graph)
	v.mux.HandleFunc("GET /sessions/{id}/events", v.events)
	v.mux.HandleFunc("GET /sessions/{id}/export/{format}", v.export)
	v.mux.HandleFunc("POST /sessions/{id}/feedback", v.feedback)
	return v
}

// ServeHTTP serves the viewer with its security headers.
func (v *Viewer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	v.mux.ServeHTTP(w, r)
}

// tenant is the tenant of a request: its bearer token's, else the default.
func (v *Viewer) tenant(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil && ti.UserID != "" {
		return ti.UserID
	}
	return v.opts.Tenant
}

func (v *Viewer) ref(r *http.Request) (reasoning.SessionRef, bool) {
	id := r.PathValue("id")
	if reasoning.ValidateSessionID(id) != nil {
		return reasoning.SessionRef{}, false
	}
	return reasoning.SessionRef{ID: id, Explicit: true, Tenant: v.tenant(r)}, true
}

// fail answers a request that could not be served: 404 for a session that
// does not exist (or is another tenant's), 500 otherwise.
func (v *Viewer) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch te := thinkgraph.AsError(err); te.Code {
	case thinkgraph.CodeSessionNotFound, thinkgraph.CodeValidation:
		http.Error(w, "session not found", http.StatusNotFound)
		return
	case thinkgraph.CodeBusy:
		w.Header().Set("Retry-After", "5")
		http.Error(w, te.Message+": reload in a few seconds", http.StatusServiceUnavailable)
		return
	case thinkgraph.CodeStoreReadOnly:
		http.Error(w, te.Message, http.StatusServiceUnavailable)
		return
	}
	v.opts.Logger.ErrorContext(r.Context(), "viewer", "path", r.URL.Path, "err", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// sessionVersion reads the version of a session (cheap: one row).
func (v *Viewer) sessionVersion(ctx context.Context, ref reasoning.SessionRef) (version, error) {
	var ver version
	err := v.svc.View(ctx, ref, func(_ thinkgraph.Tx, s *thinkgraph.Session) error {
		ver = version{s.StepCount, s.UpdatedAt}
		return nil
	})
	return ver, err
}

// load returns the rendered session, from the cache while it is unchanged.
func (v *Viewer) load(ctx context.Context, ref reasoning.SessionRef) (*graphPayload, error) {
	ver, err := v.sessionVersion(ctx, ref)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	c := v.cache[keyOf(ref)]
	v.mu.Unlock()
	if c != nil && c.version == ver {
		if !c.analyzed {
			v.analyzeLater(ref)
		}
		return c.page, nil
	}
	// A session too large to analyse is loaded with the analyses asked
	// for: its Analysis says why there are none, at once.
	analyze := !v.opts.NoAnalysis && (ver.Steps <= syncAnalysisMax || v.opts.MaxAnalysed > 0 && ver.Steps > v.opts.MaxAnalysed)
	var g *render.Graph
	var p *graphPayload
	err = v.loader.Render(ctx, ref, analyze, func(rg *render.Graph) error {
		var err error
		g = rg
		p, err = newGraphPayload(g)
		return err
	})
	if err != nil {
		return nil, err
	}
	done := analyze || v.opts.NoAnalysis
	if !done {
		p.Analysis = "Looking for contradictions and circular reasoning…"
		if err := p.refreshJSON(); err != nil {
			return nil, err
		}
	}
	v.store(ref, g, p, done)
	if !done {
		v.analyzeLater(ref)
	}
	return p, nil
}

func (v *Viewer) store(ref reasoning.SessionRef, g *render.Graph, p *graphPayload, analyzed bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.cache, keyOf(ref))
	total := p.size()
	for _, c := range v.cache {
		total += c.page.size()
	}
	if len(v.cache) >= 32 || total > maxCacheBytes {
		clear(v.cache)
	}
	v.cache[keyOf(ref)] = &cached{version: version{g.Session.StepCount, g.Session.UpdatedAt}, page: p, analyzed: analyzed}
}

// maxCacheBytes bounds the rendered pages the viewer keeps (a session of
// 12,000 thoughts renders to about 30 MB of SVG and JSON).
const maxCacheBytes = 64 << 20

// analyzeLater analyses a session in the background, once at a time per
// session, and bumps its generation when done.
func (v *Viewer) analyzeLater(ref reasoning.SessionRef) {
	v.mu.Lock()
	if v.analyzing[keyOf(ref)] {
		v.mu.Unlock()
		return
	}
	v.analyzing[keyOf(ref)] = true
	v.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		err := v.loader.Render(ctx, ref, true, func(g *render.Graph) error {
			p, err := newGraphPayload(g)
			if err == nil {
				v.store(ref, g, p, true)
			}
			return err
		})
		if err != nil {
			v.opts.Logger.Warn("viewer analysis", "session", ref.ID, "err", err)
		}
		v.mu.Lock()
		delete(v.analyzing, keyOf(ref))
		v.gen[keyOf(ref)]++
		v.mu.Unlock()
	}()
}

func (v *Viewer) generation(ref reasoning.SessionRef) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.gen[keyOf(ref)]
}

func (v *Viewer) list(w http.ResponseWriter, r *http.Request) {
	tenant := v.tenant(r)
	var ss []thinkgraph.Session
	err := v.svc.Store().View(r.Context(), func(tx thinkgraph.Tx) error {
		var err error
		ss, err = tx.Sessions(r.Context(), thinkgraph.SessionFilter{Tenant: tenant, Limit: v.opts.MaxSessions})
		return err
	})
	if err != nil {
		v.fail(w, r, err)
		return
	}
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	sortBy := r.URL.Query().Get("sort")
	rows := make([]listRow, 0, len(ss))
	for _, s := range ss {
		if q != "" && !strings.Contains(strings.ToLower(s.ID+" "+s.Goal+" "+s.Mode), strings.ToLower(q)) {
			continue
		}
		rows = append(rows, listRow{ID: s.ID, Goal: s.Goal, Mode: s.Mode, Steps: s.StepCount, Updated: s.UpdatedAt})
	}
	sortRows(rows, sortBy)
	v.html(w, func(b *bytes.Buffer) { writeListPage(b, rows, q, sortBy, len(ss)) })
}

func (v *Viewer) session(w http.ResponseWriter, r *http.Request) {
	ref, ok := v.ref(r)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	p, err := v.load(r.Context(), ref)
	if err != nil {
		v.fail(w, r, err)
		return
	}
	// p.dataJSON is JSON with <, > and & escaped, so it cannot end the
	// script element; the browser never runs a script of this type.
	// A large session's thought data comes from the graph endpoint after
	// the first paint (see viewer.js), with the bands not drawn yet.
	var data string
	if p.Steps <= syncAnalysisMax && pageSkeletonSize+len(p.Goal)*6+len(p.SVG)+len(p.dataJSON) <= pageBytes {
		data = `<script type="application/json" id="tg-data">` + string(p.dataJSON) + `</script>`
	}
	v.html(w, func(b *bytes.Buffer) { writeSessionPage(b, p, data) })
}

// graph serves the session's current SVG and thought data as JSON, for the
// page to swap in when the event stream says the session changed.
func (v *Viewer) graph(w http.ResponseWriter, r *http.Request) {
	ref, ok := v.ref(r)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	p, err := v.load(r.Context(), ref)
	if err != nil {
		v.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(p.json)
}

// events streams server-sent events: "version" first, then "change" with
// the new version whenever the session changes (new thoughts, a new
// current thought, ...), found by polling its version, which is one row,
// or a background analysis of it finished.
func (v *Viewer) events(w http.ResponseWriter, r *http.Request) {
	ref, ok := v.ref(r)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	ctx := r.Context()
	last, err := v.sessionVersion(ctx, ref)
	if err != nil {
		v.fail(w, r, err)
		return
	}
	lastGen := v.generation(ref)
	rc := http.NewResponseController(w)
	// The stream lasts as long as the page: no request deadline applies.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	send := func(event string, ver version) error {
		b, _ := json.Marshal(ver)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if _, err := fmt.Fprintf(w, "retry: 1000\n"); err != nil {
		return
	}
	if send("version", last) != nil {
		return
	}
	tick := time.NewTicker(v.opts.Poll)
	defer tick.Stop()
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-keepalive.C:
			if _, err := fmt.Fprintf(w, ": keepalive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-tick.C:
			ver, err := v.sessionVersion(ctx, ref)
			if err != nil {
				if ctx.Err() == nil {
					v.opts.Logger.Warn("viewer event stream", "session", ref.ID, "err", err)
				}
				return
			}
			if gen := v.generation(ref); ver != last || gen != lastGen {
				last, lastGen = ver, gen
				if send("change", ver) != nil {
					return
				}
			}
		}
	}
}

// exportFormats are the downloads offered per session.
var exportFormats = map[string]struct {
	mime, ext string
	fn        func(io.Writer, *render.Graph) error
}{
	"markdown": {"text/markdown; charset=utf-8", "md", render.Markdown},
	"mermaid":  {"text/plain; charset=utf-8", "mmd", render.Mermaid},
	"dot":      {"text/vnd.graphviz; charset=utf-8", "dot", render.DOT},
	"svg":      {"image/svg+xml", "svg", render.SVG},
	"html":     {"text/html; charset=utf-8", "html", render.HTML},
}

// export streams a download of the session: written to the connection as
// it is rendered (a large session's export is never held whole), the
// session's render within the Limiter's bounds.
func (v *Viewer) export(w http.ResponseWriter, r *http.Request) {
	ref, ok := v.ref(r)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	format := r.PathValue("format")
	f, ok := exportFormats[format]
	if format == "json" {
		f.mime, f.ext = "application/json", "json"
	} else if !ok {
		http.Error(w, "unknown format (json, markdown, mermaid, dot, svg, html)", http.StatusNotFound)
		return
	}
	started := false
	start := func() {
		started = true
		w.Header().Set("Content-Type", f.mime)
		// Downloaded, never rendered in the viewer's origin (an SVG or
		// HTML export is safe, but there is no reason to run it here).
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", ref.ID+"."+f.ext))
		w.WriteHeader(http.StatusOK)
	}
	var err error
	if format == "json" {
		var release func()
		if release, err = v.exporter.Heavy(r.Context(), ref, false); err == nil {
			err = v.svc.View(r.Context(), ref, func(tx thinkgraph.Tx, s *thinkgraph.Session) error {
				doc, err := reasoning.ExportSession(r.Context(), tx, s, time.Now().UTC())
				if err != nil {
					return err
				}
				start()
				return reasoning.WriteExchange(w, doc)
			})
			release()
		}
	} else {
		err = v.exporter.Render(r.Context(), ref, !v.opts.NoAnalysis, func(g *render.Graph) error {
			start()
			return f.fn(w, g)
		})
	}
	if err != nil && !started {
		v.fail(w, r, err)
	} else if err != nil {
		// The answer is under way: it ends short, and the log says why.
		v.opts.Logger.WarnContext(r.Context(), "viewer export cut short", "session", ref.ID, "format", format, "err", err)
	}
}

func (v *Viewer) html(w http.ResponseWriter, page func(*bytes.Buffer)) {
	var buf bytes.Buffer
	page(&buf)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}
