package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// A store may cache the paths Ancestors reads (package sqlstore does, per
// session, in read-only transactions). These tests read paths again and
// again while the session changes under them: each read must return the
// path as it is now.

var errRollback = errors.New("roll back")

// pathOf returns what Ancestors returns in a read-only transaction.
func pathOf(t *testing.T, s thinkgraph.Store, session thinkgraph.SessionKey, id string) []thinkgraph.Thought {
	t.Helper()
	var path []thinkgraph.Thought
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		var err error
		path, err = tx.Ancestors(ctx, session, id)
		return err
	})
	return path
}

// wantPath checks a path's ids, contents ("c-" + id) and notes (the
// metadata {"note": ...}, none unless notes says otherwise). A note is what
// a thought can change (Tx.UpdateThought).
func wantPath(t *testing.T, what string, got []thinkgraph.Thought, ids []string, notes map[string]string) {
	t.Helper()
	equal(t, what+": ids", thoughtIDs(got), ids)
	for _, th := range got {
		if want := "c-" + th.ID; th.Content != want {
			t.Errorf("%s: %s has content %q, want %q", what, th.ID, th.Content, want)
		}
		if got, want := noteOf(th), notes[th.ID]; got != want {
			t.Errorf("%s: %s has note %q, want %q", what, th.ID, got, want)
		}
	}
}

// noteOf returns the note in a thought's metadata ("" without one).
func noteOf(th thinkgraph.Thought) string {
	var m struct{ Note string }
	_ = json.Unmarshal(th.Metadata, &m)
	return m.Note
}

// addChain appends thoughts ids to session, the first a child of parent,
// each next a child of the previous, from step first on.
func addChain(t *testing.T, s thinkgraph.Store, session thinkgraph.SessionKey, parent string, first int, ids ...string) {
	t.Helper()
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for i, id := range ids {
			th := &thinkgraph.Thought{ID: id, Session: session, BranchID: "main", ParentID: parent, Step: first + i,
				Content: "c-" + id, Author: "client", CreatedAt: at(first + i)}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
			parent = id
		}
		return nil
	})
}

// setNote sets the note of a thought (see wantPath).
func setNote(t *testing.T, s thinkgraph.Store, session thinkgraph.SessionKey, id, note string) {
	t.Helper()
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		th, err := tx.Thought(ctx, session, id)
		if err != nil {
			return err
		}
		th.Metadata = noteJSON(note)
		return tx.UpdateThought(ctx, th)
	})
}

func noteJSON(note string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"note": note})
	return b
}

func chainIDs(prefix string, from, to int) []string {
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("%s%03d", prefix, i))
	}
	return ids
}

