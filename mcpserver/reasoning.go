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

type linearOutput struct {
	ThoughtID       string  `json:"thought_id" jsonschema:"id of the model's answer, stored as a thought of the session"`
	SessionID       string  `json:"session_id"`
	Content         string  `json:"content" jsonschema:"the reasoning the model wrote"`
	Confidence      float64 `json:"confidence"`
	PreviousThought *string `json:"previous_thought" jsonschema:"thought_id of the previous linear reasoning call of this session; null on the first"`
	InputThoughtID  string  `json:"input_thought_id" jsonschema:"id of the stored input"`
	Model           string  `json:"model,omitempty"`
}

type branchOut struct {
	BranchID   string   `json:"branch_id,omitempty"`
	Label      string   `json:"label,omitempty"`
	ThoughtID  string   `json:"thought_id"`
	Content    string   `json:"content"`
	Confidence *float64 `json:"confidence"`
}

type treeOutput struct {
	SessionID         string      `json:"session_id"`
	InputThoughtID    string      `json:"input_thought_id"`
	Branches          []branchOut `json:"branches"`
	RecommendedBranch string      `json:"recommended_branch"`
	Structured        bool        `json:"structured" jsonschema:"false when the model did not answer in the requested JSON and its whole answer became one branch"`
}

type divergentOutput struct {
	SessionID      string      `json:"session_id"`
	InputThoughtID string      `json:"input_thought_id"`
	Perspectives   []branchOut `json:"perspectives"`
	Synthesis      *branchOut  `json:"synthesis"`
	Structured     bool        `json:"structured"`
}

type reflectionIterationOut struct {
	Iteration         int     `json:"iteration"`
	Critique          string  `json:"critique"`
	CritiqueThoughtID string  `json:"critique_thought_id"`
	ImprovedThought   string  `json:"improved_thought"`
	ThoughtID         string  `json:"thought_id"`
	Confidence        float64 `json:"confidence"`
}

type reflectionOutput struct {
	SessionID         string                   `json:"session_id"`
	OriginalThoughtID string                   `json:"original_thought_id"`
	Iterations        []reflectionIterationOut `json:"iterations"`
	FinalThoughtID    string                   `json:"final_thought_id"`
	FinalContent      string                   `json:"final_content"`
}

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
	ThoughtID  string   `json:"thought_id,omitempty" jsonschema:"Reflect on this stored thought instead of new content"`
	Iterations *integer `json:"iterations,omitempty" jsonschema:"Critique-and-improve rounds"`
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
		llm: true,
		tool: &mcp.Tool{
			Name:        "reasoning_linear",
			Title:       "Linear reasoning",
			Description: "Single-pass reasoning: get a logical continuation or analysis of a thought. Returns the answer, its confidence and thought ids." + providerNote,
			Annotations: llmAnnotations("Linear reasoning"),
		},
		output: linearOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *reasoningArgs) (any, error) {
			in := s.reasoningInput(ctx, req, a)
			res, err := modes.Linear(ctx, in)
			if err != nil {
				return nil, err
			}
			return linearOutput{ThoughtID: res.Answer.ID, SessionID: res.Session.ID, Content: res.Answer.Content,
				Confidence: *res.Answer.Confidence, PreviousThought: res.PreviousThought, InputThoughtID: res.Input.ID, Model: res.Answer.Author}, nil
		}),
	})

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "reasoning_tree",
			Title: "Tree reasoning",
			Description: "Explore 2-4 alternative lines of reasoning, each a branch of the session graph. " +
				"Returns the branches and the one the model recommends." + providerNote,
			Annotations: llmAnnotations("Tree reasoning"),
		},
		output: treeOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *treeArgs) (any, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			res, err := modes.Tree(ctx, in, (*int)(a.NumBranches))
			if err != nil {
				return nil, err
			}
			out := treeOutput{SessionID: res.Session.ID, InputThoughtID: res.Input.ID, Structured: res.Structured}
			for _, b := range res.Branches {
				out.Branches = append(out.Branches, branchOut{BranchID: b.Thought.BranchID, ThoughtID: b.Thought.ID, Content: b.Thought.Content, Confidence: b.Thought.Confidence})
			}
			out.RecommendedBranch = res.Branches[res.Recommended].Thought.BranchID
			return out, nil
		}),
	})

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "reasoning_divergent",
			Title: "Divergent reasoning",
			Description: "Look at a problem from 2-5 different perspectives, then synthesise. " +
				"Returns the perspectives and the synthesis." + providerNote,
			Annotations: llmAnnotations("Divergent reasoning"),
		},
		output: divergentOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *divergentArgs) (any, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			res, err := modes.Divergent(ctx, in, (*int)(a.NumPerspectives))
			if err != nil {
				return nil, err
			}
			out := divergentOutput{SessionID: res.Session.ID, InputThoughtID: res.Input.ID, Structured: res.Structured, Perspectives: []branchOut{}}
			for _, p := range res.Perspectives {
				out.Perspectives = append(out.Perspectives, branchOut{Label: p.Label, ThoughtID: p.Thought.ID, Content: p.Thought.Content, Confidence: p.Thought.Confidence})
			}
			if res.Synthesis != nil {
				out.Synthesis = &branchOut{ThoughtID: res.Synthesis.ID, Content: res.Synthesis.Content, Confidence: res.Synthesis.Confidence}
			}
			return out, nil
		}),
	})

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "reasoning_reflection",
			Title: "Reflective reasoning",
			Description: fmt.Sprintf("Critique and improve a stored thought (thought_id) or new content, 1-%d rounds. "+
				"Returns each round's critique and improved thought, and the final one.", pipes.MaxReflectionIterations) + providerNote,
			Annotations: llmAnnotations("Reflective reasoning"),
		},
		output: reflectionOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *reflectionArgs) (any, error) {
			in := s.reasoningInput(ctx, req, &a.reasoningArgs)
			res, err := modes.Reflection(ctx, in, a.ThoughtID, (*int)(a.Iterations))
			if err != nil {
				return nil, err
			}
			out := reflectionOutput{SessionID: res.Session.ID, OriginalThoughtID: res.Original.ID}
			for i, it := range res.Iterations {
				out.Iterations = append(out.Iterations, reflectionIterationOut{Iteration: i + 1, Critique: it.Critique.Content, CritiqueThoughtID: it.Critique.ID,
					ImprovedThought: it.Improved.Content, ThoughtID: it.Improved.ID, Confidence: *it.Improved.Confidence})
			}
			last := res.Iterations[len(res.Iterations)-1].Improved
			out.FinalThoughtID, out.FinalContent = last.ID, last.Content
			return out, nil
		}),
	})
}
