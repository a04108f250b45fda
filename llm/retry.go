package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// ProgressFunc is told about a call that is waiting or retrying: the attempt
// number (1-based) and a human-readable message. Calls are serialized but
// may come from another goroutine than the caller's.
type ProgressFunc func(attempt int, msg string)

type progressKey struct{}

// WithProgress returns a context whose LLM calls report progress to fn
// (e.g. as MCP progress notifications) while waiting or retrying.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressFrom(ctx context.Context) ProgressFunc {
	fn, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return fn
}

// RetryPolicy is the robustness policy applied by [WithRetry].
type RetryPolicy struct {
	// Timeout bounds each attempt; 0 means no per-attempt timeout.
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt.
	MaxRetries int
	// Delay is the first backoff delay; it doubles with each retry and gets
	// up to 50% random jitter. A server's Retry-After replaces it.
	Delay time.Duration
	// MaxDelay caps one wait, including Retry-After; 0 means 60s.
	MaxDelay time.Duration
	// ProgressInterval is how often a waiting call reports progress;
	// 0 means 5s.
	ProgressInterval time.Duration
	// Logger receives a warning per retry; nil means none.
	Logger *slog.Logger

	// sleep waits for d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// WithRetry wraps p with the policy: per-attempt timeout, retries with
// exponential backoff and jitter on timeouts, 429, 5xx and connection errors
// (honouring Retry-After), no retry on other errors, immediate return when
// ctx is cancelled. Its errors are *TimeoutError, *UnavailableError,
// *APIError, or wrap ctx.Err().
func WithRetry(p Provider, pol RetryPolicy) Provider {
	if pol.MaxDelay <= 0 {
		pol.MaxDelay = 60 * time.Second
	}
	if pol.ProgressInterval <= 0 {
		pol.ProgressInterval = 5 * time.Second
	}
	if pol.MaxRetries < 0 {
		pol.MaxRetries = 0
	}
	if pol.sleep == nil {
		pol.sleep = sleepCtx
	}
	return &retrying{p: p, pol: pol}
}

type retrying struct {
	p   Provider
	pol RetryPolicy
}

func (r *retrying) Name() string { return r.p.Name() }

// Unwrap returns the wrapped provider.
func (r *retrying) Unwrap() Provider { return r.p }

func (r *retrying) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	name := r.p.Name()
	report := serialized(progressFrom(ctx))
	total := r.pol.MaxRetries + 1
	var lastErr error
	for attempt := 1; attempt <= total; attempt++ {
		if err := ctx.Err(); err != nil {
			return Response{}, fmt.Errorf("%s: %w", name, err)
		}
		resp, timedOut, err := r.attempt(ctx, req, attempt, total, report)
		if err == nil {
			resp.Latency = time.Since(start)
			resp.Attempts = attempt
			if resp.Provider == "" {
				resp.Provider = name
			}
			return resp, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			// The caller gave up: stop now, whatever the attempt said.
			return Response{}, fmt.Errorf("%s: %w", name, ctxErr)
		}
		var wait time.Duration
		switch {
		case timedOut:
			lastErr = &TimeoutError{Provider: name, Timeout: r.pol.Timeout, Attempts: attempt}
		case isRetryable(err):
			lastErr = err
			var apiErr *APIError
			if errors.As(err, &apiErr) {
				wait = apiErr.RetryAfter
			}
		default:
			return Response{}, err
		}
		if attempt == total {
			break
		}
		if wait <= 0 {
			wait = r.backoff(attempt)
		}
		wait = min(wait, r.pol.MaxDelay)
		msg := fmt.Sprintf("%s attempt %d/%d failed (%v); retrying in %v", name, attempt, total, lastErr, wait.Round(time.Millisecond))
		if r.pol.Logger != nil {
			r.pol.Logger.WarnContext(ctx, "llm retry", "provider", name, "attempt", attempt, "of", total, "error", lastErr.Error(), "wait", wait)
		}
		report(attempt, msg)
		if err := r.pol.sleep(ctx, wait); err != nil {
			return Response{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	var te *TimeoutError
	if errors.As(lastErr, &te) {
		te.Attempts = total
		return Response{}, te
	}
	return Response{}, &UnavailableError{Provider: name, Attempts: total, Err: lastErr}
}

// attempt runs one try under the per-attempt timeout, reporting progress
// while it waits. timedOut is set when the attempt's own deadline expired.
func (r *retrying) attempt(ctx context.Context, req Request, n, total int, report ProgressFunc) (Response, bool, error) {
	actx, cancel := ctx, context.CancelFunc(func() {})
	if r.pol.Timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, r.pol.Timeout)
	}
	defer cancel()

	name := r.p.Name()
	if n == 1 {
		report(n, fmt.Sprintf("calling %s", name))
	} else {
		report(n, fmt.Sprintf("calling %s (attempt %d/%d)", name, n, total))
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.pol.ProgressInterval)
		defer t.Stop()
		began := time.Now()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				report(n, fmt.Sprintf("waiting for %s (%v)", name, time.Since(began).Round(time.Second)))
			}
		}
	}()
	resp, err := r.p.Complete(actx, req)
	close(done)
	wg.Wait()
	timedOut := err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded)
	return resp, timedOut, err
}

func (r *retrying) backoff(attempt int) time.Duration {
	d := r.pol.Delay
	for i := 1; i < attempt && d < r.pol.MaxDelay; i++ {
		d *= 2
	}
	if d <= 0 {
		return 0
	}
	return d + rand.N(d/2+1)
}

func isRetryable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Retryable()
	}
	var ce *connError
	return errors.As(err, &ce)
}

func serialized(fn ProgressFunc) ProgressFunc {
	if fn == nil {
		return func(int, string) {}
	}
	var mu sync.Mutex
	return func(attempt int, msg string) {
		mu.Lock()
		defer mu.Unlock()
		fn(attempt, msg)
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
