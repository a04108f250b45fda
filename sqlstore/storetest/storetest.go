// Package storetest is the test suite every thinkgraph.Store must pass. The
// sqlite and postgres packages run it against a real database:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) thinkgraph.Store { ... })
//	}
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// Run runs the suite. open must return a new, empty store for the test t and
// close it when t ends (t.Cleanup). The tests run in parallel (as many at
// once as go test's -parallel allows), so open is called concurrently.
func Run(t *testing.T, open func(t *testing.T) thinkgraph.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s thinkgraph.Store)
	}{
		{"Sessions", testSessions},
		{"SameIDTwoTenants", testSameIDTwoTenants},
		{"Thoughts", testThoughts},
		{"ThoughtFilters", testThoughtFilters},
		{"OpenAlternatives", testOpenAlternatives},
		{"Ancestors", testAncestors},
		{"AncestorsDeepChain", testAncestorsDeep},
		{"AncestorsRepeated", testAncestorsRepeated},
		{"AncestorsConcurrent", testAncestorsConcurrent},
		{"UniqueStep", testUniqueStep},
		{"Branches", testBranches},
		{"Links", testLinks},
		{"Invocations", testInvocations},
		{"Rollback", testRollback},
		{"ViewDoesNotWrite", testViewDoesNotWrite},
		{"ConcurrentUpdates", testConcurrentUpdates},
		{"ConcurrentCreate", testConcurrentCreate},
		{"Vectors", testVectors},
		{"Feedback", testFeedback},
		{"SessionSize", testSessionSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, open(t))
		})
	}
}

// t0 is the suite's clock: microsecond precision, UTC, as stored.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func ptr[T any](v T) *T { return &v }

func update(t *testing.T, s thinkgraph.Store, fn func(ctx context.Context, tx thinkgraph.Tx) error) {
	t.Helper()
	ctx := t.Context()
	if err := s.Update(ctx, func(tx thinkgraph.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func view(t *testing.T, s thinkgraph.Store, fn func(ctx context.Context, tx thinkgraph.Tx) error) {
	t.Helper()
	ctx := t.Context()
	if err := s.View(ctx, func(tx thinkgraph.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatalf("View: %v", err)
	}
}

func equal[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %s\n want %s", what, show(got), show(want))
	}
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one wrapping %v", what, err, target)
	}
}

func newSession(id, tenant string, updated int) *thinkgraph.Session {
	return &thinkgraph.Session{
		Key: thinkgraph.SessionKey(id), ID: id, Tenant: tenant, Mode: "think", CreatedAt: at(0), UpdatedAt: at(updated),
		ActiveBranch: thinkgraph.DefaultBranch,
	}
}

// testSameIDTwoTenants: two tenants each create a session "s1" (keys chosen
// by the store) with a thought, a branch, a link and a vector; each finds
// its own session by tenant and id, and its key reads only its own rows.
func testSameIDTwoTenants(t *testing.T, s thinkgraph.Store) {
	keys := map[string]thinkgraph.SessionKey{}
	for _, tenant := range []string{"alpha", "beta"} {
		update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
			sess := &thinkgraph.Session{ID: "s1", Tenant: tenant, Goal: "goal of " + tenant, CreatedAt: at(0), UpdatedAt: at(0), ActiveBranch: "main"}
			if err := tx.CreateSession(ctx, sess); err != nil {
				return err
			}
			if sess.Key == "" || sess.Key == "s1" {
				t.Errorf("CreateSession(%s) set key %q, want a new key", tenant, sess.Key)
			}
			keys[tenant] = sess.Key
			if err := tx.PutBranch(ctx, &thinkgraph.Branch{Session: sess.Key, ID: "main", State: "active", Priority: 1, CreatedAt: at(0), UpdatedAt: at(0)}); err != nil {
				return err
			}
			th := &thinkgraph.Thought{ID: "th-" + tenant, Session: sess.Key, BranchID: "main", Step: 1, Content: "by " + tenant, Author: "client", CreatedAt: at(1)}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
			if err := tx.AddLink(ctx, &thinkgraph.Link{ID: "l-" + tenant, Session: sess.Key, FromThought: th.ID, Type: "builds_upon", CreatedAt: at(1)}); err != nil {
				return err
			}
			return tx.PutVectors(ctx, []thinkgraph.Vector{{ThoughtID: th.ID, Session: sess.Key, Model: "m", Values: []float32{1}, CreatedAt: at(1)}})
		})
	}
	if keys["alpha"] == keys["beta"] {
		t.Fatalf("both tenants' sessions have key %q", keys["alpha"])
	}
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for tenant, key := range keys {
			sess, err := tx.Session(ctx, tenant, "s1")
			if err != nil {
				return err
			}
			if sess.Key != key || sess.Goal != "goal of "+tenant || sess.Tenant != tenant {
				t.Errorf("Session(%s, s1) = key %q, tenant %q, goal %q; want key %q, its own", tenant, sess.Key, sess.Tenant, sess.Goal, key)
			}
			ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: key})
			if err != nil {
				return err
			}
			equal(t, "Thoughts of "+tenant, thoughtIDs(ths), []string{"th-" + tenant})
			links, err := tx.Links(ctx, key)
			if err != nil {
				return err
			}
			equal(t, "len(Links) of "+tenant, len(links), 1)
			vs, err := tx.Vectors(ctx, key, "m")
			if err != nil {
				return err
			}
			equal(t, "len(Vectors) of "+tenant, len(vs), 1)
			other := "alpha"
			if tenant == "alpha" {
				other = "beta"
			}
			_, err = tx.Thought(ctx, key, "th-"+other)
			wantErr(t, "Thought of the other tenant", err, thinkgraph.ErrNotFound)
		}
		both, err := tx.Sessions(ctx, thinkgraph.SessionFilter{ID: "s1"})
		if err != nil {
			return err
		}
		equal(t, "len(Sessions(id s1))", len(both), 2)
		return nil
	})
	// Updating one tenant's session leaves the other's as it was.
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.LockSession(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		sess.Goal = "changed"
		return tx.UpdateSession(ctx, sess)
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, "beta", "s1")
		if err != nil {
			return err
		}
		equal(t, "beta's goal after alpha's update", sess.Goal, "goal of beta")
		return nil
	})
}

