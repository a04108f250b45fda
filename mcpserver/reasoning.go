package mcpserver

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/pipes"
)

// The reasoning tools of mcp-langbase-reasoning (reasoning_linear, ...; mcp-langbase-reasoning named them
// reasoning.linear, ..., see Options.SeedToolNames).

// llmCall gives the service the connection's sampling (when the client
// declared it), progress notifications (when the call has a progress token),
// and metrics.
func (s *Server) llmCall(ctx context.Context, req *mcp.CallToolRequest) reasoning.LLMCall {
	var call reasoning.LLMCall
	if c := suspendedFrom(ctx); c != nil {
		// A multi round-trip client (protocol 2026-07-28 and later): the
		// client's model answers through input_required results.
		call.Sampler = c.sample
		call.Progress = c.progress
	} else if ss := req.Session; ss != nil {
		// Older protocols: sampling is a request to the client during the
		// call.
		if declared, mrtr := clientSampling(ss); declared && !mrtr {
			call.Sampler = ss.CreateMessage
		}
		if token := req.Params.GetProgressToken(); token != nil {
			var n atomic.Int64
			call.Progress = func(attempt int, msg string) {
				_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n.Add(1)), Message: msg})
			}
		}
	}
	if s.opts.Metrics != nil {
		call.Observe = s.opts.Metrics.LLMCall
	}
	return call
}

// reasoningArgs are the arguments every reasoning tool takes.
type reasoningArgs struct {
	SessionID  *string `json:"session_id,omitempty" jsonschema:"A session id from an earlier response (it must exist); omit it for this connection's own"`
	Content    string  `json:"content" jsonschema:"The thought content to process"`
	Confidence *number `json:"confidence,omitempty" jsonschema:"Confidence threshold (0.0-1.0)"`
}

func (reasoningArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	between(s.Properties["confidence"], 0, 1)
}

type treeArgs struct {
	reasoningArgs
	NumBranches *integer `json:"num_branches,omitempty" jsonschema:"How many branches (2-4, default 3)"`
}

func (a treeArgs) constrain(s *jsonschema.Schema, cfg reasoning.Config) {
	a.reasoningArgs.constrain(s, cfg)
	between(s.Properties["num_branches"], 2, 4)
}

type divergentArgs struct {
	reasoningArgs
	NumPerspectives *integer `json:"num_perspectives,omitempty" jsonschema:"How many perspectives (2-5, default 3)"`
}

func (a divergentArgs) constrain(s *jsonschema.Schema, cfg reasoning.Config) {
	a.reasoningArgs.constrain(s, cfg)
	between(s.Properties["num_perspectives"], 2, 5)
}

type reflectionArgs struct {
	reasoningArgs
	ThoughtID  thoughtArg `json:"thought_id,omitempty" jsonschema:"Reflect on this stored thought instead of new content"`
	Iterations *integer   `json:"iterations,omitempty" jsonschema:"Critique-and-improve rounds"`
}

func (a reflectionArgs) constrain(s *jsonschema.Schema, cfg reasoning.Config) {
	a.reasoningArgs.constrain(s, cfg)
	between(s.Properties["iterations"], 1, pipes.MaxReflectionIterations)
	s.Required = nil // thought_id may name the thought instead of content
}

func (s *Server) reasoningInput(ctx context.Context, req *mcp.CallToolRequest, a *reasoningArgs) pipes.ReasoningInput {
	return pipes.ReasoningInput{Session: s.session(req, a.SessionID), Call: s.llmCall(ctx, req), Content: a.Content,
		Confidence: (*float64)(a.Confidence)}
}

func llmAnnotations(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(true)}
}

const providerNote = " A language model answers (a Langbase pipe, the configured provider, or your client's model); input and answer are stored in the session."

func (s *Server) addReasoningTools() {
	modes := pipes.New(s.svc)
	s.addTool(toolDef{
		toolset: reasoningTools,
		tool: &mcp.Tool{
			Name:        "reasoning_linear",
			Title:       "Linear reasoning",
			Description: "Single-pass reasoning: get a logical continuation or analysis of a thought. Returns the answer, its confidence and thought ids." + providerNote,
			Annotations: llmAnnotations("Linear reasoning"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *reasoningArgs) (*pipes.LinearResult, reasoning.SessionRef, error) {
			in := s.reasoningInput(ctx, req, a)
			out, err := modes.Linear(ctx, in)
			return out, in.Session, err
		}),
	})

	s.addTool(toolDef{
		toolset: reasoningTools,
		tool: &mcp.Tool{
			Name:  "reasoning_tree",
			Title: "Tree reasoning",
			Description: "Explore 2-4 alternative lines of reasoning, each a branch of the session graph. " +
				"Returns the branches and the one the model recommends." + providerNote,
			Annotations: llmAnnotations("Tree reasoning"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *treeArgs) (*pipes.TreeResult, reasoning.SessionRef, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			out, err := modes.Tree(ctx, in, (*int)(a.NumBranches))
			return out, in.Session, err
		}),
	})

	s.addTool(toolDef{
		toolset: reasoningTools,
		tool: &mcp.Tool{
			Name:  "reasoning_divergent",
			Title: "Divergent reasoning",
			Description: "Look at a problem from 2-5 different perspectives, then synthesise. " +
				"Returns the perspectives and the synthesis." + providerNote,
			Annotations: llmAnnotations("Divergent reasoning"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *divergentArgs) (*pipes.DivergentResult, reasoning.SessionRef, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			out, err := modes.Divergent(ctx, in, (*int)(a.NumPerspectives))
			return out, in.Session, err
		}),
	})

	s.addTool(toolDef{
		toolset: reasoningTools,
		tool: &mcp.Tool{
			Name:  "reasoning_reflection",
			Title: "Reflective reasoning",
			Description: fmt.Sprintf("Critique and improve a stored thought (thought_id) or new content, 1-%d rounds. "+
				"Returns each round's critique and improved thought, and the final one.", pipes.MaxReflectionIterations) + providerNote,
			Annotations: llmAnnotations("Reflective reasoning"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *reflectionArgs) (*pipes.ReflectionResult, reasoning.SessionRef, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			out, err := modes.Reflection(ctx, in, string(a.ThoughtID), (*int)(a.Iterations))
			return out, in.Session, err
		}),
	})
}
