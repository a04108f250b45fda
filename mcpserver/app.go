package mcpserver

import (
	"context"
	_ "embed"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// it asks its host to read thinkgraph://sessions/{session_id}/svg and
// shows the drawing.
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