func steps(ths []thinkgraph.Thought) []int {
	out := []int{}
	for _, th := range ths {
		out = append(out, th.Step)
	}
	return out
}

func testSessions(t *testing.T, s thinkgraph.Store) {
	full := &thinkgraph.Session{
		Key: "s1", ID: "s1", Tenant: "alpha", Goal: "decide", Mode: "branch", CreatedAt: at(0), UpdatedAt: at(1),
		Metadata: json.RawMessage(`{"k":"v"}`), Settings: json.RawMessage(`{"auto":true}`),
		CurrentThoughtID: "th9", ActiveBranch: "b2", StepCount: 9, ContextStart: 4,
	}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, sess := range []*thinkgraph.Session{full, newSession("s2", "beta", 2), newSession("s3", "alpha", 3)} {
			if err := tx.CreateSession(ctx, sess); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Session(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		equal(t, "Session(s1)", got, full)
		got, err = tx.Session(ctx, "beta", "s2")
		if err != nil {
			return err
		}
		equal(t, "Session(s2)", got, newSession("s2", "beta", 2))
		// A session is found by its tenant and id: s2 is beta's alone.
		_, err = tx.Session(ctx, "alpha", "s2")
		wantErr(t, "Session(alpha, s2)", err, thinkgraph.ErrNotFound)
		if got.Metadata != nil || got.Settings != nil {
			t.Errorf("session without JSON: metadata %q, settings %q, want nil", got.Metadata, got.Settings)
		}

		_, err = tx.Session(ctx, "alpha", "nope")
		wantErr(t, "Session(nope)", err, thinkgraph.ErrNotFound)

		all, err := tx.Sessions(ctx, thinkgraph.SessionFilter{})
		if err != nil {
			return err
		}
		equal(t, "Sessions(all) ids", sessionIDs(all), []string{"s3", "s2", "s1"})
		alpha, err := tx.Sessions(ctx, thinkgraph.SessionFilter{Tenant: "alpha"})
		if err != nil {
			return err
		}
		equal(t, "Sessions(alpha) ids", sessionIDs(alpha), []string{"s3", "s1"})
		one, err := tx.Sessions(ctx, thinkgraph.SessionFilter{Tenant: "alpha", Limit: 1})
		if err != nil {
			return err
		}
		equal(t, "Sessions(alpha, limit 1) ids", sessionIDs(one), []string{"s3"})
		none, err := tx.Sessions(ctx, thinkgraph.SessionFilter{Tenant: "gamma"})
		if err != nil {
			return err
		}
		equal(t, "Sessions(gamma) ids", sessionIDs(none), []string{})
		return nil
	})

	// A second session with a tenant's existing id is a conflict and
	// changes nothing; so is one with an existing key.
	err := s.Update(t.Context(), func(tx thinkgraph.Tx) error {
		return tx.CreateSession(t.Context(), &thinkgraph.Session{ID: "s1", Tenant: "alpha", CreatedAt: at(5), UpdatedAt: at(5)})
	})
	wantErr(t, "CreateSession(existing id)", err, thinkgraph.ErrConflict)
	err = s.Update(t.Context(), func(tx thinkgraph.Tx) error {
		return tx.CreateSession(t.Context(), &thinkgraph.Session{Key: "s1", ID: "s9", Tenant: "alpha", CreatedAt: at(5), UpdatedAt: at(5)})
	})
	wantErr(t, "CreateSession(existing key)", err, thinkgraph.ErrConflict)

	// Update every mutable field, through LockSession.
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.LockSession(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		equal(t, "LockSession(s1)", sess, full)
		sess.Goal, sess.Mode, sess.UpdatedAt = "new goal", "linear", at(10)
		sess.Metadata, sess.Settings = nil, json.RawMessage(`{"auto":false}`)
		sess.CurrentThoughtID, sess.ActiveBranch, sess.StepCount, sess.ContextStart = "th10", "main", 10, 10
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		_, err = tx.LockSession(ctx, "alpha", "nope")
		wantErr(t, "LockSession(nope)", err, thinkgraph.ErrNotFound)
		err = tx.UpdateSession(ctx, newSession("nope", "alpha", 1))
		wantErr(t, "UpdateSession(nope)", err, thinkgraph.ErrNotFound)
		return nil
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Session(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		want := &thinkgraph.Session{
			Key: "s1", ID: "s1", Tenant: "alpha", Goal: "new goal", Mode: "linear", CreatedAt: at(0), UpdatedAt: at(10),
			Settings: json.RawMessage(`{"auto":false}`), CurrentThoughtID: "th10", ActiveBranch: "main",
			StepCount: 10, ContextStart: 10,
		}
		equal(t, "Session(s1) after update", got, want)
		return nil
	})
}

