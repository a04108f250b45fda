package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/sequential"
)

const sequentialDescription = `Reason through a problem in numbered thoughts that can be revised and branched, for multi-step problems whose scope may change. Send one thought per call, nextThoughtNeeded false when done; adjust totalThoughts as you go; revise (isRevision, revisesThought) or branch (branchFromThought, branchId); a thought without branchId continues the main line. Returns the thought number, total, branches and history length. Differs from the original: history and branches belong to a persisted session (session_id), not the process; the response adds thought, session_id, node_id, branchId; branchId is 1-64 letters, digits, spaces or . _ : @ / -; a thought is at most 10,000 characters; errors name the field.`

func (s *Server) addSequentialTool() {
	st := sequential.New(s.svc)
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "sequentialthinking",
			Title:       "Sequential thinking",
			Description: sequentialDescription,
			Annotations: &mcp.ToolAnnotations{Title: "Sequential thinking", ReadOnlyHint: false, IdempotentHint: false,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)},
		},
		toolset:       sequentialTools,
		ignoreUnknown: true,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *sequentialArgs) (*sequential.Output, reasoning.SessionRef, error) {
			ref := s.session(req, a.SessionID)
			out, err := st.Think(ctx, sequential.Input{Session: ref, Thought: a.Thought,
				NextThoughtNeeded: bool(a.NextThoughtNeeded), ThoughtNumber: int(a.ThoughtNumber), TotalThoughts: int(a.TotalThoughts),
				IsRevision: bool(a.IsRevision), NeedsMoreThoughts: bool(a.NeedsMoreThoughts),
				RevisesThought: (*int)(a.RevisesThought), BranchFromThought: (*int)(a.BranchFromThought), BranchID: a.BranchID})
			return out, ref, err
		}),
	})
}

// sequentialArgs are sequentialthinking's arguments.
type sequentialArgs struct {
	sessionField
	Thought           string   `json:"thought" jsonschema:"Your current thinking step"`
	NextThoughtNeeded boolean  `json:"nextThoughtNeeded" jsonschema:"Whether another thought step is needed"`
	ThoughtNumber     integer  `json:"thoughtNumber" jsonschema:"Current thought number (numeric value, e.g., 1, 2, 3)"`
	TotalThoughts     integer  `json:"totalThoughts" jsonschema:"Estimated total thoughts needed (numeric value, e.g., 5, 10)"`
	IsRevision        boolean  `json:"isRevision,omitempty" jsonschema:"Whether this revises previous thinking"`
	NeedsMoreThoughts boolean  `json:"needsMoreThoughts,omitempty" jsonschema:"If more thoughts are needed"`
	RevisesThought    *integer `json:"revisesThought,omitempty" jsonschema:"Which thought is being reconsidered"`
	BranchFromThought *integer `json:"branchFromThought,omitempty" jsonschema:"Branching point thought number"`
	BranchID          string   `json:"branchId,omitempty" jsonschema:"Branch identifier"`
}

func (sequentialArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	for _, p := range s.Properties {
		if p.Type == "integer" {
			p.Minimum = jsonschema.Ptr(1.0)
		}
	}
}

func (sequentialArgs) missing(name string, v any) error {
	switch v.(type) {
	case string:
		return thinkgraph.Invalid(name, "a string", "none", "'%s' is required: this step of thinking, as a string", name)
	case boolean:
		return thinkgraph.Invalid(name, "true or false", "none", "'%s' is required: true or false", name)
	}
	return thinkgraph.Invalid(name, "an integer ≥ 1", "none", "'%s' is required: an integer ≥ 1", name)
}
