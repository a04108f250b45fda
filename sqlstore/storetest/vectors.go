package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

func testVectors(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for i := 1; i <= 4; i++ {
			if err := tx.AddThought(ctx, &thinkgraph.Thought{ID: fmt.Sprintf("t%d", i), Session: "s1", BranchID: "main",
				Step: i, Content: fmt.Sprintf("thought %d", i), Author: "client", CreatedAt: at(i)}); err != nil {
				return err
			}
		}
		return tx.AddThought(ctx, &thinkgraph.Thought{ID: "x1", Session: "s2", BranchID: "main", Step: 1,
			Content: "other", Author: "client", CreatedAt: at(1)})
	})
	missing := func(model string, limit int, want ...string) {
		t.Helper()
		view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
			got, err := tx.MissingVectors(ctx, "s1", model, limit)
			if err != nil {
				return err
			}
			equal(t, fmt.Sprintf("MissingVectors(%s, limit %d)", model, limit), thoughtIDs(got), append([]string{}, want...))
			return nil
		})
	}
	vectors := func(session thinkgraph.SessionKey, model string, want ...thinkgraph.Vector) {
		t.Helper()
		view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
			got, err := tx.Vectors(ctx, session, model)
			if err != nil {
				return err
			}
			if len(got) == 0 && len(want) == 0 {
				return nil
			}
			equal(t, fmt.Sprintf("Vectors(%s, %s)", session, model), got, want)
			return nil
		})
	}

	missing("m1", 0, "t1", "t2", "t3", "t4")
	missing("m1", 2, "t1", "t2")
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.MissingVectors(ctx, "s1", "m1", 1)
		if err != nil {
			return err
		}
		want, err := tx.Thought(ctx, "s1", "t1")
		if err != nil {
			return err
		}
		equal(t, "MissingVectors rows", got, []thinkgraph.Thought{*want})
		got, err = tx.MissingVectors(ctx, "nope", "m1", 0)
		if err != nil {
			return err
		}
		equal(t, "MissingVectors(unknown session)", len(got), 0)
		return nil
	})

	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1.5, math.SmallestNonzeroFloat32, math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), 0.1}
	v3 := thinkgraph.Vector{ThoughtID: "t3", Session: "s1", Model: "m1", Dim: len(special), Values: special, CreatedAt: at(30)}
	v1 := thinkgraph.Vector{ThoughtID: "t1", Session: "s1", Model: "m1", Values: []float32{0.5, 0.25}, CreatedAt: at(31)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		if err := tx.PutVectors(ctx, nil); err != nil {
			return err
		}
		return tx.PutVectors(ctx, []thinkgraph.Vector{v3, v1})
	})
	v1.Dim = 2 // Dim 0 means len(Values)
	vectors("s1", "m1", v1, v3)
	vectors("s1", "m2")
	vectors("s2", "m1")
	missing("m1", 0, "t2", "t4")
	missing("m2", 0, "t1", "t2", "t3", "t4")
	// -0 survives as -0, not just as a value equal to 0.
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Vectors(ctx, "s1", "m1")
		if err != nil {
			return err
		}
		if len(got) == 2 && !math.Signbit(float64(got[1].Values[1])) {
			t.Errorf("-0 came back as %v", got[1].Values[1])
		}
		return nil
	})

	// Upsert: a new vector of the same model replaces the old one; one of
	// another model (a model switch) moves the thought to that model.
	big := make([]float32, 1536)
	for i := range big {
		big[i] = float32(math.Sin(float64(i)))
	}
	v1b := thinkgraph.Vector{ThoughtID: "t1", Session: "s1", Model: "m1", Dim: len(big), Values: big, CreatedAt: at(40)}
	v3b := thinkgraph.Vector{ThoughtID: "t3", Session: "s1", Model: "m2", Dim: 3, Values: []float32{1, 2, 3}, CreatedAt: at(41)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		return tx.PutVectors(ctx, []thinkgraph.Vector{v1b, v3b})
	})
	vectors("s1", "m1", v1b)
	vectors("s1", "m2", v3b)
	missing("m1", 0, "t2", "t3", "t4")
	missing("m2", 0, "t1", "t2", "t4")

	// Rejected vectors; a batch with one bad vector writes nothing.
	ctx := t.Context()
	good := thinkgraph.Vector{ThoughtID: "t2", Session: "s1", Model: "m1", Values: []float32{1}, CreatedAt: at(50)}
	for _, tt := range []struct {
		name     string
		v        thinkgraph.Vector
		notFound bool
	}{
		{"unknown thought", thinkgraph.Vector{ThoughtID: "nope", Session: "s1", Model: "m1", Values: []float32{1}}, true},
		{"thought of another session", thinkgraph.Vector{ThoughtID: "x1", Session: "s1", Model: "m1", Values: []float32{1}}, true},
		{"dim mismatch", thinkgraph.Vector{ThoughtID: "t4", Session: "s1", Model: "m1", Dim: 3, Values: []float32{1, 2}}, false},
		{"no values", thinkgraph.Vector{ThoughtID: "t4", Session: "s1", Model: "m1"}, false},
		{"no model", thinkgraph.Vector{ThoughtID: "t4", Session: "s1", Values: []float32{1}}, false},
	} {
		err := s.Update(ctx, func(tx thinkgraph.Tx) error {
			return tx.PutVectors(ctx, []thinkgraph.Vector{good, tt.v})
		})
		switch {
		case err == nil:
			t.Errorf("PutVectors(%s): no error", tt.name)
		case tt.notFound && !errors.Is(err, thinkgraph.ErrNotFound):
			t.Errorf("PutVectors(%s): %v, want ErrNotFound", tt.name, err)
		}
	}
	missing("m1", 0, "t2", "t3", "t4")
	vectors("s2", "m1")
}