func sessionIDs(ss []thinkgraph.Session) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func testThoughts(t *testing.T, s thinkgraph.Store) {
	full := &thinkgraph.Thought{
		ID: "a", Session: "s1", BranchID: "main", Step: 1, Content: "first, with 'quotes' and ? marks",
		Type: "hypothesis", Confidence: ptr(0.25), KeyPoints: []string{"one", "two"},
		BranchPoint: true, Alternative: true, Selected: true, RevisesID: "x", Author: "gpt-test", Tool: "think",
		Metadata: json.RawMessage(`{"n":1}`), CreatedAt: at(1),
	}
	bare := &thinkgraph.Thought{
		ID: "b", Session: "s1", BranchID: "main", ParentID: "a", Step: 2, Content: "second",
		Author: "client", CreatedAt: at(2),
	}
	zero := &thinkgraph.Thought{
		ID: "c", Session: "s1", BranchID: "main", ParentID: "b", Step: 3, Content: "zero confidence",
		Confidence: ptr(0.0), Author: "client", CreatedAt: at(3),
	}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for _, th := range []*thinkgraph.Thought{full, bare, zero} {
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, want := range []*thinkgraph.Thought{full, bare, zero} {
			got, err := tx.Thought(ctx, "s1", want.ID)
			if err != nil {
				return err
			}
			equal(t, "Thought("+want.ID+")", got, want)
			got, err = tx.ThoughtByStep(ctx, "s1", want.Step)
			if err != nil {
				return err
			}
			equal(t, fmt.Sprintf("ThoughtByStep(%d)", want.Step), got, want)
		}
		_, err := tx.Thought(ctx, "s1", "nope")
		wantErr(t, "Thought(nope)", err, thinkgraph.ErrNotFound)
		_, err = tx.Thought(ctx, "s2", "a")
		wantErr(t, "Thought of another session", err, thinkgraph.ErrNotFound)
		_, err = tx.ThoughtByStep(ctx, "s1", 4)
		wantErr(t, "ThoughtByStep(4)", err, thinkgraph.ErrNotFound)
		_, err = tx.ThoughtByStep(ctx, "s2", 1)
		wantErr(t, "ThoughtByStep of another session", err, thinkgraph.ErrNotFound)
		return nil
	})

	// UpdateThought writes the flags and the metadata, and can clear them.
	changed := *bare
	changed.BranchPoint, changed.Alternative, changed.Selected, changed.Metadata = true, true, true, json.RawMessage(`[1,2]`)
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		if err := tx.UpdateThought(ctx, &changed); err != nil {
			return err
		}
		cleared := *full
		cleared.Metadata = nil
		cleared.BranchPoint, cleared.Alternative, cleared.Selected = false, false, false
		if err := tx.UpdateThought(ctx, &cleared); err != nil {
			return err
		}
		err := tx.UpdateThought(ctx, &thinkgraph.Thought{ID: "nope", Session: "s1", Step: 99, CreatedAt: at(1)})
		wantErr(t, "UpdateThought(nope)", err, thinkgraph.ErrNotFound)
		other := *zero
		other.Session = "s2"
		err = tx.UpdateThought(ctx, &other)
		wantErr(t, "UpdateThought in another session", err, thinkgraph.ErrNotFound)
		return nil
	})
	// Every other field is fixed once written: a change to one is refused,
	// names the field, and writes nothing (not even the flags beside it).
	for field, change := range map[string]func(th *thinkgraph.Thought){
		"branch_id":  func(th *thinkgraph.Thought) { th.BranchID = "alt" },
		"parent_id":  func(th *thinkgraph.Thought) { th.ParentID = "a" },
		"step":       func(th *thinkgraph.Thought) { th.Step = 7 },
		"content":    func(th *thinkgraph.Thought) { th.Content = "zero confidence, revised" },
		"type":       func(th *thinkgraph.Thought) { th.Type = "analysis" },
		"confidence": func(th *thinkgraph.Thought) { th.Confidence = ptr(0.9) },
		"key_points": func(th *thinkgraph.Thought) { th.KeyPoints = []string{"k"} },
		"revises_id": func(th *thinkgraph.Thought) { th.RevisesID = "a" },
		"author":     func(th *thinkgraph.Thought) { th.Author = "claude-test" },
		"tool":       func(th *thinkgraph.Thought) { th.Tool = "sequentialthinking" },
		"created_at": func(th *thinkgraph.Thought) { th.CreatedAt = at(20) },
	} {
		th := *zero
		th.Selected = true
		change(&th)
		err := s.Update(context.Background(), func(tx thinkgraph.Tx) error { return tx.UpdateThought(context.Background(), &th) })
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("UpdateThought changing %s: error %v, want one naming %s", field, err, field)
		}
	}
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Thought(ctx, "s1", "b")
		if err != nil {
			return err
		}
		equal(t, "Thought(b) after update", got, &changed)
		got, err = tx.Thought(ctx, "s1", "a")
		if err != nil {
			return err
		}
		if got.Metadata != nil || got.BranchPoint || got.Alternative || got.Selected {
			t.Errorf("Thought(a) after clearing: %s, want no metadata or flags", show(got))
		}
		got, err = tx.Thought(ctx, "s1", "c")
		if err != nil {
			return err
		}
		equal(t, "Thought(c) untouched", got, zero)
		return nil
	})
}

