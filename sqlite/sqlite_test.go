package sqlite_test

import (
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
		return tx.CreateSession(ctx, &thinkgraph.Session{ID: "s1", Tenant: "local", ActiveBranch: "main"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, path)
	err = s2.View(ctx, func(tx thinkgraph.Tx) error {
		_, err := tx.Session(ctx, "s1")
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
		return tx.CreateSession(ctx, &thinkgraph.Session{ID: "s", Tenant: "local", ActiveBranch: "main"})
	}); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("a thought long enough to fill a page or so of the WAL. ", 40)
	var largest int64
	for i := 1; i <= 6000; i++ {
		if err := s.Update(ctx, func(tx thinkgraph.Tx) error {
			return tx.AddThought(ctx, &thinkgraph.Thought{ID: fmt.Sprint("t", i), SessionID: "s", BranchID: "main", Step: i, Content: text, Author: "client"})
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