// testAncestorsRepeated reads the paths of a session as it grows, branches
// and changes: appended thoughts, a branch from the middle, a path that ends
// inside an earlier one, changed thoughts, a write transaction that rolls
// back, a long jump, and another session.
func testAncestorsRepeated(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		return nil
	})
	main := chainIDs("m", 1, 10)
	addChain(t, s, "s1", "", 1, main...)
	wantPath(t, "first read", pathOf(t, s, "s1", "m010"), main, nil)
	wantPath(t, "read again", pathOf(t, s, "s1", "m010"), main, nil)

	// Appended thoughts.
	more := chainIDs("m", 11, 13)
	addChain(t, s, "s1", "m010", 11, more...)
	main = append(main, more...)
	wantPath(t, "after appending", pathOf(t, s, "s1", "m013"), main, nil)

	// A path that ends inside the last one (backtrack).
	wantPath(t, "an ancestor's path", pathOf(t, s, "s1", "m004"), main[:4], nil)
	wantPath(t, "the leaf's again", pathOf(t, s, "s1", "m013"), main, nil)

	// A branch from the middle.
	branch := chainIDs("b", 1, 3)
	addChain(t, s, "s1", "m005", 14, branch...)
	withBranch := append(append([]string{}, main[:5]...), branch...)
	wantPath(t, "a branch", pathOf(t, s, "s1", "b003"), withBranch, nil)
	wantPath(t, "back on main", pathOf(t, s, "s1", "m013"), main, nil)

	// A changed thought on the path.
	setNote(t, s, "s1", "m003", "changed")
	changed := map[string]string{"m003": "changed"}
	wantPath(t, "after a change", pathOf(t, s, "s1", "m013"), main, changed)
	wantPath(t, "the branch after a change", pathOf(t, s, "s1", "b003"), withBranch, changed)

	// A write transaction sees its own change; once it rolls back, no one does.
	err := s.Update(t.Context(), func(tx thinkgraph.Tx) error {
		ctx := t.Context()
		th, err := tx.Thought(ctx, "s1", "m002")
		if err != nil {
			return err
		}
		th.Metadata = noteJSON("uncommitted")
		if err := tx.UpdateThought(ctx, th); err != nil {
			return err
		}
		path, err := tx.Ancestors(ctx, "s1", "m013")
		if err != nil {
			return err
		}
		wantPath(t, "inside the writer", path, main, map[string]string{"m003": "changed", "m002": "uncommitted"})
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("Update: %v, want the rollback", err)
	}
	wantPath(t, "after the rollback", pathOf(t, s, "s1", "m013"), main, changed)

	// A long chain appended at once (more than a cache would walk).
	long := chainIDs("l", 1, 600)
	addChain(t, s, "s1", "m013", 17, long...)
	wantPath(t, "after a long append", pathOf(t, s, "s1", "l600"), append(append([]string{}, main...), long...), changed)

	// Another session's thoughts are not on a path, nor cached under it.
	addChain(t, s, "s2", "", 1, "o1", "o2")
	wantPath(t, "another session", pathOf(t, s, "s2", "o2"), []string{"o1", "o2"}, nil)
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		_, err := tx.Ancestors(ctx, "s2", "m013")
		wantErr(t, "Ancestors of another session's thought", err, thinkgraph.ErrNotFound)
		_, err = tx.Ancestors(ctx, "s1", "o2")
		wantErr(t, "Ancestors of another session's thought", err, thinkgraph.ErrNotFound)
		_, err = tx.Ancestors(ctx, "nosuch", "m013")
		wantErr(t, "Ancestors in a missing session", err, thinkgraph.ErrNotFound)
		return nil
	})

	// A returned path is the caller's: changing it changes no later read.
	p := pathOf(t, s, "s1", "m013")
	p[0].Content, p[len(p)-1].Content = "scribbled", "scribbled"
	p[0].Metadata, p[len(p)-1].Metadata = noteJSON("scribbled"), noteJSON("scribbled")
	wantPath(t, "after the caller changed a returned path", pathOf(t, s, "s1", "m013"), main, changed)
}

// RunReplicas runs the tests of stores that share one database, as replicas
// do. open returns two stores on the same new, empty database, closed when t
// ends.
func RunReplicas(t *testing.T, open func(t *testing.T) (a, b thinkgraph.Store)) {
	t.Run("AncestorsAcrossReplicas", func(t *testing.T) {
		t.Parallel()
		a, b := open(t)
		testAncestorsAcrossReplicas(t, a, b)
	})
}

// testAncestorsAcrossReplicas reads paths through a while b changes them:
// a must never return what b has changed.
func testAncestorsAcrossReplicas(t *testing.T, a, b thinkgraph.Store) {
	update(t, a, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, newSession("s1", "alpha", 0))
	})
	main := chainIDs("m", 1, 20)
	addChain(t, a, "s1", "", 1, main...)
	wantPath(t, "a reads", pathOf(t, a, "s1", "m020"), main, nil)
	wantPath(t, "b reads", pathOf(t, b, "s1", "m020"), main, nil)

	// b appends; a reads the longer path.
	more := chainIDs("m", 21, 25)
	addChain(t, b, "s1", "m020", 21, more...)
	main = append(main, more...)
	wantPath(t, "a after b appended", pathOf(t, a, "s1", "m025"), main, nil)

	// b changes thoughts a has read: a sees the change, on every path.
	setNote(t, b, "s1", "m010", "changed by b")
	changed := map[string]string{"m010": "changed by b"}
	wantPath(t, "a after b changed a thought", pathOf(t, a, "s1", "m025"), main, changed)
	wantPath(t, "a's shorter path after b's change", pathOf(t, a, "s1", "m015"), main[:15], changed)

	// Alternately, again and again: a never returns an old note.
	for i := range 5 {
		leaf := main[len(main)-1]
		wantPath(t, "a reads", pathOf(t, a, "s1", leaf), main, changed)
		c := fmt.Sprintf("b's change %d", i)
		setNote(t, b, "s1", "m001", c)
		changed["m001"] = c
		wantPath(t, fmt.Sprintf("a after b's change %d", i), pathOf(t, a, "s1", leaf), main, changed)
		next := fmt.Sprintf("n%03d", i)
		addChain(t, b, "s1", main[len(main)-1], 26+i, next)
		main = append(main, next)
		wantPath(t, fmt.Sprintf("a after b's append %d", i), pathOf(t, a, "s1", next), main, changed)
	}
}

