package mcpserver

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/graph"
)

// The confidence-graph tools (docs/graph.md): select_path, backtrack, show_current_path,
// get_unexplored_branches.

var graphAnnotations = func(title string, readOnly, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, IdempotentHint: idempotent,
		DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)}
}

// selectPathArgs are select_path's arguments.
type selectPathArgs struct {
	sessionField
	NodeID        thoughtArg       `json:"node_id,omitempty" jsonschema:"Instead of alternatives: an earlier alternative to follow (id or step, #8)."`
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
	alts.MaxItems = jsonschema.Ptr(graph.MaxAlternatives)
	between(alts.Items.Properties["confidence"], 0, 1)
}

func (s *Server) addGraphTools() {
	threshold := s.svc.Config().ConfidenceThreshold
	g := graph.New(s.svc)
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:  "select_path",
			Title: "Select a path",
			Description: "At a branch point, record alternatives as children of the current thought and follow the one at selected_index; " +
				"the others stay unexplored. Or follow an earlier alternative by node_id alone. Returns the thought now current.",
			Annotations: graphAnnotations("Select a path", false, false),
		},
		toolset: graphTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *selectPathArgs) (*graph.SelectOutput, reasoning.SessionRef, error) {
			in := graph.SelectInput{Session: s.session(req, a.SessionID), NodeID: string(a.NodeID), SelectedIndex: (*int)(a.SelectedIndex)}
			if n := len(a.Alternatives); n > graph.MaxAlternatives {
				return nil, in.Session, thinkgraph.Invalid("alternatives", fmt.Sprintf("at most %d alternatives", graph.MaxAlternatives), fmt.Sprint(n),
					"'alternatives' has %d entries; at most %d are allowed", n, graph.MaxAlternatives)
			}
			for _, alt := range a.Alternatives {
				in.Alternatives = append(in.Alternatives, graph.Alternative{Thought: alt.Thought, Confidence: (*float64)(alt.Confidence)})
			}
			out, err := g.SelectPath(ctx, in)
			return out, in.Session, err
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
		toolset: graphTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (*graph.BacktrackOutput, reasoning.SessionRef, error) {
			ref := s.session(req, in.SessionID)
			out, err := g.Backtrack(ctx, ref)
			return out, ref, err
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "show_current_path",
			Title:       "Show the current path",
			Description: "The path from the root to the current thought: each node's id, thought, confidence and whether it is a branch point.",
			Annotations: graphAnnotations("Show the current path", true, true),
		},
		toolset: graphTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *pagedArgs) (*graph.PathOutput, reasoning.SessionRef, error) {
			ref := s.session(req, in.SessionID)
			out, err := g.CurrentPath(ctx, graph.PathInput{Session: ref, Page: in.page()})
			return out, ref, err
		}),
	})

	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "get_unexplored_branches",
			Title:       "Get unexplored branches",
			Description: "Branch points with alternatives never selected, and those alternatives; follow one with select_path {node_id}.",
			Annotations: graphAnnotations("Get unexplored branches", true, true),
		},
		toolset: graphTools,
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *pagedArgs) (*graph.UnexploredOutput, reasoning.SessionRef, error) {
			ref := s.session(req, in.SessionID)
			out, err := g.UnexploredBranches(ctx, graph.UnexploredInput{Session: ref, Page: in.page()})
			return out, ref, err
		}),
	})
}

// pagedArgs are the arguments of a tool that lists: the session, and the
// cursor of an earlier result's page.
type pagedArgs struct {
	sessionField
	Cursor string `json:"cursor,omitempty" jsonschema:"page.cursor of a result, for the next items."`
}

func (a *pagedArgs) page() reasoning.PageArgs { return reasoning.PageArgs{Cursor: a.Cursor} }

// prefixed qualifies a validation error of a nested field with its parent.
func prefixed(prefix string, err error) error {
	te := thinkgraph.AsError(err)
	if te.Field != "" {
		te.Field = prefix + "." + te.Field
	}
	te.Message = prefix + ": " + te.Message
	return te
}
