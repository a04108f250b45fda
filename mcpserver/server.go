// Package mcpserver is thinkgraph's MCP surface: the tools, resources and
// their schemas. Handlers parse arguments and render results; the work is
// done by package reasoning.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/render"
)

// Options configure the MCP server.
type Options struct {
	Name    string
	Version string
	Logger  *slog.Logger
	// Metrics, if set, is told about every tool call.
	Metrics Observer
	// Toolsets are the toolsets whose tools the server offers (see
	// ParseToolsets); nil offers every toolset.
	Toolsets []string
	// SeedToolNames publishes the reasoning tools under mcp-langbase-reasoning's dotted
	// names (reasoning.linear, ...), for clients written against
	// mcp-langbase-reasoning 0.1, instead of reasoning_linear, ..., the
	// names every client accepts.
	SeedToolNames bool
	// MaxAnalysed is the largest session the resources and graph_view
	// analyse (default render.DefaultMaxAnalysed; negative: no bound), and
	// MaxDrawn the most thoughts the /svg resource and graph_view draw,
	// the latest (default render.DefaultMaxDrawn; negative: no bound).
	MaxAnalysed, MaxDrawn int
	// Limiter bounds the renders of large sessions, shared with the
	// viewer of the same process and by every tenant's server (default:
	// one of the server's own).
	Limiter *render.Limiter
	// Analyst holds the judgement of the sessions, shared with the viewer
	// of the same process and by every tenant's server (default: one of
	// the server's own).
	Analyst *analysis.Analyst
}

// Observer is told about every tool call and failed store operation.
type Observer interface {
	// ToolCall: outcome is "ok", "tool_error", "internal_error", or
	// "input_required" for a round of a multi round-trip call (mrtr.go).
	ToolCall(tool, outcome string, d time.Duration)
	StoreError()
	LLMCall(provider string, success bool)
}

// Server is thinkgraph's MCP server.
type Server struct {
	svc  *reasoning.Service
	mcp  *mcp.Server
	log  *slog.Logger
	opts Options

	mu    sync.Mutex
	conns map[*mcp.ServerSession]string // connection -> its session id

	res resourceState // resources.go

	suspended suspendedCalls // mrtr.go

	tools     []*mcp.Tool        // as registered, in order
	toolsetOf map[string]toolset // tool name -> its toolset
	// results are the types of each tool's result, by tool name, and
	// outputs the output schemas derived from them (output.go).
	results map[string][]reflect.Type
	outputs func() map[string]*jsonschema.Schema

	tenantsMu sync.Mutex
	tenants   map[string]*Server // ForTenant's servers, by tenant
	// tenant is the one tenant whose requests this server serves (see
	// ForTenant).
	tenant string
}

// New returns an MCP server with the tools of its toolsets and every
// resource registered.
func New(svc *reasoning.Service, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "thinkgraph"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Limiter == nil {
		opts.Limiter = render.NewLimiter() // ForTenant's servers share it
	}
	if opts.Analyst == nil {
		opts.Analyst = analysis.New(svc) // and this
	}
	s := &Server{svc: svc, log: opts.Logger, opts: opts, conns: map[*mcp.ServerSession]string{}, toolsetOf: map[string]toolset{},
		results: map[string][]reflect.Type{}, tenant: thinkgraph.LocalTenant}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "thinkgraph: structured reasoning", Version: opts.Version}, &mcp.ServerOptions{
		Instructions:       Instructions(opts.Toolsets),
		Logger:             sdkLogger(opts.Logger),
		CompletionHandler:  s.complete,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
	})
	s.mcp.AddReceivingMiddleware(s.filterTools, s.guide)
	s.addToolsets()
	s.outputs = sync.OnceValue(func() map[string]*jsonschema.Schema { return outputSchemas(s.results) })
	// Deriving the output schemas takes longer than the rest of the
	// start (branch-thinking's has one alternative per command): it runs
	// while the server starts, and tools/list waits for it.
	go s.outputs()
	s.addResources()
	s.addApp()
	s.addPrompts()
	return s
}

// Limiter returns the server's render limiter, for the viewer of the same
// process to share.
func (s *Server) Limiter() *render.Limiter { return s.opts.Limiter }

// Analyst returns the analyst of the server's sessions, for the viewer of
// the same process to read the same judgement.
func (s *Server) Analyst() *analysis.Analyst { return s.opts.Analyst }

