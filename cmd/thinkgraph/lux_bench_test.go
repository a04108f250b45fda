package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkLuxOverStdio measures the latency the server adds around the
// model call as a client sees it in production: `thinkgraph serve` as its
// own process over stdio, the official Go SDK's client, and an
// OpenAI-compatible model on loopback HTTP that answers at once. For each
// tool it reports the p50 and p99 of each call's latency minus the time the
// model's handler took (added-p50/p99-ms), so what remains is the server's
// work plus the stdio and HTTP transfers and the client's own encoding;
// ping-p50/p99-ms, MCP pings on the same connection, show what transfers
// and the client alone cost.
//
// mcpserver's BenchmarkLuxOverhead measures the same calls in process,
// where the client's allocations and the server's share one heap.
func BenchmarkLuxOverStdio(b *testing.B) {
	var spent atomic.Int64 // nanoseconds inside the model's handler
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		defer func() { spent.Add(int64(time.Since(start))) }()
		var req struct {
			Logprobs bool `json:"logprobs"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		choice := map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant",
			"content": "Measure the slow queries of each service with the query log before changing anything."}}
		if req.Logprobs {
			var toks []any
			for i := range 30 {
				toks = append(toks, map[string]any{"token": fmt.Sprint(i), "logprob": -0.3, "bytes": nil, "top_logprobs": []any{
					map[string]any{"token": "a", "logprob": -0.3, "bytes": nil}, map[string]any{"token": "b", "logprob": -1.5, "bytes": nil}}})
			}
			choice["logprobs"] = map[string]any{"content": toks}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "bench-model",
			"choices": []any{choice}, "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130}})
	}))
	defer model.Close()

	for _, tool := range []string{"think", "confer", "traced_reasoning", "planner", "biased_reasoning"} {
		b.Run(tool, func(b *testing.B) {
			cmd := exec.Command(binary, "serve", "--db", filepath.Join(b.TempDir(), "bench.db"))
			cmd.Env = append(os.Environ(), "LOG_LEVEL=warn", "OPENAI_API_KEY=sk-bench", "OPENAI_BASE_URL="+model.URL+"/v1")
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
				&mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			const runLen = 10
			sid := ""
			args := func(i int) map[string]any {
				n := i%runLen + 1
				switch tool {
				case "think":
					return map[string]any{"thought": "Measure the slow queries first.", "session_id": sid}
				case "confer":
					return map[string]any{"message": "Which queries are slow?", "session_id": sid}
				case "traced_reasoning":
					return map[string]any{"thought": "Optimise slow database queries across microservices", "thought_number": n,
						"total_thoughts": runLen, "next_thought_needed": n < runLen, "session_id": sid}
				case "planner":
					return map[string]any{"step": "Plan the database optimisation", "step_number": n, "total_steps": runLen,
						"next_step_required": n < runLen, "session_id": sid}
				}
				if i%4 == 0 { // Query, Reasoning, BiasAnalysis (no bias), Synthesis
					return map[string]any{"query": "Should we shard the orders database?", "new_session": true}
				}
				return map[string]any{"session_id": sid}
			}
			callB := func(a map[string]any) map[string]any {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", tool, err, res)
				}
				out, _ := res.StructuredContent.(map[string]any)
				return out
			}
			first := args(0)
			delete(first, "session_id")
			sid, _ = callB(first)["session_id"].(string)
			// step makes call i and returns the latency it added.
			step := func(i int) time.Duration {
				a := args(i)
				spent0 := spent.Load()
				start := time.Now()
				out := callB(a)
				d := time.Since(start) - time.Duration(spent.Load()-spent0)
				if a["new_session"] == true {
					sid, _ = out["session_id"].(string)
				}
				return d
			}
			// Warm up the process (page faults, the lexicon, caches), as a
			// server that has been running does.
			const warm = 50
			for i := 1; i <= warm; i++ {
				step(i)
			}
			added := make([]time.Duration, 0, b.N)
			pings := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := warm + 1; i <= warm+b.N; i++ {
				added = append(added, step(i))
				start := time.Now()
				if err := cs.Ping(ctx, nil); err != nil {
					b.Fatal(err)
				}
				pings = append(pings, time.Since(start))
			}
			b.StopTimer()
			q := func(d []time.Duration, p float64) float64 {
				slices.Sort(d)
				return float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds()) / 1000
			}
			b.ReportMetric(q(added, 0.50), "added-p50-ms")
			b.ReportMetric(q(added, 0.99), "added-p99-ms")
			b.ReportMetric(q(pings, 0.50), "ping-p50-ms")
			b.ReportMetric(q(pings, 0.99), "ping-p99-ms")
		})
	}
}
