package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The HTTP floor: the tools cmd/loadtest calls, answered from memory in
// thinkgraph's output shapes (mcpserver's thinkOutput, sequentialOutput,
// pathOutput and unexploredOutput).

type floorNode struct {
	NodeID      string   `json:"node_id"`
	Thought     string   `json:"thought"`
	Confidence  *float64 `json:"confidence"`
	BranchPoint bool     `json:"branch_point"`
}

type floorSession struct {
	mu   sync.Mutex
	path []floorNode
}

// memory holds the sessions by session_id.
type memory struct {
	fullPath bool
	mu       sync.Mutex
	sessions map[string]*floorSession
}

func (m *memory) session(id string) *floorSession {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		s = &floorSession{}
		m.sessions[id] = s
	}
	return s
}

// floorArgs are the arguments of the four tools.
type floorArgs struct {
	SessionID     string `json:"session_id"`
	Thought       string `json:"thought"`
	ThoughtNumber int    `json:"thoughtNumber"`
	TotalThoughts int    `json:"totalThoughts"`
	NextThought   bool   `json:"nextThoughtNeeded"`
}

// appendNode records a thought and returns its step and id.
func (s *floorSession) appendNode(thought string) (int, string) {
	id := uuid.Must(uuid.NewV7()).String()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.path = append(s.path, floorNode{NodeID: id, Thought: thought})
	return len(s.path), id
}

// answer renders out as thinkgraph does: the JSON as text and as structured
// content.
func answer(out any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
}

type thinkOut struct {
	Status               string `json:"status"`
	Step                 int    `json:"step"`
	Thought              string `json:"thought"`
	ContextSize          int    `json:"context_size"`
	SessionID            string `json:"session_id"`
	CurrentNodeID        string `json:"current_node_id"`
	RequiresAlternatives bool   `json:"requires_alternatives"`
	Message              string `json:"message"`
}

type sequentialOut struct {
	ThoughtNumber        int      `json:"thoughtNumber"`
	TotalThoughts        int      `json:"totalThoughts"`
	NextThoughtNeeded    bool     `json:"nextThoughtNeeded"`
	Branches             []string `json:"branches"`
	ThoughtHistoryLength int      `json:"thoughtHistoryLength"`
	Thought              string   `json:"thought"`
	SessionID            string   `json:"session_id"`
	NodeID               string   `json:"node_id"`
}

type pathOut struct {
	Path          []floorNode `json:"path"`
	TotalNodes    int         `json:"total_nodes"`
	BranchPoints  int         `json:"branch_points"`
	CurrentNodeID string      `json:"current_node_id"`
	SessionID     string      `json:"session_id"`
}

type unexploredOut struct {
	Unexplored []struct{} `json:"unexplored"`
	SessionID  string     `json:"session_id"`
	Message    string     `json:"message"`
}

func (m *memory) handle(name string, req *mcp.CallToolRequest) (any, error) {
	var a floorArgs
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return nil, err
		}
	}
	if a.SessionID == "" {
		return nil, errors.New("session_id is required")
	}
	s := m.session(a.SessionID)
	switch name {
	case "think":
		step, id := s.appendNode(a.Thought)
		return thinkOut{Status: "success", Step: step, Thought: a.Thought, ContextSize: min(step, 100), SessionID: a.SessionID,
			CurrentNodeID: id, Message: fmt.Sprintf("Thought recorded as step %d.", step)}, nil
	case "sequentialthinking":
		_, id := s.appendNode(a.Thought)
		return sequentialOut{ThoughtNumber: a.ThoughtNumber, TotalThoughts: max(a.TotalThoughts, a.ThoughtNumber), NextThoughtNeeded: a.NextThought,
			Branches: []string{}, ThoughtHistoryLength: a.ThoughtNumber, Thought: a.Thought, SessionID: a.SessionID, NodeID: id}, nil
	case "show_current_path":
		s.mu.Lock()
		path := s.path // its elements never change: appends write past len
		s.mu.Unlock()
		out := pathOut{Path: []floorNode{}, TotalNodes: len(path), SessionID: a.SessionID}
		if n := len(path); n > 0 {
			out.CurrentNodeID = path[n-1].NodeID
			if m.fullPath {
				out.Path = path
			} else {
				out.Path, out.TotalNodes = path[n-1:], 1
			}
		}
		return out, nil
	case "get_unexplored_branches":
		return unexploredOut{Unexplored: []struct{}{}, SessionID: a.SessionID, Message: "0 branch points with 0 unexplored alternatives."}, nil
	}
	return nil, fmt.Errorf("unknown tool %q", name)
}

// newHTTPFloor returns the MCP server of the HTTP floor.
func newHTTPFloor(fullPath bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "thinkgraph-http-floor", Version: "1.0.0"}, nil)
	m := &memory{fullPath: fullPath, sessions: map[string]*floorSession{}}
	str := &jsonschema.Schema{Type: "string"}
	props := map[string]*jsonschema.Schema{"session_id": str}
	writeProps := map[string]*jsonschema.Schema{"session_id": str, "thought": str}
	seqProps := map[string]*jsonschema.Schema{"session_id": str, "thought": str, "thoughtNumber": {Type: "integer"},
		"totalThoughts": {Type: "integer"}, "nextThoughtNeeded": {Type: "boolean"}}
	for name, p := range map[string]map[string]*jsonschema.Schema{
		"think": writeProps, "sequentialthinking": seqProps, "show_current_path": props, "get_unexplored_branches": props,
	} {
		srv.AddTool(&mcp.Tool{Name: name, Description: "go-sdk floor: " + name + " in memory", InputSchema: &jsonschema.Schema{Type: "object", Properties: p}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				out, err := m.handle(name, req)
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + err.Error()}}}, nil
				}
				return answer(out)
			})
	}
	return srv
}

// httpHandler serves the floor's MCP endpoint at /mcp, stateless as
// thinkgraph serve --stateless, and /readyz.
func httpHandler(fullPath bool) http.Handler {
	srv := newHTTPFloor(fullPath)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ready\n")) })
	return mux
}

// serveHTTP serves the HTTP floor on addr until SIGINT or SIGTERM, with a
// CPU profile of the run written to cpuProfile if it is not empty.
func serveHTTP(addr string, fullPath bool, cpuProfile string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	hs := &http.Server{Handler: httpHandler(fullPath), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = hs.Close()
	}()
	fmt.Fprintf(os.Stderr, "go-sdk HTTP floor on http://%s/mcp (stateless, full path: %v)\n", addr, fullPath)
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
