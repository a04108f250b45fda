package mcpserver

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// The confidence-graph tools (docs/graph.md): select_path, backtrack, show_current_path,
// get_unexplored_branches.

type nodeOut struct {
	NodeID     string   `json:"node_id"`
	Thought    string   `json:"thought"`
	Confidence *float64 `json:"confidence" jsonschema:"null when the thought was written without a confidence"`
}

type pathNode struct {
	NodeID      string   `json:"node_id"`
	Thought     string   `json:"thought"`
	Confidence  *float64 `json:"confidence"`
	BranchPoint bool     `json:"branch_point"`
}

type alternativeOut struct {
	NodeID     string   `json:"node_id"`
	Thought    string   `json:"thought"`
	Confidence *float64 `json:"confidence"`
	Selected   bool     `json:"selected"`
}

type selectOutput struct {
	Status          string           `json:"status"`
	Message         string           `json:"message"`
	SelectedThought string           `json:"selected_thought"`
	CurrentNodeID   string           `json:"current_node_id"`
	SessionID       string           `json:"session_id"`
	BranchNodeID    string           `json:"branch_node_id,omitempty" jsonschema:"the branch point the alternatives hang from"`
	Alternatives    []alternativeOut `json:"alternatives,omitempty" jsonschema:"the alternatives written by this call"`
}

type backtrackOutput struct {
	Status        string   `json:"status" jsonschema:"success or no_target"`
	Message       string   `json:"message"`
	BacktrackedTo *nodeOut `json:"backtracked_to" jsonschema:"the thought that is now current; null with no_target"`
	CurrentNodeID string   `json:"current_node_id"`
	SessionID     string   `json:"session_id"`
}

type pathOutput struct {
	Path          []pathNode `json:"path"`
	TotalNodes    int        `json:"total_nodes"`
	BranchPoints  int        `json:"branch_points"`
	CurrentNodeID string     `json:"current_node_id"`
	SessionID     string     `json:"session_id"`
}

type unexploredBranch struct {
	BranchNodeID    string    `json:"branch_node_id"`
	BranchThought   string    `json:"branch_thought"`
	UnexploredCount int       `json:"unexplored_count"`
	Alternatives    []nodeOut `json:"alternatives"`
}

type unexploredOutput struct {
	Unexplored []unexploredBranch `json:"unexplored"`
	SessionID  string             `json:"session_id"`
	Message    string             `json:"message"`
}

func node(th thinkgraph.Thought) nodeOut {
	return nodeOut{NodeID: th.ID, Thought: th.Content, Confidence: th.Confidence}
}

var graphAnnotations = func(title string, readOnly, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, IdempotentHint: idempotent,
		DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)}
}

// selectPathArgs are select_path's arguments.
type selectPathArgs struct {
	sessionField
	NodeID        string           `json:"node_id,omitempty" jsonschema:"Instead of alternatives: an earlier alternative to follow."`
	SelectedIndex *integer         `json:"selected_index,omitempty" jsonschema:"0-based index of the alternative to follow."`
	Alternatives  []alternativeArg `json:"alternatives,omitempty" jsonschema:"Alternatives to record, at most 20."`
}

type alternativeArg struct {
	Thought    string  `json:"thought"`
	Confidence *number `json:"confidence"`
}

func (selectPathArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	s.Properties["selected_index"].Minimum = jsonschema.Ptr(0.0)
	alts := s.Properties["alternatives"]
	alts.MaxItems = jsonschema.Ptr(reasoning.MaxAlternatives)
	between(alts.Items.Properties["confidence"], 0, 1)
}

