package mcpserver

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
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

// thinkOutput is the think tool's result: the fields of the think tool and the confidence graph.
type thinkOutput struct {
	Status               string   `json:"status" jsonschema:"success without confidence; with confidence: branch (below the threshold: propose alternatives) or continue"`
	Step                 int      `json:"step" jsonschema:"1-based step number of this thought in the session"`
	Thought              string   `json:"thought" jsonschema:"the thought as recorded"`
	ContextSize          int      `json:"context_size" jsonschema:"thoughts in the session's context window"`
	SessionID            string   `json:"session_id" jsonschema:"the session this thought was recorded in"`
	CurrentNodeID        string   `json:"current_node_id" jsonschema:"id of the recorded thought, now the session's current node"`
	RequiresAlternatives bool     `json:"requires_alternatives" jsonschema:"true when confidence is below the threshold"`
	Confidence           *float64 `json:"confidence,omitempty" jsonschema:"the confidence given, if any"`
	Message              string   `json:"message"`
}

type clearOutput struct {
	Status      string `json:"status"`
	SessionID   string `json:"session_id"`
	Cleared     int    `json:"cleared" jsonschema:"thoughts that left the context window"`
	TotalSteps  int    `json:"total_steps" jsonschema:"thoughts in the session (none is deleted)"`
	ContextSize int    `json:"context_size"`
	Message     string `json:"message"`
}

func (s *Server) addThinkTools() {
	cfg := s.svc.Config()
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
		output: thinkOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *thinkArgs) (any, error) {
			res, err := s.svc.Think(ctx, reasoning.ThinkInput{Session: s.session(req, in.SessionID), Thought: in.Thought,
				Confidence: (*float64)(in.Confidence)})
			if err != nil {
				return nil, err
			}
			out := thinkOutput{
				Status: "success", Step: res.Thought.Step, Thought: res.Thought.Content, ContextSize: res.ContextSize,
				SessionID: res.Session.ID, CurrentNodeID: res.Thought.ID, Confidence: res.Thought.Confidence,
				Message: fmt.Sprintf("Thought recorded as step %d.", res.Thought.Step),
			}
			if c := res.Thought.Confidence; c != nil {
				if res.Thought.BranchPoint {
					out.Status, out.RequiresAlternatives = "branch", true
					out.Message = fmt.Sprintf("Thought recorded as step %d. Confidence %.2g is below %.2g: this is a branch point; "+
						"propose alternatives with select_path.", res.Thought.Step, *c, cfg.ConfidenceThreshold)
				} else {
					out.Status = "continue"
					out.Message = fmt.Sprintf("Thought recorded as step %d with confidence %.2g; continue.", res.Thought.Step, *c)
				}
			}
			return out, nil
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
		output: clearOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (any, error) {
			res, err := s.svc.ClearContext(ctx, s.session(req, in.SessionID))
			if err != nil {
				return nil, err
			}
			return clearOutput{
				Status: "success", SessionID: res.Session.ID, Cleared: res.Cleared, TotalSteps: res.Session.StepCount,
				Message: fmt.Sprintf("Context window cleared (%d thoughts left it; all %d stay in the session).", res.Cleared, res.Session.StepCount),
			}, nil
		}),
	})
}
