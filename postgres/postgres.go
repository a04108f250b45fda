// Package postgres is thinkgraph's store for teams: the reasoning graph in a
// PostgreSQL database that several server replicas share. It is selected by a
// DATABASE_URL of the form postgres://user@host:port/db?sslmode=...
//
// All session state lives in the database, so any replica can serve any call.
// Writers of one session take turns on the session's row (SELECT ... FOR
// UPDATE in Tx.LockSession), so step numbers and the current thought stay
// correct when calls to one session arrive at different replicas at once.
// Transactions that fail on a serialization failure, a deadlock or a lock
// timeout are run again from the start.
//
// The SQL is package sqlstore's, shared with package sqlite; migrations live
// in migrations/ and are applied by Open under an advisory lock, so replicas
// that start together take turns.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/thinkgraph/thinkgraph/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure a PostgreSQL store.
type Options struct {
	// MaxConns sizes the connection pool (DATABASE_MAX_CONNECTIONS);
	// default 5.
	MaxConns int
	// Schema, if not empty, is the schema the store's tables live in: Open
	// creates it if missing and makes it the search_path of every
	// connection. It overrides a search_path given in the URL. Tests use one
	// schema each so that parallel runs never collide.
	Schema string
	// LockTimeout bounds how long a statement waits for a row lock held by
	// another transaction (PostgreSQL's lock_timeout); the transaction is
	// then retried. Default 10s; negative means wait forever.
	LockTimeout time.Duration
	// ConnectTimeout bounds dialing the server when the URL does not set
	// connect_timeout. Default 5s.
	ConnectTimeout time.Duration
}

func (o *Options) defaults() {
	if o.MaxConns <= 0 {
		o.MaxConns = 5
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = 10 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 5 * time.Second
	}
}

// IsURL reports whether s is a PostgreSQL connection URL (postgres:// or
// postgresql://), the form of DATABASE_URL that selects this store.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// SQLSTATE codes of the errors after which a transaction may be retried.
const (
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
	codeLockNotAvailable     = "55P03" // lock_timeout expired
	codeUniqueViolation      = "23505"
)

// Dialect is PostgreSQL's dialect for package sqlstore.
var Dialect = sqlstore.Dialect{
	Name:       "postgres",
	Numbered:   true,
	LockSuffix: " FOR UPDATE",
	// Holds the session's tenant and id, existing or not, so that
	// concurrent first calls to a new session create it once and then take
	// turns on it.
	LockSessionSQL: fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d, hashtext(CAST(current_schema() AS text) || '/' || CAST(? AS text) || '/' || CAST(? AS text)))`, lockSession),
	Retryable:      retryable,
	Conflict:       func(err error) bool { return sqlState(err) == codeUniqueViolation },
	Unavailable:    unavailable,
}

// unavailable reports connection failures and server shutdowns: class 08
// (connection exception), 57P01–57P03 (admin or crash shutdown, cannot
// connect now), and errors connecting at all.
func unavailable(err error) (string, bool) {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, driver.ErrBadConn) {
		return "cannot connect to PostgreSQL", true
	}
	switch code := sqlState(err); {
	case strings.HasPrefix(code, "08"):
		return "connection to PostgreSQL lost", true
	case code == "57P01" || code == "57P02" || code == "57P03":
		return "PostgreSQL is shutting down or starting", true
	case code == "53100":
		return "PostgreSQL's disk is full", true
	}
	return "", false
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func retryable(err error) bool {
	switch sqlState(err) {
	case codeSerializationFailure, codeDeadlockDetected, codeLockNotAvailable:
		return true
	}
	return false
}

// Advisory lock keys: the first half names what is locked, the second is a
// hash of the schema or session name.
const (
	lockCreateSchema = 0x7467_0001
	lockMigrate      = 0x7467_0002
	lockSession      = 0x7467_0003
)

// migrateLock makes concurrent migrators of one schema take turns.
var migrateLock = fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d, hashtext(coalesce(current_schema(), '')))`, lockMigrate)

// Open connects to the database at url, creates opts.Schema if it is set,
// and applies pending migrations.
func Open(ctx context.Context, url string, opts Options) (*sqlstore.DB, error) {
	opts.defaults()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = opts.ConnectTimeout
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if opts.Schema != "" {
		cfg.RuntimeParams["search_path"] = pgx.Identifier{opts.Schema}.Sanitize()
	}
	if _, ok := cfg.RuntimeParams["lock_timeout"]; !ok && opts.LockTimeout > 0 {
		cfg.RuntimeParams["lock_timeout"] = fmt.Sprint(max(opts.LockTimeout.Milliseconds(), 1))
	}
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "thinkgraph"
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)

	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(opts.MaxConns)
	db.SetMaxIdleConns(opts.MaxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: connect to %s: %w", where, err)
	}
	if opts.Schema != "" {
		if err := createSchema(ctx, db, opts.Schema); err != nil {
			db.Close()
			return nil, fmt.Errorf("postgres: %s: create schema %q: %w", where, opts.Schema, err)
		}
	}
	if _, err := sqlstore.Migrate(ctx, db, Dialect, migrations, "migrations", migrateLock); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %s: %w", where, err)
	}
	return sqlstore.New(db, db, Dialect), nil
}

// createSchema creates schema if it does not exist. Concurrent CREATE SCHEMA
// IF NOT EXISTS can still fail on the catalog's unique index, so creators
// take turns on an advisory lock.
func createSchema(ctx context.Context, db *sql.DB, schema string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockCreateSchema, schema); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
		return err
	}
	return tx.Commit()
}