// MCP returns the underlying SDK server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// ForTenant returns the SDK server for the connections of tenant (over
// HTTP, the tenant of the bearer token; "" is the local tenant): s itself
// for the local tenant, and for every other tenant a server of its own,
// built on first use, on the same reasoning service, logger and metrics.
// The SDK sends notifications/resources/updated to every connection of a
// server subscribed to the URI, and a URI names a session id, which each
// tenant uses for sessions of its own: with a server per tenant, a change
// to one tenant's session reaches only that tenant's subscribers. Tenants
// are those of the tokens file, so their number is bounded.
func (s *Server) ForTenant(tenant string) *mcp.Server {
	if tenant == "" || tenant == thinkgraph.LocalTenant {
		return s.mcp
	}
	s.tenantsMu.Lock()
	defer s.tenantsMu.Unlock()
	t := s.tenants[tenant]
	if t == nil {
		t = New(s.svc, s.opts)
		t.tenant = tenant
		if s.tenants == nil {
			s.tenants = map[string]*Server{}
		}
		s.tenants[tenant] = t
	}
	return t.mcp
}

// session resolves the session a call goes to: the caller's session_id
// (id), or else the connection's own session.
func (s *Server) session(req *mcp.CallToolRequest, id *string) reasoning.SessionRef {
	tenant := tenantOf(req.Extra)
	if id != nil {
		return reasoning.SessionRef{ID: *id, Explicit: true, Tenant: tenant}
	}
	return reasoning.SessionRef{ID: s.connSession(req.Session), Tenant: tenant}
}

// tenantOf returns the tenant of an authenticated HTTP request (the bearer
// token's tenant, see package httpserver), or the local tenant for stdio and
// unauthenticated loopback.
func tenantOf(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		return extra.TokenInfo.UserID
	}
	return thinkgraph.LocalTenant
}

// connSession returns the session id of an MCP connection, assigning one on
// first use. A connection with a transport session id (streamable HTTP) maps
// to it, so any process serving that connection finds the same session.
func (s *Server) connSession(ss *mcp.ServerSession) string {
	if ss == nil {
		return reasoning.NewID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.conns[ss]; ok {
		return id
	}
	id := ss.ID()
	if id == "" || reasoning.ValidateSessionID(id) != nil {
		id = reasoning.NewID()
	}
	s.conns[ss] = id
	go func() {
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.conns, ss)
		s.mu.Unlock()
	}()
	return id
}

// moveConnSession makes id the session of an MCP connection that has one
// (branch-thinking's import on the connection's own session, which in
// Branch Thinking replaces the graph the connection works on).
func (s *Server) moveConnSession(ss *mcp.ServerSession, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[ss]; ok && ss != nil {
		s.conns[ss] = id
	}
}

// toolDef describes a tool: its MCP definition, its toolset, its input
// (the argument struct, the handler and its result types), and how errors
// are rendered.
type toolDef struct {
	tool *mcp.Tool
	// toolset is the toolset the tool belongs to; the zero toolset is
	// none (the MCP App's own tool, graph_view).
	toolset toolset
	// input decodes the arguments and runs the tool (typed); it gives
	// the input schema and the types of the result, whose schema is the
	// output schema.
	input input
	// errorStatus is the "status" of error results ("error" by default).
	errorStatus string
	// ignoreUnknown drops argument fields the tool does not know instead
	// of refusing them (as the server a tool is a drop-in for does).
	ignoreUnknown bool
}

// addTool registers a tool of an offered toolset whose arguments are
// decoded by its input (so numbers may come as strings and unknown fields
// are named) and whose result is returned both as structured content and
// as JSON text.
func (s *Server) addTool(d toolDef) {
	if d.toolset.name != "" && !containsToolset(s.opts.Toolsets, d.toolset.name) {
		return
	}
	t := *d.tool
	cfg := s.svc.Config()
	t.InputSchema = d.input.schema(cfg)
	if a := t.Annotations; a != nil && !a.ReadOnlyHint && t.Meta == nil {
		// A tool that writes to a session shows the graph in hosts with
		// MCP Apps.
		t.Meta = graphAppMeta
	}
	if seed, ok := seedToolNames[t.Name]; ok && s.opts.SeedToolNames {
		t.Name = seed
	}
	d.tool = &t
	s.tools = append(s.tools, d.tool)
	s.toolsetOf[t.Name] = d.toolset
	s.results[t.Name] = d.input.results
	s.mcp.AddTool(d.tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var c called
		if _, mrtr := clientSampling(req.Session); d.toolset.llm && mrtr {
			// A tool that may call a language model: for a client on a
			// multi round-trip protocol its calls can be suspended
			// (mrtr.go).
			c = s.callSuspendable(ctx, req, func(ctx context.Context) called { return s.runTool(ctx, req, d) })
		} else {
			c = s.runTool(ctx, req, d)
		}
		if tc, ok := ctx.Value(touchedKey{}).(*touched); ok {
			tc.session = c.session
		}
		return c.res, nil
	})
}

