package main

import (
	"runtime/debug"
	"sync"
)

// startupMemoryLimit bounds the heap while the collector is paused for
// start-up (see pauseGC): past it the collector runs anyway.
const startupMemoryLimit = 64 << 20

// pauseGC turns the garbage collector's proportional pacing off until the
// returned resume is called (once; later calls do nothing), with a soft
// memory limit of startupMemoryLimit (or the one already set, if lower) as
// the only trigger meanwhile. A stdio server starts with an empty heap, so
// the collector would otherwise run several cycles while the handshake is
// being answered, for a few MB of start-up garbage: about a fifth of the
// time to the initialize answer. GOGC and GOMEMLIMIT, if set, are what
// resume restores.
func pauseGC() (resume func()) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, startupMemoryLimit))
	return sync.OnceFunc(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}
