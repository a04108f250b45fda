// Package sqlite is thinkgraph's default store: one SQLite file (pure Go
// driver modernc.org/sqlite, no cgo) in WAL mode. Several processes may share
// one file: every write transaction starts with BEGIN IMMEDIATE, so writers
// queue on SQLite's lock (waiting up to the busy timeout) instead of failing
// when a read transaction tries to upgrade.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/thinkgraph/thinkgraph/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure a SQLite store.
type Options struct {
	// BusyTimeout is how long a writer waits for another writer's lock.
	BusyTimeout time.Duration
	// Synchronous is SQLite's synchronous setting: "NORMAL" (default; an
	// acknowledged write survives a crash of the process, the last
	// transactions may roll back on power loss) or "FULL" (fsync on every
	// commit: survives power loss too).
	Synchronous string
	// MaxReaders sizes the read pool (DATABASE_MAX_CONNECTIONS).
	MaxReaders int
	// CheckpointInterval is how often the WAL is checkpointed in the
	// background (default 500 ms); commits never checkpoint themselves.
	CheckpointInterval time.Duration
	// WALLimitFrames bounds the WAL: when a background checkpoint finds
	// more frames than this (default 4096, 16 MiB of 4 KiB pages), it
	// copies the rest back while briefly holding up writers, and the WAL
	// starts over (its file kept, cut to twice this size). Should the WAL
	// reach 4 times this size anyway (the background checkpoints falling
	// behind the writers), the next writer empties it before it begins.
	WALLimitFrames int
}

func (o *Options) defaults() {
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 10 * time.Second
	}
	if o.Synchronous == "" {
		o.Synchronous = "NORMAL"
	}
	if o.MaxReaders <= 0 {
		o.MaxReaders = 5
	}
	if o.CheckpointInterval <= 0 {
		o.CheckpointInterval = 500 * time.Millisecond
	}
	if o.WALLimitFrames <= 0 {
		o.WALLimitFrames = 4096
	}
}

// Dialect is SQLite's dialect for package sqlstore.
var Dialect = sqlstore.Dialect{
	Name:        "sqlite",
	Retryable:   retryable,
	Conflict:    conflict,
	Unavailable: unavailable,
	// Parsing SQL is a large share of a small transaction's cost in SQLite.
	CacheStatements: true,
}

// unavailable reports errors of the file rather than of the call: disk full
// (or over the file size limit), I/O errors, a read-only file, a file that
// cannot be opened. SQLite rolls the transaction back in each case.
func unavailable(err error) (string, bool) {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return "", false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_FULL:
		return "the disk is full", true
	case sqlite3.SQLITE_IOERR:
		return "disk I/O error: is the disk full or failing?", true
	case sqlite3.SQLITE_READONLY:
		return "the database file is read-only", true
	case sqlite3.SQLITE_CANTOPEN:
		return "the database file cannot be opened", true
	}
	return "", false
}

// conflict reports whether err is a violation of a UNIQUE or PRIMARY KEY
// constraint.
func conflict(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return true
		}
	}
	return false
}

func retryable(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return true
		}
	}
	return false
}

// Open opens (creating if needed) the database file at path, creates its
// directory, and applies pending migrations.
func Open(ctx context.Context, path string, opts Options) (*sqlstore.DB, error) {
	opts.defaults()
	sync := strings.ToUpper(opts.Synchronous)
	if sync != "NORMAL" && sync != "FULL" {
		return nil, fmt.Errorf("sqlite: synchronous must be NORMAL or FULL, got %q", opts.Synchronous)
	}
	if path == "" {
		return nil, errors.New("sqlite: empty database path")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sqlite: create directory for %s: %w", path, err)
		}
	}
	dsn := func(txlock string) string {
		q := url.Values{}
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()))
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous("+sync+")")
		q.Add("_pragma", "foreign_keys(ON)")
		// No checkpoint inside a writer's commit: the checkpointer below
		// runs them in the background (they cost milliseconds each).
		q.Add("_pragma", "wal_autocheckpoint(0)")
		// When SQLite starts the WAL over, it keeps the file (writing over
		// a file costs less than growing it: about half as much per frame
		// on ext4), truncated to twice the limit's size if it was longer.
		q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", 2*int64(opts.WALLimitFrames)*(4096+walFrameHeader)))
		q.Set("_txlock", txlock)
		return "file:" + path + "?" + q.Encode()
	}
	write, err := sql.Open("sqlite", dsn("immediate"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// One writer connection per process: writers of this process queue in
	// database/sql; writers of other processes queue on the file lock.
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite", dsn("deferred"))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	read.SetMaxOpenConns(opts.MaxReaders)
	read.SetMaxIdleConns(opts.MaxReaders)

	if err := write.PingContext(ctx); err != nil {
		write.Close()
		read.Close()
		return nil, fmt.Errorf("sqlite: open %s: %s%w", path, permissionDenied(path), err)
	}
	if _, err := sqlstore.Migrate(ctx, write, Dialect, migrations, "migrations", ""); err != nil {
		write.Close()
		read.Close()
		return nil, fmt.Errorf("sqlite: %s: %s%w", path, permissionDenied(path), err)
	}
	db := sqlstore.New(write, read, Dialect)
	if f, err := os.OpenFile(path, os.O_RDWR, 0); errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// SQLite opens a file it may not write read-only, without a
		// word, and every write would fail as if the disk were gone.
		db.SetReadOnly(fmt.Sprintf("the database file %s is read-only for this process (%v): make it writable for this user, or choose another file with --db or DATABASE_PATH", path, errors.Unwrap(err)))
	} else if err == nil {
		f.Close()
	}
	stop := startCheckpointer(read, write, opts.CheckpointInterval, opts.WALLimitFrames)
	db.AddCloser(func() error { stop(); return nil })
	var pageSize int64
	if err := write.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil || pageSize <= 0 {
		pageSize = 4096
	}
	db.SetBeforeUpdate(walBackstop(write, path+"-wal", walHardLimitFactor*int64(opts.WALLimitFrames)*(pageSize+walFrameHeader)))
	return db, nil
}

