// Package httpserver serves thinkgraph over HTTP: the MCP streamable HTTP
// endpoint at /mcp with bearer-token authentication and Host/Origin checks,
// /healthz, /readyz and /metrics, request limits, and a graceful shutdown
// that lets in-flight calls finish.
package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/rpcframe"
)

// Options configure the HTTP server.
type Options struct {
	// Tokens, when set, is required on /mcp, the viewer and /metrics.
	Tokens *Tokens
	// MetricsTenants are the tenants whose tokens may read /metrics, which
	// counts every tenant's calls (with Tokens; default none).
	MetricsTenants []string
	// TrustedProxies are the addresses of reverse proxies whose
	// X-Forwarded-Proto is believed: a viewer cookie set through one that
	// says https is Secure (default none).
	TrustedProxies []netip.Prefix
	// AllowedHosts are the Host header names accepted ("*" accepts any). By
	// default: localhost, 127.0.0.1 and ::1 when serving loopback; any
	// otherwise.
	AllowedHosts []string
	// AllowedOrigins are extra Origin values accepted (e.g.
	// "https://app.example.com"); an Origin whose host is an allowed host is
	// always accepted.
	AllowedOrigins []string
	// MaxBodyBytes bounds a request body (default 4 MiB).
	MaxBodyBytes int64
	// RequestTimeout bounds reading a request and writing its response,
	// except for the long-lived event streams (default 60 s).
	RequestTimeout time.Duration
	// StreamWriteTimeout bounds each write to an MCP event stream (GET
	// /mcp; default 10 s): a client that takes no event for that long
	// (its buffers are full: it stopped reading) loses the stream, and the
	// notifications to it fail at once from then on, instead of holding
	// up the server's sends to the session's other subscribers.
	StreamWriteTimeout time.Duration
	// SessionIdleTimeout closes an MCP session that has had no request for
	// this long (default 30 minutes; negative: never). A client that comes
	// back gets 404 and starts a new session.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the MCP sessions open at once over all tenants
	// (default 10,000; each costs about 15 KiB, 75 KiB while its client
	// holds its event stream and a connection open), and MaxSessionsPerTenant
	// those of one tenant (default 1,000): an initialize beyond either is
	// refused (429 for the tenant's bound, 503 for the total) until
	// sessions end (DELETE, or SessionIdleTimeout). Stateless serving keeps
	// no session between requests and is not bounded by them.
	MaxSessions, MaxSessionsPerTenant int
	// ShutdownTimeout bounds how long shutdown waits for in-flight calls.
	ShutdownTimeout time.Duration
	// Stateless serves every request on a fresh MCP session (the SDK's
	// stateless mode), so any replica can serve any request without sticky
	// sessions. Calls must then name their session_id to continue one.
	// Without it, requests of protocol 2026-07-28 and later (which has no
	// sessions) are served so all the same, and those of the earlier
	// protocols on their MCP sessions (byEra).
	Stateless bool
	// Viewer, when set, is served at / (the web viewer), behind the same
	// bearer tokens as /mcp. A browser cannot send a bearer header when it
	// follows a link, so with tokens, opening any viewer URL once with
	// ?token=TOKEN keeps the token in an HttpOnly, SameSite=Strict cookie
	// that stands for the header on the viewer's pages (never on /mcp).
	Viewer http.Handler
	// Ready reports whether the server can serve (the database is reachable).
	Ready   func(context.Context) error
	Metrics http.Handler
	Logger  *slog.Logger
}

