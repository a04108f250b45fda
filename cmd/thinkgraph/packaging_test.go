package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The release's packaging (scripts/dist.sh, packaging/, .goreleaser.yaml)
// agrees with server.json and with itself. scripts/dist.sh builds and checks
// the artifacts themselves (CI runs it); these are the agreements a build
// on one platform cannot see.

func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// submatch returns the first group of re in text, failing when it is absent.
func submatch(t *testing.T, file, text, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s: no match for %s", file, re)
	}
	return m[1]
}

// listOf splits `a, "b", c` or `a b c` into its words.
func listOf(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '"' })
}

// One list of platforms: scripts/dist.sh's. The launcher, goreleaser's
// builds and its image name the same ones.
func TestPackagingPlatforms(t *testing.T) {
	dist := readRepoFile(t, "scripts/dist.sh")
	platforms := listOf(submatch(t, "scripts/dist.sh", dist, `(?m)^all_platforms="([^"]+)"`))
	if len(platforms) < 6 {
		t.Fatalf("scripts/dist.sh lists %v", platforms)
	}
	nodeName := map[string]string{"windows": "win32", "amd64": "x64"}
	node := func(s string) string {
		if n, ok := nodeName[s]; ok {
			return n
		}
		return s
	}
	var goos, goarch, nodeKeys, linux []string
	for _, p := range platforms {
		os, arch, _ := strings.Cut(p, "/")
		if !slices.Contains(goos, os) {
			goos = append(goos, os)
		}
		if !slices.Contains(goarch, arch) {
			goarch = append(goarch, arch)
		}
		nodeKeys = append(nodeKeys, node(os)+"-"+node(arch))
		if os == "linux" {
			linux = append(linux, p)
		}
	}
	if len(goos)*len(goarch) != len(platforms) {
		t.Fatalf("scripts/dist.sh's platforms %v are not every GOOS × GOARCH; goreleaser's goos × goarch would differ", platforms)
	}

	launch := readRepoFile(t, "packaging/launch.js")
	if got := listOf(submatch(t, "packaging/launch.js", launch, `const platforms = \[([^\]]+)\]`)); !sameSet(got, nodeKeys) {
		t.Errorf("packaging/launch.js knows %v, scripts/dist.sh builds %v", got, nodeKeys)
	}

	gr := readRepoFile(t, ".goreleaser.yaml")
	if got := listOf(submatch(t, ".goreleaser.yaml", gr, `goos: \[([^\]]+)\]`)); !sameSet(got, goos) {
		t.Errorf(".goreleaser.yaml builds goos %v, scripts/dist.sh %v", got, goos)
	}
	if got := listOf(submatch(t, ".goreleaser.yaml", gr, `goarch: \[([^\]]+)\]`)); !sameSet(got, goarch) {
		t.Errorf(".goreleaser.yaml builds goarch %v, scripts/dist.sh %v", got, goarch)
	}
	imagePlatforms := regexp.MustCompile(`(?m)^\s+- (linux/\w+)$`).FindAllStringSubmatch(gr, -1)
	var got []string
	for _, m := range imagePlatforms {
		got = append(got, m[1])
	}
	if !sameSet(got, linux) {
		t.Errorf(".goreleaser.yaml's image is for %v, scripts/dist.sh's for %v", got, linux)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Both release builds use the same flags, and the -X flags name the
// variables "thinkgraph version" prints.
func TestPackagingBuildFlags(t *testing.T) {
	for _, file := range []string{"scripts/dist.sh", ".goreleaser.yaml"} {
		text := readRepoFile(t, file)
		for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-s -w", "-X main.version=v", "-X main.commit=", "-X main.date="} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not build with %s", file, want)
			}
		}
	}
}

// The image, the npm package and the bundle are the entry's.
func TestPackagingNames(t *testing.T) {
	entry := readServerJSON(t)
	var npm, oci string
	for _, p := range entry.Packages {
		switch p.RegistryType {
		case "npm":
			npm = p.Identifier
		case "oci":
			oci, _, _ = strings.Cut(p.Identifier, ":")
		}
	}
	containerfile := readRepoFile(t, "packaging/oci/Containerfile")
	if label := submatch(t, "packaging/oci/Containerfile", containerfile, `io\.modelcontextprotocol\.server\.name="([^"]+)"`); label != entry.Name {
		t.Errorf("the image's io.modelcontextprotocol.server.name is %q, server.json's name %q", label, entry.Name)
	}
	if gr := readRepoFile(t, ".goreleaser.yaml"); !strings.Contains(gr, "- "+oci+"\n") {
		t.Errorf(".goreleaser.yaml does not push the image %s that server.json names", oci)
	}
	// The launcher finds the platform's package by the main package's name.
	if launch := readRepoFile(t, "packaging/launch.js"); !strings.Contains(launch, "`"+npm+"-${key}") {
		t.Errorf("packaging/launch.js does not look for %s-<platform>, the packages scripts/dist.sh makes", npm)
	}
}

// The bundle's manifest: the entry's version, variables thinkgraph reads,
// and each user_config setting used once.
func TestBundleManifest(t *testing.T) {
	entry := readServerJSON(t)
	var m struct {
		Version string
		Server  struct {
			EntryPoint string `json:"entry_point"`
			MCPConfig  struct {
				Command string
				Args    []string
				Env     map[string]string
			} `json:"mcp_config"`
		}
		UserConfig map[string]struct {
			Type     string
			Required bool
		} `json:"user_config"`
	}
	if err := json.Unmarshal([]byte(readRepoFile(t, "packaging/mcpb/manifest.json")), &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != entry.Version {
		t.Errorf("packaging/mcpb/manifest.json has version %s, server.json %s", m.Version, entry.Version)
	}
	cfg := m.Server.MCPConfig
	if len(cfg.Args) != 2 || cfg.Args[0] != "${__dirname}/"+m.Server.EntryPoint || cfg.Args[1] != "serve" {
		t.Errorf("the bundle must run its entry point with serve: %s %v", cfg.Command, cfg.Args)
	}
	used := map[string]bool{}
	ref := regexp.MustCompile(`^\$\{user_config\.(\w+)\}$`)
	for name, value := range cfg.Env {
		if !slices.ContainsFunc(envVars, func(e envVar) bool { return e.name == name }) {
			t.Errorf("the bundle sets %s, which thinkgraph does not read", name)
		}
		m := ref.FindStringSubmatch(value)
		if m == nil {
			t.Errorf("the bundle sets %s to %q, not to a user_config setting", name, value)
			continue
		}
		used[m[1]] = true
	}
	for key, uc := range m.UserConfig {
		if !used[key] {
			t.Errorf("user_config.%s is asked for but not passed to the server", key)
		}
		if uc.Required {
			t.Errorf("user_config.%s is required; thinkgraph runs with none of them set", key)
		}
	}
	for key := range used {
		if _, ok := m.UserConfig[key]; !ok {
			t.Errorf("the bundle passes user_config.%s, which it does not define", key)
		}
	}
}
