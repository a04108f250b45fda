package mcpserver

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/think"
)

// thinkArgs are the think tool's arguments.
type thinkArgs struct {
	sessionField
	Thought    string  `json:"thought" jsonschema:"The reasoning step, specific and detailed."`
	Confidence *number `json:"confidence,omitempty" jsonschema:"Confidence in the thought, 0 to 1."`
}

func (thinkArgs) constrain(s *jsonschema.Schema, cfg reasoning.Config) {
	s.Properties["thought"].MaxLength = &cfg.MaxThoughtLength
	between(s.Properties["confidence"], 0, 1)
}

func (s *Server) addThinkTools() {
	cfg := s.svc.Config()
	log := think.New(s.svc)
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:  "think",
			Title: "Think",
			Description: "Append a reasoning step to the session's log (nothing else changes): to plan, check a result against the rules, " +
				"or work through a problem step by step. " +
				fmt.Sprintf("With a confidence below %.2g the thought becomes a branch point (status \"branch\"): propose alternatives with select_path. ", cfg.ConfidenceThreshold) +
				"Returns the step number, status and the thought's node id.",
			Annotations: &mcp.ToolAnnotations{
				Title: "Think", ReadOnlyHint: false, IdempotentHint: false,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false),
			},
		},
		toolset: thinkTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *thinkArgs) (*think.Output, reasoning.SessionRef, error) {
			ref := s.session(req, in.SessionID)
			out, err := log.Think(ctx, think.Input{Session: ref, Thought: in.Thought, Confidence: (*float64)(in.Confidence)})
			return out, ref, err
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "clear_context",
			Title:       "Clear think context",
			Description: "Start the think log's context window afresh; the thoughts stay stored. Returns how many left the window.",
			Annotations: &mcp.ToolAnnotations{
				Title: "Clear think context", IdempotentHint: true,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false),
			},
		},
		toolset: thinkTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (*think.ClearOutput, reasoning.SessionRef, error) {
			ref := s.session(req, in.SessionID)
			out, err := log.ClearContext(ctx, ref)
			return out, ref, err
		}),
	})
}
