package thinkgraph

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxPackageLines is CONTRIBUTING.md's bound on a package: non-blank lines
// of non-test Go.
const maxPackageLines = 4000

// Every package of the module holds at most maxPackageLines non-blank lines
// of non-test Go; a package that grows past it is split by what it holds.
func TestPackageSizes(t *testing.T) {
	lines := map[string]int{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				lines[filepath.Dir(path)]++
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 10 {
		t.Fatalf("counted %d packages: the walk missed the module", len(lines))
	}
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("%s: %d non-blank lines of non-test Go, over the %d of CONTRIBUTING.md: split it by what it holds", dir, n, maxPackageLines)
		}
	}
}
