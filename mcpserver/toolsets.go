package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A toolset is a group of tools a server can offer or leave out (as
// github-mcp-server has them): --toolsets and THINKGRAPH_TOOLSETS choose the
// server's, the X-MCP-Toolsets header of an HTTP request narrows them.
// Each tool names its toolset (toolDef.toolset).
type toolset struct {
	name string
	// llm marks a toolset whose tools call a language model: they are
	// listed only to a client that can have them run (modelAvailable),
	// and for a client on a multi round-trip protocol their calls can be
	// suspended (mrtr.go).
	llm bool
}

var (
	thinkTools      = toolset{name: "think"}
	graphTools      = toolset{name: "graph"}
	sequentialTools = toolset{name: "sequential"}
	branchTools     = toolset{name: "branch"}
	reasoningTools  = toolset{name: "reasoning", llm: true}
	luxTools        = toolset{name: "lux", llm: true}
)

// toolsets are the toolsets, in the order they are listed.
var toolsets = []toolset{thinkTools, graphTools, sequentialTools, branchTools, reasoningTools, luxTools}

// ToolsetAll names every toolset.
const ToolsetAll = "all"

// ToolsetNames returns the names of the toolsets, in order, and "all".
func ToolsetNames() []string {
	names := make([]string, 0, len(toolsets)+1)
	for _, ts := range toolsets {
		names = append(names, ts.name)
	}
	return append(names, ToolsetAll)
}

// ParseToolsets parses a comma-separated list of toolset names, as
// --toolsets, THINKGRAPH_TOOLSETS and X-MCP-Toolsets take it. It returns nil
// (every toolset) for an empty list or one naming "all".
func ParseToolsets(list string) ([]string, error) {
	var out []string
	all := false
	for _, f := range strings.Split(list, ",") {
		name := strings.ToLower(strings.TrimSpace(f))
		switch {
		case name == "":
		case name == ToolsetAll:
			all = true
		case toolsetIndex(name) >= 0:
			out = append(out, name)
		default:
			return nil, fmt.Errorf("unknown toolset %q: want a comma-separated list of %s", name, strings.Join(ToolsetNames(), ", "))
		}
	}
	if all {
		return nil, nil
	}
	return out, nil
}

func toolsetIndex(name string) int {
	for i, ts := range toolsets {
		if ts.name == name {
			return i
		}
	}
	return -1
}

// containsToolset reports whether the toolsets list (nil: all) holds name.
func containsToolset(list []string, name string) bool {
	if list == nil {
		return true
	}
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

// seedToolNames are mcp-langbase-reasoning's names of the reasoning tools, which some
// clients reject (a dot is not allowed in a tool name by Claude Desktop,
// claude.ai, Codex or Copilot); Options.SeedToolNames publishes them.
var seedToolNames = map[string]string{
	"reasoning_linear":     "reasoning.linear",
	"reasoning_tree":       "reasoning.tree",
	"reasoning_divergent":  "reasoning.divergent",
	"reasoning_reflection": "reasoning.reflection",
}

// addToolsets registers the tools of the server's toolsets (addTool
// leaves out those of the others), in the order of toolsets, then the MCP
// App's own tool.
func (s *Server) addToolsets() {
	s.addThinkTools()
	s.addGraphTools()
	s.addSequentialTool()
	s.addBranchThinkingTool()
	s.addReasoningTools()
	s.addLuxTools()
	s.addAppTools()
}

// modelAvailable reports whether the tools of an llm toolset can run for a
// client: with a provider configured, or through the client's own model
// when it declared sampling.
func (s *Server) modelAvailable(ts toolset, ss *mcp.ServerSession) bool {
	sampling, _ := clientSampling(ss)
	return s.svc.ModelAvailable(ts.name == "reasoning", sampling)
}

// ListedTools returns the tools the server lists to a client that declared
// sampling or not, in registration order, as they are listed (with their
// output schemas); tools for apps only (graph_view) are not among them.
func (s *Server) ListedTools(clientSampling bool) []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range s.tools {
		if appOnly(t) {
			continue
		}
		if ts := s.toolsetOf[t.Name]; !ts.llm || s.svc.ModelAvailable(ts.name == "reasoning", clientSampling) {
			out = append(out, s.listed(t))
		}
	}
	return out
}

// toolsetsHeader narrows the toolsets of one HTTP request.
const toolsetsHeader = "X-MCP-Toolsets"

// requestToolsets returns the toolsets an HTTP request's X-MCP-Toolsets
// header allows (nil: no header, every toolset).
func requestToolsets(req mcp.Request) ([]string, error) {
	extra := req.GetExtra()
	if extra == nil || extra.Header == nil {
		return nil, nil
	}
	values := extra.Header.Values(http.CanonicalHeaderKey(toolsetsHeader))
	if len(values) == 0 {
		return nil, nil
	}
	list, err := ParseToolsets(strings.Join(values, ","))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: toolsetsHeader + " header: " + err.Error()}
	}
	if list == nil {
		return nil, nil
	}
	return list, nil
}

// filterTools lists only the tools a client can use: those of the toolsets
// its request allows, and the LLM-backed ones only when a model is
// available to it, each with its output schema (listed). A call of a tool outside the request's toolsets is
// refused; a call of an LLM-backed tool with no model available reaches the
// tool, whose error says which variables to set.
func (s *Server) filterTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			allowed, err := requestToolsets(req)
			if err != nil {
				return nil, err
			}
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if err != nil || !ok {
				return res, err
			}
			ss, _ := req.GetSession().(*mcp.ServerSession)
			available := map[string]bool{}
			tools := []*mcp.Tool{}
			for _, t := range lr.Tools {
				if appOnly(t) {
					if clientShowsApps(ss) {
						tools = append(tools, s.listed(t))
					}
					continue
				}
				ts := s.toolsetOf[t.Name]
				if !containsToolset(allowed, ts.name) {
					continue
				}
				if ts.llm {
					ok, seen := available[ts.name]
					if !seen {
						ok = s.modelAvailable(ts, ss)
						available[ts.name] = ok
					}
					if !ok {
						continue
					}
				}
				tools = append(tools, s.listed(t))
			}
			out := *lr
			out.Tools = tools
			return &out, nil
		case "tools/call":
			allowed, err := requestToolsets(req)
			if err != nil {
				return nil, err
			}
			if allowed != nil {
				name := callName(req)
				if ts, ok := s.toolsetOf[name]; ok && !containsToolset(allowed, ts.name) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
						"tool %q is in toolset %q, which this request's %s header (%s) leaves out: add %s to the header or drop the header",
						name, ts.name, toolsetsHeader, strings.Join(allowed, ","), ts.name)}
				}
			}
		}
		return next(ctx, method, req)
	}
}

// callName returns the tool name of a tools/call request.
func callName(req mcp.Request) string {
	if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
		return r.Params.Name
	}
	return ""
}

// ContextCost returns what a listed tool costs a model's context: the bytes
// of its name, description, input schema and _meta (compact JSON). The output
// schema is apart: clients use it to check results, and few send it to the
// model.
func ContextCost(t *mcp.Tool) int {
	in, err := json.Marshal(t.InputSchema)
	if err != nil {
		in = nil
	}
	meta := 0
	if len(t.Meta) > 0 {
		if b, err := json.Marshal(t.Meta); err == nil {
			meta = len(b)
		}
	}
	return len(t.Name) + len(t.Description) + len(in) + meta
}

// EstimatedTokens estimates the tokens of n bytes of English text and JSON
// (about 4 bytes a token).
func EstimatedTokens(n int) int { return (n + 3) / 4 }
