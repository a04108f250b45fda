package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStatements bounds the statement cache; the store issues a few
// dozen distinct statements.
const maxCachedStatements = 128

// stmtCache keeps the statements of a pool's transactions prepared (one
// cache for the write pool, one for the read pool), so SQLite does not parse
// every statement of every call again.
//
// A statement cannot be prepared on the write pool while a transaction holds
// its only connection, so statements missed during a transaction are
// prepared after it ends, and used by the following transactions through
// Tx.StmtContext, which reuses a statement already prepared on the
// transaction's connection (and prepares it once on a connection that has
// not prepared it yet).
type stmtCache struct {
	pool *sql.DB
	mu   sync.Mutex
	m    map[string]*sql.Stmt
	// failed remembers statements that could not be prepared (e.g. before
	// a migration created their table), so they are not tried again.
	failed map[string]bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, m: map[string]*sql.Stmt{}, failed: map[string]bool{}}
}

// get returns the prepared statement of query, or nil.
func (c *stmtCache) get(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// prepare prepares the queries not cached yet; errors only mean the
// statement stays unprepared.
func (c *stmtCache) prepare(ctx context.Context, queries []string) {
	for _, q := range queries {
		c.mu.Lock()
		skip := c.m[q] != nil || c.failed[q] || len(c.m) >= maxCachedStatements
		c.mu.Unlock()
		if skip {
			continue
		}
		st, err := c.pool.PrepareContext(ctx, q)
		c.mu.Lock()
		switch {
		case err != nil:
			c.failed[q] = true
		case c.m[q] == nil:
			c.m[q] = st
			st = nil
		}
		c.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	clear(c.m)
}
