// Package cputime measures the CPU time of the semantic packages'
// benchmarks: they report it per operation next to wall time, because wall
// time on a shared, busy machine includes waiting for a CPU.
package cputime

import (
	"syscall"
	"testing"
	"time"
)

// Used returns the CPU time (user + system) used by the process so far.
func Used() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Loop runs f b.N times and reports cpu-ns/op.
func Loop(b *testing.B, f func()) {
	b.ResetTimer()
	start := Used()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(Used()-start)/float64(n), "cpu-ns/op")
}
