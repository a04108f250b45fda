package mcpserver

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps from the tools' definitions")

// testdata/toolsnaps holds a snapshot of every tool as the server lists it
// on a default configuration, one file per tool (NAME.json, indented): its
// name, title, description, annotations, _meta, input schema (from its
// argument struct, input.go) and output schema (from its result types,
// output.go). A change to a tool shows in review as a diff of its file;
// after changing a tool, rewrite them with
//
//	go test ./mcpserver -run TestToolSnapshots -update
//
// and read the diff.
const toolsnapsDir = "testdata/toolsnaps"

// toolSnapshots are the snapshots of the tools the server derives, by file
// name.
func toolSnapshots(t *testing.T) map[string][]byte {
	t.Helper()
	s := New(reasoning.New(nil, reasoning.Config{}), Options{})
	out := map[string][]byte{}
	for _, tool := range s.tools {
		b, err := json.MarshalIndent(s.listed(tool), "", "  ")
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		out[tool.Name+".json"] = append(b, '\n')
	}
	return out
}

// Every tool's snapshot is the tool as the server lists it.
func TestToolSnapshots(t *testing.T) {
	want := toolSnapshots(t)
	files, err := filepath.Glob(filepath.Join(toolsnapsDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(toolsnapsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if want[filepath.Base(f)] == nil {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(toolsnapsDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d tool snapshots in %s", len(want), toolsnapsDir)
		return
	}
	const fix = "if the change is meant, run: go test ./mcpserver -run TestToolSnapshots -update"
	for _, f := range files {
		if want[filepath.Base(f)] == nil {
			t.Errorf("%s is the snapshot of no tool; %s", f, fix)
		}
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(toolsnapsDir, name))
		if err != nil {
			t.Errorf("%v; %s", err, fix)
			continue
		}
		if !bytes.Equal(got, want[name]) {
			t.Errorf("the tool in %s changed (-snapshot +now):\n%s%s", name, cmp.Diff(strings.Split(string(got), "\n"), strings.Split(string(want[name]), "\n")), fix)
		}
	}
}
