package lux

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// runPath must return the part of tx.Ancestors from the run's root on
// (all of it when the root is not an ancestor) and the root, on graphs with
// several roots, branches and forks from older thoughts.
func TestLuxRunPathAgreesWithAncestors(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := reasoning.New(store, reasoning.Config{})
	rng := rand.New(rand.NewPCG(1, 2))
	var sess *thinkgraph.Session
	var ths []thinkgraph.Thought
	err = store.Update(ctx, func(tx thinkgraph.Tx) error {
		var err error
		if sess, err = svc.Session(ctx, tx, reasoning.SessionRef{ID: "runpath", Explicit: true}, true, "traced"); err != nil {
			return err
		}
		for i := range 400 {
			th := thinkgraph.Thought{Content: "t", Tool: "traced_reasoning"}
			switch r := rng.IntN(10); {
			case i == 0 || r == 0: // a new root
				sess.CurrentThoughtID = ""
			case r < 3: // a fork from any earlier thought
				th.ParentID = ths[rng.IntN(len(ths))].ID
			}
			if err := svc.AppendThought(ctx, tx, sess, &th, nil); err != nil {
				return err
			}
			ths = append(ths, th)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.View(ctx, func(tx thinkgraph.Tx) error {
		for range 150 {
			parent, root := ths[rng.IntN(len(ths))], ths[rng.IntN(len(ths))]
			if root.Step > parent.Step {
				parent, root = root, parent
			}
			anc, err := tx.Ancestors(ctx, sess.Key, parent.ID)
			if err != nil {
				return err
			}
			want := anc
			if i := slices.IndexFunc(anc, func(th thinkgraph.Thought) bool { return th.ID == root.ID }); i >= 0 {
				want = anc[i:]
			} else {
				want = slices.DeleteFunc(slices.Clone(anc), func(th thinkgraph.Thought) bool { return th.Step < root.Step })
			}
			for _, c := range [][2]int{{0, sess.StepCount}, {root.Step, sess.StepCount}, {root.Step, root.Step}} {
				// The last one always reads the range, however long.
				got, gotRoot, err := runPath(ctx, tx, sess.Key, parent.ID, root.ID, c[0], c[1])
				if err != nil {
					return err
				}
				// Before the root's step the two may differ (the range read
				// stops there); runPath's callers use only the rest.
				got = slices.DeleteFunc(got, func(th thinkgraph.Thought) bool { return th.Step < root.Step })
				if gotRoot.ID != root.ID || !slices.EqualFunc(got, want, func(a, b thinkgraph.Thought) bool { return a.ID == b.ID && a.Content == b.Content }) {
					t.Fatalf("parent %d, root %d (got root %d): got %v, want %v", parent.Step, root.Step, gotRoot.Step, luxSteps(got), luxSteps(want))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func luxSteps(ths []thinkgraph.Thought) []int {
	var out []int
	for _, th := range ths {
		out = append(out, th.Step)
	}
	return out
}
