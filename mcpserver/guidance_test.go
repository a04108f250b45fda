package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// The instructions and the prompts a connection gets speak only of the
// tools it has: the server's toolsets, narrowed by the X-MCP-Toolsets
// header, the LLM-backed ones when a model can answer.
func TestGuidanceFollowsToolsets(t *testing.T) {
	tools := map[string]string{"think": "think", "graph": "select_path", "sequential": "sequentialthinking", "branch": "branch-thinking",
		"reasoning": "reasoning_", "lux": "traced_reasoning"}
	check := func(name string, cs *mcp.ClientSession, sets []string) {
		t.Helper()
		text := cs.InitializeResult().Instructions
		for ts, tool := range tools {
			if mentioned := strings.Contains(text, `"`+tool) || strings.Contains(text, tool+"*"); mentioned != slices.Contains(sets, ts) {
				t.Errorf("%s: instructions mention %s: %v, toolsets %v:\n%s", name, tool, mentioned, sets, text)
			}
		}
		ps, err := cs.ListPrompts(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range ps.Prompts {
			names = append(names, p.Name)
			got, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: p.Name, Arguments: map[string]string{"problem": "p", "question": "q", "session_id": "g"}})
			if err != nil && !strings.Contains(err.Error(), "not found") {
				t.Fatalf("%s: prompt %s: %v", name, p.Name, err)
			}
			if err != nil {
				continue
			}
			for ts, tool := range tools {
				if strings.Contains(got.Messages[0].Content.(*mcp.TextContent).Text, `"`+tool) && !slices.Contains(sets, ts) {
					t.Errorf("%s: prompt %s speaks of %s, toolsets %v", name, p.Name, tool, sets)
				}
			}
		}
		if want := PromptsFor(sets); !slices.Equal(names, want) && !sameNames(names, want) {
			t.Errorf("%s: prompts %v, want %v", name, names, want)
		}
		if !slices.Contains(names, "debate") {
			if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "debate", Arguments: map[string]string{"question": "q"}}); err == nil || !strings.Contains(err.Error(), "branch") {
				t.Errorf("%s: debate without branch-thinking: %v", name, err)
			}
		}
	}

	// The server's toolsets.
	e := newTestEnv(t)
	narrow := &testEnv{t: t, store: e.store, srv: New(reasoning.New(e.store, reasoning.Config{}), Options{Toolsets: []string{"think", "graph"}})}
	check("--toolsets think,graph", narrow.connect(), []string{"think", "graph"})
	check("every toolset, no model", e.connect(), []string{"think", "graph", "sequential", "branch"})
	sampler := e.connectWith(&mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return nil, nil
	}}, "")
	check("every toolset, a client that samples", sampler, []string{"think", "graph", "sequential", "branch", "reasoning", "lux"})
	fake := &fakeOpenAI{}
	check("every toolset and a provider", newLuxEnv(t, fake).connect(), []string{"think", "graph", "sequential", "branch", "reasoning", "lux"})

	// An HTTP request's header.
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return e.srv.MCP() }, nil))
	t.Cleanup(h.Close)
	tr := &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: &http.Client{Transport: headerTransport{"sequential,branch"}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "narrow", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	check("X-MCP-Toolsets: sequential,branch", cs, []string{"sequential", "branch"})
}
