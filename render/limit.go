package render

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Limits of the renders of large sessions (see Limiter).
const (
	// HeavyThoughts: a session of more thoughts is a heavy render; it
	// takes one of the Limiter's slots.
	HeavyThoughts = 1000
	// DefaultMaxAnalysed is the largest session a server's loaders
	// analyse while a request waits (Loader.MaxAnalysed): a server's
	// export of 3,000 analysed thoughts peaked at 231 MiB, of 4,000 at
	// 291 MiB; thinkgraph export of 12,000 took 11.8 s and 558 MiB
	// (bench/memory.sh, at 3cb1f46).
	DefaultMaxAnalysed = 3000
	// DefaultMaxDrawn is the most thoughts a bounded drawing (the /svg
	// resource, the graph app) shows: the latest ones.
	DefaultMaxDrawn = 2000
)

// Limiter bounds the heavy renders (sessions of more than HeavyThoughts
// thoughts) running at once, per tenant and in all, so that one tenant
// cannot fill the server's memory with exports; a render that finds no
// slot waits up to Wait, then is refused with a BusyError. When the last
// heavy render ends, the memory it used is returned to the system.
type Limiter struct {
	// PerTenant and Total are the slots (default 1 and 2); Wait how long
	// a render waits for one (default 10 s).
	PerTenant, Total int
	Wait             time.Duration

	mu      sync.Mutex
	running map[string]int
	all     int
	freed   chan struct{} // closed and replaced when a slot frees
	free    *time.Timer   // returns the memory of the last heavy render
}

// NewLimiter returns a limiter with the default slots and wait.
func NewLimiter() *Limiter { return &Limiter{} }

// acquire takes a slot for tenant, waiting up to l.Wait; it returns the
// function that gives it back.
func (l *Limiter) acquire(ctx context.Context, tenant string, steps int) (func(), error) {
	perTenant, total, wait := cmpOr(l.PerTenant, 1), cmpOr(l.Total, 2), l.Wait
	if wait <= 0 {
		wait = 10 * time.Second
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	l.mu.Lock()
	if l.running == nil {
		l.running = map[string]int{}
	}
	for l.running[tenant] >= perTenant || l.all >= total {
		if l.freed == nil {
			l.freed = make(chan struct{})
		}
		freed := l.freed
		l.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			return nil, &thinkgraph.Error{Code: thinkgraph.CodeBusy,
				Message: fmt.Sprintf("busy: the server is rendering as many large sessions as it allows (%d per tenant, %d in all; this one has %d thoughts) and none finished within %s",
					perTenant, total, steps, wait.Round(time.Second)),
				Suggestions: []string{"try again in a few seconds", "ask for one view of a large session at a time"}}
		}
		l.mu.Lock()
	}
	l.running[tenant]++
	l.all++
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		l.running[tenant]--
		if l.running[tenant] == 0 {
			delete(l.running, tenant)
		}
		l.all--
		if l.freed != nil {
			close(l.freed)
			l.freed = nil
		}
		if l.all == 0 {
			// A large session's render allocates tens to hundreds of
			// MiB that the runtime would keep for minutes: give it back
			// once no heavy render needs it, a moment after the last
			// one, when its answer has been encoded and sent too.
			if l.free == nil {
				l.free = time.AfterFunc(freeAfter, l.freeMemory)
			} else {
				l.free.Reset(freeAfter)
			}
		}
		l.mu.Unlock()
	}, nil
}

// freeAfter is how long after the last heavy render its memory is
// returned to the system.
const freeAfter = time.Second

func (l *Limiter) freeMemory() {
	l.mu.Lock()
	idle := l.all == 0
	l.mu.Unlock()
	if idle {
		debug.FreeOSMemory()
	}
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Render loads the session of ref as Load does and calls fn with it,
// within Heavy.
func (l *Loader) Render(ctx context.Context, ref reasoning.SessionRef, analyze bool, fn func(*Graph) error) error {
	release, err := l.Heavy(ctx, ref)
	if err != nil {
		return err
	}
	defer release()
	g, err := l.Load(ctx, ref, analyze)
	if err != nil {
		return err
	}
	return fn(g)
}

// Heavy takes a slot of the loader's Limiter (if it has one) when the
// session of ref has more than HeavyThoughts thoughts, for whatever the
// caller then does with the whole session (a render, an export); a
// BusyError when none frees in time. It returns the function that gives
// the slot back.
func (l *Loader) Heavy(ctx context.Context, ref reasoning.SessionRef) (func(), error) {
	if l.Limiter == nil {
		return func() {}, nil
	}
	var steps int
	if err := l.Svc.View(ctx, ref, func(_ thinkgraph.Tx, s *thinkgraph.Session) error { steps = s.StepCount; return nil }); err != nil {
		return nil, err
	}
	if steps <= HeavyThoughts {
		return func() {}, nil
	}
	return l.Limiter.acquire(ctx, ref.Tenant, steps)
}