// tree builds, in session s1 (and a distractor s2):
//
//	step 1 t1 main (root)
//	step 2 t2 main  parent t1
//	step 3 t3 b     parent t2
//	step 4 t4 main  parent t2
//	step 5 t5 main  parent t4
//	step 6 t6 b     parent t3
func tree(t *testing.T, s thinkgraph.Store) {
	t.Helper()
	parents := []string{"", "t1", "t2", "t2", "t4", "t3"}
	branches := []string{"main", "main", "b", "main", "main", "b"}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for i := range parents {
			th := &thinkgraph.Thought{
				ID: fmt.Sprintf("t%d", i+1), Session: "s1", BranchID: branches[i], ParentID: parents[i],
				Step: i + 1, Content: fmt.Sprintf("thought %d", i+1), Author: "client", CreatedAt: at(i + 1),
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
			// The same shape in s2, under other ids.
			th.ID, th.Session = "x"+th.ID, "s2"
			if th.ParentID != "" {
				th.ParentID = "x" + th.ParentID
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
		}
		return nil
	})
}

// testOpenAlternatives: the OpenAlternatives filter returns the alternatives
// never selected, in step order, with the other filters.
func testOpenAlternatives(t *testing.T, s thinkgraph.Store) {
	type flags struct{ alt, sel bool }
	marks := []flags{{false, false}, {true, false}, {true, true}, {true, false}, {false, true}, {true, false}}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		if err := tx.CreateSession(ctx, newSession("s1", "alpha", 0)); err != nil {
			return err
		}
		for i, m := range marks {
			th := &thinkgraph.Thought{
				ID: fmt.Sprintf("t%d", i+1), Session: "s1", BranchID: "main", ParentID: "t1", Step: i + 1,
				Content: "x", Author: "client", Alternative: m.alt, Selected: m.sel, CreatedAt: at(i + 1),
			}
			if i == 0 {
				th.ParentID = ""
			}
			if i == 5 {
				th.BranchID = "b"
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, tt := range []struct {
			name string
			f    thinkgraph.ThoughtFilter
			want []int
		}{
			{"open", thinkgraph.ThoughtFilter{OpenAlternatives: true}, []int{2, 4, 6}},
			{"open on main", thinkgraph.ThoughtFilter{OpenAlternatives: true, BranchID: "main"}, []int{2, 4}},
			{"open, last 1", thinkgraph.ThoughtFilter{OpenAlternatives: true, Last: 1}, []int{6}},
			{"open children of t2", thinkgraph.ThoughtFilter{OpenAlternatives: true, ParentID: ptr("t2")}, []int{}},
		} {
			tt.f.Session = "s1"
			got, err := tx.Thoughts(ctx, tt.f)
			if err != nil {
				return fmt.Errorf("%s: %w", tt.name, err)
			}
			equal(t, "Thoughts("+tt.name+") steps", steps(got), tt.want)
			for _, th := range got {
				if !th.Alternative || th.Selected {
					t.Errorf("Thoughts(%s): step %d is alternative=%v selected=%v", tt.name, th.Step, th.Alternative, th.Selected)
				}
			}
		}
		return nil
	})
}