// called is what a tool call returned: its result and the session it
// touched (nil for an error or a round of a multi round-trip call).
type called struct {
	res     *mcp.CallToolResult
	session *reasoning.SessionRef
}

// touched is where a tool call leaves the session it touched for
// toolCallMiddleware, which puts it in the call's context (touchedKey).
type touched struct {
	session *reasoning.SessionRef
}

type touchedKey struct{}

// runTool decodes the arguments, runs the tool and renders its result,
// with the feedback waiting on the session it touched.
func (s *Server) runTool(ctx context.Context, req *mcp.CallToolRequest, d toolDef) called {
	name := d.tool.Name
	start := time.Now()
	out, ref, err := d.input.run(ctx, req, req.Params.Arguments, d.ignoreUnknown)
	var text []byte
	if err == nil {
		text, err = encodeResult(out)
	}
	if err == nil {
		if !appOnly(d.tool) {
			// A result for an MCP App only (graph_view) takes no
			// feedback: the model would not see it.
			text = s.withFeedback(ctx, ref, text)
		}
		s.observe(name, "ok", start)
		return called{res: &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
			StructuredContent: json.RawMessage(text),
		}, session: &ref}
	}
	res := s.errorResult(ctx, name, d.errorStatus, err)
	if code := thinkgraph.AsError(err).Code; code == thinkgraph.CodeInternal || code == thinkgraph.CodeStoreUnavailable || code == thinkgraph.CodeStoreReadOnly {
		s.observe(name, "internal_error", start)
		if s.opts.Metrics != nil {
			s.opts.Metrics.StoreError()
		}
	} else {
		s.observe(name, "tool_error", start)
	}
	return called{res: res}
}

func (s *Server) observe(tool, outcome string, start time.Time) {
	if s.opts.Metrics != nil {
		s.opts.Metrics.ToolCall(tool, outcome, time.Since(start))
	}
}

// errorBody is the structured content of a tool error: the think tool's
// {status, message} and Branch Thinking's {error, code, details, suggestions}.
type errorBody struct {
	Status      string        `json:"status"`
	Message     string        `json:"message"`
	Error       string        `json:"error"`
	Code        string        `json:"code"`
	Details     *errorDetails `json:"details,omitempty"`
	Suggestions []string      `json:"suggestions,omitempty"`
}

// errorSchema is the output schema of a tool error's structured content.
var errorSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := jsonschema.For[errorBody](&jsonschema.ForOptions{})
	if err != nil {
		panic(err)
	}
	return s
})

type errorDetails struct {
	Field    string `json:"field,omitempty"`
	Expected string `json:"expected,omitempty"`
	Received string `json:"received,omitempty"`
}

func (s *Server) errorResult(ctx context.Context, tool, status string, err error) *mcp.CallToolResult {
	te := thinkgraph.AsError(err)
	if te.Code == thinkgraph.CodeInternal {
		s.log.ErrorContext(ctx, "tool failed", "tool", tool, "err", err)
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			te = &thinkgraph.Error{Code: thinkgraph.CodeInternal, Message: "the call was cancelled or timed out", Err: err}
		}
	}
	if status == "" {
		status = "error"
	}
	msg := "Error: " + te.Error()
	body := errorBody{Status: status, Message: msg, Error: te.Error(), Code: string(te.Code), Suggestions: te.Suggestions}
	if te.Field != "" || te.Expected != "" || te.Received != "" {
		body.Details = &errorDetails{Field: te.Field, Expected: te.Expected, Received: te.Received}
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: msg}, &mcp.TextContent{Text: errorDetailText(body)}},
		StructuredContent: body,
	}
}

// errorDetailText is what the structured content of a tool error adds to
// its message (the code, the field at fault, what was expected and
// received, the suggestions), as a second text, for the clients that show
// a model the text only; the first is the message alone, "Error: …", as
// the original servers wrote it.
func errorDetailText(e errorBody) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Code: %s", e.Code)
	if d := e.Details; d != nil {
		if d.Field != "" {
			fmt.Fprintf(&b, "\nField: %s", d.Field)
		}
		if d.Expected != "" {
			fmt.Fprintf(&b, "\nExpected: %s", d.Expected)
		}
		if d.Received != "" {
			fmt.Fprintf(&b, "\nReceived: %s", d.Received)
		}
	}
	for _, s := range e.Suggestions {
		fmt.Fprintf(&b, "\nSuggestion: %s", s)
	}
	return b.String()
}

func boolPtr(b bool) *bool { return &b }
