package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
)

// MCP sampling on protocol 2026-07-28 and later.
//
// From that protocol on, a server may no longer send sampling/createMessage
// to the client while it serves a tool call. Instead the tool call returns
// an "input_required" result carrying the sampling request (inputRequests)
// and an opaque requestState; the client asks its model and calls the tool
// again with the same arguments, the answer (inputResponses) and the
// requestState (SEP-2322, multi round-trip requests).
//
// thinkgraph's LLM-backed tools are ordinary Go code that calls a provider
// and writes the session graph as it goes (the user's input first, so that
// nothing is lost). Rather than rewriting each as a resumable state machine,
// a call that needs the client's model is suspended: the tool runs in its
// own goroutine, its sampler hands each request to the round that is
// waiting and blocks until a later round brings the answer. requestState is
// a random handle to the suspended call, bound to the caller's tenant, MCP
// session, tool and arguments. Nothing is written twice, every model call
// is one invocation row, and every tool works unchanged, however many model
// calls it makes (one per round).
//
// The suspended call lives in this process's memory: a replica that did not
// start the call (stateless HTTP behind a load balancer without affinity)
// or a restarted server answers the retry with a tool error saying to call
// again. A call nobody resumes is cancelled after suspendedTTL; its model
// call is recorded as failed and the input it stored stays.

// suspendedTTL bounds how long a suspended call waits for the client to
// come back with the answer.
const suspendedTTL = 10 * time.Minute

// suspended is an LLM-backed tool call that runs across rounds.
type suspended struct {
	token  string
	tool   string
	owner  string // tenant and MCP session id
	args   string // canonical JSON of the arguments
	cancel context.CancelFunc
	wake   chan struct{} // capacity 1: state changed

	mu      sync.Mutex
	seq     int
	pending *inputRequest // the model request the tool waits on
	result  *called       // set when the tool returned
	round   *round        // the call currently waiting, nil between rounds
	expiry  *time.Timer

	progressed atomic.Int64
}

// inputRequest is one sampling request of a suspended call.
type inputRequest struct {
	id     string
	params *mcp.CreateMessageParams
	reply  chan *mcp.CreateMessageResult // capacity 1
}

// round is one tools/call request of a suspended call: where progress goes.
type round struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token any
}

type suspendedKey struct{}

func suspendedFrom(ctx context.Context) *suspended {
	c, _ := ctx.Value(suspendedKey{}).(*suspended)
	return c
}

func (c *suspended) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// sample is the suspended call's llm.SamplingFunc: it posts the request for
// the waiting round to return and blocks until a round brings the answer.
func (c *suspended) sample(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	c.mu.Lock()
	c.seq++
	q := &inputRequest{id: fmt.Sprintf("sampling-%d", c.seq), params: params, reply: make(chan *mcp.CreateMessageResult, 1)}
	c.pending = q
	c.mu.Unlock()
	c.signal()
	select {
	case res := <-q.reply:
		return res, nil
	case <-ctx.Done():
		c.mu.Lock()
		if c.pending == q {
			c.pending = nil
		}
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// progress reports a provider's progress (retries) to the round now
// waiting, if it asked for progress.
func (c *suspended) progress(_ int, msg string) {
	c.mu.Lock()
	r := c.round
	c.mu.Unlock()
	if r != nil && r.ss != nil && r.token != nil {
		_ = r.ss.NotifyProgress(r.ctx, &mcp.ProgressNotificationParams{ProgressToken: r.token, Progress: float64(c.progressed.Add(1)), Message: msg})
	}
}

// suspendedCalls holds the calls waiting for a client's answer.
type suspendedCalls struct {
	mu    sync.Mutex
	calls map[string]*suspended
	ttl   time.Duration // suspendedTTL unless a test sets it
}

func (p *suspendedCalls) put(c *suspended) {
	p.mu.Lock()
	if p.calls == nil {
		p.calls = map[string]*suspended{}
	}
	p.calls[c.token] = c
	p.mu.Unlock()
}

func (p *suspendedCalls) get(token string) *suspended {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[token]
}

func (p *suspendedCalls) drop(c *suspended) {
	p.mu.Lock()
	if p.calls[c.token] == c {
		delete(p.calls, c.token)
	}
	p.mu.Unlock()
}

// len is the number of suspended calls (for tests).
func (p *suspendedCalls) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.calls)
}

// multiRoundTripProtocol is the first protocol version on which sampling
// during a call goes through input_required results.
const multiRoundTripProtocol = "2026-07-28"

