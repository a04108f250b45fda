package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
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

func (t *txn) CountFeedback(ctx context.Context, session thinkgraph.SessionKey, since time.Time) (thinkgraph.FeedbackCount, error) {
	var c thinkgraph.FeedbackCount
	err := t.queryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN delivered_at IS NULL THEN 1 ELSE 0 END), 0), `+
		`COALESCE(SUM(CASE WHEN created_at >= ? THEN 1 ELSE 0 END), 0) FROM feedback WHERE session_id = ?`, micros(since), session).Scan(&c.Total, &c.Pending, &c.Since)
	if err != nil {
		return c, fmt.Errorf("count feedback: %w", err)
	}
	return c, nil
}

func (t *txn) PendingFeedback(ctx context.Context, session thinkgraph.SessionKey, limit int) ([]thinkgraph.Feedback, error) {
	return t.feedback(ctx, `SELECT `+feedbackCols+` FROM feedback WHERE session_id = ? AND delivered_at IS NULL ORDER BY created_at, id LIMIT ?`, session, limit)
}

// TakeFeedback marks and reads the feedback in one statement: a
// concurrent call waits for the row locks (PostgreSQL) or the write lock
// (SQLite) and then finds the rows delivered (delivered_at IS NULL is
// checked again on a row another call changed while this one waited).
func (t *txn) TakeFeedback(ctx context.Context, session thinkgraph.SessionKey, at time.Time, ids []string) ([]thinkgraph.Feedback, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{micros(at), session}
	for _, id := range ids {
		args = append(args, id)
	}
	out, err := t.feedback(ctx, `UPDATE feedback SET delivered_at = ? WHERE session_id = ? AND delivered_at IS NULL AND id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`) RETURNING `+feedbackCols, args...)
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
