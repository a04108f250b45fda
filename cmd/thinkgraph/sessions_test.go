package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
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
