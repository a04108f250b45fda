// Command floor is the reference the benchmark measures the MCP Go SDK by:
// @modelcontextprotocol/server-sequential-thinking ported line for line to
// the same Go SDK thinkgraph is built on (github.com/modelcontextprotocol/go-sdk),
// with its in-memory thought history, its input and output schemas and its
// answer, and nothing of thinkgraph's (no database, no analysis).
//
// What it costs to start, to answer a call and to hold memory is what any
// server on this SDK pays at least, so bench/bench.mjs reports it beside
// thinkgraph and the official server: it shows how much of a ratio to the
// official server is the SDK's and how much is thinkgraph's own work.
//
// bench/run.sh builds it; without arguments it serves stdio.
//
// With -http ADDR it is instead the floor of the HTTP load test
// (scripts/loadtest.sh floor): the SDK's streamable HTTP handler in
// stateless mode, as thinkgraph serve --http --stateless runs it, with the
// four tools cmd/loadtest calls (think, sequentialthinking,
// show_current_path, get_unexplored_branches) answered from memory, per
// session_id, in thinkgraph's output shapes (the JSON both as text and as
// structured content). By default show_current_path answers with the
// current node only, so every answer has a small, constant size: what the
// SDK costs per call. With -full-path it answers the whole root-to-current
// path as thinkgraph does, so the answers grow with the session: what the
// load test's workload costs any server on this SDK (encoding, sending and
// decoding those answers), without a database.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// input and output are the official tool's schemas (its zod shapes).
type input struct {
	Thought           string `json:"thought"`
	NextThoughtNeeded bool   `json:"nextThoughtNeeded"`
	ThoughtNumber     int    `json:"thoughtNumber"`
	TotalThoughts     int    `json:"totalThoughts"`
	IsRevision        *bool  `json:"isRevision,omitempty"`
	RevisesThought    *int   `json:"revisesThought,omitempty"`
	BranchFromThought *int   `json:"branchFromThought,omitempty"`
	BranchID          string `json:"branchId,omitempty"`
	NeedsMoreThoughts *bool  `json:"needsMoreThoughts,omitempty"`
}

type output struct {
	ThoughtNumber        int      `json:"thoughtNumber"`
	TotalThoughts        int      `json:"totalThoughts"`
	NextThoughtNeeded    bool     `json:"nextThoughtNeeded"`
	Branches             []string `json:"branches"`
	ThoughtHistoryLength int      `json:"thoughtHistoryLength"`
}

// thinking is the official SequentialThinkingServer: the history and the
// branches, in memory. Calls on one connection may run concurrently in the
// Go SDK, so a channel serializes them as node's event loop does.
type thinking struct {
	lock     chan struct{}
	history  []input
	branches map[string][]input
	order    []string
}

func (t *thinking) process(_ context.Context, _ *mcp.CallToolRequest, in input) (*mcp.CallToolResult, output, error) {
	t.lock <- struct{}{}
	defer func() { <-t.lock }()
	if in.ThoughtNumber > in.TotalThoughts {
		in.TotalThoughts = in.ThoughtNumber
	}
	t.history = append(t.history, in)
	if in.BranchFromThought != nil && in.BranchID != "" {
		if _, ok := t.branches[in.BranchID]; !ok {
			t.order = append(t.order, in.BranchID)
		}
		t.branches[in.BranchID] = append(t.branches[in.BranchID], in)
	}
	out := output{
		ThoughtNumber: in.ThoughtNumber, TotalThoughts: in.TotalThoughts, NextThoughtNeeded: in.NextThoughtNeeded,
		Branches: slices.Clone(t.order), ThoughtHistoryLength: len(t.history),
	}
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, output{}, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, out, nil
}

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP (stateless) on this address, e.g. 127.0.0.1:18181, instead of stdio")
	fullPath := flag.Bool("full-path", false, "with -http: show_current_path answers the whole path, as thinkgraph does")
	cpuProfile := flag.String("cpuprofile", "", "with -http: write a CPU profile of the whole run to this file when stopped")
	flag.Parse()
	if flag.NArg() > 0 || (*httpAddr == "" && (*fullPath || *cpuProfile != "")) {
		fmt.Fprintln(os.Stderr, "usage: floor (stdio) | floor -http ADDR [-full-path] [-cpuprofile FILE]")
		os.Exit(2)
	}
	if *httpAddr != "" {
		if err := serveHTTP(*httpAddr, *fullPath, *cpuProfile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "sequential-thinking-go-sdk-floor", Version: "1.0.0"}, nil)
	t := &thinking{lock: make(chan struct{}, 1), branches: map[string][]input{}}
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "sequentialthinking",
		Description: "The official sequential thinking tool on the MCP Go SDK, as a benchmark reference.",
	}, t.process)
	fmt.Fprintln(os.Stderr, "Sequential Thinking MCP Server (go-sdk floor) running on stdio")
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
