package storetest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// LegacyVersion is the last schema version before session ids became
// per-tenant (migration 0005).
const LegacyVersion = 4

// legacyRows are rows a database at LegacyVersion may hold: tenant alice's
// session "old" (its id is its key there) with a branch, a thought and an
// invocation, and an invocation of a session since deleted.
const legacyRows = `
INSERT INTO sessions (id, tenant, goal, mode, created_at, updated_at, current_thought_id, step_count)
	VALUES ('old', 'alice', 'legacy goal', 'think', 1, 1, 'th1', 1);
INSERT INTO branches (session_id, id, created_at, updated_at) VALUES ('old', 'main', 1, 1);
INSERT INTO thoughts (id, session_id, branch_id, step, content, created_at) VALUES ('th1', 'old', 'main', 1, 'a legacy thought', 1);
INSERT INTO invocations (id, session_id, tool_name, success, created_at) VALUES ('i1', 'old', 'reasoning.linear', TRUE, 1);
INSERT INTO invocations (id, session_id, tool_name, success, created_at) VALUES ('i2', 'gone', 'reasoning.linear', TRUE, 2);
`

// CreateLegacy brings the database of conn (one connection, so that a
// search_path set on it holds) to schema version LegacyVersion with the
// migrations in dir, as a server of that version did, and fills it with
// legacy rows.
func CreateLegacy(t *testing.T, conn *sql.Conn, dir string) {
	t.Helper()
	ctx := t.Context()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	for v := 1; v <= LegacyVersion; v++ {
		body, err := os.ReadFile(files[v-1])
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(files[v-1])
		if !strings.HasPrefix(name, "000"+string(rune('0'+v))+"_") {
			t.Fatalf("migration %d is %s", v, name)
		}
		if _, err := conn.ExecContext(ctx, string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (`+string(rune('0'+v))+`, '`+name+`', 0)`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.ExecContext(ctx, legacyRows); err != nil {
		t.Fatal(err)
	}
}

// CheckUpgraded checks a store opened on a database CreateLegacy made: the
// legacy session keeps its id (as its key too), its tenant and its rows;
// invocations take their session's tenant (local when it is gone); and
// another tenant can now use the same id.
func CheckUpgraded(t *testing.T, s thinkgraph.Store) {
	t.Helper()
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, "alice", "old")
		if err != nil {
			return err
		}
		if sess.Key != "old" || sess.ID != "old" || sess.Tenant != "alice" || sess.Goal != "legacy goal" || sess.CurrentThoughtID != "th1" {
			t.Errorf("legacy session after the upgrade: %+v", sess)
		}
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
		if err != nil {
			return err
		}
		equal(t, "legacy thoughts", thoughtIDs(ths), []string{"th1"})
		path, err := tx.Ancestors(ctx, sess.Key, "th1")
		if err != nil {
			return err
		}
		equal(t, "legacy path", thoughtIDs(path), []string{"th1"})
		if _, err := tx.Branch(ctx, sess.Key, "main"); err != nil {
			return err
		}
		_, err = tx.Session(ctx, thinkgraph.LocalTenant, "old")
		wantErr(t, "Session(local, old)", err, thinkgraph.ErrNotFound)
		invs, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{})
		if err != nil {
			return err
		}
		var tenants []string
		for _, inv := range invs {
			tenants = append(tenants, inv.ID+"="+inv.Tenant+"/"+inv.SessionID)
		}
		equal(t, "legacy invocations", tenants, []string{"i1=alice/old", "i2=local/gone"})
		return nil
	})
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess := &thinkgraph.Session{ID: "old", Tenant: "bob", CreatedAt: at(1), UpdatedAt: at(1), ActiveBranch: "main"}
		if err := tx.CreateSession(ctx, sess); err != nil {
			return err
		}
		if sess.Key == "old" {
			t.Errorf("bob's session took the legacy key")
		}
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "th2", Session: sess.Key, BranchID: "main", Step: 1, Content: "bob's", Author: "client", CreatedAt: at(1)})
	})
}

// LocalKey returns the store key of the local tenant's session id, for
// tests that read what the tools wrote.
func LocalKey(t testing.TB, tx thinkgraph.Tx, id string) thinkgraph.SessionKey {
	t.Helper()
	s, err := tx.Session(context.Background(), thinkgraph.LocalTenant, id)
	if err != nil {
		t.Fatalf("session %q of the local tenant: %v", id, err)
	}
	return s.Key
}