func testThoughtFilters(t *testing.T, s thinkgraph.Store) {
	tree(t, s)
	tests := []struct {
		name string
		f    thinkgraph.ThoughtFilter
		want []int
	}{
		{"all", thinkgraph.ThoughtFilter{}, []int{1, 2, 3, 4, 5, 6}},
		{"branch b", thinkgraph.ThoughtFilter{BranchID: "b"}, []int{3, 6}},
		{"branch main", thinkgraph.ThoughtFilter{BranchID: "main"}, []int{1, 2, 4, 5}},
		{"branch none", thinkgraph.ThoughtFilter{BranchID: "zzz"}, []int{}},
		{"children of t2", thinkgraph.ThoughtFilter{ParentID: ptr("t2")}, []int{3, 4}},
		{"roots", thinkgraph.ThoughtFilter{ParentID: ptr("")}, []int{1}},
		{"children of leaf", thinkgraph.ThoughtFilter{ParentID: ptr("t6")}, []int{}},
		{"after 4", thinkgraph.ThoughtFilter{AfterStep: 4}, []int{5, 6}},
		{"after 6", thinkgraph.ThoughtFilter{AfterStep: 6}, []int{}},
		{"last 2", thinkgraph.ThoughtFilter{Last: 2}, []int{5, 6}},
		{"last 1", thinkgraph.ThoughtFilter{Last: 1}, []int{6}},
		{"last 10", thinkgraph.ThoughtFilter{Last: 10}, []int{1, 2, 3, 4, 5, 6}},
		{"last 2 on main", thinkgraph.ThoughtFilter{BranchID: "main", Last: 2}, []int{4, 5}},
		{"last 3 after 4", thinkgraph.ThoughtFilter{AfterStep: 4, Last: 3}, []int{5, 6}},
		{"last 1 child of t2", thinkgraph.ThoughtFilter{ParentID: ptr("t2"), Last: 1}, []int{4}},
		{"branch main after 1 children of t2", thinkgraph.ThoughtFilter{BranchID: "main", ParentID: ptr("t2"), AfterStep: 1}, []int{4}},
	}
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, tt := range tests {
			tt.f.Session = "s1"
			got, err := tx.Thoughts(ctx, tt.f)
			if err != nil {
				return fmt.Errorf("%s: %w", tt.name, err)
			}
			equal(t, "Thoughts("+tt.name+") steps", steps(got), tt.want)
			for _, th := range got {
				if th.Session != "s1" || th.ID != fmt.Sprintf("t%d", th.Step) {
					t.Errorf("Thoughts(%s): got thought %s of session %s at step %d", tt.name, th.ID, th.Session, th.Step)
				}
			}
		}
		got, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "nope"})
		if err != nil {
			return err
		}
		equal(t, "Thoughts(unknown session)", steps(got), []int{})
		// Full rows come back, not just ids.
		got, err = tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "s1", Last: 1})
		if err != nil {
			return err
		}
		want, err := tx.Thought(ctx, "s1", "t6")
		if err != nil {
			return err
		}
		equal(t, "Thoughts(last 1)", got, []thinkgraph.Thought{*want})
		return nil
	})
}

func testAncestors(t *testing.T, s thinkgraph.Store) {
	tree(t, s)
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for id, want := range map[string][]string{
			"t6": {"t1", "t2", "t3", "t6"},
			"t5": {"t1", "t2", "t4", "t5"},
			"t1": {"t1"},
		} {
			got, err := tx.Ancestors(ctx, "s1", id)
			if err != nil {
				return err
			}
			equal(t, "Ancestors("+id+")", thoughtIDs(got), want)
		}
		got, err := tx.Ancestors(ctx, "s1", "t3")
		if err != nil {
			return err
		}
		t3, err := tx.Thought(ctx, "s1", "t3")
		if err != nil {
			return err
		}
		equal(t, "Ancestors(t3) leaf row", got[len(got)-1], *t3)

		_, err = tx.Ancestors(ctx, "s1", "nope")
		wantErr(t, "Ancestors(nope)", err, thinkgraph.ErrNotFound)
		_, err = tx.Ancestors(ctx, "s1", "xt6")
		wantErr(t, "Ancestors of another session's thought", err, thinkgraph.ErrNotFound)
		return nil
	})
}

func thoughtIDs(ths []thinkgraph.Thought) []string {
	out := []string{}
	for _, th := range ths {
		out = append(out, th.ID)
	}
	return out
}

func testAncestorsDeep(t *testing.T, s thinkgraph.Store) {
	const n = 1000
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		if err := tx.CreateSession(ctx, newSession("s1", "alpha", 0)); err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			th := &thinkgraph.Thought{
				ID: fmt.Sprintf("d%04d", i), Session: "s1", BranchID: "main", Step: i,
				Content: "deep", Author: "client", CreatedAt: at(i),
			}
			if i > 1 {
				th.ParentID = fmt.Sprintf("d%04d", i-1)
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Ancestors(ctx, "s1", fmt.Sprintf("d%04d", n))
		if err != nil {
			return err
		}
		if len(got) != n {
			t.Fatalf("Ancestors of the leaf of a %d-deep chain: %d thoughts", n, len(got))
		}
		for i, th := range got {
			if th.Step != i+1 || th.ID != fmt.Sprintf("d%04d", i+1) {
				t.Fatalf("Ancestors[%d] = %s (step %d), want d%04d: not root to leaf", i, th.ID, th.Step, i+1)
			}
		}
		mid, err := tx.Ancestors(ctx, "s1", "d0500")
		if err != nil {
			return err
		}
		if len(mid) != 500 || mid[0].ID != "d0001" || mid[499].ID != "d0500" {
			t.Errorf("Ancestors(d0500): %d thoughts from %s to %s, want 500 from d0001 to d0500",
				len(mid), mid[0].ID, mid[len(mid)-1].ID)
		}
		return nil
	})
}

