// Package sqlstore implements thinkgraph.Store over database/sql. The SQL is
// shared by the SQLite and PostgreSQL stores; a Dialect carries what differs
// (placeholders, row locks, which errors mean "try the transaction again").
// Packages sqlite and postgres open the database, apply their migrations and
// hand the *sql.DB to New.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// Dialect describes what differs between SQL databases.
type Dialect struct {
	// Name is "sqlite" or "postgres".
	Name string
	// Numbered placeholders ($1, $2, ...) instead of ?.
	Numbered bool
	// LockSuffix is appended to a SELECT that must lock its row until the
	// transaction ends (" FOR UPDATE"); "" where the transaction already holds
	// the write lock (SQLite's BEGIN IMMEDIATE).
	LockSuffix string
	// LockSessionSQL, if not empty, runs with the session's tenant and id as
	// its two arguments when LockSession's SELECT finds no session, before
	// it looks again. It must lock the tenant's id until the transaction ends, so that
	// two transactions that find no session and create it take turns
	// instead of one failing with ErrConflict (PostgreSQL: an advisory lock;
	// a row lock cannot lock a missing row). A session that exists is
	// locked by its row alone, one round trip fewer per write.
	LockSessionSQL string
	// Retryable reports whether a transaction that failed with err may be
	// run again from the start (lock contention, serialization failures).
	Retryable func(err error) bool
	// Conflict reports whether err is a unique-constraint violation; the
	// store then wraps it with thinkgraph.ErrConflict. Nil means never.
	Conflict func(err error) bool
	// Unavailable reports whether err means the database cannot be reached
	// or written (connection refused or dropped, server shutting down, disk
	// full, read-only file), with a short reason; the store then reports a
	// StoreUnavailableError. Nil means never.
	Unavailable func(err error) (reason string, ok bool)
	// CacheStatements keeps the statements of transactions prepared, on
	// the write pool and on the read pool (SQLite; pgx already caches
	// prepared statements per connection).
	CacheStatements bool
}

// DB is a thinkgraph.Store over database/sql.
type DB struct {
	write, read *sql.DB
	dialect     Dialect
	// maxAttempts bounds how often a retryable transaction is run.
	maxAttempts int
	// stmts and readStmts cache prepared statements of the write and the
	// read pool (nil: none).
	stmts, readStmts *stmtCache
	// closers run first when the store is closed (background work of the
	// backend, e.g. SQLite's checkpointer).
	closers []func() error
	// beforeUpdate, if set, runs before each write transaction begins.
	beforeUpdate func(ctx context.Context)
	// paths caches the paths read by Ancestors in read-only transactions
	// (nil: no cache).
	paths *pathCache
	// readOnly, when set, says why the database cannot be written: every
	// write fails at once with a StoreReadOnlyError saying so.
	readOnly string
}

// SetReadOnly marks the database as one this process cannot write, for
// the reason given (naming the file and what to do): writes fail at once
// with a StoreReadOnlyError, Ping fails with it, and reads go on. Call it
// before the store is used.
func (db *DB) SetReadOnly(reason string) { db.readOnly = reason }

// ReadOnly says why the database cannot be written ("" when it can).
func (db *DB) ReadOnly() string { return db.readOnly }

// readOnlyError is the error of a write to a read-only database.
func (db *DB) readOnlyError() error {
	return &thinkgraph.Error{Code: thinkgraph.CodeStoreReadOnly,
		Message:     "the database cannot be written: " + db.readOnly + "; nothing was stored, and retrying will not help until it is writable and the server restarted (reads still work)",
		Suggestions: []string{"ask the server's operator to make the database writable and restart the server"}}
}

// SetPathCacheBytes sets the memory budget of the cache of paths read by
// Ancestors in read-only transactions (DefaultPathCacheBytes by default); 0
// turns the cache off. Call it before the store is used.
func (db *DB) SetPathCacheBytes(n int64) { db.paths = newPathCache(n) }

// PathCacheStats returns how many paths read-only transactions took from
// the path cache (hits: only the thoughts appended since were read) and how
// many they read whole (misses).
func (db *DB) PathCacheStats() (hits, misses int64) {
	if db.paths == nil {
		return 0, 0
	}
	return db.paths.stats()
}

// SetBeforeUpdate registers f to run before each write transaction begins,
// outside it (e.g. SQLite holds writers back while it empties an
// oversized WAL). Call it before the store is used.
func (db *DB) SetBeforeUpdate(f func(ctx context.Context)) { db.beforeUpdate = f }