// permissionDenied says, after SQLite failed to open or write the database
// at path, whether this process may not write the file or its directory
// (SQLite says only "unable to open database file" or "attempt to write a
// readonly database"): "permission denied: …; " or "".
func permissionDenied(path string) string {
	const fix = "make it writable for this user, or choose a file in a writable directory with --db or DATABASE_PATH"
	if f, err := os.OpenFile(path, os.O_RDWR, 0); errors.Is(err, fs.ErrPermission) {
		return fmt.Sprintf("permission denied: this process may not write the database file (%s); ", fix)
	} else if err == nil {
		f.Close()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".thinkgraph-write-check-*")
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Sprintf("permission denied: this process may not create files in the directory %s, where SQLite keeps the database's -wal and -shm files beside it (%s); ", dir, fix)
	}
	if err == nil {
		f.Close()
		os.Remove(f.Name())
	}
	return ""
}

const (
	// walHardLimitFactor times WALLimitFrames is the size of the WAL at
	// which writers stop to empty it themselves.
	walHardLimitFactor = 4
	// walFrameHeader is the size of a WAL frame's header.
	walFrameHeader = 24
	// walBackstopWait bounds how long a writer retries that checkpoint.
	walBackstopWait = 2 * time.Second
	// residualFrames is how many frames may be left to the checkpoint that
	// holds writers up.
	residualFrames = 64
)

// walBackstop returns the function run before each write transaction: when
// the WAL file has grown past hard bytes, the background checkpointer has
// fallen behind the writers (its checkpoints wait for fsync, which a busy
// disk can make take tens of milliseconds while writes go on), and the
// writer empties the WAL (TRUNCATE checkpoint, on the writer connection)
// before it begins. Normally the WAL never gets there, and writers only
// pay for a stat of the file.
func walBackstop(writer *sql.DB, walPath string, hard int64) func(context.Context) {
	var mu sync.Mutex
	big := func() bool {
		fi, err := os.Stat(walPath)
		return err == nil && fi.Size() > hard
	}
	return func(ctx context.Context) {
		if !big() {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		// The checkpoint reports busy while another one (the background
		// PASSIVE) runs: wait for it, a bounded time. Writers of this
		// process wait on mu meanwhile. An error leaves the WAL to the next
		// write.
		deadline := time.Now().Add(walBackstopWait)
		for big() && time.Now().Before(deadline) { // big: not emptied by a writer that was first
			var busy, frames, copied int
			err := writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied)
			if err != nil || busy == 0 {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
	}
}

// startCheckpointer copies the WAL back into the database file every
// interval, off the writers' path (PASSIVE: it waits for no reader or
// writer), so that no tool call pays for a checkpoint inside its commit.
//
// A PASSIVE checkpoint never resets the WAL: SQLite starts it over (from
// its first frame, reusing the file) only when a writer begins after every
// frame has been copied back, which under a steady stream of writes does
// not happen (new frames land while the checkpoint runs), and the WAL would
// grow without bound (about 55 KB per think). So when a checkpoint finds
// more than limit frames in the WAL, a second PASSIVE checkpoint follows on
// the writer connection: it takes its turn among this process's writers, so
// none of them commits while it runs, and it copies only the frames written
// during the first one (a few hundred pages and two fsyncs: milliseconds).
// The WAL is then wholly copied back and the next writer starts it over.
// Writers wait for that second pass alone (3 to 13 ms in BenchmarkLuxOverhead,
// where the TRUNCATE checkpoint used before, which also waits for readers
// to leave the WAL and truncates the file, held them up 20 to 45 ms). The
// TRUNCATE checkpoint is left to the cases where the WAL still does not
// start over: when it has grown past twice the limit (writers of other
// processes keep it from being wholly copied back, or readers keep old
// snapshots), one on the writer connection empties it.
//
// It returns a function that stops it and waits.
func startCheckpointer(pool, writer *sql.DB, interval time.Duration, limit int) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// A failure (busy, closed) is retried at the next tick.
				var busy, frames, copied int
				err := pool.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
				if err != nil || frames <= limit {
					continue
				}
				// Copy back, still without holding up writers, what was
				// written during that checkpoint, until little is left
				// for the pass that holds them up.
				for range 4 {
					prev := frames
					err = pool.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
					if err != nil || frames-prev <= residualFrames {
						break
					}
				}
				err = writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
				if err == nil && copied < frames && frames > 2*limit {
					_, _ = writer.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}
