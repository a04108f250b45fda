package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

const sessionURIPrefix = "thinkgraph://sessions/"

func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "session-context",
		Title:       "Think log of a session",
		URITemplate: sessionURIPrefix + "{session_id}/context",
		Description: "The session's think log as seed 004 formats it (\"Previous thoughts in this session:\" then \"Step N (timestamp):\" and the thought), followed by its summary.",
		MIMEType:    "text/plain",
	}, s.readContext)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "session-summary",
		Title:       "Summary of a session",
		URITemplate: sessionURIPrefix + "{session_id}/summary",
		Description: "JSON summary of a session: session_id, total_steps, context_size, created_at, last_updated.",
		MIMEType:    "application/json",
	}, s.readContext)
}

func (s *Server) readContext(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, sessionURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	id, kind, ok := strings.Cut(rest, "/")
	if !ok || (kind != "context" && kind != "summary") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	w, err := s.svc.Context(ctx, reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenantOf(req.Extra)})
	if err != nil {
		if te := thinkgraph.AsError(err); te.Code == thinkgraph.CodeSessionNotFound || te.Code == thinkgraph.CodeValidation {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, err
	}
	summary, err := json.MarshalIndent(w.Summary, "", "  ")
	if err != nil {
		return nil, err
	}
	if kind == "summary" {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(summary)}}}, nil
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/plain", Text: w.Formatted()},
		{URI: sessionURIPrefix + id + "/summary", MIMEType: "application/json", Text: string(summary)},
	}}, nil
}