func testUniqueStep(t *testing.T, s thinkgraph.Store) {
	first := &thinkgraph.Thought{ID: "a", Session: "s1", BranchID: "main", Step: 1, Content: "a", Author: "client", CreatedAt: at(1)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		return tx.AddThought(ctx, first)
	})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "b", Session: "s1", BranchID: "main", Step: 1, Content: "b", Author: "client", CreatedAt: at(2)})
	})
	if err == nil {
		t.Fatal("AddThought with a step the session already has: no error")
	}
	wantErr(t, "AddThought(duplicate step)", err, thinkgraph.ErrConflict)
	err = s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "a", Session: "s1", BranchID: "main", Step: 2, Content: "again", Author: "client", CreatedAt: at(2)})
	})
	wantErr(t, "AddThought(duplicate id)", err, thinkgraph.ErrConflict)
	// The same step in another session is fine.
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "c", Session: "s2", BranchID: "main", Step: 1, Content: "c", Author: "client", CreatedAt: at(3)})
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "s1"})
		if err != nil {
			return err
		}
		equal(t, "Thoughts(s1) after rejected duplicates", got, []thinkgraph.Thought{*first})
		return nil
	})
}

func testBranches(t *testing.T, s thinkgraph.Store) {
	main := &thinkgraph.Branch{Session: "s1", ID: "main", State: "active", Priority: 1, CreatedAt: at(1), UpdatedAt: at(1)}
	alt := &thinkgraph.Branch{Session: "s1", ID: "alt", State: "active", Priority: 0.5, ParentBranchID: "main",
		ForkThoughtID: "t3", CreatedAt: at(2), UpdatedAt: at(2)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for _, b := range []*thinkgraph.Branch{alt, main} {
			if err := tx.PutBranch(ctx, b); err != nil {
				return err
			}
		}
		return tx.PutBranch(ctx, &thinkgraph.Branch{Session: "s2", ID: "main", State: "active", Priority: 1, CreatedAt: at(0), UpdatedAt: at(0)})
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Branch(ctx, "s1", "alt")
		if err != nil {
			return err
		}
		equal(t, "Branch(alt)", got, alt)
		_, err = tx.Branch(ctx, "s1", "nope")
		wantErr(t, "Branch(nope)", err, thinkgraph.ErrNotFound)
		_, err = tx.Branch(ctx, "s3", "main")
		wantErr(t, "Branch of unknown session", err, thinkgraph.ErrNotFound)
		all, err := tx.Branches(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "Branches(s1)", all, []thinkgraph.Branch{*main, *alt})
		return nil
	})
	// PutBranch on an existing branch updates it but keeps its creation time.
	changed := &thinkgraph.Branch{Session: "s1", ID: "alt", State: "merged", Priority: 0.75, ParentBranchID: "other",
		ForkThoughtID: "t4", CreatedAt: at(50), UpdatedAt: at(60)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error { return tx.PutBranch(ctx, changed) })
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Branch(ctx, "s1", "alt")
		if err != nil {
			return err
		}
		want := *changed
		want.CreatedAt = alt.CreatedAt
		equal(t, "Branch(alt) after upsert", got, &want)
		all, err := tx.Branches(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "len(Branches(s1)) after upsert", len(all), 2)
		none, err := tx.Branches(ctx, "s3")
		if err != nil {
			return err
		}
		equal(t, "len(Branches(unknown))", len(none), 0)
		return nil
	})
}

func testLinks(t *testing.T, s thinkgraph.Store) {
	l1 := &thinkgraph.Link{ID: "l1", Session: "s1", FromBranch: "main", ToBranch: "alt", Type: "builds_upon",
		Reason: "extends", Strength: 0.8, CreatedAt: at(2)}
	l2 := &thinkgraph.Link{ID: "l2", Session: "s1", FromThought: "t1", ToThought: "t2", Type: "contradictory",
		CreatedAt: at(1)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for _, l := range []*thinkgraph.Link{l1, l2, {ID: "l3", Session: "s2", Type: "alternative", CreatedAt: at(0)}} {
			if err := tx.AddLink(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddLink(ctx, &thinkgraph.Link{ID: "l1", Session: "s1", Type: "complementary", CreatedAt: at(3)})
	})
	wantErr(t, "AddLink(existing id)", err, thinkgraph.ErrConflict)
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Links(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "Links(s1)", got, []thinkgraph.Link{*l2, *l1})
		got, err = tx.Links(ctx, "s3")
		if err != nil {
			return err
		}
		equal(t, "len(Links(unknown))", len(got), 0)
		return nil
	})
}

