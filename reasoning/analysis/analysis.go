// Package analysis owns the one judgement of a session: what the semantic
// analyses say of it, computed in one place and read by every surface
// (branch-thinking's commands, the evaluation a write carries, the
// exports and resources, the prompts, the web viewer and the MCP App).
//
// An Analyst keeps, per session (keyed by the store's session key), the
// running state of the analyses: branch centroids, one evaluation tracker
// per branch, the claim groups of the consistency review, the contradictions
// the offline judge is certain of, the stated verdicts (judge's answers and
// declared cross-references), and the session's assessment (closed,
// drifting and off-goal branches, circular arguments, the conclusion). The
// state is a cache of what the store holds: it catches up with thoughts
// written since (by any tool family or process) when it is next read, and is
// rebuilt when a write fails. Every figure is a function of the stored
// session, so two surfaces that read it at the same moment say the same.
package analysis

import (
	"container/list"
	"context"
	"sync"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Analyst computes and caches the assessment of the sessions of one
// service. It is safe for concurrent use; a session's state is locked for a
// whole call.
type Analyst struct {
	svc *reasoning.Service

	mu     sync.Mutex
	states map[thinkgraph.SessionKey]*list.Element // of *State
	lru    *list.List
	max    int
}

// New returns the analyst of svc. It keeps the state of as many sessions
// as the semantic engine caches (SemanticConfig.MaxSessions, default 64).
func New(svc *reasoning.Service) *Analyst {
	max := 64
	if svc.Semantic() != nil {
		max = svc.Semantic().MaxSessions
	}
	return &Analyst{svc: svc, states: map[thinkgraph.SessionKey]*list.Element{}, lru: list.New(), max: max}
}

// state returns the state of a session, made on first use; the least
// recently used beyond the bound are dropped.
func (an *Analyst) state(key thinkgraph.SessionKey) *State {
	an.mu.Lock()
	defer an.mu.Unlock()
	if el, ok := an.states[key]; ok {
		an.lru.MoveToFront(el)
		return el.Value.(*State)
	}
	st := &State{an: an, key: key}
	st.reset()
	an.states[key] = an.lru.PushFront(st)
	for an.lru.Len() > an.max {
		old := an.lru.Back()
		an.lru.Remove(old)
		delete(an.states, old.Value.(*State).key)
	}
	return st
}

// held is the state a call holds: it is locked once, on the first attempt
// of the call's transaction, and released when the transaction has ended,
// committed or not, so that nobody reads what a write absorbed before it
// is committed.
type held struct {
	an *Analyst
	st *State
}

// lock locks the state of sess for the call (once; a retried attempt of
// the transaction keeps it).
func (h *held) lock(sess *thinkgraph.Session) *State {
	if h.st != nil && h.st.key == sess.Key {
		return h.st
	}
	if h.st != nil { // another session on a retry: cannot happen, but never hold two
		h.st.mu.Unlock()
	}
	h.st = h.an.state(sess.Key)
	h.st.mu.Lock()
	h.st.current = false
	return h.st
}

// release ends the call: a failed write resets the state.
func (h *held) release(err error) {
	if h.st == nil {
		return
	}
	if err != nil && h.st.writing {
		h.st.reset()
	}
	h.st.writing = false
	h.st.mu.Unlock()
}

// Read runs fn on the session of ref in a read transaction with its state
// locked; a connection session not created yet reads as empty (its state is
// that of no session, and fn gets a nil State).
func (an *Analyst) Read(ctx context.Context, ref reasoning.SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *State) error) (err error) {
	h := &held{an: an}
	defer func() { h.release(nil) }()
	return an.svc.ViewOrEmpty(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		if sess.Key == "" { // the empty connection session
			return fn(tx, sess, emptyState(an))
		}
		return fn(tx, sess, h.lock(sess))
	})
}

// ReadSession is Read on a session already resolved in tx (exports and the
// viewer load a session, then its assessment, in one transaction).
func (an *Analyst) ReadSession(tx thinkgraph.Tx, sess *thinkgraph.Session, fn func(st *State) error) error {
	h := &held{an: an}
	defer h.release(nil)
	return fn(h.lock(sess))
}

// Update runs fn on the session of ref in a write transaction with its
// state locked, resolving the session as reasoning.Service.Session does
// (create and mode are its arguments). A failed or retried attempt starts
// from a clean state.
func (an *Analyst) Update(ctx context.Context, ref reasoning.SessionRef, create bool, mode string, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *State) error) (err error) {
	h := &held{an: an}
	defer func() { h.release(err) }()
	return an.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := an.svc.Session(ctx, tx, ref, create, mode)
		if err != nil {
			return err
		}
		st := h.lock(sess)
		st.beginWrite()
		return fn(tx, sess, st)
	})
}
