package semantic

import (
	"context"
	"errors"
	"sync"
)

// IndexLoader returns the thoughts of a session with their persisted vectors;
// thoughts whose Vector is nil, or whose length differs from the index's
// dimension (a vector of an earlier model), are skipped: they are added
// once (re-)embedded.
type IndexLoader func(ctx context.Context, sessionID string) ([]Doc, error)

// Indexes holds one Index per session. A session's index is built on first
// use through the loader and then kept in step with writes through Add and
// Remove. Writes that arrive while the index is being loaded are queued and
// applied after the loaded vectors, so a thought stored during a load is not
// lost. Writes for a session that has not been loaded are ignored: the loader
// will read them from the store.
//
// At most max sessions are kept (0 means no limit); when another one is
// loaded, the least recently used one is dropped and reloaded on its next use.
type Indexes struct {
	load IndexLoader
	dim  int
	max  int

	mu    sync.Mutex
	m     map[string]*sessionIndex
	clock uint64
}

type sessionIndex struct {
	ready   chan struct{} // closed when the load finished
	idx     *Index
	err     error
	pending []indexOp // writes received while loading; guarded by Indexes.mu
	loading bool
	used    uint64
}

type indexOp struct {
	id     string
	v      Vector
	remove bool
}

// NewIndexes returns a holder whose indexes have vectors of length dim (0:
// taken from the first vector) and that keeps at most maxSessions loaded
// (0: no limit).
func NewIndexes(load IndexLoader, dim, maxSessions int) *Indexes {
	return &Indexes{load: load, dim: dim, max: maxSessions, m: make(map[string]*sessionIndex)}
}

// Get returns the index of a session, loading it on first use. Concurrent
// callers for the same session share one load. A failed load is not cached.
func (s *Indexes) Get(ctx context.Context, sessionID string) (*Index, error) {
	s.mu.Lock()
	e, ok := s.m[sessionID]
	s.clock++
	if ok {
		e.used = s.clock
		s.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil {
			return nil, e.err
		}
		return e.idx, nil
	}
	e = &sessionIndex{ready: make(chan struct{}), loading: true, used: s.clock}
	s.m[sessionID] = e
	s.evictLocked()
	s.mu.Unlock()

	idx := NewIndex(s.dim)
	docs, err := s.load(ctx, sessionID)
	if err == nil {
		for _, d := range docs {
			if d.Vector == nil {
				continue
			}
			// A vector of another dimension (left by an earlier embedding
			// model) is skipped: the thought is re-embedded and added later.
			if aerr := idx.Add(d.ID, d.Vector); aerr != nil && !errors.Is(aerr, ErrDimension) {
				err = aerr
				break
			}
		}
	}

	s.mu.Lock()
	if err == nil {
		for _, op := range e.pending {
			if op.remove {
				idx.Remove(op.id)
			} else if aerr := idx.Add(op.id, op.v); aerr != nil {
				err = aerr
				break
			}
		}
	}
	e.pending = nil
	e.loading = false
	if err != nil {
		e.err = err
		if s.m[sessionID] == e {
			delete(s.m, sessionID)
		}
	} else {
		e.idx = idx
	}
	s.mu.Unlock()
	close(e.ready)
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// Add records a thought's vector in its session's index if that index is
// loaded or loading. It returns the index's error (e.g. ErrDimension).
func (s *Indexes) Add(sessionID, id string, v Vector) error {
	s.mu.Lock()
	e, ok := s.m[sessionID]
	if !ok {
		s.mu.Unlock()
		return nil
	}
	if e.loading {
		e.pending = append(e.pending, indexOp{id: id, v: v})
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	if e.idx == nil {
		return nil
	}
	return e.idx.Add(id, v)
}

// Remove deletes a thought from its session's index if that index is loaded
// or loading.
func (s *Indexes) Remove(sessionID, id string) {
	s.mu.Lock()
	e, ok := s.m[sessionID]
	if !ok {
		s.mu.Unlock()
		return
	}
	if e.loading {
		e.pending = append(e.pending, indexOp{id: id, remove: true})
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	if e.idx != nil {
		e.idx.Remove(id)
	}
}

// Drop forgets a session's index (e.g. after the session was deleted or its
// embedding model changed); the next Get reloads it.
func (s *Indexes) Drop(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.m[sessionID]; ok && !e.loading {
		delete(s.m, sessionID)
	}
}

// Loaded returns the number of sessions whose index is held.
func (s *Indexes) Loaded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// evictLocked drops least recently used, fully loaded sessions until at most
// max remain. The caller holds s.mu.
func (s *Indexes) evictLocked() {
	if s.max <= 0 {
		return
	}
	for len(s.m) > s.max {
		var victim string
		var oldest uint64
		found := false
		for id, e := range s.m {
			if e.loading {
				continue
			}
			if !found || e.used < oldest {
				victim, oldest, found = id, e.used, true
			}
		}
		if !found {
			return
		}
		delete(s.m, victim)
	}
}