func testInvocations(t *testing.T, s thinkgraph.Store) {
	ok := &thinkgraph.Invocation{
		ID: "i1", Tenant: "alpha", SessionID: "s1", ToolName: "reason", Input: json.RawMessage(`{"q":"why"}`),
		Output: json.RawMessage(`{"a":"because"}`), Provider: "openai", PipeName: "pipe", Model: "gpt-test",
		LatencyMS: 1234567890123, Success: true, PromptTokens: 10, CompletionTokens: 20, TotalTokens: 30, CreatedAt: at(1),
	}
	failed := &thinkgraph.Invocation{
		ID: "i2", Tenant: "alpha", SessionID: "s1", ToolName: "reason", Provider: "anthropic", Success: false,
		Error: "timeout", LatencyMS: 5, CreatedAt: at(2),
	}
	sessionless := &thinkgraph.Invocation{ID: "i0", Tenant: "alpha", ToolName: "ping", Success: true, CreatedAt: at(0)}
	// Another tenant's session of the same id.
	other := &thinkgraph.Invocation{ID: "i3", Tenant: "beta", SessionID: "s1", ToolName: "reason", Success: true, CreatedAt: at(3)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, inv := range []*thinkgraph.Invocation{failed, ok, sessionless, other} {
			if err := tx.AddInvocation(ctx, inv); err != nil {
				return err
			}
		}
		return nil
	})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddInvocation(ctx, &thinkgraph.Invocation{ID: "i1", ToolName: "x", CreatedAt: at(5)})
	})
	wantErr(t, "AddInvocation(existing id)", err, thinkgraph.ErrConflict)
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{Tenant: "alpha", SessionID: "s1"})
		if err != nil {
			return err
		}
		equal(t, "Invocations(alpha, s1)", got, []thinkgraph.Invocation{*ok, *failed})
		got, err = tx.Invocations(ctx, thinkgraph.InvocationFilter{Tenant: "beta", SessionID: "s1"})
		if err != nil {
			return err
		}
		equal(t, "Invocations(beta, s1)", got, []thinkgraph.Invocation{*other})
		all, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{})
		if err != nil {
			return err
		}
		equal(t, "Invocations(all)", all, []thinkgraph.Invocation{*sessionless, *ok, *failed, *other})
		first, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{Limit: 2})
		if err != nil {
			return err
		}
		equal(t, "Invocations(limit 2)", first, []thinkgraph.Invocation{*sessionless, *ok})
		none, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{SessionID: "s9"})
		if err != nil {
			return err
		}
		equal(t, "len(Invocations(unknown))", len(none), 0)
		return nil
	})
}

var errAbort = errors.New("abort")

func testRollback(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, newSession("s1", "alpha", 0))
	})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		if err := tx.CreateSession(ctx, newSession("s2", "alpha", 0)); err != nil {
			return err
		}
		sess, err := tx.LockSession(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		sess.StepCount, sess.CurrentThoughtID, sess.Goal = 1, "t1", "changed"
		if err := tx.AddThought(ctx, &thinkgraph.Thought{ID: "t1", Session: "s1", BranchID: "main", Step: 1, Content: "x", Author: "client", CreatedAt: at(1)}); err != nil {
			return err
		}
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		if err := tx.PutBranch(ctx, &thinkgraph.Branch{Session: "s1", ID: "b", State: "active", CreatedAt: at(1), UpdatedAt: at(1)}); err != nil {
			return err
		}
		if err := tx.AddLink(ctx, &thinkgraph.Link{ID: "l1", Session: "s1", Type: "builds_upon", CreatedAt: at(1)}); err != nil {
			return err
		}
		if err := tx.AddInvocation(ctx, &thinkgraph.Invocation{ID: "i1", Tenant: "alpha", SessionID: "s1", ToolName: "x", CreatedAt: at(1)}); err != nil {
			return err
		}
		if err := tx.PutVectors(ctx, []thinkgraph.Vector{{ThoughtID: "t1", Session: "s1", Model: "m", Values: []float32{1}}}); err != nil {
			return err
		}
		// Inside the transaction its own writes are visible.
		if got, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "s1"}); err != nil || len(got) != 1 {
			t.Errorf("inside the transaction: %d thoughts, %v; want 1", len(got), err)
		}
		return errAbort
	})
	if !errors.Is(err, errAbort) {
		t.Fatalf("Update returned %v, want the function's error", err)
	}
	assertUntouched(t, s)
}

// assertUntouched checks that the store holds only session s1 as created by
// newSession("s1", "alpha", 0), with nothing in it.
func assertUntouched(t *testing.T, s thinkgraph.Store) {
	t.Helper()
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		equal(t, "Session(s1)", sess, newSession("s1", "alpha", 0))
		_, err = tx.Session(ctx, "alpha", "s2")
		wantErr(t, "Session(s2)", err, thinkgraph.ErrNotFound)
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "s1"})
		if err != nil {
			return err
		}
		equal(t, "len(Thoughts)", len(ths), 0)
		bs, err := tx.Branches(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "len(Branches)", len(bs), 0)
		ls, err := tx.Links(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "len(Links)", len(ls), 0)
		invs, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{})
		if err != nil {
			return err
		}
		equal(t, "len(Invocations)", len(invs), 0)
		vs, err := tx.Vectors(ctx, "s1", "m")
		if err != nil {
			return err
		}
		equal(t, "len(Vectors)", len(vs), 0)
		return nil
	})
}

