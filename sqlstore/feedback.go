package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

const feedbackCols = `id, session_id, thought_id, kind, text, author, created_at, delivered_at`

// AddFeedback stores feedback on a thought, which must exist in the
// feedback's session.
func (t *txn) AddFeedback(ctx context.Context, f *thinkgraph.Feedback) error {
	if _, err := t.Thought(ctx, f.Session, f.ThoughtID); err != nil {
		return fmt.Errorf("add feedback: %w", err)
	}
	var delivered any
	if f.DeliveredAt != nil {
		delivered = micros(*f.DeliveredAt)
	}
	if _, err := t.exec(ctx, `INSERT INTO feedback (`+feedbackCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.Session, f.ThoughtID, f.Kind, f.Text, f.Author, micros(f.CreatedAt), delivered); err != nil {
		return fmt.Errorf("add feedback %q: %w", f.ID, t.db.conflict(err))
	}
	return nil
}

func (t *txn) Feedback(ctx context.Context, session thinkgraph.SessionKey) ([]thinkgraph.Feedback, error) {
	return t.feedback(ctx, `SELECT `+feedbackCols+` FROM feedback WHERE session_id = ? ORDER BY created_at, id`, session)
}

// TakeFeedback marks and reads the undelivered feedback in one statement:
// a concurrent call waits for the row locks (PostgreSQL) or the write lock
// (SQLite) and then finds the rows delivered.
func (t *txn) TakeFeedback(ctx context.Context, session thinkgraph.SessionKey, at time.Time) ([]thinkgraph.Feedback, error) {
	out, err := t.feedback(ctx, `UPDATE feedback SET delivered_at = ? WHERE session_id = ? AND delivered_at IS NULL RETURNING `+feedbackCols,
		micros(at), session)
	if err != nil {
		return nil, err
	}
	// RETURNING has no order.
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func (t *txn) feedback(ctx context.Context, q string, args ...any) ([]thinkgraph.Feedback, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list feedback: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Feedback
	for rows.Next() {
		var f thinkgraph.Feedback
		var created int64
		var delivered sql.NullInt64
		if err := rows.Scan(&f.ID, &f.Session, &f.ThoughtID, &f.Kind, &f.Text, &f.Author, &created, &delivered); err != nil {
			return nil, fmt.Errorf("list feedback: %w", err)
		}
		f.CreatedAt = fromMicros(created)
		if delivered.Valid {
			d := fromMicros(delivered.Int64)
			f.DeliveredAt = &d
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
