// Command jitter measures how much this machine alone spreads the time of a
// fixed piece of work: one goroutine hashes for about -work (SHA-256 over
// 1 KiB, the iteration count calibrated once), then sleeps -gap, -n times,
// and the command prints the p50, p90, p99, p99.9 and maximum of the work's
// wall time, and p99/p50.
//
// It is the reference for the tail of the benchmarks that pass work between
// goroutines (BenchmarkLuxOverhead, docs/lux.md): a tail there much wider
// than here comes from the hand-offs, not from the machine's clock or its
// steal time alone.
//
//	go run ./bench/jitter -work 500us -n 5000
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"slices"
	"time"
)

func main() {
	work := flag.Duration("work", 500*time.Microsecond, "length of each piece of work")
	gap := flag.Duration("gap", 200*time.Microsecond, "sleep between pieces")
	n := flag.Int("n", 5000, "number of pieces")
	flag.Parse()
	if *work <= 0 || *n < 100 || *gap < 0 {
		log.Fatal("want -work > 0, -n >= 100 and -gap >= 0")
	}
	var buf [1024]byte
	hash := func(iters int) {
		for range iters {
			h := sha256.Sum256(buf[:])
			buf[0] = h[0]
		}
	}
	// Calibrate: the median of 21 timings of 1,000 iterations.
	var cal []time.Duration
	for range 21 {
		t := time.Now()
		hash(1000)
		cal = append(cal, time.Since(t))
	}
	slices.Sort(cal)
	iters := max(1, int(float64(*work)/float64(cal[len(cal)/2])*1000))
	d := make([]time.Duration, 0, *n)
	for range *n {
		t := time.Now()
		hash(iters)
		d = append(d, time.Since(t))
		time.Sleep(*gap)
	}
	slices.Sort(d)
	q := func(p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
	fmt.Printf("work %v (%d hashes) x %d: p50 %v p90 %v p99 %v p99.9 %v max %v; p99/p50 %.2f\n",
		*work, iters, *n, q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), q(0.99).Round(time.Microsecond),
		q(0.999).Round(time.Microsecond), d[len(d)-1].Round(time.Microsecond), float64(q(0.99))/float64(q(0.5)))
}
