package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bigSession writes the exchange document of a generated session of n
// thoughts in 50 branches (bench/bigsession) to a file and returns its
// path.
func bigSession(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	gen := filepath.Join(dir, "bigsession")
	if out, err := exec.Command("go", "build", "-o", gen, "../../bench/bigsession").CombinedOutput(); err != nil {
		t.Fatalf("build bigsession: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "session.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(gen, "-thoughts", itoa(n))
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = f, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bigsession: %v %s", err, stderr.String())
	}
	return path
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// tg runs the binary with args and stdin, and returns its stdout, stderr
// and exit error.
func tg(t *testing.T, stdin []byte, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// withoutExportedAt decodes an exchange document and drops its export
// time, the one member two exports of the same session differ in.
func withoutExportedAt(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("not JSON: %v (%.200s)", err, doc)
	}
	delete(m, "exportedAt")
	return m
}

// export → import → export through the CLI gives the same document (but
// for exportedAt) at 45,000 thoughts, more than the 4 MiB an HTTP request
// may carry: import keeps the document's ids in a database that has none
// of them. Imported again, the session gets new ids and the note says so.
func TestImportExportRoundTripCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and exports 45,000 thoughts (about 15 s)")
	}
	src := bigSession(t, 45000)
	original, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "tg.db")
	out, stderr, err := tg(t, nil, "import", src, "--db", db)
	if err != nil || !strings.Contains(out, "imported session big-45000 for tenant local: 45000 thoughts, 50 branches") {
		t.Fatalf("import: %v\n%s%s", err, out, stderr)
	}
	exported, stderr, err := tg(t, nil, "export", "big-45000", "--format", "json", "--db", db)
	if err != nil {
		t.Fatalf("export: %v %s", err, stderr)
	}
	want, got := withoutExportedAt(t, string(original)), withoutExportedAt(t, exported)
	if a, b := mustJSON(t, want), mustJSON(t, got); a != b {
		t.Fatalf("the export differs from the imported document (%d vs %d bytes)", len(a), len(b))
	}
}

// thinkgraph import reads stdin too; a document whose ids are taken in the
// database is imported with new ids for what is taken, and the notes say
// so.
func TestImportCLIStdinAndTakenIDs(t *testing.T) {
	raw, err := os.ReadFile(bigSession(t, 400))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "tg.db")
	if out, stderr, err := tg(t, raw, "import", "-", "--db", db, "--tenant", "acme"); err != nil || !strings.Contains(out, "imported session big-400 for tenant acme: 400 thoughts") {
		t.Fatalf("import from stdin: %v\n%s%s", err, out, stderr)
	}
	// For another tenant: the session's id is free there, its thoughts'
	// ids are not (they are the database's).
	out, stderr, err := tg(t, raw, "import", "-", "--db", db)
	if err != nil || !strings.Contains(out, "imported session big-400 for tenant local") || !strings.Contains(out, "ids are in use in this database") {
		t.Fatalf("second import: %v\n%s%s", err, out, stderr)
	}
	// Once more for the same tenant: its session id is taken too.
	out, stderr, err = tg(t, raw, "import", "-", "--db", db)
	if err != nil || strings.Contains(out, "session big-400 for") || !strings.Contains(out, `session "big-400" already exists`) {
		t.Fatalf("third import: %v\n%s%s", err, out, stderr)
	}
	// A session id that is no session id is replaced, and the import says
	// so (it was replaced silently).
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["session"].(map[string]any)["id"] = "<b>plan</b>"
	out, stderr, err = tg(t, []byte(mustJSON(t, m)), "import", "-", "--db", db, "--tenant", "other")
	if err != nil || !strings.Contains(out, `note: the document's session id "<b>plan</b>" is not a session id`) {
		t.Fatalf("an import of an invalid session id: %v\n%s%s", err, out, stderr)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// thinkgraph import refuses what branch-thinking's import refuses, naming
// the field, and stores nothing; a file that is missing or not a document
// is an error too.
func TestImportCLIRefuses(t *testing.T) {
	src := bigSession(t, 400)
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "tg.db")
	edit := func(f func(map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	thought := func(m map[string]any, i int) map[string]any { return m["thoughts"].([]any)[i].(map[string]any) }
	for _, c := range []struct {
		name  string
		doc   []byte
		field string
	}{
		{"a member no export writes", edit(func(m map[string]any) { m["extra"] = true }), "data.extra"},
		{"NUL in a thought", edit(func(m map[string]any) { thought(m, 3)["content"] = "a\x00b" }), "data.thoughts[3].content"},
		{"NUL in metadata", edit(func(m map[string]any) { thought(m, 5)["metadata"] = map[string]any{"k\x00": 1} }), "data.thoughts[5].metadata"},
		{"metadata nested 9,000 deep", edit(func(m map[string]any) {
			thought(m, 2)["metadata"] = json.RawMessage(strings.Repeat("[", 9000) + strings.Repeat("]", 9000))
		}), "data.thoughts[2].metadata"},
		{"NUL in a thought id", edit(func(m map[string]any) { thought(m, 4)["id"] = "t\x00" }), "data.thoughts[4].id"},
		{"markup as a thought id", edit(func(m map[string]any) { thought(m, 4)["id"] = "<b>t</b>" }), "data.thoughts[4].id"},
		{"a thought id of 5 KB", edit(func(m map[string]any) { thought(m, 4)["id"] = strings.Repeat("t", 5000) }), "data.thoughts[4].id"},
		{"a parent after the thought", edit(func(m map[string]any) { thought(m, 1)["parentId"] = "t000030" }), "data.thoughts[1].parentId"},
		{"not JSON", []byte("{\"format\": "), "data"},
		{"two documents", append(append([]byte{}, raw...), raw...), "data"},
	} {
		out, stderr, err := tg(t, c.doc, "import", "-", "--db", db)
		if err == nil || !strings.Contains(stderr, c.field) {
			t.Errorf("%s: exit %v, stderr %q, want an error naming %s", c.name, err, stderr, c.field)
		}
		if out != "" {
			t.Errorf("%s: printed %q", c.name, out)
		}
	}
	if out, _, _ := tg(t, nil, "sessions", "list", "--db", db); strings.Contains(out, "big-400") {
		t.Errorf("a refused import stored a session:\n%s", out)
	}
	if _, stderr, err := tg(t, nil, "import", filepath.Join(t.TempDir(), "missing.json"), "--db", db); err == nil || !strings.Contains(stderr, "no such file") {
		t.Errorf("a missing file: %v %s", err, stderr)
	}
	if _, stderr, err := tg(t, nil, "import", "--db", db); err == nil || !strings.Contains(stderr, "want the FILE") {
		t.Errorf("no file: %v %s", err, stderr)
	}
}
