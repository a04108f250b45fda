package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/thinkgraph/thinkgraph"
)

type txn struct {
	tx *sql.Tx
	db *DB
	// readOnly: a View transaction.
	readOnly bool
	// stmts are the prepared statements to use (write transactions of a
	// dialect that caches them); missed lists the statements to prepare
	// once the transaction is over.
	stmts  *stmtCache
	missed []string
}

// stmt returns the transaction's view of the cached prepared statement of q,
// or nil (and notes q to be prepared later).
func (t *txn) stmt(ctx context.Context, q string) *sql.Stmt {
	if t.stmts == nil {
		return nil
	}
	if st := t.stmts.get(q); st != nil {
		return t.tx.StmtContext(ctx, st)
	}
	t.missed = append(t.missed, q)
	return nil
}

func (t *txn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q := t.db.q(query)
	if st := t.stmt(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, q, args...)
}

func (t *txn) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q := t.db.q(query)
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, q, args...)
}

func (t *txn) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	q := t.db.q(query)
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, q, args...)
}

// nullJSON stores nil or empty JSON as NULL.
func nullJSON(v json.RawMessage) any {
	if len(v) == 0 {
		return nil
	}
	return string(v)
}

func rawJSON(s sql.NullString) json.RawMessage {
	if !s.Valid || s.String == "" {
		return nil
	}
	return json.RawMessage(s.String)
}

// ---- sessions

// sessionCols are the columns of a session: id is the store's key
// (Session.Key), name the id clients use (Session.ID), unique per tenant.
const sessionCols = `id, name, tenant, goal, mode, created_at, updated_at, metadata, settings,
	current_thought_id, active_branch, step_count, context_start`

type scanner interface{ Scan(dest ...any) error }

func scanSession(r scanner) (*thinkgraph.Session, error) {
	var s thinkgraph.Session
	var created, updated int64
	var meta, settings sql.NullString
	if err := r.Scan(&s.Key, &s.ID, &s.Tenant, &s.Goal, &s.Mode, &created, &updated, &meta, &settings,
		&s.CurrentThoughtID, &s.ActiveBranch, &s.StepCount, &s.ContextStart); err != nil {
		return nil, err
	}
	s.CreatedAt, s.UpdatedAt = fromMicros(created), fromMicros(updated)
	s.Metadata, s.Settings = rawJSON(meta), rawJSON(settings)
	return &s, nil
}

