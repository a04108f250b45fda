package sqlite_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore/storetest"
)

func open(t *testing.T, path string) thinkgraph.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) thinkgraph.Store {
		return open(t, filepath.Join(t.TempDir(), "thinkgraph.db"))
	})
}

// TestReopen checks that migrations are applied once: a second Open of the
// same file finds the data of the first.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "thinkgraph.db")
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	err = s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, &thinkgraph.Session{Key: "s1", ID: "s1", Tenant: "local", ActiveBranch: "main"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, path)
	err = s2.View(ctx, func(tx thinkgraph.Tx) error {
		_, err := tx.Session(ctx, "local", "s1")
		return err
	})
	if err != nil {
		t.Fatalf("after reopening: %v", err)
	}
}

// TestWALStaysBounded: under a steady stream of writes the background
// checkpoints keep the WAL file near WALLimitFrames. (PASSIVE checkpoints
// alone never let SQLite start the WAL over, and it grew by every write.)
func TestWALStaysBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.db")
	const limit = 256 // frames of 4 KiB: 1 MiB
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{CheckpointInterval: 5 * time.Millisecond, WALLimitFrames: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	if err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, &thinkgraph.Session{Key: "s", ID: "s", Tenant: "local", ActiveBranch: "main"})
	}); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("a thought long enough to fill a page or so of the WAL. ", 40)
	var largest int64
	for i := 1; i <= 6000; i++ {
		if err := s.Update(ctx, func(tx thinkgraph.Tx) error {
			return tx.AddThought(ctx, &thinkgraph.Thought{ID: fmt.Sprint("t", i), Session: "s", BranchID: "main", Step: i, Content: text, Author: "client"})
		}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path + "-wal"); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	// 6,000 writes of several pages each: without a WAL restart the file
	// passed 40 MiB (40 to 180 MiB in trials); bounded, it stays within a
	// few times the limit plus what is written between two checkpoints
	// (4 to 6 MiB in trials).
	if bound := int64(16 << 20); largest > bound {
		t.Fatalf("the WAL reached %d KiB (limit %d frames, bound %d KiB)", largest>>10, limit, bound>>10)
	}
	t.Logf("largest WAL: %d KiB", largest>>10)
}

// TestReplicas runs the replica tests on two stores opening one file, as
// two processes would.
func TestReplicas(t *testing.T) {
	storetest.RunReplicas(t, func(t *testing.T) (thinkgraph.Store, thinkgraph.Store) {
		path := filepath.Join(t.TempDir(), "thinkgraph.db")
		return open(t, path), open(t, path)
	})
}

// TestPathCacheUsed checks that read-only transactions take a session's path
// from the path cache once it has been read, reading only what was appended
// since, and that SetPathCacheBytes(0) turns the cache off.
func TestPathCacheUsed(t *testing.T) {
	for _, on := range []bool{true, false} {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "thinkgraph.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if !on {
			s.SetPathCacheBytes(0)
		}
		ctx := t.Context()
		last := ""
		appendAndRead := func(n int) {
			err := s.Update(ctx, func(tx thinkgraph.Tx) error {
				if last == "" {
					if err := tx.CreateSession(ctx, &thinkgraph.Session{Key: "s1", ID: "s1", Tenant: "local", ActiveBranch: "main"}); err != nil {
						return err
					}
				}
				for range n {
					sess, err := tx.LockSession(ctx, "local", "s1")
					if err != nil {
						return err
					}
					sess.StepCount++
					th := &thinkgraph.Thought{ID: fmt.Sprintf("t%d", sess.StepCount), Session: sess.Key, BranchID: "main",
						ParentID: last, Step: sess.StepCount, Content: "x", Author: "client"}
					if err := tx.AddThought(ctx, th); err != nil {
						return err
					}
					last = th.ID
					sess.CurrentThoughtID = th.ID
					if err := tx.UpdateSession(ctx, sess); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			err = s.View(ctx, func(tx thinkgraph.Tx) error {
				path, err := tx.Ancestors(ctx, "s1", last)
				if err == nil && (len(path) == 0 || path[len(path)-1].ID != last || path[0].ID != "t1") {
					t.Errorf("path from %s to %s, want t1 to %s", path[0].ID, path[len(path)-1].ID, last)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		appendAndRead(10)
		appendAndRead(3)
		appendAndRead(1)
		hits, misses := s.PathCacheStats()
		if on && (hits != 2 || misses != 1) {
			t.Errorf("path cache: %d hits, %d misses; want 2 hits (the paths after appending), 1 miss (the first read)", hits, misses)
		}
		if !on && (hits != 0 || misses != 0) {
			t.Errorf("path cache off: %d hits, %d misses; want none", hits, misses)
		}
	}
}

// TestUpgradeKeepsSessions opens a database written by a server before
// session ids were per tenant.
func TestUpgradeKeepsSessions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "legacy.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(ON)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	storetest.CreateLegacy(t, conn, "migrations")
	conn.Close()
	db.Close()
	storetest.CheckUpgraded(t, open(t, path))
}