func (s *Server) addGraphTools() {
	threshold := s.svc.Config().ConfidenceThreshold
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:  "select_path",
			Title: "Select a path",
			Description: "At a branch point, record alternatives as children of the current thought and follow the one at selected_index; " +
				"the others stay unexplored. Or follow an earlier alternative by node_id alone. Returns the thought now current.",
			Annotations: graphAnnotations("Select a path", false, false),
		},
		output: selectOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *selectPathArgs) (any, error) {
			in := reasoning.SelectInput{Session: s.session(req, a.SessionID), NodeID: a.NodeID, SelectedIndex: (*int)(a.SelectedIndex)}
			if n := len(a.Alternatives); n > reasoning.MaxAlternatives {
				return nil, thinkgraph.Invalid("alternatives", fmt.Sprintf("at most %d alternatives", reasoning.MaxAlternatives), fmt.Sprint(n),
					"'alternatives' has %d entries; at most %d are allowed", n, reasoning.MaxAlternatives)
			}
			for _, alt := range a.Alternatives {
				in.Alternatives = append(in.Alternatives, reasoning.Alternative{Thought: alt.Thought, Confidence: (*float64)(alt.Confidence)})
			}
			res, err := s.svc.SelectPath(ctx, in)
			if err != nil {
				return nil, err
			}
			out := selectOutput{Status: "success", SelectedThought: res.Selected.Content, CurrentNodeID: res.Selected.ID, SessionID: res.Session.ID}
			for _, th := range res.Created {
				out.Alternatives = append(out.Alternatives, alternativeOut{NodeID: th.ID, Thought: th.Content, Confidence: th.Confidence, Selected: th.Selected})
			}
			if res.Parent != nil {
				out.BranchNodeID = res.Parent.ID
			}
			if in.NodeID != "" {
				out.Message = fmt.Sprintf("Now following thought %s (step %d).", res.Selected.ID, res.Selected.Step)
			} else {
				out.Message = fmt.Sprintf("Recorded %d alternatives; following alternative %d. The other %d stay unexplored.",
					len(res.Created), *in.SelectedIndex, len(res.Created)-1)
			}
			return out, nil
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:  "backtrack",
			Title: "Backtrack",
			Description: fmt.Sprintf("When a path fails: make the nearest earlier thought with confidence ≥ %.2g current. "+
				"Returns it (status success), or status no_target and changes nothing.", threshold),
			Annotations: graphAnnotations("Backtrack", false, false),
		},
		output: backtrackOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (any, error) {
			res, err := s.svc.Backtrack(ctx, s.session(req, in.SessionID))
			if err != nil {
				return nil, err
			}
			out := backtrackOutput{SessionID: res.Session.ID, CurrentNodeID: res.Session.CurrentThoughtID}
			switch {
			case res.Target != nil:
				n := node(*res.Target)
				out.Status, out.BacktrackedTo = "success", &n
				out.Message = fmt.Sprintf("Backtracked to step %d (confidence %.2g).", res.Target.Step, *res.Target.Confidence)
			case res.From == nil:
				out.Status, out.Message = "no_target", "The session has no thoughts yet; nothing to backtrack to."
			default:
				out.Status = "no_target"
				out.Message = fmt.Sprintf("No thought before the current one has confidence ≥ %.2g; the current thought is unchanged.", threshold)
			}
			return out, nil
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "show_current_path",
			Title:       "Show the current path",
			Description: "The path from the root to the current thought: each node's id, thought, confidence and whether it is a branch point.",
			Annotations: graphAnnotations("Show the current path", true, true),
		},
		output: pathOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (any, error) {
			sess, path, err := s.svc.CurrentPath(ctx, s.session(req, in.SessionID))
			if err != nil {
				return nil, err
			}
			out := pathOutput{Path: []pathNode{}, SessionID: sess.ID, CurrentNodeID: sess.CurrentThoughtID, TotalNodes: len(path)}
			for _, th := range path {
				out.Path = append(out.Path, pathNode{NodeID: th.ID, Thought: th.Content, Confidence: th.Confidence, BranchPoint: th.BranchPoint})
				if th.BranchPoint {
					out.BranchPoints++
				}
			}
			return out, nil
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "get_unexplored_branches",
			Title:       "Get unexplored branches",
			Description: "Branch points with alternatives never selected, and those alternatives; follow one with select_path {node_id}.",
			Annotations: graphAnnotations("Get unexplored branches", true, true),
		},
		output: unexploredOutput{},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (any, error) {
			sess, list, err := s.svc.UnexploredBranches(ctx, s.session(req, in.SessionID))
			if err != nil {
				return nil, err
			}
			out := unexploredOutput{Unexplored: []unexploredBranch{}, SessionID: sess.ID}
			total := 0
			for _, u := range list {
				b := unexploredBranch{BranchNodeID: u.BranchPoint.ID, BranchThought: u.BranchPoint.Content, UnexploredCount: len(u.Alternatives)}
				for _, alt := range u.Alternatives {
					b.Alternatives = append(b.Alternatives, node(alt))
				}
				total += len(u.Alternatives)
				out.Unexplored = append(out.Unexplored, b)
			}
			out.Message = fmt.Sprintf("%s with %s.", thinkgraph.Count(len(out.Unexplored), "branch point", ""), thinkgraph.Count(total, "unexplored alternative", ""))
			return out, nil
		}),
	})
}

// prefixed qualifies a validation error of a nested field with its parent.
func prefixed(prefix string, err error) error {
	te := thinkgraph.AsError(err)
	if te.Field != "" {
		te.Field = prefix + "." + te.Field
	}
	te.Message = prefix + ": " + te.Message
	return te
}
