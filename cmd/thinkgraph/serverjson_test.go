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

	entry := readServerJSON(t)
	pkgs := map[string]serverPackage{}
	for _, p := range entry.Packages {
		if _, dup := pkgs[p.RegistryType]; dup {
			t.Errorf("two %s packages", p.RegistryType)
		}
		pkgs[p.RegistryType] = p
	}
	// What the registry checks when it is published, beyond the schema
	// (its validators for each registry type), that can be checked here.
	npm, oci, mcpb := pkgs["npm"], pkgs["oci"], pkgs["mcpb"]
	if len(entry.Packages) != 3 || npm.Identifier == "" || oci.Identifier == "" || mcpb.Identifier == "" {
		t.Fatalf("want an npm, an oci and an mcpb package: %+v", entry.Packages)
	}
	if npm.Version != entry.Version || (npm.RegistryBaseURL != "" && npm.RegistryBaseURL != "https://registry.npmjs.org") || npm.FileSHA256 != "" {
		t.Errorf("npm: version %q (want the entry's, %s), registryBaseUrl %q, fileSha256 %q", npm.Version, entry.Version, npm.RegistryBaseURL, npm.FileSHA256)
	}
	if oci.Version != "" || oci.RegistryBaseURL != "" || !strings.HasSuffix(oci.Identifier, ":"+entry.Version) {
		t.Errorf("oci: the identifier carries the tag (want :%s): %q; version %q and registryBaseUrl %q must be empty", entry.Version, oci.Identifier, oci.Version, oci.RegistryBaseURL)
	}
	if !strings.HasPrefix(mcpb.Identifier, "https://github.com/") || !strings.Contains(mcpb.Identifier, "/v"+entry.Version+"/") ||
		!strings.HasSuffix(mcpb.Identifier, ".mcpb") || mcpb.RegistryBaseURL != "" {
		t.Errorf("mcpb: want the bundle's release download URL for v%s, got %q (registryBaseUrl %q)", entry.Version, mcpb.Identifier, mcpb.RegistryBaseURL)
	}
	if mcpb.FileSHA256 != "" {
		t.Errorf("mcpb: fileSha256 is the built bundle's: scripts/dist.sh writes it into dist/server.json, the file to publish")
	}
	for _, p := range []serverPackage{npm, oci} {
		if args := p.PackageArguments; len(args) != 1 || args[0].Value != "serve" {
			t.Errorf("%s: the package must run \"thinkgraph serve\": %+v", p.RegistryType, args)
		}
	}
	for _, p := range entry.Packages {
		if p.Transport.Type != "stdio" {
			t.Errorf("%s: transport %q, want stdio", p.RegistryType, p.Transport.Type)
		}
		for _, v := range p.EnvironmentVariables {
			if !slices.ContainsFunc(envVars, func(e envVar) bool { return e.name == v.Name }) {
				t.Errorf("server.json names %s, which thinkgraph does not read", v.Name)
			}
		}
	}
	if len(entry.Remotes) != 1 {
		t.Fatalf("want one remote (HTTP): %+v", entry.Remotes)
	}
	if r := entry.Remotes[0]; r.Type != "streamable-http" || !strings.HasSuffix(r.URL, "/mcp") {
		t.Errorf("the remote must be streamable HTTP at /mcp: %+v", r)
	}
}

type serverPackage struct {
	RegistryType     string
	RegistryBaseURL  string
	Identifier       string
	Version          string
	FileSHA256       string
	Transport        struct{ Type string }
	PackageArguments []struct {
		Value string
	}
	EnvironmentVariables []struct{ Name string }
}

type serverEntry struct {
	Name     string
	Version  string
	Packages []serverPackage
	Remotes  []struct {
		Type string
		URL  string
	}
}

func readServerJSON(t *testing.T) serverEntry {
	t.Helper()
	raw, err := os.ReadFile("../../server.json")
	if err != nil {
		t.Fatal(err)
	}
	var entry serverEntry
	if err := json.Unmarshal(raw, &entry); err != nil {
		t.Fatal(err)
	}
	return entry
}
