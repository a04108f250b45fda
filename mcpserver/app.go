package mcpserver

import (
	"context"
	_ "embed"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// The graph as an MCP App (the MCP Apps extension, SEP-1865): a UI
// resource that a host supporting MCP Apps shows inline after a tool that
// writes to a session, drawing that session's graph as the viewer does.
// Hosts without MCP Apps ignore the tools' _meta.ui and see the same
// results as before.
const (
	graphAppURI  = "ui://thinkgraph/graph"
	graphAppMIME = "text/html;profile=mcp-app"
)

// graphAppHTML is the app: one self-contained page (no outside script,
// style, font or request). Told a tool result (ui/notifications/tool-result),
// it asks its host for the session's drawing (a call of graph_view, or a
// read of thinkgraph://sessions/{session_id}/svg) and shows it.
//
//go:embed app/graph.html
var graphAppHTML string

// graphAppMeta links a tool to the app: the _meta of a tool that writes to
// a session.
var graphAppMeta = mcp.Meta{"ui": map[string]any{"resourceUri": graphAppURI}}

func (s *Server) addApp() {
	s.mcp.AddResource(&mcp.Resource{
		Name: "graph-app", Title: "Thought graph (MCP App)", URI: graphAppURI, MIMEType: graphAppMIME,
		Description: "The session's thought graph, drawn inline by hosts that support MCP Apps after each tool that writes to it.",
	}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: graphAppURI, MIMEType: graphAppMIME, Text: graphAppHTML,
			Meta: mcp.Meta{"ui": map[string]any{"prefersBorder": true}}}}}, nil
	})
}

// uiExtension is the id under which a client declares MCP Apps support
// (capabilities.extensions), with the MIME types it can show.
const uiExtension = "io.modelcontextprotocol/ui"

// graphViewTool is the app's own tool: the session's drawing. Its
// visibility is the app's only, and it is listed only to clients that
// declared MCP Apps, so it costs no model request anything.
const graphViewTool = "graph_view"

// appOnly reports whether t is for apps only (_meta.ui.visibility ["app"]).
func appOnly(t *mcp.Tool) bool {
	ui, _ := t.Meta["ui"].(map[string]any)
	v, _ := ui["visibility"].([]string)
	return len(v) > 0 && !slices.Contains(v, "model")
}

// clientShowsApps reports whether the client of ss declared MCP Apps
// support for the graph app's MIME type.
func clientShowsApps(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil {
		return false
	}
	ui, _ := ip.Capabilities.Extensions[uiExtension].(map[string]any)
	types, _ := ui["mimeTypes"].([]any)
	return slices.Contains(types, any(graphAppMIME))
}

// graphViewOutput is the result of graph_view.
type graphViewOutput struct {
	SessionID  string `json:"session_id"`
	TotalSteps int    `json:"total_steps"`
	SVG        string `json:"svg"`
}

// addAppTools registers graph_view, the graph app's way to ask for a
// session's current state.
func (s *Server) addAppTools() {
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        graphViewTool,
			Title:       "Thought graph (for the graph app)",
			Description: "The session's thought graph as SVG, for thinkgraph's graph app.",
			Annotations: &mcp.ToolAnnotations{Title: "Thought graph", ReadOnlyHint: true, OpenWorldHint: boolPtr(false)},
			Meta:        mcp.Meta{"ui": map[string]any{"resourceUri": graphAppURI, "visibility": []string{"app"}}},
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, in *sessionField) (graphViewOutput, reasoning.SessionRef, error) {
			var out graphViewOutput
			ref := s.session(req, in.SessionID)
			err := s.renderLoader().Render(ctx, ref, true, func(g *render.Graph) error {
				var buf strings.Builder
				err := render.SVG(&buf, s.drawn(g))
				out = graphViewOutput{SessionID: g.Session.ID, TotalSteps: g.Session.StepCount, SVG: buf.String()}
				return err
			})
			return out, ref, err
		}),
	})
}
