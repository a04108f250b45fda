package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// benchStore returns a store holding sessions sessions of n thoughts each,
// every thought a child of the previous one (what think does), and a
// function that appends one more thought to session i, as a tool call does.
func benchStore(b *testing.B, sessions, n int) (thinkgraph.Store, func(i int)) {
	b.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	now := time.Now()
	conf := 0.8
	add := func(tx thinkgraph.Tx, id string) error {
		sess, err := tx.LockSession(ctx, "local", id)
		if err != nil {
			return err
		}
		sess.StepCount++
		th := &thinkgraph.Thought{ID: fmt.Sprintf("%s-%d", id, sess.StepCount), Session: sess.Key, BranchID: "main",
			ParentID: sess.CurrentThoughtID, Step: sess.StepCount, Content: fmt.Sprintf("client call %d of a benchmark run", sess.StepCount),
			Confidence: &conf, Author: "client", Tool: "think", CreatedAt: now}
		if err := tx.AddThought(ctx, th); err != nil {
			return err
		}
		sess.CurrentThoughtID, sess.UpdatedAt = th.ID, now
		return tx.UpdateSession(ctx, sess)
	}
	// As under load, the sessions grow together: their thoughts are
	// interleaved in the table, as the calls of concurrent clients are.
	for c := 0; c < sessions; c++ {
		id := fmt.Sprintf("s%d", c)
		err := s.Update(ctx, func(tx thinkgraph.Tx) error {
			return tx.CreateSession(ctx, &thinkgraph.Session{Key: thinkgraph.SessionKey(id), ID: id, Tenant: "local", ActiveBranch: "main", CreatedAt: now, UpdatedAt: now})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for range n {
		err := s.Update(ctx, func(tx thinkgraph.Tx) error {
			for c := 0; c < sessions; c++ {
				if err := add(tx, fmt.Sprintf("s%d", c)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return s, func(i int) {
		if err := s.Update(ctx, func(tx thinkgraph.Tx) error { return add(tx, fmt.Sprintf("s%d", i%sessions)) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppend is the write of a think call.
func BenchmarkAppend(b *testing.B) {
	_, add := benchStore(b, 32, 500)
	var cpu cpuClock
	defer cpu.report(b)
	for i := 0; b.Loop(); i++ {
		cpu.start()
		add(i)
		cpu.stop()
	}
}

// BenchmarkAncestors is show_current_path's read of a 500-thought path,
// each after a write (as under load, where every read transaction starts
// after another connection's commit).
func BenchmarkAncestors(b *testing.B) {
	s, add := benchStore(b, 32, 500)
	ctx := context.Background()
	var cpu cpuClock
	defer cpu.report(b)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		add(i)
		b.StartTimer()
		cpu.start()
		id := fmt.Sprintf("s%d", (i+1)%32)
		err := s.View(ctx, func(tx thinkgraph.Tx) error {
			sess, err := tx.Session(ctx, "local", id)
			if err != nil {
				return err
			}
			path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
			if err == nil && len(path) < 500 {
				err = fmt.Errorf("path of %d thoughts", len(path))
			}
			return err
		})
		cpu.stop()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThoughts is get_unexplored_branches' read of a whole
// 500-thought session, each after a write.
func BenchmarkThoughts(b *testing.B) {
	s, add := benchStore(b, 32, 500)
	ctx := context.Background()
	var cpu cpuClock
	defer cpu.report(b)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		add(i)
		b.StartTimer()
		cpu.start()
		id := fmt.Sprintf("s%d", (i+1)%32)
		err := s.View(ctx, func(tx thinkgraph.Tx) error {
			ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: thinkgraph.SessionKey(id)})
			if err == nil && len(ths) < 500 {
				err = fmt.Errorf("%d thoughts", len(ths))
			}
			return err
		})
		cpu.stop()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// cpuClock measures the process's CPU time (user + system) spent between
// start and stop, reported as cpu-ns/op: a figure that, unlike ns/op,
// does not grow when other processes compete for the machine's cores.
type cpuClock struct{ used, from time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (c *cpuClock) start() { c.from = cpuNow() }
func (c *cpuClock) stop()  { c.used += cpuNow() - c.from }
func (c *cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(c.used.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
