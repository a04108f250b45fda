package sqlstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/thinkgraph/thinkgraph"
)

// encodeVector stores values as float32 little-endian.
func encodeVector(values []float32) []byte {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func decodeVector(b []byte, dim int) ([]float32, error) {
	if dim < 0 || len(b) != 4*dim {
		return nil, fmt.Errorf("%d bytes for %d dimensions", len(b), dim)
	}
	values := make([]float32, dim)
	for i := range values {
		values[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return values, nil
}

// PutVectors inserts or replaces the vector of each thought. A thought that
// does not exist in the vector's session is ErrNotFound.
func (t *txn) PutVectors(ctx context.Context, vs []thinkgraph.Vector) error {
	if len(vs) == 0 {
		return nil
	}
	// INSERT ... SELECT ... WHERE EXISTS: the thought must be in the session.
	// (SQLite needs the WHERE to parse ON CONFLICT after a SELECT.) Not a
	// prepared statement: pgx caches the statement per connection anyway.
	const put = `INSERT INTO vectors (thought_id, session_id, model, dim, vec, created_at)
		SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM thoughts WHERE id = ? AND session_id = ?)
		ON CONFLICT (thought_id) DO UPDATE SET session_id = excluded.session_id, model = excluded.model,
		dim = excluded.dim, vec = excluded.vec, created_at = excluded.created_at`
	for _, v := range vs {
		dim := v.Dim
		if dim == 0 {
			dim = len(v.Values)
		}
		switch {
		case len(v.Values) == 0:
			return fmt.Errorf("put vector of thought %s: no values", v.ThoughtID)
		case dim != len(v.Values):
			return fmt.Errorf("put vector of thought %s: dim %d but %d values", v.ThoughtID, v.Dim, len(v.Values))
		case v.Model == "":
			return fmt.Errorf("put vector of thought %s: no model", v.ThoughtID)
		}
		res, err := t.exec(ctx, put, v.ThoughtID, v.Session, v.Model, dim, encodeVector(v.Values), micros(v.CreatedAt),
			v.ThoughtID, v.Session)
		if err != nil {
			return fmt.Errorf("put vector of thought %s: %w", v.ThoughtID, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return fmt.Errorf("put vector: thought %q of session %q: %w", v.ThoughtID, v.Session, thinkgraph.ErrNotFound)
		}
	}
	return nil
}

// Vectors returns the session's vectors of model in step order.
//
// The session's thoughts are read in step order from their (session_id,
// step) index and each one's vector by its key: no sort. Read the other way
// round (the vectors of the session, then sorted by their thoughts' steps),
// SQLite sorted every row, vector included (2 KB each), before returning
// the first one.
func (t *txn) Vectors(ctx context.Context, session thinkgraph.SessionKey, model string) ([]thinkgraph.Vector, error) {
	rows, err := t.query(ctx, `SELECT v.thought_id, v.session_id, v.model, v.dim, v.vec, v.created_at
		FROM thoughts t JOIN vectors v ON v.thought_id = t.id
		WHERE t.session_id = ? AND v.session_id = t.session_id AND v.model = ? ORDER BY t.step`, session, model)
	if err != nil {
		return nil, fmt.Errorf("list vectors: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Vector
	for rows.Next() {
		var v thinkgraph.Vector
		var vec []byte
		var created int64
		if err := rows.Scan(&v.ThoughtID, &v.Session, &v.Model, &v.Dim, &vec, &created); err != nil {
			return nil, fmt.Errorf("list vectors: %w", err)
		}
		if v.Values, err = decodeVector(vec, v.Dim); err != nil {
			return nil, fmt.Errorf("vector of thought %s: %w", v.ThoughtID, err)
		}
		v.CreatedAt = fromMicros(created)
		out = append(out, v)
	}
	return out, rows.Err()
}

// MissingVectors returns the session's thoughts without a vector of model.
func (t *txn) MissingVectors(ctx context.Context, session thinkgraph.SessionKey, model string, limit int) ([]thinkgraph.Thought, error) {
	if model == "" {
		return nil, errors.New("missing vectors: no model")
	}
	q := `SELECT ` + prefixed("t.", thoughtCols) + ` FROM thoughts t WHERE t.session_id = ?
		AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.thought_id = t.id AND v.model = ?) ORDER BY t.step`
	args := []any{session, model}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	return t.thoughts(ctx, q, args...)
}
