package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Guidance follows the toolsets: the instructions a connection gets at
// initialize, and the prompts it is offered, speak only of the tools it
// has (the server's toolsets, narrowed by an HTTP request's X-MCP-Toolsets
// header, the LLM-backed ones only when a model can answer them).

// guidanceParts are the sentences of the instructions, each for the
// toolsets it speaks of (all of them present), in order.
var guidanceParts = []struct {
	needs []string
	text  string
}{
	{nil, "thinkgraph keeps a persisted reasoning graph per session."},
	{[]string{"think", "graph"}, `Use "think" to record a reasoning step (with an optional confidence 0..1; below 0.6 the step becomes a branch point, then propose alternatives with "select_path" and use "backtrack" when a path fails).`},
	{[]string{"think", "!graph"}, `Use "think" to record a reasoning step.`},
	{[]string{"graph", "!think"}, `At a branch point, propose alternatives with "select_path"; use "backtrack" when a path fails and "show_current_path" to see where you are.`},
	{[]string{"sequential"}, `Use "sequentialthinking" for numbered steps with revisions.`},
	{[]string{"branch"}, `Use "branch-thinking" to reason in named branches and to check the reasoning: its commands find contradictions, circular reasoning, drift from the goal, knowledge gaps and the strongest path.`},
	{[]string{"reasoning"}, `The reasoning_* tools have a language model continue, branch, diverge on or reflect on a thought.`},
	{[]string{"lux"}, `"confer", "traced_reasoning", "biased_reasoning" and "planner" reason with a language model step by step.`},
	{nil, `Every tool takes an optional session_id; without it, calls go to this connection's own session (over HTTP on protocol 2026-07-28, each request is a connection of its own), and every response names the session: pass it to continue. Name a thought by its id or by its step ("#8").`},
}

// Instructions are the instructions of a connection with the toolsets
// sets (nil: every toolset).
func Instructions(sets []string) string {
	var parts []string
	for _, p := range guidanceParts {
		if hasAll(sets, p.needs) {
			parts = append(parts, p.text)
		}
	}
	return strings.Join(parts, " ")
}

// hasAll reports whether sets (nil: all) holds every name of needs and
// none of the names prefixed with "!".
func hasAll(sets, needs []string) bool {
	for _, n := range needs {
		if name, not := strings.CutPrefix(n, "!"); not == containsToolset(sets, name) {
			return false
		}
	}
	return true
}

// promptNeeds are the toolsets each prompt's text relies on.
var promptNeeds = map[string][]string{
	"think-step-by-step":   {"think", "graph"},
	"explore-alternatives": {"think", "graph"},
	"debate":               {"branch"},
	"review-reasoning":     {"branch"},
}

// PromptsFor are the names of the prompts a connection with the toolsets
// sets is offered, in order.
func PromptsFor(sets []string) []string {
	var out []string
	for _, name := range []string{"think-step-by-step", "explore-alternatives", "debate", "review-reasoning"} {
		if hasAll(sets, promptNeeds[name]) {
			out = append(out, name)
		}
	}
	return out
}

// connToolsets are the toolsets of a request's connection: the server's,
// narrowed by the request's X-MCP-Toolsets header, the LLM-backed ones
// only when a model is available to a client that did (sampling) or did
// not declare sampling.
func (s *Server) connToolsets(req mcp.Request, sampling bool) ([]string, error) {
	allowed, err := requestToolsets(req)
	var out []string
	for _, ts := range toolsets {
		if !containsToolset(s.opts.Toolsets, ts.name) || !containsToolset(allowed, ts.name) {
			continue
		}
		if ts.llm && !s.svc.ModelAvailable(ts.name == "reasoning", sampling) {
			continue
		}
		out = append(out, ts.name)
	}
	return out, err
}

// guide gives a connection the instructions and prompts of its toolsets.
func (s *Server) guide(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize", "server/discover":
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			sampling := false
			if c, ok := req.(interface {
				ClientCapabilities() *mcp.ClientCapabilities
			}); ok && c.ClientCapabilities() != nil {
				sampling = c.ClientCapabilities().Sampling != nil
			}
			// A bad header is answered at tools/list; the instructions
			// then speak of the server's toolsets.
			sets, _ := s.connToolsets(req, sampling)
			switch r := res.(type) {
			case *mcp.InitializeResult:
				out := *r
				out.Instructions = Instructions(sets)
				return &out, nil
			case *mcp.DiscoverResult:
				out := *r
				out.Instructions = Instructions(sets)
				return &out, nil
			}
			return res, nil
		case "prompts/list", "prompts/get":
			ss, _ := req.GetSession().(*mcp.ServerSession)
			sampling, _ := clientSampling(ss)
			sets, err := s.connToolsets(req, sampling)
			if err != nil {
				return nil, err
			}
			offered := PromptsFor(sets)
			if method == "prompts/get" {
				if r, ok := req.(*mcp.GetPromptRequest); ok && r.Params != nil && promptNeeds[r.Params.Name] != nil && !slices.Contains(offered, r.Params.Name) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
						"prompt %q needs the toolsets %s, which this connection does not have; its prompts: %s",
						r.Params.Name, strings.Join(promptNeeds[r.Params.Name], ", "), strings.Join(offered, ", "))}
				}
				return next(ctx, method, req)
			}
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListPromptsResult)
			if err != nil || !ok {
				return res, err
			}
			out := *lr
			out.Prompts = slices.DeleteFunc(slices.Clone(lr.Prompts), func(p *mcp.Prompt) bool { return !slices.Contains(offered, p.Name) })
			return &out, nil
		}
		return next(ctx, method, req)
	}
}

// Guidance returns the instructions and the prompts of a connection to the
// server (no X-MCP-Toolsets header) from a client that declared sampling
// or not.
func (s *Server) Guidance(clientSampling bool) (instructions string, prompts []string) {
	var sets []string
	for _, ts := range toolsets {
		if containsToolset(s.opts.Toolsets, ts.name) && (!ts.llm || s.svc.ModelAvailable(ts.name == "reasoning", clientSampling)) {
			sets = append(sets, ts.name)
		}
	}
	return Instructions(sets), PromptsFor(sets)
}