func (t *txn) session(ctx context.Context, tenant, id, suffix string) (*thinkgraph.Session, error) {
	s, err := scanSession(t.queryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE tenant = ? AND name = ?`+suffix, tenant, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("session", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read session %q: %w", id, err)
	}
	return s, nil
}

func (t *txn) Session(ctx context.Context, tenant, id string) (*thinkgraph.Session, error) {
	return t.session(ctx, tenant, id, "")
}

// LockSession reads the session, locking its row. A session that does not
// exist has no row to lock: then the dialect's LockSessionSQL locks its
// tenant and id, so that concurrent creators take turns, and the session is
// read again (a creator that held the lock may have created it meanwhile).
func (t *txn) LockSession(ctx context.Context, tenant, id string) (*thinkgraph.Session, error) {
	s, err := t.session(ctx, tenant, id, t.db.dialect.LockSuffix)
	if t.db.dialect.LockSessionSQL == "" || !errors.Is(err, thinkgraph.ErrNotFound) {
		return s, err
	}
	if _, err := t.exec(ctx, t.db.dialect.LockSessionSQL, tenant, id); err != nil {
		return nil, fmt.Errorf("lock session %q: %w", id, err)
	}
	return t.session(ctx, tenant, id, t.db.dialect.LockSuffix)
}

// CreateSession stores s under s.Key or, when that is empty, under a new
// key: a random UUID, which no client chooses.
func (t *txn) CreateSession(ctx context.Context, s *thinkgraph.Session) error {
	key := s.Key
	if key == "" {
		key = thinkgraph.SessionKey(uuid.NewString())
	}
	res, err := t.exec(ctx, `INSERT INTO sessions (`+sessionCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, name) DO NOTHING`,
		key, s.ID, s.Tenant, s.Goal, s.Mode, micros(s.CreatedAt), micros(s.UpdatedAt), nullJSON(s.Metadata), nullJSON(s.Settings),
		s.CurrentThoughtID, s.ActiveBranch, s.StepCount, s.ContextStart)
	if err != nil {
		return fmt.Errorf("create session %q: %w", s.ID, t.db.conflict(err))
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("session %q: %w", s.ID, thinkgraph.ErrConflict)
	}
	s.Key = key
	return nil
}

func (t *txn) UpdateSession(ctx context.Context, s *thinkgraph.Session) error {
	res, err := t.exec(ctx, `UPDATE sessions SET goal = ?, mode = ?, updated_at = ?, metadata = ?, settings = ?,
		current_thought_id = ?, active_branch = ?, step_count = ?, context_start = ? WHERE id = ?`,
		s.Goal, s.Mode, micros(s.UpdatedAt), nullJSON(s.Metadata), nullJSON(s.Settings),
		s.CurrentThoughtID, s.ActiveBranch, s.StepCount, s.ContextStart, s.Key)
	if err != nil {
		return fmt.Errorf("update session %q: %w", s.ID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return notFound("session", s.ID)
	}
	return nil
}

func (t *txn) Sessions(ctx context.Context, f thinkgraph.SessionFilter) ([]thinkgraph.Session, error) {
	var where []string
	var args []any
	if f.Tenant != "" {
		where = append(where, `tenant = ?`)
		args = append(args, f.Tenant)
	}
	if f.ID != "" {
		where = append(where, `name = ?`)
		args = append(args, f.ID)
	}
	q := `SELECT ` + sessionCols + ` FROM sessions`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY updated_at DESC, tenant, name`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, *s)
	}
	return out, rows.Err()
}

// ---- thoughts

const thoughtCols = `id, session_id, branch_id, parent_id, step, content, type, confidence, key_points,
	branch_point, alternative, selected, revises_id, author, tool, metadata, created_at`

func scanThought(r scanner) (*thinkgraph.Thought, error) {
	var th thinkgraph.Thought
	var conf sql.NullFloat64
	var keyPoints, meta sql.NullString
	var created int64
	if err := r.Scan(&th.ID, &th.Session, &th.BranchID, &th.ParentID, &th.Step, &th.Content, &th.Type, &conf, &keyPoints,
		&th.BranchPoint, &th.Alternative, &th.Selected, &th.RevisesID, &th.Author, &th.Tool, &meta, &created); err != nil {
		return nil, err
	}
	if conf.Valid {
		c := conf.Float64
		th.Confidence = &c
	}
	if keyPoints.Valid && keyPoints.String != "" {
		if err := json.Unmarshal([]byte(keyPoints.String), &th.KeyPoints); err != nil {
			return nil, fmt.Errorf("thought %s: key points: %w", th.ID, err)
		}
	}
	th.Metadata = rawJSON(meta)
	th.CreatedAt = fromMicros(created)
	return &th, nil
}

func thoughtArgs(th *thinkgraph.Thought) ([]any, error) {
	var keyPoints any
	if len(th.KeyPoints) > 0 {
		b, err := json.Marshal(th.KeyPoints)
		if err != nil {
			return nil, err
		}
		keyPoints = string(b)
	}
	var conf any
	if th.Confidence != nil {
		conf = *th.Confidence
	}
	return []any{th.ID, th.Session, th.BranchID, th.ParentID, th.Step, th.Content, th.Type, conf, keyPoints,
		th.BranchPoint, th.Alternative, th.Selected, th.RevisesID, th.Author, th.Tool, nullJSON(th.Metadata), micros(th.CreatedAt)}, nil
}

func (t *txn) AddThought(ctx context.Context, th *thinkgraph.Thought) error {
	args, err := thoughtArgs(th)
	if err != nil {
		return fmt.Errorf("add thought: %w", err)
	}
	if _, err := t.exec(ctx, `INSERT INTO thoughts (`+thoughtCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...); err != nil {
		return fmt.Errorf("add thought step %d to session %q: %w", th.Step, th.Session, t.db.conflict(err))
	}
	return nil
}

// UpdateThought writes a thought's flags (branch point, alternative,
// selected) and metadata. Every other column is fixed once the thought is
// written: the caches of a session's analyses (package reasoning) and its
// paths rely on it. A change to one is refused, and nothing is written.
func (t *txn) UpdateThought(ctx context.Context, th *thinkgraph.Thought) error {
	args, err := thoughtArgs(th)
	if err != nil {
		return fmt.Errorf("update thought: %w", err)
	}
	old, err := t.Thought(ctx, th.Session, th.ID)
	if err != nil {
		return err
	}
	oldArgs, err := thoughtArgs(old)
	if err != nil {
		return fmt.Errorf("update thought: %w", err)
	}
	for i, col := range strings.Split(thoughtCols, ",") {
		col = strings.TrimSpace(col)
		if !thoughtMutable[col] && args[i] != oldArgs[i] {
			return fmt.Errorf("update thought %s: %s cannot change once the thought is written (only branch_point, alternative, selected and metadata can); write a new thought instead", th.ID, col)
		}
	}
	if _, err := t.exec(ctx, `UPDATE thoughts SET branch_point = ?, alternative = ?, selected = ?, metadata = ? WHERE id = ? AND session_id = ?`,
		th.BranchPoint, th.Alternative, th.Selected, nullJSON(th.Metadata), th.ID, th.Session); err != nil {
		return fmt.Errorf("update thought %s: %w", th.ID, t.db.conflict(err))
	}
	return nil
}

// thoughtMutable names the columns of thoughts that UpdateThought writes.
var thoughtMutable = map[string]bool{"branch_point": true, "alternative": true, "selected": true, "metadata": true}

func (t *txn) oneThought(ctx context.Context, what, where string, args ...any) (*thinkgraph.Thought, error) {
	th, err := scanThought(t.queryRow(ctx, `SELECT `+thoughtCols+` FROM thoughts WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("thought", what)
	}
	if err != nil {
		return nil, fmt.Errorf("read thought %s: %w", what, err)
	}
	return th, nil
}

func (t *txn) Thought(ctx context.Context, session thinkgraph.SessionKey, id string) (*thinkgraph.Thought, error) {
	return t.oneThought(ctx, id, `session_id = ? AND id = ?`, session, id)
}

func (t *txn) ThoughtByStep(ctx context.Context, session thinkgraph.SessionKey, step int) (*thinkgraph.Thought, error) {
	return t.oneThought(ctx, fmt.Sprintf("step %d", step), `session_id = ? AND step = ?`, session, step)
}

func (t *txn) Thoughts(ctx context.Context, f thinkgraph.ThoughtFilter) ([]thinkgraph.Thought, error) {
	where := []string{`session_id = ?`}
	args := []any{f.Session}
	if f.BranchID != "" {
		where = append(where, `branch_id = ?`)
		args = append(args, f.BranchID)
	}
	if f.ParentID != nil {
		where = append(where, `parent_id = ?`)
		args = append(args, *f.ParentID)
	}
	if f.AfterStep > 0 {
		where = append(where, `step > ?`)
		args = append(args, f.AfterStep)
	}
	if f.OpenAlternatives {
		// As in the partial index thoughts_open_alternatives (migration 0004).
		where = append(where, `alternative = TRUE AND selected = FALSE`)
	}
	q := `SELECT ` + thoughtCols + ` FROM thoughts WHERE ` + strings.Join(where, " AND ")
	if f.Last > 0 {
		q = `SELECT * FROM (` + q + ` ORDER BY step DESC LIMIT ?) last_thoughts`
		args = append(args, f.Last)
	}
	q += ` ORDER BY step`
	return t.thoughts(ctx, q, args...)
}

func (t *txn) thoughts(ctx context.Context, q string, args ...any) ([]thinkgraph.Thought, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list thoughts: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Thought
	for rows.Next() {
		th, err := scanThought(rows)
		if err != nil {
			return nil, fmt.Errorf("list thoughts: %w", err)
		}
		out = append(out, *th)
	}
	return out, rows.Err()
}

// maxAncestors bounds the walk of Ancestors, so that a cycle of parent links
// (which the store does not prevent) ends in an error instead of a query that
// never returns.
const maxAncestors = 100_000

// Ancestors returns the path from the root to the thought id. Read-only
// transactions go through the store's path cache (pathcache.go): with the
// session's path cached at its current thoughts_version, only the thoughts
// between id and the cached path are read.
func (t *txn) Ancestors(ctx context.Context, session thinkgraph.SessionKey, id string) ([]thinkgraph.Thought, error) {
	if t.readOnly && t.db.paths != nil {
		return t.cachedAncestors(ctx, t.db.paths, session, id)
	}
	return t.ancestors(ctx, session, id)
}

// chainSQL reads the path of a thought leaf first, each row with the
// session's thoughts_version read in the same statement (so from the same
// snapshot): up from the thought (session_id, id) through its ancestors of
// the session, to depth limit.
var chainSQL = `WITH RECURSIVE chain(id, depth) AS (
		SELECT id, 0 FROM thoughts WHERE session_id = ? AND id = ?
		UNION ALL
		SELECT th.parent_id, chain.depth + 1 FROM thoughts th JOIN chain ON th.id = chain.id
		WHERE th.session_id = ? AND th.parent_id <> '' AND chain.depth < ?
	)
	SELECT ` + prefixed("t.", thoughtCols) + `, (SELECT thoughts_version FROM sessions WHERE id = ?)
	FROM chain JOIN thoughts t ON t.id = chain.id AND t.session_id = ?
	ORDER BY chain.depth`

// recentSQL reads the session's latest thoughts after a step, newest first,
// each row with the session's thoughts_version (as chainSQL). It reads a
// range of the (session_id, step) index and the end of the table: the few
// pages a point read of each thought (id index, then table) would read many
// times over.
var recentSQL = `SELECT ` + thoughtCols + `, (SELECT thoughts_version FROM sessions WHERE id = ?)
	FROM thoughts WHERE session_id = ? AND step > ? ORDER BY step DESC LIMIT ?`

// withVersion scans a row of chainSQL or recentSQL: a thought, then the
// version.
type withVersion struct {
	r       scanner
	version *int64
}

func (w withVersion) Scan(dest ...any) error { return w.r.Scan(append(dest, w.version)...) }

// cachedAncestors is Ancestors through the path cache: with a path of the
// session cached, the thoughts appended since it was read (at most
// maxPathWalk) complete it, if the version read with them is the cached
// one. Otherwise it reads the whole path and caches it.
func (t *txn) cachedAncestors(ctx context.Context, c *pathCache, session thinkgraph.SessionKey, id string) ([]thinkgraph.Thought, error) {
	if after, ok := c.leafStep(session); ok {
		path, ok, err := t.extendCached(ctx, c, session, id, after)
		if err != nil || ok {
			return path, err
		}
	}
	path, version, err := t.chain(ctx, session, id)
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return nil, notFound("thought", id)
	}
	slices.Reverse(path)
	if len(path) > maxAncestors && path[0].ParentID != "" {
		return nil, fmt.Errorf("ancestors of thought %s: more than %d (a cycle of parent links?)", id, maxAncestors)
	}
	c.store(session, version, path)
	return path, nil
}

// extendCached reads the session's thoughts after step after and walks up
// from id through them to the session's cached path. ok is false when that
// does not give the path: the cached path is of another version, or the
// walk leaves the thoughts read without reaching it.
func (t *txn) extendCached(ctx context.Context, c *pathCache, session thinkgraph.SessionKey, id string, after int) (_ []thinkgraph.Thought, ok bool, _ error) {
	rows, err := t.query(ctx, recentSQL, session, session, after, maxPathWalk+1)
	if err != nil {
		return nil, false, fmt.Errorf("ancestors of thought %s: %w", id, err)
	}
	defer rows.Close()
	var version int64
	var recent []thinkgraph.Thought
	for rows.Next() {
		th, err := scanThought(withVersion{rows, &version})
		if err != nil {
			return nil, false, fmt.Errorf("ancestors of thought %s: %w", id, err)
		}
		recent = append(recent, *th)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("ancestors of thought %s: %w", id, err)
	}
	if len(recent) == 0 {
		// Nothing appended since: the version alone.
		err := t.queryRow(ctx, `SELECT thoughts_version FROM sessions WHERE id = ?`, session).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("ancestors of thought %s: %w", id, err)
		}
	}
	byID := make(map[string]int, len(recent))
	for i := range recent {
		byID[recent[i].ID] = i
	}
	var tail []thinkgraph.Thought // leaf first
	for cur := id; len(tail) <= len(recent); {
		pos, gen, found, ok := c.lookup(session, version, cur)
		if !ok {
			return nil, false, nil
		}
		if found {
			slices.Reverse(tail)
			path, ok := c.assemble(session, gen, pos, tail)
			return path, ok, nil
		}
		i, ok := byID[cur]
		if !ok {
			return nil, false, nil
		}
		tail = append(tail, recent[i])
		if cur = recent[i].ParentID; cur == "" {
			// A root, and no cached thought on the way: a path of its own.
			slices.Reverse(tail)
			c.store(session, version, tail)
			return tail, true, nil
		}
	}
	return nil, false, nil // a cycle of parent links: let the full read report it
}

