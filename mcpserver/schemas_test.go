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

// derivedSchemas builds the server deriving every schema from the tools'
// definitions, as schemas.json must hold them.
func derivedSchemas(t *testing.T) map[string]toolSchemas {
	t.Helper()
	s := New(reasoning.New(nil, reasoning.Config{}), Options{deriveSchemas: true})
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

// schemas.json must hold exactly the schemas the definitions derive, and the
// server built from it must publish them.
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
	got := generatedSchemas()
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
	// The server as it runs publishes the generated schemas, byte for byte.
	s := New(reasoning.New(nil, reasoning.Config{}), Options{})
	if len(s.tools) != len(want) {
		t.Fatalf("%d tools registered, %d derived", len(s.tools), len(want))
	}
	for _, tool := range s.tools {
		in, _ := json.Marshal(tool.InputSchema)
		out, _ := json.Marshal(tool.OutputSchema)
		w := want[tool.Name]
		if !sameJSON(t, in, w.Input) || (w.Output != nil && !sameJSON(t, out, w.Output)) || (w.Output == nil && tool.OutputSchema != nil) {
			t.Errorf("%s: the running server's schemas differ from the derived ones", tool.Name)
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
