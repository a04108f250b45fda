// Package testdeps is the one list of what some tests need beyond Go — Node
// and the npm packages of e2e/, Chromium, Graphviz, PostgreSQL, util-linux,
// the SICK data set — with how to get each, and the one way such a test
// goes without: under CI (the CI variable set) it fails, and otherwise it
// skips, and the package's TestMain (Main) prints what it skipped and how
// to run it where "go test ./..." shows it, which a skip alone is not (go
// test prints only "ok" for a package that passes). The README's
// "What the tests need" lists the same (TestReadmeListsNeeds).
package testdeps

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Need is something a test needs beyond Go.
type Need struct {
	// Name says what it is; Get how to get it (or point the tests at it).
	Name, Get string
}

// The needs, one each.
var (
	Node        = Need{"Node.js 18 or newer with npm", "install Node.js with npm (e.g. apt-get install -y nodejs npm)"}
	E2EPackages = Need{"the npm packages of e2e/ (the official MCP TypeScript SDK clients, the conformance suite, the Inspector)", "npm ci --prefix e2e"}
	ViewerPkgs  = Need{"the npm packages of e2e/viewer/ (playwright-core)", "npm ci --prefix e2e/viewer"}
	Chromium    = Need{"Chromium", "apt-get install -y chromium (or set CHROMIUM to its path)"}
	Graphviz    = Need{"Graphviz's dot", "apt-get install -y graphviz"}
	UtilLinux   = Need{"util-linux's prlimit, setpriv and script", "apt-get install -y util-linux"}
	PostgreSQL  = Need{"a PostgreSQL server", "start one on 127.0.0.1:5432 with trust authentication and a database test (or set THINKGRAPH_TEST_DATABASE_URL)"}
	SICK        = Need{"the SICK data set (SICK.txt; CC BY-NC-SA, never in the repository)", "set THINKGRAPH_SICK to its path (where to get it: the README, Measuring the semantic engine)"}
	// All lists them, in the README's order.
	All = []Need{Node, E2EPackages, ViewerPkgs, Chromium, Graphviz, UtilLinux, PostgreSQL, SICK}
)

var (
	skipsMu sync.Mutex
	skips   []string
)

// Missing ends a test that cannot run without need, saying why (what is
// missing) and how to get it: under CI it fails; otherwise it skips, and
// Main reports it.
func Missing(t testing.TB, need Need, why string) {
	t.Helper()
	msg := fmt.Sprintf("%s: needs %s: %s", why, need.Name, need.Get)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set: the tests that need it must run)", msg)
	}
	skipsMu.Lock()
	skips = append(skips, fmt.Sprintf("%s: %s", t.Name(), msg))
	skipsMu.Unlock()
	t.Skip(msg)
}

// Main runs the tests of a package, reports what Missing skipped, and
// exits with the tests' status.
func Main(m *testing.M) {
	code := m.Run()
	Report()
	os.Exit(code)
}

// Report reports the tests Missing skipped, with how to run them: to the
// terminal or pipe "go test" writes to (its standard error), since go test
// shows nothing else of a package that passes; with -v, or when there is no
// such terminal or pipe, on the test binary's output. A TestMain that does
// more than Main calls it after m.Run.
func Report() {
	skipsMu.Lock()
	list := append([]string(nil), skips...)
	skipsMu.Unlock()
	if len(list) == 0 {
		return
	}
	sort.Strings(list)
	report := "skipped in " + pkgDir() + " (CI=1 makes them fail):\n  " + strings.Join(list, "\n  ") + "\n"
	if testing.Verbose() || writeToGo(report) != nil {
		fmt.Print(report)
	}
}

// writeToGo writes s to the standard error of the process that ran the test
// binary (the go command): a terminal or a pipe. A regular file is left
// alone (opened again, it would be written at its start, over what go
// writes), and so is anything that cannot be opened.
func writeToGo(s string) error {
	if runtime.GOOS != "linux" {
		return errNoTerminal
	}
	path := fmt.Sprintf("/proc/%d/fd/2", os.Getppid())
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Mode()&(os.ModeCharDevice|os.ModeNamedPipe|os.ModeSocket) == 0 {
		return errNoTerminal
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(s)
	return err
}

// errNoTerminal: the go command's standard error is no terminal or pipe.
var errNoTerminal = errors.New("no terminal or pipe to write to")

// pkgDir names the package under test by its directory relative to the
// module's root (go test runs a package's tests in its directory).
func pkgDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, _ := filepath.Rel(dir, wd)
			return "./" + filepath.ToSlash(rel)
		}
		if dir == filepath.Dir(dir) {
			return wd
		}
	}
}