func testViewDoesNotWrite(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, newSession("s1", "alpha", 0))
	})
	// A store may reject writes in View or discard them; it must not keep them.
	ctx := t.Context()
	_ = s.View(ctx, func(tx thinkgraph.Tx) error {
		if err := tx.CreateSession(ctx, newSession("s2", "alpha", 0)); err != nil {
			return err
		}
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "t1", Session: "s1", BranchID: "main", Step: 1, Content: "x", Author: "client", CreatedAt: at(1)})
	})
	err := s.View(ctx, func(tx thinkgraph.Tx) error { return errAbort })
	if !errors.Is(err, errAbort) {
		t.Errorf("View returned %v, want the function's error", err)
	}
	assertUntouched(t, s)
}

// testConcurrentUpdates appends to one session from many goroutines, each
// transaction reading the session's step count and current thought, adding
// the next thought and saving the session. A store that lets two of them read
// the same step count loses an update (or fails on UNIQUE(session_id, step)).
func testConcurrentUpdates(t *testing.T, s thinkgraph.Store) {
	const workers, perWorker = 8, 50
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.CreateSession(ctx, newSession("s1", "alpha", 0))
	})
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				err := s.Update(ctx, func(tx thinkgraph.Tx) error {
					sess, err := tx.LockSession(ctx, "alpha", "s1")
					if err != nil {
						return err
					}
					sess.StepCount++
					th := &thinkgraph.Thought{
						ID: fmt.Sprintf("w%d-%d", w, i), Session: "s1", BranchID: "main",
						ParentID: sess.CurrentThoughtID, Step: sess.StepCount, Content: "concurrent",
						Author: "client", CreatedAt: at(sess.StepCount),
					}
					if err := tx.AddThought(ctx, th); err != nil {
						return err
					}
					sess.CurrentThoughtID = th.ID
					sess.UpdatedAt = th.CreatedAt
					return tx.UpdateSession(ctx, sess)
				})
				if err != nil {
					errs <- fmt.Errorf("worker %d, update %d: %w", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	const total = workers * perWorker
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, "alpha", "s1")
		if err != nil {
			return err
		}
		if sess.StepCount != total {
			t.Errorf("StepCount = %d, want %d", sess.StepCount, total)
		}
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: "s1"})
		if err != nil {
			return err
		}
		if len(ths) != total {
			t.Fatalf("%d thoughts, want %d", len(ths), total)
		}
		for i, th := range ths {
			if th.Step != i+1 {
				t.Fatalf("thought %d has step %d, want %d", i, th.Step, i+1)
			}
			// Each thought follows the one that was current: one unbroken chain.
			if i > 0 && th.ParentID != ths[i-1].ID {
				t.Fatalf("step %d: parent %q, want %q (the previous step)", th.Step, th.ParentID, ths[i-1].ID)
			}
		}
		if sess.CurrentThoughtID != ths[total-1].ID {
			t.Errorf("current thought %q, want the last one %q", sess.CurrentThoughtID, ths[total-1].ID)
		}
		path, err := tx.Ancestors(ctx, "s1", sess.CurrentThoughtID)
		if err != nil {
			return err
		}
		equal(t, "len(Ancestors(current))", len(path), total)
		return nil
	})
}

// testConcurrentCreate sends the first calls of a new session from many
// goroutines at once, each locking the session and creating it when it does
// not exist (as the reasoning service does): the session must be created
// once, and no call may fail because another created it first.
func testConcurrentCreate(t *testing.T, s thinkgraph.Store) {
	const workers, sessions = 8, 20
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, workers*sessions)
	// All workers start each session together.
	var barriers [sessions]sync.WaitGroup
	for i := range barriers {
		barriers[i].Add(workers)
	}
	for w := range workers {
		wg.Go(func() {
			for i := range sessions {
				barriers[i].Done()
				barriers[i].Wait()
				id := fmt.Sprintf("s%d", i)
				err := s.Update(ctx, func(tx thinkgraph.Tx) error {
					sess, err := tx.LockSession(ctx, "alpha", id)
					if errors.Is(err, thinkgraph.ErrNotFound) {
						sess = newSession(id, "alpha", 0)
						err = tx.CreateSession(ctx, sess)
					}
					if err != nil {
						return err
					}
					sess.StepCount++
					return tx.UpdateSession(ctx, sess)
				})
				if err != nil {
					errs <- fmt.Errorf("worker %d, session %s: %w", w, id, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		all, err := tx.Sessions(ctx, thinkgraph.SessionFilter{})
		if err != nil {
			return err
		}
		if len(all) != sessions {
			t.Errorf("%d sessions, want %d", len(all), sessions)
		}
		for _, sess := range all {
			if sess.StepCount != workers {
				t.Errorf("session %s: step count %d, want %d (one per worker)", sess.ID, sess.StepCount, workers)
			}
		}
		return nil
	})
}
