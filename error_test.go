package thinkgraph

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestErrorCodesOneStyle reads the codes declared in error.go: each ends in
// "Error" and has a row in the error code table of docs/contracts.md, and no
// other file of the module declares a code.
func TestErrorCodesOneStyle(t *testing.T) {
	src, err := os.ReadFile("error.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("docs/contracts.md")
	if err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`Code\s*=\s*"([^"]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(codes) < 10 {
		t.Fatalf("found %d codes in error.go; the pattern no longer matches the declarations", len(codes))
	}
	for _, m := range codes {
		code := m[1]
		if !strings.HasSuffix(code, "Error") {
			t.Errorf("code %q does not end in Error", code)
		}
		if !strings.Contains(string(doc), "`"+code+"`") {
			t.Errorf("code %q has no row in docs/contracts.md", code)
		}
	}
	// A code written as a literal elsewhere escapes the list.
	literal := regexp.MustCompile(`thinkgraph\.Code\("|Code:\s*"|Code\s+thinkgraph\.Code\s*=`)
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "error.go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := literal.FindIndex(b); loc != nil {
			t.Errorf("%s declares an error code outside error.go: %q", path, b[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
