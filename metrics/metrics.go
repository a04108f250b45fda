// Package metrics counts what the server does and exposes it in the
// Prometheus text format at /metrics: tool calls by name and outcome with a
// latency histogram, store errors, and LLM invocations by provider and
// outcome. It has no dependencies; the set of series is small and fixed by
// the code, so a map under a mutex is enough.
package metrics

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// latencyBuckets are the histogram's upper bounds in seconds.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

// Registry holds the server's metrics. The zero value is not usable; use New.
type Registry struct {
	mu          sync.Mutex
	toolCalls   map[[2]string]uint64 // tool, outcome
	toolLatency map[string]*histogram
	storeErrors uint64
	llmCalls    map[[2]string]uint64 // provider, outcome
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{
		toolCalls:   map[[2]string]uint64{},
		toolLatency: map[string]*histogram{},
		llmCalls:    map[[2]string]uint64{},
	}
}

// ToolCall records one tool call. outcome is "ok", "tool_error" (the caller's
// input was rejected) or "internal_error".
func (r *Registry) ToolCall(tool, outcome string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.toolCalls[[2]string{tool, outcome}]++
	h := r.toolLatency[tool]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBuckets)+1)}
		r.toolLatency[tool] = h
	}
	s := d.Seconds()
	i := sort.SearchFloat64s(latencyBuckets, s)
	h.counts[i]++
	h.sum += s
	h.n++
}

// StoreError records a failed store operation.
func (r *Registry) StoreError() {
	r.mu.Lock()
	r.storeErrors++
	r.mu.Unlock()
}

// LLMCall records one LLM provider invocation.
func (r *Registry) LLMCall(provider string, success bool) {
	outcome := "ok"
	if !success {
		outcome = "error"
	}
	r.mu.Lock()
	r.llmCalls[[2]string{provider, outcome}]++
	r.mu.Unlock()
}

// WriteTo writes the metrics in the Prometheus text exposition format.
func (r *Registry) WriteTo(w io.Writer) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	b.WriteString("# HELP thinkgraph_tool_calls_total Tool calls by tool and outcome (ok, tool_error, internal_error).\n")
	b.WriteString("# TYPE thinkgraph_tool_calls_total counter\n")
	for _, k := range sortedKeys(r.toolCalls) {
		fmt.Fprintf(&b, "thinkgraph_tool_calls_total{tool=%q,outcome=%q} %d\n", k[0], k[1], r.toolCalls[k])
	}
	b.WriteString("# HELP thinkgraph_tool_call_duration_seconds Tool call latency.\n")
	b.WriteString("# TYPE thinkgraph_tool_call_duration_seconds histogram\n")
	tools := make([]string, 0, len(r.toolLatency))
	for t := range r.toolLatency {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	for _, t := range tools {
		h := r.toolLatency[t]
		var cum uint64
		for i, le := range latencyBuckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "thinkgraph_tool_call_duration_seconds_bucket{tool=%q,le=\"%g\"} %d\n", t, le, cum)
		}
		cum += h.counts[len(latencyBuckets)]
		fmt.Fprintf(&b, "thinkgraph_tool_call_duration_seconds_bucket{tool=%q,le=\"+Inf\"} %d\n", t, cum)
		fmt.Fprintf(&b, "thinkgraph_tool_call_duration_seconds_sum{tool=%q} %g\n", t, h.sum)
		fmt.Fprintf(&b, "thinkgraph_tool_call_duration_seconds_count{tool=%q} %d\n", t, h.n)
	}
	b.WriteString("# HELP thinkgraph_store_errors_total Store operations that failed.\n")
	b.WriteString("# TYPE thinkgraph_store_errors_total counter\n")
	fmt.Fprintf(&b, "thinkgraph_store_errors_total %d\n", r.storeErrors)
	b.WriteString("# HELP thinkgraph_llm_invocations_total LLM provider invocations by provider and outcome.\n")
	b.WriteString("# TYPE thinkgraph_llm_invocations_total counter\n")
	for _, k := range sortedKeys(r.llmCalls) {
		fmt.Fprintf(&b, "thinkgraph_llm_invocations_total{provider=%q,outcome=%q} %d\n", k[0], k[1], r.llmCalls[k])
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ServeHTTP serves the metrics.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = r.WriteTo(w)
}

func sortedKeys(m map[[2]string]uint64) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	return keys
}
