package mcpserver

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"sort"
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

var update = flag.Bool("update", false, "rewrite schemas.json from the tools' definitions")

// schemas.json is a snapshot of every tool's schemas as the server derives
// them at start from the tools' definitions (the input schemas from each
// tool's argument struct, input.go; the output schemas from the result
// types). A change to a tool's schema shows in review as a change to this
// file; after changing a tool's arguments or result type, rewrite it with
//
//	go test ./mcpserver -run TestToolSchemasGenerated -update

// toolSchemas are one tool's schemas in schemas.json.
type toolSchemas struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output,omitempty"`
}

// derivedSchemas builds the server and returns the schemas it publishes.
func derivedSchemas(t *testing.T) map[string]toolSchemas {
	t.Helper()
	s := New(reasoning.New(nil, reasoning.Config{}), Options{})
	out := map[string]toolSchemas{}
	for _, tool := range s.tools {
		var ts toolSchemas
		var err error
		if ts.Input, err = json.Marshal(tool.InputSchema); err != nil {
			t.Fatalf("%s: input schema: %v", tool.Name, err)
		}
		if tool.OutputSchema != nil {
			if ts.Output, err = json.Marshal(tool.OutputSchema); err != nil {
				t.Fatalf("%s: output schema: %v", tool.Name, err)
			}
		}
		out[tool.Name] = ts
	}
	return out
}

// schemas.json must hold exactly the schemas the server publishes.
func TestToolSchemasGenerated(t *testing.T) {
	want := derivedSchemas(t)
	if *update {
		// One line per tool, each schema compact as the SDK sends it (an
		// indented one would be compacted again at every start).
		names := make([]string, 0, len(want))
		for name := range want {
			names = append(names, name)
		}
		sort.Strings(names)
		var b bytes.Buffer
		b.WriteString("{\n")
		for i, name := range names {
			line, err := json.Marshal(map[string]toolSchemas{name: want[name]})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line[1 : len(line)-1])
			if i < len(names)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("}\n")
		if err := os.WriteFile("schemas.json", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote schemas.json: %d tools", len(want))
		return
	}
	const fix = "run: go test ./mcpserver -run TestToolSchemasGenerated -update"
	raw, err := os.ReadFile("schemas.json")
	if err != nil {
		t.Fatalf("%v; %s", err, fix)
	}
	var got map[string]toolSchemas
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("schemas.json: %v; %s", err, fix)
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("schemas.json has no schemas for tool %q; %s", name, fix)
			continue
		}
		if !sameJSON(t, g.Input, w.Input) {
			t.Errorf("schemas.json: the input schema of %q is stale; %s", name, fix)
		}
		if !sameJSON(t, g.Output, w.Output) {
			t.Errorf("schemas.json: the output schema of %q is stale; %s", name, fix)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("schemas.json has schemas for %q, which is not a tool; %s", name, fix)
		}
	}
}

// sameJSON reports whether a and b are the same JSON text up to whitespace
// (key order counts: it is the order clients show).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var ca, cb bytes.Buffer
	if err := json.Compact(&ca, a); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&cb, b); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
