package metrics

import (
	"strings"
	"testing"
	"time"
)

func TestExposition(t *testing.T) {
	r := New()
	r.ToolCall("think", "ok", 700*time.Microsecond)
	r.ToolCall("think", "ok", 3*time.Millisecond)
	r.ToolCall("think", "tool_error", 40*time.Second)
	r.StoreError()
	r.LLMCall("openai", false)
	var b strings.Builder
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`thinkgraph_tool_calls_total{tool="think",outcome="ok"} 2`,
		`thinkgraph_tool_calls_total{tool="think",outcome="tool_error"} 1`,
		`thinkgraph_tool_call_duration_seconds_bucket{tool="think",le="0.0005"} 0`,
		`thinkgraph_tool_call_duration_seconds_bucket{tool="think",le="0.001"} 1`,
		`thinkgraph_tool_call_duration_seconds_bucket{tool="think",le="0.005"} 2`,
		`thinkgraph_tool_call_duration_seconds_bucket{tool="think",le="30"} 2`,
		`thinkgraph_tool_call_duration_seconds_bucket{tool="think",le="+Inf"} 3`,
		`thinkgraph_tool_call_duration_seconds_count{tool="think"} 3`,
		`thinkgraph_store_errors_total 1`,
		`thinkgraph_llm_invocations_total{provider="openai",outcome="error"} 1`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
