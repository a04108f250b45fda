package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// server.json, the server's entry for the MCP registry, is valid under the
// registry's published schema (testdata/README.md says where it comes
// from), and names only environment variables the server reads.
func TestServerJSON(t *testing.T) {
	raw, err := os.ReadFile("../../server.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("server.json: %v", err)
	}
	schemaJSON, err := os.ReadFile("testdata/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(doc); err != nil {
		t.Fatalf("server.json does not match the registry's schema: %v", err)
	}
	if want := schema.ID; doc["$schema"] != want {
		t.Errorf("server.json's $schema is %v, want %s", doc["$schema"], want)
	}
	// The schema is not a formality: a broken entry fails it.
	doc["name"] = "thinkgraph"
	if err := resolved.Validate(doc); err == nil {
		t.Error("a name without a namespace passed the schema")
	}

	var entry struct {
		Packages []struct {
			PackageArguments     []struct{ Value string }
			EnvironmentVariables []struct{ Name string }
		}
		Remotes []struct {
			Type    string
			URL     string
			Headers []struct{ Name string }
		}
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		t.Fatal(err)
	}
	if len(entry.Packages) != 1 || len(entry.Remotes) != 1 {
		t.Fatalf("want one package (stdio) and one remote (HTTP): %+v", entry)
	}
	if args := entry.Packages[0].PackageArguments; len(args) != 1 || args[0].Value != "serve" {
		t.Errorf("the package must run \"thinkgraph serve\": %+v", args)
	}
	for _, v := range entry.Packages[0].EnvironmentVariables {
		if !slices.ContainsFunc(envVars, func(e envVar) bool { return e.name == v.Name }) {
			t.Errorf("server.json names %s, which thinkgraph does not read", v.Name)
		}
	}
	if r := entry.Remotes[0]; r.Type != "streamable-http" || !strings.HasSuffix(r.URL, "/mcp") {
		t.Errorf("the remote must be streamable HTTP at /mcp: %+v", r)
	}
}
