// Command jitter measures how much this machine alone spreads the time of a
// fixed piece of work: -par goroutines (default 1) each hash for about
// -work (SHA-256 over 1 KiB, the iteration count calibrated once), then
// sleep -gap, -n times, and the command prints the p50, p90, p99, p99.9 and
// maximum of the work's wall time over all of them, and p99/p50.
//
// It is the reference for the tail of the benchmarks whose calls keep
// several goroutines busy (BenchmarkLuxOverhead, docs/lux.md): with one
// goroutine it shows the machine's own spread; with -par 2 what keeping
// both of a 2-vCPU machine's cores busy adds (whatever else the machine
// runs then takes its time from the measured work).
//
//	go run ./bench/jitter -work 500us -n 5000 [-par 2]
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"slices"
	"sync"
	"time"
)

func main() {
	work := flag.Duration("work", 500*time.Microsecond, "length of each piece of work")
	gap := flag.Duration("gap", 200*time.Microsecond, "sleep between pieces")
	n := flag.Int("n", 5000, "number of pieces per goroutine")
	par := flag.Int("par", 1, "goroutines doing the work at once")
	flag.Parse()
	if *work <= 0 || *n < 100 || *gap < 0 || *par < 1 {
		log.Fatal("want -work > 0, -n >= 100, -gap >= 0 and -par >= 1")
	}
	hash := func(buf *[1024]byte, iters int) {
		for range iters {
			h := sha256.Sum256(buf[:])
			buf[0] = h[0]
		}
	}
	// Calibrate: the median of 21 timings of 1,000 iterations.
	var cal []time.Duration
	var buf [1024]byte
	for range 21 {
		t := time.Now()
		hash(&buf, 1000)
		cal = append(cal, time.Since(t))
	}
	slices.Sort(cal)
	iters := max(1, int(float64(*work)/float64(cal[len(cal)/2])*1000))
	times := make([][]time.Duration, *par)
	var wg sync.WaitGroup
	for g := range times {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf [1024]byte
			d := make([]time.Duration, 0, *n)
			for range *n {
				t := time.Now()
				hash(&buf, iters)
				d = append(d, time.Since(t))
				time.Sleep(*gap)
			}
			times[g] = d
		}()
	}
	wg.Wait()
	d := slices.Concat(times...)
	slices.Sort(d)
	q := func(p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
	fmt.Printf("work %v (%d hashes) x %d x %d goroutines: p50 %v p90 %v p99 %v p99.9 %v max %v; p99/p50 %.2f\n",
		*work, iters, *n, *par, q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), q(0.99).Round(time.Microsecond),
		q(0.999).Round(time.Microsecond), d[len(d)-1].Round(time.Microsecond), float64(q(0.99))/float64(q(0.5)))
}
