package main

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// A call made while the database is still opening waits for it and then
// runs on it.
func TestPendingStoreWaitsForTheDatabase(t *testing.T) {
	p := newPendingStore()
	done := make(chan error, 1)
	go func() {
		done <- p.Update(context.Background(), func(tx thinkgraph.Tx) error {
			return tx.CreateSession(context.Background(), &thinkgraph.Session{ID: "s1", Tenant: "local", CreatedAt: time.Now(), UpdatedAt: time.Now()})
		})
	}()
	select {
	case err := <-done:
		t.Fatalf("the call ran before the database was open: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.resolve(db, nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := p.View(context.Background(), func(tx thinkgraph.Tx) error {
		_, err := tx.Session(context.Background(), thinkgraph.LocalTenant, "s1")
		return err
	}); err != nil {
		t.Fatalf("the session written through the pending store is not there: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// When the database cannot be opened, every call gets StoreUnavailable with
// the cause, and Close does not touch a store that does not exist.
func TestPendingStoreOpenFailure(t *testing.T) {
	p := newPendingStore()
	cause := errors.New("unable to open database file")
	p.resolve(nil, cause)
	p.resolve(nil, nil) // later outcomes are ignored
	err := p.Update(context.Background(), func(thinkgraph.Tx) error {
		t.Fatal("fn ran without a database")
		return nil
	})
	if e := thinkgraph.AsError(err); e.Code != thinkgraph.CodeStoreUnavailable || !errors.Is(err, cause) {
		t.Fatalf("got %v (code %s), want StoreUnavailable wrapping the cause", err, e.Code)
	}
	if err := p.View(context.Background(), func(thinkgraph.Tx) error { return nil }); !errors.Is(err, cause) {
		t.Fatalf("View: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// A call that gives up while the database is opening returns its context's
// error, not a hang.
func TestPendingStoreCallCancelled(t *testing.T) {
	p := newPendingStore()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Update(ctx, func(thinkgraph.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