// clientSampling reports whether the client of a call declared the
// sampling capability, and whether it is on a multi round-trip protocol
// (which forbids sampling requests during a call: its model is reached
// through input_required results instead).
func clientSampling(ss *mcp.ServerSession) (declared, multiRoundTrip bool) {
	if ss == nil {
		return false, false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Sampling == nil {
		return false, false
	}
	return true, ip.ProtocolVersion >= multiRoundTripProtocol
}

// callSuspendable runs an LLM-backed tool for a multi round-trip client:
// a first call starts it, a retry with requestState resumes it.
func (s *Server) callSuspendable(ctx context.Context, req *mcp.CallToolRequest, run func(context.Context) called) called {
	start := time.Now()
	name := req.Params.Name
	owner := tenantOf(req.Extra) + "\x00" + req.Session.ID()
	args := canonicalArgs(req.Params.Arguments)
	var c *suspended
	if state := req.Params.RequestState; state != "" {
		c = s.suspended.get(state)
		if c == nil || c.owner != owner {
			s.observe(name, "tool_error", start)
			return called{res: s.errorResult(ctx, name, "", &thinkgraph.Error{Code: thinkgraph.CodeValidation, Field: "requestState",
				Message:     "requestState does not name a call waiting on this server (it expired, was already answered, or was started by another server process): call " + name + " again without requestState",
				Suggestions: []string{"the input of the earlier call is already stored in the session"}})}
		}
		if c.tool != name || c.args != args {
			s.observe(name, "tool_error", start)
			return called{res: s.errorResult(ctx, name, "", &thinkgraph.Error{Code: thinkgraph.CodeValidation, Field: "requestState",
				Message: fmt.Sprintf("requestState belongs to a call of %s with other arguments: retry with exactly the tool and arguments of the call that returned it", c.tool)})}
		}
		c.answer(req.Params.InputResponses)
	} else {
		runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		c = &suspended{token: newStateToken(), tool: name, owner: owner, args: args, cancel: cancel, wake: make(chan struct{}, 1)}
		runCtx = context.WithValue(runCtx, suspendedKey{}, c)
		go func() {
			res := run(runCtx)
			c.mu.Lock()
			c.result = &res
			c.mu.Unlock()
			c.signal()
		}()
	}
	return s.awaitRound(ctx, req, c, start)
}

// answer hands the client's answer to the request the tool waits on. An
// answer to an older request (one that timed out and was asked again) is
// ignored: the tool then asks for the current one.
func (c *suspended) answer(responses mcp.InputResponseMap) {
	c.mu.Lock()
	q := c.pending
	var res *mcp.CreateMessageResult
	if q != nil {
		if r, ok := responses[q.id]; ok {
			res = samplingResult(r)
			c.pending = nil
		}
	}
	c.mu.Unlock()
	if res != nil {
		q.reply <- res
	}
}

// awaitRound waits until the tool returns (the final result) or asks the
// client's model (an input_required result). If this round's request is
// cancelled, so is the tool.
func (s *Server) awaitRound(ctx context.Context, req *mcp.CallToolRequest, c *suspended, start time.Time) called {
	name := req.Params.Name
	c.mu.Lock()
	c.round = &round{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken()}
	if c.expiry != nil {
		c.expiry.Stop()
	}
	c.mu.Unlock()
	for {
		c.mu.Lock()
		res, q := c.result, c.pending
		if res != nil || q != nil {
			c.round = nil
		}
		c.mu.Unlock()
		switch {
		case res != nil:
			s.suspended.drop(c)
			c.cancel()
			return *res
		case q != nil:
			s.suspended.put(c)
			c.mu.Lock()
			if c.expiry != nil {
				c.expiry.Stop()
			}
			ttl := s.suspended.ttl
			if ttl <= 0 {
				ttl = suspendedTTL
			}
			c.expiry = time.AfterFunc(ttl, func() {
				s.suspended.drop(c)
				c.cancel()
			})
			c.mu.Unlock()
			s.observe(name, "input_required", start)
			return called{res: &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{q.id: q.params}, RequestState: c.token}}
		}
		select {
		case <-c.wake:
		case <-ctx.Done():
			// The client gave up on the call: stop the tool and report
			// what it did (the input stays stored).
			s.suspended.drop(c)
			c.cancel()
			for {
				c.mu.Lock()
				res := c.result
				c.round = nil
				c.mu.Unlock()
				if res != nil {
					return *res
				}
				<-c.wake
			}
		}
	}
}

// samplingResult converts a client's sampling answer to the single-content
// form the sampling provider reads: its text blocks joined, or else its
// first block (which the provider rejects by type).
func samplingResult(r mcp.InputResponse) *mcp.CreateMessageResult {
	switch v := r.(type) {
	case *mcp.CreateMessageResult:
		return v
	case *mcp.CreateMessageWithToolsResult:
		out := &mcp.CreateMessageResult{Model: v.Model, Role: v.Role, StopReason: v.StopReason}
		var text []string
		for _, c := range v.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text = append(text, t.Text)
			}
		}
		switch {
		case len(text) > 0:
			out.Content = &mcp.TextContent{Text: strings.Join(text, "")}
		case len(v.Content) > 0:
			out.Content = v.Content[0]
		}
		return out
	default:
		// An elicitation or roots answer where a model answer was asked
		// for: no content, which the provider reports as such.
		return &mcp.CreateMessageResult{}
	}
}

// canonicalArgs is the arguments' JSON with object keys sorted, so that a
// retry matches its first call however the client ordered them.
func canonicalArgs(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

func newStateToken() string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	return "tg1." + base64.RawURLEncoding.EncodeToString(b[:])
}
