package llm

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

type pipeAnswer struct {
	Thought    string         `json:"thought"`
	Confidence float64        `json:"confidence"`
	Metadata   map[string]any `json:"metadata"`
}

func TestExtractJSON(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       pipeAnswer
	}{
		{"bare", `{"thought":"a","confidence":0.9,"metadata":{}}`, pipeAnswer{"a", 0.9, map[string]any{}}},
		{"fenced", "Here you go:\n```json\n{\"thought\": \"b\", \"confidence\": 0.7}\n```\nHope it helps.", pipeAnswer{Thought: "b", Confidence: 0.7}},
		{"prose with braces first", `Use {curly} braces, e.g. {not json}. Answer: {"thought":"c","confidence":0.5} done`, pipeAnswer{Thought: "c", Confidence: 0.5}},
		{"braces in strings", `{"thought":"x } { \" y","confidence":1}`, pipeAnswer{Thought: `x } { " y`, Confidence: 1}},
		{"nested", `{"thought":"n","confidence":0.2,"metadata":{"k":{"deep":[1,{"a":2}]}}}`, pipeAnswer{"n", 0.2, map[string]any{"k": map[string]any{"deep": []any{1.0, map[string]any{"a": 2.0}}}}}},
		{"skips misfit", `{"thought": 5} then {"thought":"ok","confidence":0.4}`, pipeAnswer{Thought: "ok", Confidence: 0.4}},
		{"unicode", `Réponse: {"thought":"été ✓","confidence":0.3}`, pipeAnswer{Thought: "été ✓", Confidence: 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got pipeAnswer
			if err := ExtractJSON(tc.text, &got); err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tc.want)
			if string(g) != string(w) {
				t.Errorf("got %s, want %s", g, w)
			}
		})
	}
}

func TestExtractJSONErrors(t *testing.T) {
	var v pipeAnswer
	for _, text := range []string{"", "no json here", "{unclosed", "{'single': 'quotes'}", "[1,2,3]", `"just a string"`} {
		if err := ExtractJSON(text, &v); !errors.Is(err, ErrNoJSON) {
			t.Errorf("%q: err = %v, want ErrNoJSON", text, err)
		}
	}
	if err := ExtractJSON(`{"thought": 5}`, &v); err == nil || errors.Is(err, ErrNoJSON) {
		t.Errorf("misfit: err = %v, want a decoding error", err)
	}
}

func TestExtractJSONAdversarialIsFast(t *testing.T) {
	// Quadratic scanning would take minutes here; the budget keeps it linear.
	for _, text := range []string{
		strings.Repeat("{", 1<<20),
		strings.Repeat(`{"a":`, 200000),
		strings.Repeat(`{"`, 300000),
		strings.Repeat("{[", 300000) + `{"thought":"late"}`,
	} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			var v pipeAnswer
			_ = ExtractJSON(text, &v)
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("ExtractJSON hangs on %.20q...", text)
		}
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{
		`{"thought":"a","confidence":0.9,"metadata":{}}`,
		"```json\n{\"bias_found\": true, \"severity\": \"high\"}\n```",
		`prose {x} {"a": [1, {"b": "}"}]} tail`,
		`{"\u00e9\\\"": 1}`,
		"{{{{",
		"}{",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var m map[string]any
		err := ExtractJSON(text, &m)
		if err == nil && m == nil {
			t.Fatalf("nil map without error for %q", text)
		}
		var anyV any
		if err := ExtractJSON(text, &anyV); err == nil {
			if _, ok := anyV.(map[string]any); !ok {
				t.Fatalf("extracted %T, want an object", anyV)
			}
		}
		// A valid object embedded in prose without braces is always found.
		if !strings.ContainsAny(text, "{}[]\"\\") {
			var got map[string]string
			if err := ExtractJSON("Answer: "+`{"k":"v"} `+text, &got); err != nil || got["k"] != "v" {
				t.Fatalf("embedded object not found: %v", err)
			}
		}
	})
}

func TestParsePipeAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want PipeAnswer
	}{
		{`{"thought":"t","confidence":0.85,"metadata":{"k":1}}`, PipeAnswer{"t", 0.85, map[string]any{"k": 1.0}, true}},
		{"```json\n{\"thought\":\"t2\"}\n```", PipeAnswer{"t2", 0.8, nil, true}},
		{`{"thought":"t3","confidence":7}`, PipeAnswer{"t3", 1, nil, true}},
		{"  just prose  ", PipeAnswer{"just prose", 0.8, nil, false}},
		{`{"answer":"no thought field"}`, PipeAnswer{`{"answer":"no thought field"}`, 0.8, nil, false}},
	} {
		got := ParsePipeAnswer(tc.in)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(tc.want)
		if string(g) != string(w) || got.Structured != tc.want.Structured {
			t.Errorf("ParsePipeAnswer(%q) = %s %v, want %s %v", tc.in, g, got.Structured, w, tc.want.Structured)
		}
	}
}