// AddCloser registers f to run when the store is closed, before its pools
// are closed.
func (db *DB) AddCloser(f func() error) { db.closers = append(db.closers, f) }

// New returns a store that writes through write and reads through read (they
// may be the same *sql.DB).
func New(write, read *sql.DB, d Dialect) *DB {
	db := &DB{write: write, read: read, dialect: d, maxAttempts: 10, paths: newPathCache(DefaultPathCacheBytes)}
	if d.CacheStatements {
		db.stmts = newStmtCache(write)
		db.readStmts = db.stmts
		if read != write {
			db.readStmts = newStmtCache(read)
		}
	}
	return db
}

// Close closes both pools.
func (db *DB) Close() error {
	var errs []error
	for _, f := range db.closers {
		errs = append(errs, f())
	}
	db.stmts.close()
	if db.readStmts != db.stmts {
		db.readStmts.close()
	}
	err := errors.Join(append(errs, db.write.Close())...)
	if db.read != db.write {
		err = errors.Join(err, db.read.Close())
	}
	return err
}

// Ping checks that the database is reachable (for readiness probes).
func (db *DB) Ping(ctx context.Context) error {
	if db.readOnly != "" {
		return db.readOnlyError()
	}
	return db.write.PingContext(ctx)
}

// Update runs fn in a write transaction, retrying it when the database
// reports contention.
func (db *DB) Update(ctx context.Context, fn func(thinkgraph.Tx) error) error {
	if db.readOnly != "" {
		return db.readOnlyError()
	}
	if db.beforeUpdate != nil {
		db.beforeUpdate(ctx)
	}
	return db.run(ctx, db.write, false, fn)
}

// View runs fn in a read-only transaction.
func (db *DB) View(ctx context.Context, fn func(thinkgraph.Tx) error) error {
	return db.run(ctx, db.read, true, fn)
}

func (db *DB) run(ctx context.Context, pool *sql.DB, readOnly bool, fn func(thinkgraph.Tx) error) error {
	err := db.retry(ctx, func() error { return db.runOnce(ctx, pool, readOnly, fn) })
	if err == nil || db.dialect.Unavailable == nil {
		return err
	}
	if reason, ok := db.dialect.Unavailable(err); ok {
		return &thinkgraph.Error{Code: thinkgraph.CodeStoreUnavailable, Err: err,
			Message:     "the database is unavailable (" + reason + "); this call was not stored: retry when it is back",
			Suggestions: []string{"retry the call once the database is reachable and writable again (see /readyz)"}}
	}
	return err
}

// retry runs once until it succeeds, fails with an error the dialect does not
// call retryable, or has been tried maxAttempts times.
func (db *DB) retry(ctx context.Context, once func() error) error {
	delay := 2 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := once()
		if err == nil || attempt >= db.maxAttempts || db.dialect.Retryable == nil || !db.dialect.Retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(delay):
		}
		if delay < 200*time.Millisecond {
			delay *= 2
		}
	}
}

func (db *DB) runOnce(ctx context.Context, pool *sql.DB, readOnly bool, fn func(thinkgraph.Tx) error) error {
	var opts *sql.TxOptions
	if readOnly && db.dialect.Name == "postgres" {
		opts = &sql.TxOptions{ReadOnly: true}
	}
	tx, err := pool.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	t := &txn{tx: tx, db: db, stmts: db.stmts, readOnly: readOnly}
	if readOnly {
		t.stmts = db.readStmts
	}
	defer func() {
		if len(t.missed) > 0 {
			// The transaction is over: its connection is free to prepare on.
			t.stmts.prepare(ctx, t.missed)
		}
	}()
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	if readOnly {
		return tx.Rollback()
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// q rewrites a query written with ? placeholders for the dialect.
func (db *DB) q(query string) string {
	if !db.dialect.Numbered {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// micros converts a time to the stored form: Unix microseconds, UTC.
func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

// conflict wraps err with thinkgraph.ErrConflict when the dialect calls it a
// unique-constraint violation.
func (db *DB) conflict(err error) error {
	if db.dialect.Conflict != nil && db.dialect.Conflict(err) {
		return fmt.Errorf("%w: %w", thinkgraph.ErrConflict, err)
	}
	return err
}

func notFound(what, id string) error {
	return fmt.Errorf("%s %q: %w", what, id, thinkgraph.ErrNotFound)
}
