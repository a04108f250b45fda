package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

// findSession finds an id one tenant uses without --tenant, and asks for
// --tenant when several do.
func TestFindSession(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	err = store.Update(ctx, func(tx thinkgraph.Tx) error {
		for _, s := range []thinkgraph.Session{{ID: "shared", Tenant: "alice"}, {ID: "shared", Tenant: "bob"}, {ID: "own", Tenant: "bob"}} {
			if err := tx.CreateSession(ctx, &s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.View(ctx, func(tx thinkgraph.Tx) error {
		if s, err := findSession(ctx, tx, "", "own"); err != nil || s.Tenant != "bob" {
			t.Errorf("own: %v %v", s, err)
		}
		if _, err := findSession(ctx, tx, "", "shared"); err == nil || !strings.Contains(err.Error(), "alice, bob") || !strings.Contains(err.Error(), "--tenant") {
			t.Errorf("shared without --tenant: %v", err)
		}
		if s, err := findSession(ctx, tx, "alice", "shared"); err != nil || s.Tenant != "alice" {
			t.Errorf("shared of alice: %v %v", s, err)
		}
		if _, err := findSession(ctx, tx, "alice", "own"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("own of alice: %v", err)
		}
		if _, err := findSession(ctx, tx, "", "nope"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("nope: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Issue 38, case 11: sessions show and the markdown export, written to a
// terminal (script(1) gives them one), show a thought's control characters
// by their pictures instead of sending them to the terminal; to a pipe
// the export is the text as stored.
func TestTerminalOutputShowsControls(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		testdeps.Missing(t, testdeps.UtilLinux, "script(1) gives the commands a terminal")
	}
	db := filepath.Join(t.TempDir(), "t.db")
	cs, _ := spawn(t, db)
	thought := "The \x1b[31mred\x1b[0m step\a\r overwritten \u009b2J"
	if _, err := think(context.Background(), cs, map[string]any{"thought": thought, "session_id": "ansi"}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	// Markdown escapes the brackets.
	shown := map[string]string{"show": "␛[31mred␛[0m step␇␍", "list": "", "ansi": `␛\[31mred␛\[0m step␇␍`}
	for _, args := range [][]string{{"sessions", "show", "ansi"}, {"sessions", "list"}, {"export", "ansi", "--format", "markdown", "--no-analysis"}} {
		cmdline := binary + " " + strings.Join(args, " ") + " --db " + db
		out, err := exec.Command("script", "-q", "-e", "-c", cmdline, "/dev/null").Output()
		if err != nil {
			t.Fatalf("%s: %v", cmdline, err)
		}
		text := strings.ReplaceAll(string(out), "\r\n", "\n") // the terminal's line endings
		if strings.ContainsAny(text, "\x1b\a\r\u009b") || !strings.Contains(text, shown[args[1]]) {
			t.Errorf("%s on a terminal: %q", strings.Join(args, " "), text)
		}
	}
	out, _, err := tg(t, nil, "export", "ansi", "--format", "markdown", "--no-analysis", "--db", db)
	if err != nil || !strings.Contains(out, "\x1b\\[31mred") {
		t.Errorf("the markdown export to a pipe changed the text: %v %q", err, out)
	}
}
