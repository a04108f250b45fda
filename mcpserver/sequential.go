package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// sequentialOutput has the fields of the official server's result, plus the
// recorded thought, the session and the thought's node id.
type sequentialOutput struct {
	ThoughtNumber        int      `json:"thoughtNumber"`
	TotalThoughts        int      `json:"totalThoughts"`
	NextThoughtNeeded    bool     `json:"nextThoughtNeeded"`
	Branches             []string `json:"branches"`
	ThoughtHistoryLength int      `json:"thoughtHistoryLength" jsonschema:"thoughts in this session's history"`
	Thought              string   `json:"thought" jsonschema:"the thought as recorded"`
	SessionID            string   `json:"session_id"`
	NodeID               string   `json:"node_id" jsonschema:"id of the recorded thought in the session graph"`
	BranchID             string   `json:"branchId,omitempty"`
}

const sequentialDescription = `Reason through a problem in numbered thoughts that can be revised and branched, for multi-step problems whose scope may change. Send one thought per call, nextThoughtNeeded false when done; adjust totalThoughts as you go; revise (isRevision, revisesThought) or branch (branchFromThought, branchId); a thought without branchId continues the main line. Returns the thought number, total, branches and history length. Differs from the original: history and branches belong to a persisted session (session_id), not the process; the response adds thought, session_id, node_id, branchId; branchId is 1-64 letters, digits, spaces or . _ : @ / -; a thought is at most 10,000 characters; errors name the field.`

func (s *Server) addSequentialTool() {
	intProp := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: desc}
	}
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "sequentialthinking",
			Title:       "Sequential thinking",
			Description: sequentialDescription,
			InputSchema: &jsonschema.Schema{
				Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"thought":           {Type: "string", Description: "Your current thinking step"},
					"nextThoughtNeeded": {Type: "boolean", Description: "Whether another thought step is needed"},
					"thoughtNumber":     intProp("Current thought number (numeric value, e.g., 1, 2, 3)"),
					"totalThoughts":     intProp("Estimated total thoughts needed (numeric value, e.g., 5, 10)"),
					"isRevision":        {Type: "boolean", Description: "Whether this revises previous thinking"},
					"revisesThought":    intProp("Which thought is being reconsidered"),
					"branchFromThought": intProp("Branching point thought number"),
					"branchId":          {Type: "string", Description: "Branch identifier"},
					"needsMoreThoughts": {Type: "boolean", Description: "If more thoughts are needed"},
					"session_id":        sessionIDProp,
				},
				Required: []string{"thought", "nextThoughtNeeded", "thoughtNumber", "totalThoughts"},
			},
			Annotations: &mcp.ToolAnnotations{Title: "Sequential thinking", ReadOnlyHint: false, IdempotentHint: false,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)},
		},
		output:        sequentialOutput{},
		ignoreUnknown: true,
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.sessionRef(req, a)
			if err != nil {
				return nil, err
			}
			in := reasoning.SequentialInput{Session: ref}
			var given bool
			if in.Thought, given, err = a.str("thought"); err != nil {
				return nil, err
			} else if !given {
				return nil, thinkgraph.Invalid("thought", "a string", "none", "'thought' is required: this step of thinking, as a string")
			}
			next, err := requiredBool(a, "nextThoughtNeeded")
			if err != nil {
				return nil, err
			}
			in.NextThoughtNeeded = next
			for _, f := range []struct {
				name string
				dst  *int
			}{{"thoughtNumber", &in.ThoughtNumber}, {"totalThoughts", &in.TotalThoughts}} {
				n, err := a.integer(f.name)
				if err != nil {
					return nil, err
				}
				if n == nil {
					return nil, thinkgraph.Invalid(f.name, "an integer ≥ 1", "none", "'%s' is required: an integer ≥ 1", f.name)
				}
				*f.dst = *n
			}
			if b, err := a.boolean("isRevision"); err != nil {
				return nil, err
			} else if b != nil {
				in.IsRevision = *b
			}
			if b, err := a.boolean("needsMoreThoughts"); err != nil {
				return nil, err
			} else if b != nil {
				in.NeedsMoreThoughts = *b
			}
			if in.RevisesThought, err = a.integer("revisesThought"); err != nil {
				return nil, err
			}
			if in.BranchFromThought, err = a.integer("branchFromThought"); err != nil {
				return nil, err
			}
			if in.BranchID, _, err = a.str("branchId"); err != nil {
				return nil, err
			}
			res, err := s.svc.Sequential(ctx, in)
			if err != nil {
				return nil, err
			}
			out := sequentialOutput{
				ThoughtNumber: in.ThoughtNumber, TotalThoughts: res.TotalThoughts, NextThoughtNeeded: in.NextThoughtNeeded,
				Branches: res.Branches, ThoughtHistoryLength: res.Session.StepCount, Thought: res.Thought.Content,
				SessionID: res.Session.ID, NodeID: res.Thought.ID,
			}
			if res.Thought.BranchID != thinkgraph.DefaultBranch {
				out.BranchID = res.Thought.BranchID
			}
			return out, nil
		},
	})
}

func requiredBool(a *args, name string) (bool, error) {
	b, err := a.boolean(name)
	if err != nil {
		return false, err
	}
	if b == nil {
		return false, thinkgraph.Invalid(name, "true or false", "none", "'%s' is required: true or false", name)
	}
	return *b, nil
}
