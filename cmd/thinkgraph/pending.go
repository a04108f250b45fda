package main

import (
	"context"
	"errors"
	"sync"

	"github.com/thinkgraph/thinkgraph"
)

// pendingStore is a thinkgraph.Store whose database is still opening: over
// stdio the server answers the client's handshake while the database opens
// (and, for a new file, its schema is created) in the background. A call
// that needs the store before it is open waits for it; if opening failed,
// every call gets the opening error as StoreUnavailable, and serve exits
// with that error.
type pendingStore struct {
	ready chan struct{}
	once  sync.Once
	store thinkgraph.Store
	err   error
}

func newPendingStore() *pendingStore { return &pendingStore{ready: make(chan struct{})} }

// resolve records the outcome of opening; only the first call counts.
func (p *pendingStore) resolve(store thinkgraph.Store, err error) {
	p.once.Do(func() {
		if err == nil && store == nil {
			err = errors.New("the database did not open")
		}
		p.store, p.err = store, err
		close(p.ready)
	})
}

// wait blocks until the store is open (or failed to open) or ctx is done.
func (p *pendingStore) wait(ctx context.Context) (thinkgraph.Store, error) {
	select {
	case <-p.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if p.err != nil {
		return nil, &thinkgraph.Error{Code: thinkgraph.CodeStoreUnavailable, Message: "the database could not be opened", Err: p.err,
			Suggestions: []string{"the server exits with this error: see its log, fix the database location or permissions and restart it"}}
	}
	return p.store, nil
}

func (p *pendingStore) Update(ctx context.Context, fn func(thinkgraph.Tx) error) error {
	st, err := p.wait(ctx)
	if err != nil {
		return err
	}
	return st.Update(ctx, fn)
}

func (p *pendingStore) View(ctx context.Context, fn func(thinkgraph.Tx) error) error {
	st, err := p.wait(ctx)
	if err != nil {
		return err
	}
	return st.View(ctx, fn)
}

// Close waits for opening to end and closes the store if it opened.
func (p *pendingStore) Close() error {
	<-p.ready
	if p.store == nil {
		return nil
	}
	return p.store.Close()
}
