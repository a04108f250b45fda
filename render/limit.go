package render

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Limits of the renders of large sessions (see Limiter).
const (
	// HeavyThoughts, HeavyLinks, HeavyBytes: a session of more thoughts,
	// more links, or more bytes of text, key points and metadata is a
	// heavy render; it takes one of the Limiter's slots. So is one whose
	// analyses are run and whose long thoughts weigh more than
	// HeavyLongText (see thinkgraph.SessionSize.LongText: one thought of
	// 6,000 characters), since their time grows with the square of a
	// thought's length.
	HeavyThoughts = 1000
	HeavyLinks    = 2000
	HeavyBytes    = 1 << 20
	HeavyLongText = 25_000_000
	// DefaultMaxAnalysed is the largest session a server's loaders
	// analyse while a request waits (Loader.MaxAnalysed): a server's
	// export of 3,000 analysed thoughts peaked at 231 MiB, of 4,000 at
	// 291 MiB; thinkgraph export of 12,000 took 11.8 s and 558 MiB
	// (bench/memory.sh, at 3cb1f46).
	DefaultMaxAnalysed = 3000
	// DefaultMaxAnalysedLongText bounds, the same way, the long thoughts
	// of a session a server's loaders analyse
	// (Loader.MaxAnalysedLongText, in SessionSize.LongText): two
	// thoughts of 8,000 characters, analysed in 0.2 s, pass; ten of
	// 10,000 characters, analysed in 10 s (repeating their words), do
	// not (issue 38; go test ./web -run TestLongThoughtsViewsBounded -v).
	DefaultMaxAnalysedLongText = 200_000_000
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
// function that gives it back. why says what makes the render heavy.
func (l *Limiter) acquire(ctx context.Context, tenant, why string) (func(), error) {
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
			return nil, &thinkgraph.Error{Code: thinkgraph.CodeBusy, RetryAfter: 5 * time.Second,
				Message: fmt.Sprintf("busy: the server is rendering as many large sessions as it allows (%d per tenant, %d in all; this one has %s) and none finished within %s",
					perTenant, total, why, wait.Round(time.Second)),
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
// within Heavy. It stops, without rendering, when ctx ends (the client
// went away) before the session is loaded.
func (l *Loader) Render(ctx context.Context, ref reasoning.SessionRef, analyze bool, fn func(*Graph) error) error {
	release, err := l.Heavy(ctx, ref, analyze)
	if err != nil {
		return err
	}
	defer release()
	g, err := l.Load(ctx, ref, analyze)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(g)
}

// Heavy takes a slot of the loader's Limiter (if it has one) when the
// session of ref is a heavy render (more than HeavyThoughts thoughts,
// HeavyLinks links or HeavyBytes bytes, or, when its analyses are run, long
// thoughts weighing more than HeavyLongText), for whatever the caller then
// does with the whole session (a render, an export); a BusyError when none
// frees in time. It returns the function that gives the slot back.
func (l *Loader) Heavy(ctx context.Context, ref reasoning.SessionRef, analyze bool) (func(), error) {
	if l.Limiter == nil {
		return func() {}, nil
	}
	var z thinkgraph.SessionSize
	err := l.Svc.View(ctx, ref, func(tx thinkgraph.Tx, s *thinkgraph.Session) error {
		var err error
		z, err = tx.SessionSize(ctx, s.Key)
		return err
	})
	if err != nil {
		return nil, err
	}
	var why []string
	if z.Thoughts > HeavyThoughts {
		why = append(why, fmt.Sprintf("%d thoughts", z.Thoughts))
	}
	if z.Links > HeavyLinks {
		why = append(why, fmt.Sprintf("%d links", z.Links))
	}
	if z.Bytes > HeavyBytes {
		why = append(why, fmt.Sprintf("%.1f MiB of text and metadata", float64(z.Bytes)/(1<<20)))
	}
	if analyze && z.LongText > HeavyLongText && l.notAnalysed(z) == "" {
		why = append(why, "thoughts long enough that analysing them takes seconds")
	}
	if len(why) == 0 {
		return func() {}, nil
	}
	return l.Limiter.acquire(ctx, ref.Tenant, strings.Join(why, ", "))
}

// notAnalysed says why the loader does not analyse a session of size z
// ("" when it does): more thoughts than MaxAnalysed, or long thoughts
// weighing more than MaxAnalysedLongText.
func (l *Loader) notAnalysed(z thinkgraph.SessionSize) string {
	const others = "; branch-thinking's findContradictions, detectCircular and evaluate analyse it, and so does thinkgraph export"
	switch {
	case l.MaxAnalysed > 0 && z.Thoughts > l.MaxAnalysed:
		return fmt.Sprintf("the session has %d thoughts, more than the %d analysed while a view or an export is served (THINKGRAPH_MAX_ANALYSED_THOUGHTS)"+others,
			z.Thoughts, l.MaxAnalysed)
	case l.MaxAnalysedLongText > 0 && z.LongText > l.MaxAnalysedLongText:
		return fmt.Sprintf("the session's long thoughts take too long to analyse while a view or an export is served: the analyses compare the words of similar claims pairwise, "+
			"so their time grows with the square of a thought's length, and the characters of its thoughts beyond the first %d, squared and summed, come to %.2g, more than %.2g (two thoughts of 8,000 characters)"+others,
			thinkgraph.LongThought, float64(z.LongText), float64(l.MaxAnalysedLongText))
	}
	return ""
}

// sizeOf is the SessionSize of thoughts, as far as the analyses' bounds
// read it (thoughts and LongText).
func sizeOf(ths []thinkgraph.Thought) thinkgraph.SessionSize {
	z := thinkgraph.SessionSize{Thoughts: len(ths)}
	for i := range ths {
		if n := int64(utf8.RuneCountInString(ths[i].Content)) - thinkgraph.LongThought; n > 0 {
			z.LongText += n * n
		}
	}
	return z
}
