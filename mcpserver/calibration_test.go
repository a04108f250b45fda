package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The new-user session: a focused comparison of message queues for
// a goal that few of its words repeat. Its on-topic thoughts must not be
// called Poor, told to pivot, said not to be about the goal, or flagged as
// drifting; a branch that wanders off to an unrelated subject over several
// thoughts must still be flagged.
func TestBranchThinkingCalibratedAdviceOnFocusedSession(t *testing.T) {
	e := newSemanticTestEnv(t)
	s := btSession{t, e.connect(), "queues"}
	s.cmd("setGoal", map[string]any{"goal": "Choose a message queue for order events"})
	kafka := []string{
		"Kafka fits order events because it keeps an ordered, replayable log per partition",
		"Partitioning the topic by order id keeps all events of one order in sequence",
		"Consumers can replay the log to rebuild the order read model after a bug",
		"Running Kafka ourselves means operating brokers, upgrades and disk capacity",
	}
	sqs := []string{
		"SQS removes operations work because AWS runs the brokers",
		"A FIFO queue with the order id as message group keeps each order's events in order",
		"SQS deletes a message once it is consumed, so replaying old order events needs a separate archive",
		"FIFO queues are limited to 300 messages per second without batching",
	}
	check := func(branch, content string, out map[string]any) {
		t.Helper()
		ev := obj(out, "evaluation")
		if ev == nil && out["numThoughts"] == float64(1) {
			return // a branch of one thought is not rated
		}
		if ev == nil {
			t.Fatalf("%s: no evaluation: %v", branch, out)
		}
		text := fmt.Sprint(ev["issues"])
		if ev["quality"] == "Poor" || ev["shouldPivot"] == true || strings.Contains(text, "not about the session goal") {
			t.Fatalf("%s, after %q: on-topic thought judged off: %v", branch, content, ev)
		}
		if g, ok := obj(ev, "metrics")["goalAlignment"].(float64); ok && g < 0.3 {
			t.Fatalf("%s, after %q: goal alignment %.2f: %v", branch, content, g, ev)
		}
	}
	for _, c := range kafka {
		check("kafka", c, s.thought(c, "analysis", "branchId", "kafka", "confidence", 0.7))
	}
	for _, c := range sqs {
		check("sqs", c, s.thought(c, "analysis", "branchId", "sqs", "confidence", 0.7))
	}
	drift := s.cmd("detectDrift", nil)
	if d := list(drift, "drifting"); len(d) != 0 {
		t.Fatalf("focused session flagged as drifting: %v", drift)
	}
	if m, _ := drift["method"].(string); !strings.Contains(m, "standard deviations") || !strings.Contains(m, "embedder") {
		t.Fatalf("detectDrift does not say what its threshold means for the embedder: %v", drift)
	}
	tools := func() []string {
		var cmds []string
		for _, x := range list(s.cmd("suggestTools", nil), "suggestions") {
			m := x.(map[string]any)
			cmds = append(cmds, fmt.Sprint(m["command"]))
		}
		return cmds
	}
	if c := tools(); slices.Contains(c, "detectDrift") || slices.Contains(c, "prune") {
		t.Fatalf("suggestTools on a focused session: %v", c)
	}
	pr := s.cmd("prune", nil)
	if len(list(pr, "pruned")) != 0 {
		t.Fatalf("prune removed on-topic branches: %v", pr)
	}

	// A branch that starts on the goal and moves to planning an offsite.
	for _, c := range []string{
		"RabbitMQ could carry order events with a topic exchange per event type",
		"RabbitMQ quorum queues replicate each order message across three nodes",
		"The team offsite could be in Lisbon in May",
		"Flights to Lisbon are cheapest on Tuesdays",
		"We should book a restaurant with vegetarian options for the dinner",
		"The hotel near the river has a meeting room for twenty people",
	} {
		s.thought(c, "analysis", "branchId", "wander", "confidence", 0.7)
	}
	drift = s.cmd("detectDrift", nil)
	if d := list(drift, "drifting"); !slices.Equal(d, []any{"wander"}) {
		t.Fatalf("want only the wandering branch drifting, got %v", drift)
	}
	if c := tools(); !slices.Contains(c, "detectDrift") {
		t.Fatalf("suggestTools does not point at the drifting branch: %v", c)
	}
}

// traced_reasoning at the seed's default semantic_drift_threshold (0.3, a
// relatedness): an on-topic chain raises no SemanticDrift, a chain that
// wanders off to an unrelated subject does.
func TestTracedReasoningCalibratedDrift(t *testing.T) {
	const query = "Which message queue should carry our order events?"
	run := func(steps []string) [][]string {
		t.Helper()
		fake := &fakeOpenAI{}
		for _, s := range steps {
			fake.script(chatReply{content: s})
		}
		cs := newLuxEnv(t, fake).connect()
		var drifts [][]string
		sid := ""
		for i := range steps {
			args := map[string]any{"thought": query, "thought_number": i + 1, "total_thoughts": len(steps), "next_thought_needed": i+1 < len(steps)}
			if sid != "" {
				args["continuation_id"], args["thought"] = sid, "Continue"
			}
			out := mustCall(t, cs, "traced_reasoning", args)
			sid, _ = out["session_id"].(string)
			var d []string
			for _, iv := range out["interventions"].([]any) {
				m := iv.(map[string]any)
				if m["intervention_type"] == "SemanticDrift" && m["step"] == float64(i+1) {
					d = append(d, m["description"].(string))
				}
			}
			drifts = append(drifts, d)
		}
		return drifts
	}
	on := run([]string{
		"Order events need per-order ordering and a way to replay them, so the queue choice hinges on ordering and retention.",
		"Kafka keeps an ordered, replayable log per partition; keying by order id keeps each order's events in sequence.",
		"SQS FIFO queues keep ordering per message group but delete messages once consumed, so replay needs an archive.",
		"Running Kafka means operating brokers and disks, while SQS leaves the brokers to AWS.",
		"Kafka fits the order events best because replaying them to rebuild read models matters more than saving operations work.",
	})
	for i, d := range on {
		if len(d) > 0 {
			t.Errorf("on-topic step %d flagged: %v", i+1, d)
		}
	}
	off := run([]string{
		"Order events need per-order ordering and a way to replay them, so the queue choice hinges on ordering and retention.",
		"The team offsite could be in Lisbon in May.",
		"Flights to Lisbon are cheapest on Tuesdays.",
		"We should book a restaurant with vegetarian options for the dinner.",
		"The hotel near the river has a meeting room for twenty people.",
	})
	flagged := 0
	for _, d := range off[1:] {
		if len(d) > 0 {
			flagged++
		}
	}
	if len(off[0]) > 0 || flagged < 3 {
		t.Errorf("wandering chain: first step flagged %v, %d of 4 off-topic steps flagged: %v", off[0], flagged, off)
	}
}
