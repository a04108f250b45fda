package main

import (
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
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

// On a system without CA roots (the container image is FROM scratch) the
// binary still verifies the providers' HTTPS certificates: the fallback
// roots it embeds stand in, from the providers' first request on (not at
// start, which they would slow down). The test binary re-runs itself with
// no system roots to see the pool it gets before and after a request
// through providerClient, the client of every provider.
func TestFallbackRoots(t *testing.T) {
	if os.Getenv("THINKGRAPH_TEST_ROOTS_CHILD") == "1" {
		// Subjects (deprecated for pools the OS verifies with) lists a pool
		// parsed from certificates, which the fallback is.
		roots := func() int {
			pool, err := x509.SystemCertPool()
			if err != nil {
				t.Fatal(err)
			}
			return len(pool.Subjects())
		}
		if n := roots(); n != 0 {
			t.Fatalf("before any provider request the system pool has %d roots, want none (the fallback is set on the first request)", n)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer srv.Close()
		resp, err := providerClient.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if n := roots(); n < 100 {
			t.Fatalf("after a provider request the system pool has %d roots, want the fallback's (over 100)", n)
		}
		return
	}
	empty := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFallbackRoots$")
	cmd.Env = append(os.Environ(), "THINKGRAPH_TEST_ROOTS_CHILD=1", "SSL_CERT_FILE="+filepath.Join(empty, "none.pem"), "SSL_CERT_DIR="+empty)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("with no system roots: %v\n%s", err, out)
	}
	// Every provider gets that client.
	c, err := loadConfig(func(k string) string {
		return map[string]string{"THINKGRAPH_EMBEDDINGS_URL": "https://embed.example/v1", "THINKGRAPH_EMBEDDINGS_MODEL": "m", "OPENAI_API_KEY": "k"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.llm.HTTPClient != providerClient || c.embeddings.HTTPClient != providerClient {
		t.Fatalf("the LLM providers' client is %p and the embedder's %p, want providerClient %p", c.llm.HTTPClient, c.embeddings.HTTPClient, providerClient)
	}
}
