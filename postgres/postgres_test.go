package postgres_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/postgres"
	"github.com/thinkgraph/thinkgraph/sqlstore"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
	"github.com/thinkgraph/thinkgraph/testdeps"
)

// testURL is the server the tests use: THINKGRAPH_TEST_DATABASE_URL, or the
// local server of the development and CI machines.
func testURL() string {
	if u := os.Getenv("THINKGRAPH_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

var (
	reachOnce sync.Once
	reachErr  error
)

// admin returns a connection pool to the test database, without a schema.
// When the server is unreachable the test fails if the environment variable
// CI is set, and is skipped otherwise.
func TestMain(m *testing.M) { testdeps.Main(m) }

func admin(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", testURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	reachOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		reachErr = db.PingContext(ctx)
	})
	if reachErr != nil {
		testdeps.Missing(t, testdeps.PostgreSQL, fmt.Sprintf("PostgreSQL is not reachable at %s: %v", testURL(), reachErr))
	}
	return db
}

// newSchema returns the name of a schema of its own for t, dropped when t ends.
func newSchema(t *testing.T) string {
	t.Helper()
	db := admin(t)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "thinkgraph_test_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

func open(t *testing.T, schema string, opts postgres.Options) *sqlstore.DB {
	t.Helper()
	opts.Schema = schema
	s, err := postgres.Open(t.Context(), testURL(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// Registered after newSchema's cleanup, so it runs before the schema is dropped.
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func TestStore(t *testing.T) {
	admin(t) // fail or skip once, not in every subtest
	storetest.Run(t, func(t *testing.T) thinkgraph.Store {
		return open(t, newSchema(t), postgres.Options{MaxConns: 8})
	})
}

// TestReplicas runs the replica tests on two stores on one schema.
func TestReplicas(t *testing.T) {
	admin(t)
	storetest.RunReplicas(t, func(t *testing.T) (thinkgraph.Store, thinkgraph.Store) {
		schema := newSchema(t)
		return open(t, schema, postgres.Options{MaxConns: 4}), open(t, schema, postgres.Options{MaxConns: 4})
	})
}

// TestReplicasStartTogether opens one schema from several stores at once, as
// replicas starting together do: each must succeed, and every migration must
// be applied exactly once.
func TestReplicasStartTogether(t *testing.T) {
	schema := newSchema(t)
	const replicas = 4
	stores := make([]*sqlstore.DB, replicas)
	errs := make([]error, replicas)
	var wg sync.WaitGroup
	for i := range replicas {
		wg.Go(func() {
			stores[i], errs[i] = postgres.Open(t.Context(), testURL(), postgres.Options{Schema: schema, MaxConns: 2})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	db := admin(t)
	var n, distinct int
	q := fmt.Sprintf(`SELECT COUNT(*), COUNT(DISTINCT version) FROM %s.schema_migrations`, pgx.Identifier{schema}.Sanitize())
	if err := db.QueryRowContext(t.Context(), q).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n == 0 || n != distinct {
		t.Errorf("schema_migrations: %d rows, %d versions; want each version once", n, distinct)
	}
}

// TestTwoReplicasOneSession appends to one session through two stores on the
// same schema (two replicas): no step is lost or duplicated.
func TestTwoReplicasOneSession(t *testing.T) {
	schema := newSchema(t)
	a := open(t, schema, postgres.Options{MaxConns: 4})
	b := open(t, schema, postgres.Options{MaxConns: 4})
	ctx := t.Context()
	err := a.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, &thinkgraph.Session{Key: "s1", ID: "s1", Tenant: "local", ActiveBranch: "main"})
	})
	if err != nil {
		t.Fatal(err)
	}
	const perWorker = 25
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		store := a
		if w%2 == 1 {
			store = b
		}
		wg.Go(func() {
			for i := range perWorker {
				err := store.Update(ctx, func(tx thinkgraph.Tx) error {
					sess, err := tx.LockSession(ctx, "local", "s1")
					if err != nil {
						return err
					}
					sess.StepCount++
					th := &thinkgraph.Thought{ID: fmt.Sprintf("w%d-%d", w, i), Session: sess.Key, BranchID: "main",
						ParentID: sess.CurrentThoughtID, Step: sess.StepCount, Content: "x", Author: "client"}
					if err := tx.AddThought(ctx, th); err != nil {
						return err
					}
					sess.CurrentThoughtID = th.ID
					return tx.UpdateSession(ctx, sess)
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	err = b.View(ctx, func(tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, "local", "s1")
		if err != nil {
			return err
		}
		path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
		if err != nil {
			return err
		}
		if sess.StepCount != 8*perWorker || len(path) != 8*perWorker {
			t.Errorf("step count %d, path of %d thoughts; want %d of each", sess.StepCount, len(path), 8*perWorker)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLockTimeoutRetried holds a session's row lock longer than the lock
// timeout: the waiting transaction fails with lock_not_available, is retried,
// and succeeds once the lock is released.
func TestLockTimeoutRetried(t *testing.T) {
	schema := newSchema(t)
	s := open(t, schema, postgres.Options{LockTimeout: 50 * time.Millisecond})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, &thinkgraph.Session{Key: "s1", ID: "s1", Tenant: "local", ActiveBranch: "main"})
	})
	if err != nil {
		t.Fatal(err)
	}
	locked, retried := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Update(ctx, func(tx thinkgraph.Tx) error {
			if _, err := tx.LockSession(ctx, "local", "s1"); err != nil {
				return err
			}
			close(locked)
			// Hold the lock until the other transaction has been retried.
			select {
			case <-retried:
			case <-time.After(5 * time.Second):
			}
			return nil
		})
	}()
	<-locked
	attempts := 0
	err = s.Update(ctx, func(tx thinkgraph.Tx) error {
		attempts++
		if attempts == 2 {
			close(retried)
		}
		sess, err := tx.LockSession(ctx, "local", "s1")
		if err != nil {
			return err
		}
		sess.Goal = "after the lock"
		return tx.UpdateSession(ctx, sess)
	})
	if err != nil {
		t.Fatalf("Update waiting for the lock: %v", err)
	}
	if attempts < 2 {
		t.Errorf("%d attempts; want at least 2 (the first should time out on the lock)", attempts)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://u@h/db":   true,
		"postgresql://u@h/db": true,
		"/var/lib/tg.db":      false,
		"file:tg.db":          false,
		"":                    false,
	} {
		if got := postgres.IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestUpgradeKeepsSessions opens a database written by a server before
// session ids were per tenant.
func TestUpgradeKeepsSessions(t *testing.T) {
	schema := newSchema(t)
	conn, err := admin(t).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE SCHEMA ` + pgx.Identifier{schema}.Sanitize(), `SET search_path TO ` + pgx.Identifier{schema}.Sanitize()} {
		if _, err := conn.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	storetest.CreateLegacy(t, conn, "migrations")
	conn.Close()
	storetest.CheckUpgraded(t, open(t, schema, postgres.Options{}))
}