// testAncestorsConcurrent reads a session's current path from several
// goroutines while a writer appends to it and changes its root's note: every
// path read is a chain from the root to the current thought, and no reader
// sees the root's note go back to an older one.
func testAncestorsConcurrent(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, newSession("s1", "alpha", 0))
	})
	addChain(t, s, "s1", "", 1, "r")
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.LockSession(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		sess.CurrentThoughtID, sess.StepCount = "r", 1
		return tx.UpdateSession(ctx, sess)
	})
	const writes = 60
	done := make(chan struct{})
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			last := -1 // the root's version last seen (no note is -1, "v<n>" is n)
			for {
				select {
				case <-done:
					return
				default:
				}
				err := s.View(t.Context(), func(tx thinkgraph.Tx) error {
					ctx := t.Context()
					sess, err := tx.Session(ctx, "alpha", "s1")
					if err != nil {
						return err
					}
					path, err := tx.Ancestors(ctx, "s1", sess.CurrentThoughtID)
					if err != nil {
						return err
					}
					if path[0].ID != "r" || path[0].ParentID != "" || path[len(path)-1].ID != sess.CurrentThoughtID {
						return fmt.Errorf("path %v does not go from the root to %s", thoughtIDs(path), sess.CurrentThoughtID)
					}
					for i := 1; i < len(path); i++ {
						if path[i].ParentID != path[i-1].ID {
							return fmt.Errorf("path %v: %s does not follow %s", thoughtIDs(path), path[i].ID, path[i-1].ID)
						}
					}
					v := -1
					if c := noteOf(path[0]); c != "" {
						if _, err := fmt.Sscanf(c, "v%d", &v); err != nil {
							return fmt.Errorf("root note %q", c)
						}
					}
					if v < last {
						return fmt.Errorf("the root's note went back from v%d to %q", last, noteOf(path[0]))
					}
					last = v
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i := range writes {
		update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
			sess, err := tx.LockSession(ctx, "alpha", "s1")
			if err != nil {
				return err
			}
			if i%10 == 9 {
				root, err := tx.Thought(ctx, "s1", "r")
				if err != nil {
					return err
				}
				root.Metadata = noteJSON(fmt.Sprintf("v%d", i))
				if err := tx.UpdateThought(ctx, root); err != nil {
					return err
				}
			}
			sess.StepCount++
			th := &thinkgraph.Thought{ID: fmt.Sprintf("w%03d", i), Session: "s1", BranchID: "main", ParentID: sess.CurrentThoughtID,
				Step: sess.StepCount, Content: "x", Author: "client", CreatedAt: at(sess.StepCount)}
			if i%7 == 6 {
				th.ParentID = "r" // a new branch from the root
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
			sess.CurrentThoughtID = th.ID
			return tx.UpdateSession(ctx, sess)
		})
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Once the writer is done, a read sees its last change.
	path := pathOf(t, s, "s1", fmt.Sprintf("w%03d", writes-1))
	if want := fmt.Sprintf("v%d", writes-1); noteOf(path[0]) != want {
		t.Errorf("after the writes, the root's note is %q, want %q", noteOf(path[0]), want)
	}
}