func (o *Options) defaults(loopback bool) {
	if len(o.AllowedHosts) == 0 {
		if loopback {
			o.AllowedHosts = []string{"localhost", "127.0.0.1", "::1"}
		} else {
			o.AllowedHosts = []string{"*"}
		}
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 4 << 20
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 60 * time.Second
	}
	if o.StreamWriteTimeout <= 0 {
		o.StreamWriteTimeout = 10 * time.Second
	}
	if o.SessionIdleTimeout == 0 {
		o.SessionIdleTimeout = 30 * time.Minute
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 10000
	}
	if o.MaxSessionsPerTenant <= 0 {
		o.MaxSessionsPerTenant = 1000
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// IsLoopback reports whether host (an IP or name, no port) is a loopback
// address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Server is thinkgraph's HTTP server.
type Server struct {
	opts     Options
	handler  http.Handler
	inFlight atomic.Int64

	// The MCP servers by tenant, each holding its tenant's sessions
	// (serversMu), and opening, held while a request that opens a session
	// is counted and served, so that two cannot pass a bound together.
	serversMu sync.Mutex
	servers   map[string]*mcp.Server
	opening   sync.Mutex

	// listens counts the open subscriptions/listen streams by tenant, and
	// listensAll over all tenants (listensMu).
	listensMu  sync.Mutex
	listens    map[string]int
	listensAll int
}

// New returns an HTTP server for the MCP servers of serverFor, which gives
// the server of a tenant's requests (the bearer token's tenant; "" without
// tokens) and is called on every request. loopback says whether it listens
// on a loopback address only.
func New(serverFor func(tenant string) *mcp.Server, loopback bool, opts Options) *Server {
	opts.defaults(loopback)
	s := &Server{opts: opts, servers: map[string]*mcp.Server{}}
	getServer := func(r *http.Request) *mcp.Server {
		tenant := tenantOf(r)
		srv := serverFor(tenant)
		s.serversMu.Lock()
		s.servers[tenant] = srv
		s.serversMu.Unlock()
		return srv
	}
	sdk := mcp.StreamableHTTPOptions{Logger: opts.Logger, MaxRequestBodyBytes: opts.MaxBodyBytes,
		SessionTimeout: max(opts.SessionIdleTimeout, 0)}
	perRequest := sdk
	perRequest.Stateless = true
	var mcpHandler http.Handler = mcp.NewStreamableHTTPHandler(getServer, &perRequest)
	if !opts.Stateless {
		mcpHandler = byEra(mcp.NewStreamableHTTPHandler(getServer, &sdk), mcpHandler)
	}
	mcpHandler = s.checkFrames(mcpHandler, getServer)
	var metrics http.Handler = opts.Metrics
	viewer := opts.Viewer
	if opts.Tokens != nil {
		mcpHandler = requireToken(opts.Tokens, nil, mcpHandler)
		if metrics != nil {
			metrics = requireToken(opts.Tokens, func(tenant string) bool { return slices.Contains(opts.MetricsTenants, tenant) }, metrics)
		}
		if viewer != nil {
			viewer = s.viewerTokenCookie(requireToken(opts.Tokens, nil, viewer))
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpHandler)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", s.ready)
	if viewer != nil {
		mux.Handle("/", viewer)
	}
	if metrics != nil {
		mux.Handle("GET /metrics", metrics)
	}
	s.handler = s.checkHostOrigin(s.limit(mux))
	return s
}

// byEra serves both eras of the protocol on one endpoint: a request of
// protocol 2026-07-28 or later (its MCP-Protocol-Version header, which
// mirrors the version in its _meta) has no session and is answered on its
// own by perRequest, as --stateless answers every request; any other
// (initialize, calls with Mcp-Session-Id, the event stream, DELETE) by
// sessions, which keep their subscriptions and live updates.
func byEra(sessions, perRequest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sessionlessEra(r) {
			perRequest.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// sessionlessEra reports whether r is of protocol 2026-07-28 or later,
// which has no MCP sessions: its MCP-Protocol-Version header says so.
func sessionlessEra(r *http.Request) bool {
	return r.Header.Get("MCP-Protocol-Version") >= rpcframe.FirstSessionlessVersion
}

// tenantOf is the tenant of a request: its bearer token's ("" without
// tokens).
func tenantOf(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return ti.UserID
	}
	return ""
}

// openSession admits a request that opens an MCP session (initialize
// without Mcp-Session-Id) when the tenant's sessions and all sessions are
// under their bounds: it returns holding s.opening, and the caller releases
// it once the SDK has served the request (and counts the new session;
// initializes are quick). Otherwise it answers the request with the
// JSON-RPC error (id: the initialize's) and returns false.
func (s *Server) openSession(w http.ResponseWriter, r *http.Request, id json.RawMessage, serverFor func(*http.Request) *mcp.Server) bool {
	srv := serverFor(r)
	// Initialized sessions with an id only: the SDK also connects one
	// for a request without Mcp-Session-Id that does not initialize, and
	// one with no id for each request of protocol 2026-07-28 or later,
	// and closes it once that request is answered.
	count := func(srv *mcp.Server) int {
		n := 0
		for ss := range srv.Sessions() {
			if ss.ID() != "" && ss.InitializeParams() != nil {
				n++
			}
		}
		return n
	}
	s.opening.Lock()
	mine, all := count(srv), 0
	s.serversMu.Lock()
	for _, other := range s.servers {
		all += count(other)
	}
	s.serversMu.Unlock()
	var status int
	var msg string
	switch {
	case mine >= s.opts.MaxSessionsPerTenant:
		status, msg = http.StatusTooManyRequests, fmt.Sprintf("too many MCP sessions: this tenant has %d open, the most allowed (THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT): end sessions you no longer use (DELETE /mcp with their Mcp-Session-Id) or reuse one; idle ones close after THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT", mine)
	case all >= s.opts.MaxSessions:
		status, msg = http.StatusServiceUnavailable, fmt.Sprintf("too many MCP sessions: the server has %d open, the most allowed (THINKGRAPH_HTTP_MAX_SESSIONS): try again later; idle sessions close after THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT", all)
	default:
		return true
	}
	s.opening.Unlock()
	s.refuse(w, r, status, id, msg)
	return false
}

// refuse answers a request refused by a bound with status, Retry-After and
// the JSON-RPC error (code CodeTooManySessions) for the call id.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, id json.RawMessage, msg string) {
	s.opts.Logger.Warn("refused a request over a bound", "tenant", tenantOf(r), "reason", msg)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "60")
	w.WriteHeader(status)
	_, _ = w.Write((&rpcframe.Reject{ID: id, Code: CodeTooManySessions, Message: msg}).Response())
}

// openListen admits a subscriptions/listen request (id) while its
// tenant's open listen streams are under MaxSessionsPerTenant and all of
// them under MaxSessions, the bounds of the earlier protocols' sessions
// (each stream holds a connection, as a session's event stream does);
// the caller calls closeListen when it ends. Otherwise it answers the
// request as openSession does and returns false.
func (s *Server) openListen(w http.ResponseWriter, r *http.Request, id json.RawMessage) bool {
	tenant := tenantOf(r)
	s.listensMu.Lock()
	mine, all := s.listens[tenant], s.listensAll
	ok := mine < s.opts.MaxSessionsPerTenant && all < s.opts.MaxSessions
	if ok {
		if s.listens == nil {
			s.listens = map[string]int{}
		}
		s.listens[tenant]++
		s.listensAll++
	}
	s.listensMu.Unlock()
	switch {
	case ok:
		return true
	case mine >= s.opts.MaxSessionsPerTenant:
		s.refuse(w, r, http.StatusTooManyRequests, id, fmt.Sprintf("too many subscriptions/listen streams: this tenant has %d open, the most allowed (THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT): close the ones you no longer use (cancel their requests) or listen for more on one", mine))
	default:
		s.refuse(w, r, http.StatusServiceUnavailable, id, fmt.Sprintf("too many subscriptions/listen streams: the server has %d open, the most allowed (THINKGRAPH_HTTP_MAX_SESSIONS): try again later", all))
	}
	return false
}

// closeListen ends a stream openListen admitted.
func (s *Server) closeListen(r *http.Request) {
	tenant := tenantOf(r)
	s.listensMu.Lock()
	if s.listens[tenant]--; s.listens[tenant] <= 0 {
		delete(s.listens, tenant)
	}
	s.listensAll--
	s.listensMu.Unlock()
}

// CodeTooManySessions is the JSON-RPC error code of an initialize refused
// by the session bounds (a server error code of JSON-RPC 2.0).
const CodeTooManySessions = -32001

// requireToken serves next only to requests with a valid bearer token
// (whose tenant is allowed, if allowed is set), answering others with 401
// (403 for a tenant not allowed) and an RFC 6750 challenge. The SDK's
// middleware then puts the token's tenant in the request's context.
func requireToken(tokens *Tokens, allowed func(tenant string) bool, next http.Handler) http.Handler {
	next = auth.RequireBearerToken(tokens.verifier, nil)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		const challenge = `Bearer realm="thinkgraph"`
		fields := strings.Fields(r.Header.Get("Authorization"))
		if len(fields) != 2 || !strings.EqualFold(fields[0], "bearer") {
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "Unauthorized: no bearer token (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
			return
		}
		tenant, ok := tokens.Tenant(fields[1])
		if !ok {
			w.Header().Set("WWW-Authenticate", challenge+`, error="invalid_token", error_description="the token is not known to this server"`)
			http.Error(w, "Unauthorized: the token is not known to this server", http.StatusUnauthorized)
			return
		}
		if allowed != nil && !allowed(tenant) {
			w.Header().Set("WWW-Authenticate", challenge+`, error="insufficient_scope"`)
			http.Error(w, "Forbidden: the metrics count every tenant's calls: only the tenants in THINKGRAPH_METRICS_TENANTS may read them", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// viewerTokenCookie lets a browser authenticate to the viewer: ?token=
// with a valid token sets the cookie and redirects to the same URL without
// it (an invalid one is refused and leaves the cookie as it was); the
// cookie becomes the Authorization header of requests that have none.
//
// A link followed from another site (Sec-Fetch-Site cross-site or
// same-site) does not sign in by itself: whoever holds a token could
// otherwise put a visitor's browser into their own tenant. The browser does
// not send the SameSite=Strict cookie on such a navigation, so the server
// cannot tell whether someone is signed in already; it answers with a page
// naming the link's tenant and a link to sign in from this origin.
func (s *Server) viewerTokenCookie(next http.Handler) http.Handler {
	const cookie = "thinkgraph_token"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
			tenant, ok := s.opts.Tokens.Tenant(tok)
			if !ok {
				w.Header().Set("WWW-Authenticate", `Bearer realm="thinkgraph", error="invalid_token"`)
				http.Error(w, "Unauthorized: the link's token is not known to this server; you are still signed in as before (if you were)", http.StatusUnauthorized)
				return
			}
			if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
				confirmLogin(w, r.URL.RequestURI(), tenant)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: cookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.https(r)})
			q := r.URL.Query()
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if r.Header.Get("Authorization") == "" {
			if c, err := r.Cookie(cookie); err == nil && c.Value != "" {
				r = r.Clone(r.Context())
				r.Header.Set("Authorization", "Bearer "+c.Value)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// confirmLogin answers a ?token= link followed from another site: a page
// that names the link's tenant and signs in only when the person follows
// its link, which is a navigation from the viewer's own origin. It sets no
// cookie, so whoever was signed in stays signed in.
func confirmLogin(w http.ResponseWriter, uri, tenant string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	esc := html.EscapeString
	_, _ = fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to thinkgraph?</title></head>
<body>
<h1>Sign in to the thinkgraph viewer?</h1>
<p>You followed a link from another site that signs this browser in to the viewer as tenant <strong>%s</strong>. The link did not sign you in by itself: whoever holds a token can make such a link, and you would then read and comment on their sessions. If you were signed in, you still are, as before.</p>
<p><a href="%s">Sign in as %s</a> (replaces a sign-in of this browser) — or close this page.</p>
</body></html>
`, esc(tenant), esc(uri), esc(tenant))
}

// https reports whether the client reached the server over HTTPS: TLS to
// this server, or X-Forwarded-Proto: https from a trusted proxy.
func (s *Server) https(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if len(s.opts.TrustedProxies) == 0 || !strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	return slices.ContainsFunc(s.opts.TrustedProxies, func(p netip.Prefix) bool { return p.Contains(addr) })
}

// Handler returns the server's root handler.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.opts.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.opts.Ready(ctx); err != nil {
			s.opts.Logger.Warn("not ready", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			why := "database unreachable"
			if te := (*thinkgraph.Error)(nil); errors.As(err, &te) && te.Code == thinkgraph.CodeStoreReadOnly {
				why = te.Message // what is read-only and what to do; not a passing outage
			}
			_, _ = w.Write([]byte("not ready: " + why + "\n"))
			return
		}
	}
	_, _ = w.Write([]byte("ready\n"))
}

// checkHostOrigin rejects requests whose Host is not allowed, or whose
// Origin is neither an allowed origin nor on an allowed host: the defence
// against DNS rebinding of a server on loopback.
func (s *Server) checkHostOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			http.Error(w, "Forbidden: Host header not allowed (set THINKGRAPH_ALLOWED_HOSTS)", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !s.originAllowed(origin) {
			http.Error(w, "Forbidden: Origin not allowed (set THINKGRAPH_ALLOWED_ORIGINS)", http.StatusForbidden)
			return
		}
		// Host names are case-insensitive; the MCP SDK's own loopback
		// check compares "localhost" exactly.
		r.Host = strings.ToLower(r.Host)
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(hostport string) bool {
	if slices.Contains(s.opts.AllowedHosts, "*") {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	for _, a := range s.opts.AllowedHosts {
		if strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

func (s *Server) originAllowed(origin string) bool {
	for _, o := range s.opts.AllowedOrigins {
		if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), strings.TrimSuffix(origin, "/")) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return s.hostAllowed(u.Host)
}

// limit bounds request bodies and, except for the MCP event stream (GET
// /mcp), the time to read a request and write its response: a client that
// never reads a large response does not hold it past RequestTimeout. (The
// viewer's event stream lifts its own deadline.) The MCP event stream
// lasts as long as its client, but each of its writes is bounded by
// StreamWriteTimeout.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
		}
		if r.Method != http.MethodGet || r.URL.Path != "/mcp" {
			rc := http.NewResponseController(w)
			deadline := time.Now().Add(s.opts.RequestTimeout)
			_ = rc.SetReadDeadline(deadline)
			_ = rc.SetWriteDeadline(deadline)
		} else {
			w = &streamWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: s.opts.StreamWriteTimeout}
		}
		next.ServeHTTP(w, r)
	})
}

// streamWriter is the ResponseWriter of an event stream: each write and
// flush must be done within timeout, or it fails, and so does every one
// after it.
type streamWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *streamWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.ResponseWriter.Write(p)
}

func (w *streamWriter) FlushError() error {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.rc.Flush()
}

func (w *streamWriter) Flush() { _ = w.FlushError() }

func (w *streamWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// checkFrames refuses, before the SDK reads them, the JSON-RPC messages
// of a POST to /mcp that it reads loosely (package rpcframe: ids it would
// not echo exactly, id null, an id without a method) and, without an MCP
// session (no Mcp-Session-Id, not stateless), a call other than initialize
// (the SDK answered it with error code 0): 400 with the JSON-RPC error.
// Anything else, a body that is not JSON included, goes to the SDK as it
// came: counted as a call in flight (for shutdown), or, for
// subscriptions/listen, bounded as an event stream.
func (s *Server) checkFrames(next http.Handler, serverFor func(*http.Request) *mcp.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, fmt.Sprintf("request body exceeds %d bytes (THINKGRAPH_HTTP_MAX_BODY_BYTES)", mbe.Limit), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "failed to read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sessionless := s.opts.Stateless || r.Header.Get("Mcp-Session-Id") != "" || sessionlessEra(r)
		var rej *rpcframe.Reject
		var initialize json.RawMessage // the id of an initialize that opens a session
		var listen json.RawMessage     // the id of a subscriptions/listen
		check := func(frame []byte) {
			var m *rpcframe.Message
			if m, rej = rpcframe.Frame(frame); rej == nil && m.IsCall() && m.MethodName() == "subscriptions/listen" {
				listen = m.ID
			}
			if rej == nil && !sessionless {
				if rej = rpcframe.BeforeInitialize(m, frame); rej == nil && m.IsCall() && m.MethodName() == "initialize" {
					initialize = m.ID
				}
			}
		}
		// A batch (which the SDK reads for the protocol versions that had
		// them) is checked message by message; anything else as one.
		frame := bytes.TrimSpace(body)
		if v := gjson.ParseBytes(frame); len(frame) > 0 && frame[0] == '[' && utf8.Valid(frame) && json.Valid(frame) {
			if len(v.Array()) == 0 {
				rej = &rpcframe.Reject{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: an empty batch: send one JSON-RPC message"}
			}
			v.ForEach(func(_, el gjson.Result) bool { check([]byte(el.Raw)); return rej == nil })
			listen = nil
		} else {
			check(frame)
		}
		if rej != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(rej.Response())
			return
		}
		if initialize != nil {
			if !s.openSession(w, r, initialize, serverFor) {
				return
			}
			defer s.opening.Unlock()
		}
		if listen != nil {
			// subscriptions/listen (protocol 2026-07-28) is the event
			// stream of that era: it lasts until the client cancels it or
			// the server shuts down, so it is bound as GET /mcp's is (each
			// write, not the whole response), counted against the bounds
			// of sessions, and is not a call shutdown waits for.
			if !s.openListen(w, r, listen) {
				return
			}
			defer s.closeListen(r)
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})
			_ = rc.SetWriteDeadline(time.Time{})
			w = &streamWriter{ResponseWriter: w, rc: rc, timeout: s.opts.StreamWriteTimeout}
		} else {
			s.inFlight.Add(1)
			defer s.inFlight.Add(-1)
		}
		next.ServeHTTP(w, r)
	})
}

// Serve serves on ln until ctx is done, then shuts down gracefully: it stops
// accepting, lets in-flight calls finish (up to ShutdownTimeout), then ends
// the open event streams.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return streams },
		ErrorLog:          slog.NewLogLogger(s.opts.Logger.Handler(), slog.LevelWarn),
	}
	if addr := os.Getenv("THINKGRAPH_PPROF_ADDR"); addr != "" {
		stop, err := s.servePprof(addr)
		if err != nil {
			return err
		}
		defer stop()
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.opts.Logger.Info("shutting down: waiting for in-flight calls", "in_flight", s.inFlight.Load())
	// Stop accepting first, but keep serving the open connections: an
	// in-flight call may answer on its request's stream or on the client's
	// standalone event stream, so both must stay up until it is done.
	_ = ln.Close()
	<-errc
	deadline, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	for s.inFlight.Load() > 0 && deadline.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	// In-flight calls are done and their answers written. A client reads an
	// answer and the end of its standalone event stream concurrently, and
	// the Go SDK's client fails the session, an answer not yet delivered
	// included, when the stream ends first: so the streams end streamGrace
	// later.
	if deadline.Err() == nil {
		select {
		case <-time.After(streamGrace):
		case <-deadline.Done():
		}
	}
	endStreams()
	if err := hs.Shutdown(deadline); err != nil {
		_ = hs.Close()
		if !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
	return nil
}

// streamGrace is how long shutdown waits, once the last in-flight call has
// answered, before it ends the clients' standalone event streams.
const streamGrace = 250 * time.Millisecond

// servePprof serves the runtime profiles (net/http/pprof) on addr, which
// must be a loopback address: THINKGRAPH_PPROF_ADDR, for profiling the
// server under load. It returns a function that stops it.
func (s *Server) servePprof(addr string) (func(), error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !IsLoopback(host) {
		return nil, errors.New("THINKGRAPH_PPROF_ADDR must be a loopback host:port, e.g. 127.0.0.1:6060")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	s.opts.Logger.Info("serving profiles", "addr", "http://"+addr+"/debug/pprof/")
	return func() { _ = hs.Close() }, nil
}
