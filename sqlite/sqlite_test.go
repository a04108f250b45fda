package sqlite_test

import (
	"path/filepath"
	"testing"

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
