package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// validToolName is what Claude Desktop, claude.ai and other clients accept;
// one name outside it and they withhold the server's whole tool list.
var validToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// defaultListBudget bounds what the default tool list (no provider, a
// client without sampling) costs every model request, in ContextCost bytes.
const defaultListBudget = 9000

// openAIAt is a provider configuration for an OpenAI-compatible server at
// url; nothing is called when tools are listed.
func openAIAt(url string) llm.Config {
	cfg := llm.DefaultConfig()
	cfg.OpenAI.BaseURL = url + "/v1"
	return cfg
}

// listTools lists the tools of a new server with opts (a provider at
// provider's URL unless it is nil) to an in-memory client that declares
// sampling or not.
func listTools(t *testing.T, opts Options, provider *httptest.Server, sampling bool) []*mcp.Tool {
	t.Helper()
	svc := reasoning.New(nil, reasoning.Config{})
	if provider != nil {
		svc.EnableLLM(openAIAt(provider.URL), nil)
	}
	srv := New(svc, opts)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var copts *mcp.ClientOptions
	if sampling {
		copts = &mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, nil
		}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lister", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// sameNames reports whether two lists hold the same names, in any order
// (the SDK lists tools sorted by name).
func sameNames(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func toolNames(tools []*mcp.Tool) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

// unusedProvider is an OpenAI-compatible endpoint that fails the test if it
// is called: listing tools must not call a provider.
func unusedProvider(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the provider was called: %s %s", r.Method, r.URL)
		http.Error(w, "unexpected", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Every toolset lists exactly its tools, each under a name every client
// accepts.
func TestToolsetsListValidNames(t *testing.T) {
	provider := unusedProvider(t)
	want := map[string][]string{
		"think":      {"think", "clear_context"},
		"graph":      {"select_path", "backtrack", "show_current_path", "get_unexplored_branches"},
		"sequential": {"sequentialthinking"},
		"branch":     {"branch-thinking"},
		"reasoning":  {"reasoning_linear", "reasoning_tree", "reasoning_divergent", "reasoning_reflection"},
		"lux":        {"confer", "traced_reasoning", "planner", "biased_reasoning"},
	}
	var all []string
	for _, name := range ToolsetNames() {
		if name == ToolsetAll {
			continue
		}
		sets, err := ParseToolsets(name)
		if err != nil {
			t.Fatal(err)
		}
		got := toolNames(listTools(t, Options{Toolsets: sets}, provider, false))
		if !sameNames(got, want[name]) {
			t.Errorf("toolset %s lists %v, want %v", name, got, want[name])
		}
		all = append(all, got...)
	}
	got := toolNames(listTools(t, Options{}, provider, false))
	if !sameNames(got, all) || len(got) != 16 {
		t.Errorf("all lists %v, want the %d tools of every toolset %v", got, len(all), all)
	}
	for _, name := range got {
		if !validToolName.MatchString(name) {
			t.Errorf("tool name %q does not match %s", name, validToolName)
		}
	}
}

// SeedToolNames publishes mcp-langbase-reasoning's dotted names, and the tools answer to
// them.
func TestSeedToolNames(t *testing.T) {
	provider := unusedProvider(t)
	got := toolNames(listTools(t, Options{Toolsets: []string{"reasoning"}, SeedToolNames: true}, provider, false))
	want := []string{"reasoning.linear", "reasoning.tree", "reasoning.divergent", "reasoning.reflection"}
	if !sameNames(got, want) {
		t.Fatalf("seed names: %v, want %v", got, want)
	}
}

// The default list, without a provider and to a client that cannot sample,
// holds only tools that can run, and stays within its budget.
func TestDefaultToolListBudget(t *testing.T) {
	tools := listTools(t, Options{}, nil, false)
	got := toolNames(tools)
	want := []string{"think", "clear_context", "select_path", "backtrack", "show_current_path", "get_unexplored_branches", "sequentialthinking", "branch-thinking"}
	if !sameNames(got, want) {
		t.Fatalf("without a provider or sampling: %v, want %v", got, want)
	}
	total := 0
	for _, tool := range tools {
		total += ContextCost(tool)
	}
	if total > defaultListBudget {
		t.Errorf("the default tool list costs %d bytes (~%d tokens), over its budget of %d: shorten descriptions (field docs belong in the input schema)",
			total, EstimatedTokens(total), defaultListBudget)
	}
	t.Logf("default tool list: %d bytes, ~%d tokens", total, EstimatedTokens(total))
}

// OpenAI-compatible clients reject a tool description over 1,024
// characters.
func TestToolDescriptionsFit(t *testing.T) {
	for _, tool := range listTools(t, Options{}, unusedProvider(t), false) {
		if n := len([]rune(tool.Description)); n > 1024 || n < 40 {
			t.Errorf("%s: description of %d characters, want 40 to 1,024", tool.Name, n)
		}
	}
}

// With a provider configured, or to a client that declared sampling, the
// LLM-backed tools are listed.
func TestLLMToolsListedWhenTheyCanRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		provider *httptest.Server
		sampling bool
	}{{"provider", unusedProvider(t), false}, {"sampling", nil, true}} {
		got := toolNames(listTools(t, Options{}, c.provider, c.sampling))
		for _, name := range []string{"reasoning_linear", "reasoning_reflection", "confer", "planner"} {
			if !slices.Contains(got, name) {
				t.Errorf("%s: %s not listed in %v", c.name, name, got)
			}
		}
		if len(got) != 16 {
			t.Errorf("%s: %d tools listed, want 16", c.name, len(got))
		}
	}
	// Langbase runs the reasoning tools only.
	svc := reasoning.New(nil, reasoning.Config{})
	cfg := llm.DefaultConfig()
	cfg.Provider = llm.ProviderSampling
	cfg.Langbase.APIKey = "lb-key"
	svc.EnableLLM(cfg, nil)
	got := toolNames(New(svc, Options{}).ListedTools(false))
	if !slices.Contains(got, "reasoning_linear") || slices.Contains(got, "confer") {
		t.Errorf("Langbase with THINKGRAPH_LLM_PROVIDER=sampling: %v, want the reasoning tools and no Lux tool", got)
	}
}

func TestParseToolsets(t *testing.T) {
	for in, want := range map[string][]string{"": nil, "all": nil, "think, graph": {"think", "graph"}, "LUX": {"lux"}, "think,all": nil} {
		got, err := ParseToolsets(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseToolsets(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	_, err := ParseToolsets("think,memory")
	if err == nil || !strings.Contains(err.Error(), `"memory"`) || !strings.Contains(err.Error(), "think, graph, sequential, branch, reasoning, lux, all") {
		t.Errorf("unknown toolset: %v", err)
	}
}

// headerTransport adds X-MCP-Toolsets to every request.
type headerTransport struct{ value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-MCP-Toolsets", h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// Over HTTP, X-MCP-Toolsets narrows the tools of one request: listed and
// callable.
func TestToolsetsHeader(t *testing.T) {
	e := newTestEnv(t)
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return e.srv.MCP() }, nil))
	t.Cleanup(h.Close)
	connect := func(header string) *mcp.ClientSession {
		t.Helper()
		tr := &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: &http.Client{Transport: headerTransport{header}}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "narrow", Version: "1"}, nil).Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	cs := connect("think, sequential")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(res.Tools); !sameNames(got, []string{"think", "clear_context", "sequentialthinking"}) {
		t.Errorf("X-MCP-Toolsets: think, sequential lists %v", got)
	}
	mustCall(t, cs, "think", map[string]any{"thought": "allowed"})
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "show_current_path", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), `toolset "graph"`) || !strings.Contains(err.Error(), "X-MCP-Toolsets") {
		t.Errorf("a call outside the header's toolsets: %v", err)
	}
	_, err = connect("thinking").ListTools(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), `X-MCP-Toolsets header: unknown toolset "thinking"`) || !strings.Contains(err.Error(), "sequential") {
		t.Errorf("an unknown toolset in the header: %v", err)
	}
}
