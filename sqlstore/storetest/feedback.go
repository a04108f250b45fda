package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// testFeedback: feedback on thoughts is stored per session, refused on a
// thought of another session, and TakeFeedback hands each piece out once,
// also to concurrent callers.
func testFeedback(t *testing.T, s thinkgraph.Store) {
	f1 := &thinkgraph.Feedback{ID: "f1", Session: "s1", ThoughtID: "t2", Kind: thinkgraph.FeedbackRefute, Text: "The cache is cold at start",
		Author: thinkgraph.FeedbackAuthor, CreatedAt: at(5)}
	f2 := &thinkgraph.Feedback{ID: "f2", Session: "s1", ThoughtID: "t1", Kind: thinkgraph.FeedbackComment, Text: "Measure first",
		Author: thinkgraph.FeedbackAuthor, CreatedAt: at(4)}
	other := &thinkgraph.Feedback{ID: "f3", Session: "s2", ThoughtID: "u1", Kind: thinkgraph.FeedbackConfirm, Text: "Yes",
		Author: thinkgraph.FeedbackAuthor, CreatedAt: at(6)}
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		return nil
	})
	addChain(t, s, "s1", "", 1, "t1", "t2")
	addChain(t, s, "s2", "", 1, "u1")
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, f := range []*thinkgraph.Feedback{f1, f2, other} {
			if err := tx.AddFeedback(ctx, f); err != nil {
				return err
			}
		}
		return nil
	})
	ctx := t.Context()
	err := s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddFeedback(ctx, &thinkgraph.Feedback{ID: "f4", Session: "s1", ThoughtID: "u1", Kind: "comment", Text: "x", Author: "human", CreatedAt: at(7)})
	})
	wantErr(t, "AddFeedback(thought of another session)", err, thinkgraph.ErrNotFound)
	err = s.Update(ctx, func(tx thinkgraph.Tx) error {
		return tx.AddFeedback(ctx, &thinkgraph.Feedback{ID: "f1", Session: "s1", ThoughtID: "t1", Kind: "comment", Text: "x", Author: "human", CreatedAt: at(7)})
	})
	wantErr(t, "AddFeedback(existing id)", err, thinkgraph.ErrConflict)

	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Feedback(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "Feedback(s1)", got, []thinkgraph.Feedback{*f2, *f1})
		c, err := tx.CountFeedback(ctx, "s1", f1.CreatedAt)
		equal(t, "CountFeedback(s1, since the later)", c, thinkgraph.FeedbackCount{Total: 2, Pending: 2, Since: 1})
		return err
	})
	var taken []thinkgraph.Feedback
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		var err error
		taken, err = take(ctx, tx, at(10), 100)
		return err
	})
	d2, d1 := *f2, *f1
	d2.DeliveredAt, d1.DeliveredAt = ptr(at(10)), ptr(at(10))
	equal(t, "TakeFeedback(s1)", taken, []thinkgraph.Feedback{d2, d1})
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		again, err := take(ctx, tx, at(11), 100)
		equal(t, "len(TakeFeedback(s1) again)", len(again), 0)
		c, _ := tx.CountFeedback(ctx, "s1", time.Time{})
		equal(t, "CountFeedback(s1) after", c, thinkgraph.FeedbackCount{Total: 2, Pending: 0, Since: 2})
		return err
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.Feedback(ctx, "s1")
		if err != nil {
			return err
		}
		equal(t, "Feedback(s1) after delivery", got, []thinkgraph.Feedback{d2, d1})
		got, err = tx.Feedback(ctx, "s2")
		if err != nil {
			return err
		}
		equal(t, "Feedback(s2), not delivered", got, []thinkgraph.Feedback{*other})
		return nil
	})

	// Concurrent takers: each piece of feedback goes to exactly one.
	const pieces, workers = 20, 6
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for i := range pieces {
			if err := tx.AddFeedback(ctx, &thinkgraph.Feedback{ID: fmt.Sprintf("c%02d", i), Session: "s1", ThoughtID: "t1",
				Kind: thinkgraph.FeedbackComment, Text: "note", Author: thinkgraph.FeedbackAuthor, CreatedAt: at(20 + i)}); err != nil {
				return err
			}
		}
		return nil
	})
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			// A few at a time, as tool results take them.
			for {
				var mine []thinkgraph.Feedback
				err := s.Update(ctx, func(tx thinkgraph.Tx) error {
					var err error
					mine, err = take(ctx, tx, at(50), 3)
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				if len(mine) > 3 {
					t.Errorf("took %d pieces, limit 3", len(mine))
				}
				mu.Lock()
				for _, f := range mine {
					got[f.ID]++
				}
				mu.Unlock()
				if len(mine) == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		rest, err := take(ctx, tx, at(51), 100)
		for _, f := range rest {
			got[f.ID]++
		}
		return err
	})
	if len(got) != pieces {
		t.Errorf("concurrent takers got %d pieces of feedback, want %d", len(got), pieces)
	}
	for id, n := range got {
		if n != 1 {
			t.Errorf("feedback %s delivered %d times", id, n)
		}
	}
}

// take takes the oldest undelivered feedback of s1, at most limit pieces,
// as a tool result does: PendingFeedback, then TakeFeedback of their ids.
func take(ctx context.Context, tx thinkgraph.Tx, at time.Time, limit int) ([]thinkgraph.Feedback, error) {
	pending, err := tx.PendingFeedback(ctx, "s1", limit)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(pending))
	for i, f := range pending {
		ids[i] = f.ID
	}
	return tx.TakeFeedback(ctx, "s1", at, ids)
}
