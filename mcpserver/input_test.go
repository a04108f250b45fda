package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// The argument structs read a call's arguments as the tools always have:
// numbers and booleans also as strings, null as absent, and every error
// naming the field with what was expected and what came.
func TestDecodeInputErrors(t *testing.T) {
	type want struct{ field, expected, received, message string }
	cases := []struct {
		args string
		dst  func() any
		want want
	}{
		{`{"thought": 42}`, func() any { return &thinkArgs{} },
			want{"thought", "a string", "a number", "'thought' must be a string, got a number"}},
		{`{"thought": "x", "confidence": "high"}`, func() any { return &thinkArgs{} },
			want{"confidence", "a number", "high", `'confidence' must be a number, got the string "high"`}},
		{`{"thought": "x", "confidence": true}`, func() any { return &thinkArgs{} },
			want{"confidence", "a number", "a boolean", "'confidence' must be a number, got a boolean"}},
		{`{"thought": "x", "confidence": "NaN"}`, func() any { return &thinkArgs{} },
			want{"confidence", "a finite number", "NaN", "'confidence' must be a finite number"}},
		{`{"thought": "x", "confidance": 0.5}`, func() any { return &thinkArgs{} },
			want{"confidance", "one of: confidence, session_id, thought", "confidance", "unknown field 'confidance'; this tool takes: confidence, session_id, thought"}},
		{`["thought"]`, func() any { return &thinkArgs{} },
			want{"arguments", "a JSON object", `["thought"]`, ""}},
		{`{"selected_index": 1.5}`, func() any { return &selectPathArgs{} },
			want{"selected_index", "an integer", "1.5", "'selected_index' must be a whole number, got 1.5"}},
		{`{"selected_index": 1e10}`, func() any { return &selectPathArgs{} },
			want{"selected_index", "an integer from -2147483648 to 2147483647", "1e+10", "'selected_index' must be a whole number from -2147483648 to 2147483647, got 1e+10"}},
		{`{"alternatives": "nope"}`, func() any { return &selectPathArgs{} },
			want{"alternatives", "an array of {thought, confidence} objects", "a string", "'alternatives' must be an array of {thought, confidence} objects, got a string"}},
		{`{"alternatives": [{"thought": "a", "confidence": 0.5}, {"thought": "b", "confidence": "x"}]}`, func() any { return &selectPathArgs{} },
			want{"alternatives[1].confidence", "a number", "x", `alternatives[1]: 'confidence' must be a number, got the string "x"`}},
		{`{"alternatives": ["Bake it", "Buy it"], "selected_index": 0}`, func() any { return &selectPathArgs{} },
			want{"alternatives[0]", "an object {thought, confidence}", "a string", "'alternatives[0]' must be an object {thought, confidence}, got a string"}},
		{`{"alternatives": [{"thought": "a", "x": 1}]}`, func() any { return &selectPathArgs{} },
			want{"alternatives[0].x", "one of: confidence, thought", "x", "alternatives[0]: unknown field 'x'; this tool takes: confidence, thought"}},
		{`{"thought": "a", "thoughtNumber": 1, "totalThoughts": 1, "nextThoughtNeeded": "yes"}`, func() any { return &sequentialArgs{} },
			want{"nextThoughtNeeded", "true or false", "a string", "'nextThoughtNeeded' must be true or false, got a string"}},
		{`{"thought": "a", "nextThoughtNeeded": true, "totalThoughts": 1}`, func() any { return &sequentialArgs{} },
			want{"thoughtNumber", "an integer ≥ 1", "none", "'thoughtNumber' is required: an integer ≥ 1"}},
		{`{"thought": null, "nextThoughtNeeded": true, "thoughtNumber": 1, "totalThoughts": 1}`, func() any { return &sequentialArgs{} },
			want{"thought", "a string", "none", "'thought' is required: this step of thinking, as a string"}},
		{`{"thought": "q", "thought_number": 1, "total_thoughts": 2}`, func() any { return &tracedArgs{} },
			want{"next_thought_needed", "true or false", "nothing", "'next_thought_needed' is required"}},
		{`{"thought": "q", "total_thoughts": 2, "next_thought_needed": true}`, func() any { return &tracedArgs{} },
			want{"thought_number", "an integer", "nothing", "'thought_number' is required"}},
		{`{"thought": "q", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true, "guardrails": {"x": 1}}`, func() any { return &tracedArgs{} },
			want{"guardrails", "an object with semantic_drift_check, semantic_drift_threshold, perplexity_monitoring, perplexity_threshold, " +
				"circular_reasoning_detection, consistency_validation, attention_entropy_analysis", "an object", `'guardrails': json: unknown field "x"`}},
		{`{"thought": "q", "thought_number": 1, "total_thoughts": 2, "next_thought_needed": true, "guardrails": {"semantic_drift_check": "true"}}`, func() any { return &tracedArgs{} },
			want{"guardrails", "", "an object", "'guardrails': json: cannot unmarshal string into Go struct field guardrailsArg.semantic_drift_check of type bool"}},
	}
	for _, c := range cases {
		err := decodeInput(json.RawMessage(c.args), c.dst(), false)
		te := thinkgraph.AsError(err)
		if err == nil || te.Code != thinkgraph.CodeValidation {
			t.Errorf("%s: got %v, want a validation error", c.args, err)
			continue
		}
		w := c.want
		if te.Field != w.field || (w.expected != "" && te.Expected != w.expected) || te.Received != w.received ||
			(w.message != "" && te.Message != w.message) {
			t.Errorf("%s:\n got %q %q %q %q\nwant %q %q %q %q", c.args, te.Field, te.Expected, te.Received, te.Message,
				w.field, w.expected, w.received, w.message)
		}
	}
}

// Numbers and booleans as strings, null as absent; sequentialthinking
// drops fields it does not know.
func TestDecodeInputLenient(t *testing.T) {
	var in sequentialArgs
	args := `{"thought": "a", "nextThoughtNeeded": "TRUE", "thoughtNumber": "2", "totalThoughts": 3.0, "isRevision": "false",
		"revisesThought": null, "branchFromThought": " 1 ", "session_id": null, "tags": ["x"]}`
	if err := decodeInput(json.RawMessage(args), &in, true); err != nil {
		t.Fatal(err)
	}
	if in.Thought != "a" || !in.NextThoughtNeeded || in.ThoughtNumber != 2 || in.TotalThoughts != 3 || in.IsRevision ||
		in.RevisesThought != nil || in.BranchFromThought == nil || *in.BranchFromThought != 1 || in.SessionID != nil {
		t.Fatalf("%+v", in)
	}
	if err := decodeInput(json.RawMessage(args), &in, false); err == nil || !strings.Contains(err.Error(), "unknown field 'tags'") {
		t.Fatalf("without ignoreUnknown: %v", err)
	}
	var think thinkArgs
	if err := decodeInput(json.RawMessage(`{"thought": "x", "confidence": "0.8"}`), &think, false); err != nil || think.Confidence == nil || *think.Confidence != 0.8 {
		t.Fatalf("%v %+v", err, think)
	}
	for _, empty := range []string{``, `null`, `{}`} {
		think = thinkArgs{}
		if err := decodeInput(json.RawMessage(empty), &think, false); err != nil || think.Confidence != nil || think.Thought != "" {
			t.Fatalf("%q: %v %+v", empty, err, think)
		}
	}
}