// chain runs chainSQL and returns the path of id, leaf first, with the
// version read with it.
func (t *txn) chain(ctx context.Context, session thinkgraph.SessionKey, id string) (path []thinkgraph.Thought, version int64, err error) {
	rows, err := t.query(ctx, chainSQL, session, id, session, maxAncestors, session, session)
	if err != nil {
		return nil, 0, fmt.Errorf("ancestors of thought %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		th, err := scanThought(withVersion{rows, &version})
		if err != nil {
			return nil, 0, fmt.Errorf("ancestors of thought %s: %w", id, err)
		}
		path = append(path, *th)
	}
	return path, version, rows.Err()
}

func (t *txn) ancestors(ctx context.Context, session thinkgraph.SessionKey, id string) ([]thinkgraph.Thought, error) {
	// depth counts up from the thought itself; the result is root first.
	path, err := t.thoughts(ctx, `WITH RECURSIVE chain(id, depth) AS (
			SELECT id, 0 FROM thoughts WHERE session_id = ? AND id = ?
			UNION ALL
			SELECT th.parent_id, chain.depth + 1 FROM thoughts th JOIN chain ON th.id = chain.id
			WHERE th.session_id = ? AND th.parent_id <> '' AND chain.depth < ?
		)
		SELECT `+prefixed("t.", thoughtCols)+` FROM chain JOIN thoughts t ON t.id = chain.id AND t.session_id = ?
		ORDER BY chain.depth DESC`, session, id, session, maxAncestors, session)
	if err != nil {
		return nil, err
	}
	if len(path) == 0 {
		return nil, notFound("thought", id)
	}
	if len(path) > maxAncestors && path[0].ParentID != "" {
		return nil, fmt.Errorf("ancestors of thought %s: more than %d (a cycle of parent links?)", id, maxAncestors)
	}
	return path, nil
}

func prefixed(prefix, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = prefix + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

// ---- branches

const branchCols = `session_id, id, state, priority, parent_branch_id, fork_thought_id, created_at, updated_at`

func scanBranch(r scanner) (*thinkgraph.Branch, error) {
	var b thinkgraph.Branch
	var created, updated int64
	if err := r.Scan(&b.Session, &b.ID, &b.State, &b.Priority, &b.ParentBranchID, &b.ForkThoughtID, &created, &updated); err != nil {
		return nil, err
	}
	b.CreatedAt, b.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &b, nil
}

func (t *txn) Branch(ctx context.Context, session thinkgraph.SessionKey, id string) (*thinkgraph.Branch, error) {
	b, err := scanBranch(t.queryRow(ctx, `SELECT `+branchCols+` FROM branches WHERE session_id = ? AND id = ?`, session, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("branch", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read branch %q: %w", id, err)
	}
	return b, nil
}

func (t *txn) Branches(ctx context.Context, session thinkgraph.SessionKey) ([]thinkgraph.Branch, error) {
	rows, err := t.query(ctx, `SELECT `+branchCols+` FROM branches WHERE session_id = ? ORDER BY created_at, id`, session)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Branch
	for rows.Next() {
		b, err := scanBranch(rows)
		if err != nil {
			return nil, fmt.Errorf("list branches: %w", err)
		}
		out = append(out, *b)
	}
	return out, rows.Err()
}

func (t *txn) PutBranch(ctx context.Context, b *thinkgraph.Branch) error {
	_, err := t.exec(ctx, `INSERT INTO branches (`+branchCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, id) DO UPDATE SET state = excluded.state, priority = excluded.priority,
		parent_branch_id = excluded.parent_branch_id, fork_thought_id = excluded.fork_thought_id, updated_at = excluded.updated_at`,
		b.Session, b.ID, b.State, b.Priority, b.ParentBranchID, b.ForkThoughtID, micros(b.CreatedAt), micros(b.UpdatedAt))
	if err != nil {
		return fmt.Errorf("save branch %q: %w", b.ID, err)
	}
	return nil
}

// ---- links

const linkCols = `id, session_id, from_branch, to_branch, from_thought, to_thought, type, reason, strength, created_at`

func (t *txn) AddLink(ctx context.Context, l *thinkgraph.Link) error {
	_, err := t.exec(ctx, `INSERT INTO links (`+linkCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.Session, l.FromBranch, l.ToBranch, l.FromThought, l.ToThought, l.Type, l.Reason, l.Strength, micros(l.CreatedAt))
	if err != nil {
		return fmt.Errorf("add link %q: %w", l.ID, t.db.conflict(err))
	}
	return nil
}

func (t *txn) Links(ctx context.Context, session thinkgraph.SessionKey) ([]thinkgraph.Link, error) {
	rows, err := t.query(ctx, `SELECT `+linkCols+` FROM links WHERE session_id = ? ORDER BY created_at, id`, session)
	if err != nil {
		return nil, fmt.Errorf("list links: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Link
	for rows.Next() {
		var l thinkgraph.Link
		var created int64
		if err := rows.Scan(&l.ID, &l.Session, &l.FromBranch, &l.ToBranch, &l.FromThought, &l.ToThought, &l.Type, &l.Reason, &l.Strength, &created); err != nil {
			return nil, fmt.Errorf("list links: %w", err)
		}
		l.CreatedAt = fromMicros(created)
		out = append(out, l)
	}
	return out, rows.Err()
}

func (t *txn) SessionSize(ctx context.Context, session thinkgraph.SessionKey) (thinkgraph.SessionSize, error) {
	var z thinkgraph.SessionSize
	err := t.queryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(octet_length(content) + COALESCE(octet_length(key_points), 0) + COALESCE(octet_length(metadata), 0)), 0), `+
		`COALESCE(MAX(octet_length(content)), 0), `+
		`COALESCE(SUM(CASE WHEN length(content) > ? THEN CAST(length(content) - ? AS BIGINT) * (length(content) - ?) ELSE 0 END), 0) `+
		`FROM thoughts WHERE session_id = ?`, thinkgraph.LongThought, thinkgraph.LongThought, thinkgraph.LongThought, session).
		Scan(&z.Thoughts, &z.Bytes, &z.LongestThought, &z.LongText)
	if err == nil {
		err = t.queryRow(ctx, `SELECT COUNT(*) FROM links WHERE session_id = ?`, session).Scan(&z.Links)
	}
	if err != nil {
		return z, fmt.Errorf("session size: %w", err)
	}
	return z, nil
}

// ---- invocations

const invocationCols = `id, tenant, session_id, tool_name, input, output, provider, pipe_name, model, latency_ms, success, error,
	prompt_tokens, completion_tokens, total_tokens, created_at`

func (t *txn) AddInvocation(ctx context.Context, inv *thinkgraph.Invocation) error {
	_, err := t.exec(ctx, `INSERT INTO invocations (`+invocationCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		inv.ID, inv.Tenant, inv.SessionID, inv.ToolName, nullJSON(inv.Input), nullJSON(inv.Output), inv.Provider, inv.PipeName, inv.Model,
		inv.LatencyMS, inv.Success, inv.Error, inv.PromptTokens, inv.CompletionTokens, inv.TotalTokens, micros(inv.CreatedAt))
	if err != nil {
		return fmt.Errorf("add invocation %q: %w", inv.ID, t.db.conflict(err))
	}
	return nil
}

func (t *txn) Invocations(ctx context.Context, f thinkgraph.InvocationFilter) ([]thinkgraph.Invocation, error) {
	var where []string
	var args []any
	if f.Tenant != "" {
		where = append(where, `tenant = ?`)
		args = append(args, f.Tenant)
	}
	if f.SessionID != "" {
		where = append(where, `session_id = ?`)
		args = append(args, f.SessionID)
	}
	q := `SELECT ` + invocationCols + ` FROM invocations`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY created_at, id`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list invocations: %w", err)
	}
	defer rows.Close()
	var out []thinkgraph.Invocation
	for rows.Next() {
		var inv thinkgraph.Invocation
		var in, outp sql.NullString
		var created int64
		if err := rows.Scan(&inv.ID, &inv.Tenant, &inv.SessionID, &inv.ToolName, &in, &outp, &inv.Provider, &inv.PipeName, &inv.Model,
			&inv.LatencyMS, &inv.Success, &inv.Error, &inv.PromptTokens, &inv.CompletionTokens, &inv.TotalTokens, &created); err != nil {
			return nil, fmt.Errorf("list invocations: %w", err)
		}
		inv.Input, inv.Output = rawJSON(in), rawJSON(outp)
		inv.CreatedAt = fromMicros(created)
		out = append(out, inv)
	}
	return out, rows.Err()
}
