package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migrate applies the migrations in dir of fsys that db has not applied yet,
// each in its own transaction, in the order of their numeric prefix
// (0001_init.sql, 0002_vectors.sql, ...). lockSQL, if not empty, runs first in
// every migration transaction so that concurrent starters take turns
// (PostgreSQL's advisory lock; SQLite's BEGIN IMMEDIATE already does this).
// It returns the schema version after migrating.
func Migrate(ctx context.Context, db *sql.DB, d Dialect, fsys fs.FS, dir, lockSQL string) (int, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return 0, fmt.Errorf("read migrations: %w", err)
	}
	type migration struct {
		version int
		name    string
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		prefix, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(prefix)
		if err != nil {
			return 0, fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		ms = append(ms, migration{v, e.Name()})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })

	store := New(db, db, d)
	current := 0
	for _, m := range ms {
		body, err := fs.ReadFile(fsys, path.Join(dir, m.name))
		if err != nil {
			return 0, err
		}
		err = store.retry(ctx, func() error { return store.migrateOne(ctx, m.version, m.name, string(body), lockSQL) })
		if err != nil {
			return 0, fmt.Errorf("migration %s: %w", m.name, err)
		}
		current = m.version
	}
	return current, nil
}

func (db *DB) migrateOne(ctx context.Context, version int, name, body, lockSQL string) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if lockSQL != "" {
		if _, err := tx.ExecContext(ctx, lockSQL); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
	}
	// Created under the lock: concurrent CREATE TABLE IF NOT EXISTS may
	// fail on PostgreSQL's catalog.
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, db.q(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
		version, name, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}
