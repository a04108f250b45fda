package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoTextTemplate keeps text/template (and html/template, built on it)
// out of the binary. Its executor calls methods by name through reflection,
// and a program that can do that makes the linker keep every exported method
// of every type: with the OpenAI and Anthropic SDKs' thousands of types that
// took the executable from 67 MB to 114 MB, and start-up and RSS with it.
// Write HTML by hand with render.EscapeHTML instead.
func TestNoTextTemplate(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/modelcontextprotocol/go-sdk/mcp") {
		t.Fatalf("go list -deps did not list the MCP SDK; output:\n%s", out)
	}
	for _, bad := range []string{"text/template", "html/template"} {
		if slices.Contains(deps, bad) {
			t.Errorf("thinkgraph links %s; find the importer with `go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/thinkgraph | grep template`", bad)
		}
	}
}
