package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The graph app: linked from the tools that write to a session (and only
// those), served as a self-contained MCP App page, and the drawing it
// asks for is the session's SVG.
func TestGraphApp(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	ctx := context.Background()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, tool := range res.Tools {
		ui, _ := tool.Meta["ui"].(map[string]any)
		if ui != nil {
			if ui["resourceUri"] != graphAppURI {
				t.Errorf("%s: _meta.ui %v", tool.Name, ui)
			}
			linked[tool.Name] = true
		}
		if ro := tool.Annotations != nil && tool.Annotations.ReadOnlyHint; ro == linked[tool.Name] {
			t.Errorf("%s: read-only %v, linked to the app %v", tool.Name, ro, linked[tool.Name])
		}
	}
	for _, name := range []string{"think", "branch-thinking", "sequentialthinking", "select_path", "backtrack"} {
		if !linked[name] {
			t.Errorf("%s is not linked to the graph app", name)
		}
	}
	if linked[graphViewTool] {
		t.Errorf("%s listed to a client without MCP Apps", graphViewTool)
	}

	app, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: graphAppURI})
	if err != nil {
		t.Fatal(err)
	}
	c := app.Contents[0]
	if c.MIMEType != "text/html;profile=mcp-app" || !strings.Contains(c.Text, "ui/initialize") || !strings.Contains(c.Text, "ui/notifications/tool-result") {
		t.Errorf("app resource: %s, %d bytes", c.MIMEType, len(c.Text))
	}
	// Self-contained: nothing loaded from elsewhere.
	if m := regexp.MustCompile(`(?i)\b(src|href)\s*=|@import|url\(|https?://|fetch\(|XMLHttpRequest|WebSocket|<link`).FindString(c.Text); m != "" {
		t.Errorf("the app loads from outside: %q", m)
	}

	mustCall(t, cs, "branch-thinking", map[string]any{"session_id": "app-1", "content": "Sessions need a <store>", "type": "analysis"})
	svg, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "thinkgraph://sessions/app-1/svg"})
	if err != nil {
		t.Fatal(err)
	}
	if s := svg.Contents[0]; s.MIMEType != "image/svg+xml" || !strings.HasPrefix(s.Text, "<svg") || !strings.Contains(s.Text, `data-step="1"`) ||
		strings.Contains(s.Text, "<store>") {
		t.Errorf("svg view: %s %q", s.MIMEType, s.Text)
	}

	// A host that declared MCP Apps sees graph_view, for the app only, and
	// the app's call of it gets the same drawing.
	hs := e.connectAppsHost()
	res, err = hs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var view *mcp.Tool
	for _, tool := range res.Tools {
		if tool.Name == graphViewTool {
			view = tool
		}
	}
	if view == nil || fmt.Sprint(view.Meta["ui"]) != "map[resourceUri:ui://thinkgraph/graph visibility:[app]]" || !view.Annotations.ReadOnlyHint {
		t.Fatalf("graph_view for an MCP Apps host: %+v", view)
	}
	out := mustCall(t, hs, graphViewTool, map[string]any{"session_id": "app-1"})
	if out["session_id"] != "app-1" || out["total_steps"] != float64(1) || !strings.Contains(fmt.Sprint(out["svg"]), `data-step="1"`) {
		t.Errorf("graph_view: %v", out)
	}
	if _, text := mustFail(t, hs, graphViewTool, map[string]any{"session_id": "nobody"}); !strings.Contains(text, "SessionNotFoundError") && !strings.Contains(text, "not found") {
		t.Errorf("graph_view of a missing session: %s", text)
	}
}
