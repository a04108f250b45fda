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
// bench/run.sh builds it; it takes no arguments and serves stdio.
package main

import (
	"context"
	"encoding/json"
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
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "floor takes no arguments: it serves MCP over stdio")
		os.Exit(2)
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
