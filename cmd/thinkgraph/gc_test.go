package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestPauseGCRestores(t *testing.T) {
	for _, tc := range []struct {
		percent   int
		limit     int64
		wantLimit int64 // while paused
	}{
		{100, math.MaxInt64, startupMemoryLimit},
		{250, 1 << 40, startupMemoryLimit},
		{-1, 32 << 20, 32 << 20}, // GOGC=off and a lower GOMEMLIMIT stay the user's
	} {
		oldPercent := debug.SetGCPercent(tc.percent)
		oldLimit := debug.SetMemoryLimit(tc.limit)
		resume := pauseGC()
		if p := debug.SetGCPercent(-1); p != -1 {
			t.Errorf("while paused GC percent is %d, want -1", p)
		}
		if l := debug.SetMemoryLimit(-1); l != tc.wantLimit {
			t.Errorf("while paused the memory limit is %d, want %d", l, tc.wantLimit)
		}
		resume()
		resume() // idempotent
		if p := debug.SetGCPercent(oldPercent); p != tc.percent {
			t.Errorf("after resume GC percent is %d, want %d", p, tc.percent)
		}
		if l := debug.SetMemoryLimit(oldLimit); l != tc.limit {
			t.Errorf("after resume the memory limit is %d, want %d", l, tc.limit)
		}
	}
}
