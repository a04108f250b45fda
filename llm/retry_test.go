package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted is a provider that returns its scripted errors in turn, then
// succeeds.
type scripted struct {
	mu    sync.Mutex
	errs  []error
	calls int
	block bool // wait for ctx instead of answering
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Complete(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	n := s.calls
	s.calls++
	s.mu.Unlock()
	if s.block {
		<-ctx.Done()
		return Response{}, ctx.Err()
	}
	if n < len(s.errs) {
		return Response{}, s.errs[n]
	}
	return Response{Content: "ok"}, nil
}

func fakeSleep(waits *[]time.Duration) func(context.Context, time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return ctx.Err()
	}
}

func TestRetryBackoffExponentialWithJitter(t *testing.T) {
	s := &scripted{errs: []error{
		&APIError{StatusCode: 500}, &APIError{StatusCode: 503}, &connError{msg: "reset"},
	}}
	var waits []time.Duration
	p := WithRetry(s, RetryPolicy{MaxRetries: 3, Delay: 100 * time.Millisecond, sleep: fakeSleep(&waits)})
	resp, err := p.Complete(context.Background(), Request{})
	if err != nil || resp.Attempts != 4 || resp.Provider != "scripted" {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	base := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	if len(waits) != 3 {
		t.Fatalf("waits = %v", waits)
	}
	for i, b := range base {
		if waits[i] < b || waits[i] > b+b/2 {
			t.Errorf("wait %d = %v, want in [%v, %v]", i, waits[i], b, b+b/2)
		}
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	s := &scripted{errs: []error{&APIError{StatusCode: 429, RetryAfter: 3 * time.Second}, &APIError{StatusCode: 429, RetryAfter: time.Hour}}}
	var waits []time.Duration
	p := WithRetry(s, RetryPolicy{MaxRetries: 3, Delay: time.Millisecond, MaxDelay: time.Minute, sleep: fakeSleep(&waits)})
	if _, err := p.Complete(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	if len(waits) != 2 || waits[0] != 3*time.Second || waits[1] != time.Minute {
		t.Errorf("waits = %v, want [3s 1m] (Retry-After, capped by MaxDelay)", waits)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"5", 5 * time.Second}, {"0", 0}, {"-3", 0}, {"1.5", 1500 * time.Millisecond},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second},
		{now.Add(-30 * time.Second).Format(http.TimeFormat), 0},
		{"garbage", 0},
	} {
		h := http.Header{}
		if tc.v != "" {
			h.Set("Retry-After", tc.v)
		}
		if got := parseRetryAfter(h, now); got != tc.want {
			t.Errorf("Retry-After %q = %v, want %v", tc.v, got, tc.want)
		}
	}
	h := http.Header{}
	h.Set("retry-after-ms", "250")
	h.Set("Retry-After", "9")
	if got := retryAfter(h); got != 250*time.Millisecond {
		t.Errorf("retry-after-ms: %v", got)
	}
}

func TestNoRetryOnClientErrors(t *testing.T) {
	for _, err := range []error{&APIError{StatusCode: 400}, &APIError{StatusCode: 401}, &APIError{StatusCode: 404}, &APIError{StatusCode: 0}, errors.New("decode")} {
		s := &scripted{errs: []error{err}}
		var waits []time.Duration
		_, got := WithRetry(s, RetryPolicy{MaxRetries: 3, sleep: fakeSleep(&waits)}).Complete(context.Background(), Request{})
		if got != err || s.calls != 1 {
			t.Errorf("%v: got %v after %d calls", err, got, s.calls)
		}
	}
}

func TestRetryExhaustedKinds(t *testing.T) {
	var waits []time.Duration
	s := &scripted{errs: []error{&APIError{StatusCode: 500}, &APIError{StatusCode: 502}}}
	_, err := WithRetry(s, RetryPolicy{MaxRetries: 1, sleep: fakeSleep(&waits)}).Complete(context.Background(), Request{})
	var ue *UnavailableError
	if !errors.As(err, &ue) || ue.Attempts != 2 || ErrorKind(err) != "ProviderUnavailable" {
		t.Fatalf("err = %v", err)
	}
	if (&UnavailableError{Provider: ProviderLangbase}).Kind() != KindUnavailable || (&UnavailableError{Provider: ProviderOpenAI}).Kind() != KindProviderUnavailable || (&TimeoutError{}).Kind() != KindTimeout || (&APIError{}).Kind() != KindAPI {
		t.Error("Kind methods")
	}
	if ErrorKind(nil) != "" || ErrorKind(errors.New("x")) != "" || ErrorKind(context.DeadlineExceeded) != KindTimeout {
		t.Error("ErrorKind of plain errors")
	}
}

func TestRetryTimeoutPerAttempt(t *testing.T) {
	s := &scripted{block: true}
	var waits []time.Duration
	var msgs []string
	ctx := WithProgress(context.Background(), func(attempt int, msg string) { msgs = append(msgs, msg) })
	_, err := WithRetry(s, RetryPolicy{Timeout: 5 * time.Millisecond, MaxRetries: 2, Delay: time.Millisecond, sleep: fakeSleep(&waits)}).Complete(ctx, Request{})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Attempts != 3 || s.calls != 3 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, calls %d", err, s.calls)
	}
	if !strings.Contains(err.Error(), "timed out after 5ms (3 attempts)") {
		t.Errorf("message %q", err)
	}
	if len(waits) != 2 {
		t.Errorf("waits %v", waits)
	}
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, "calling scripted (attempt 3/3)") || !strings.Contains(joined, "retrying in") {
		t.Errorf("progress:\n%s", joined)
	}
}

func TestCancelDuringBackoffStops(t *testing.T) {
	s := &scripted{errs: []error{&APIError{StatusCode: 503}, &APIError{StatusCode: 503}}}
	ctx, cancel := context.WithCancel(context.Background())
	sleep := func(ctx context.Context, d time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() }
	_, err := WithRetry(s, RetryPolicy{MaxRetries: 5, sleep: sleep}).Complete(ctx, Request{})
	if !errors.Is(err, context.Canceled) || s.calls != 1 {
		t.Fatalf("err %v after %d calls", err, s.calls)
	}
}

func TestProgressHeartbeat(t *testing.T) {
	release := make(chan struct{})
	p := ProviderFunc("slow", func(ctx context.Context, req Request) (Response, error) {
		<-release
		return Response{Content: "done"}, nil
	})
	got := make(chan string, 16)
	ctx := WithProgress(context.Background(), func(attempt int, msg string) {
		select {
		case got <- msg:
		default:
		}
	})
	go func() {
		// Release once a heartbeat arrived.
		for msg := range got {
			if strings.HasPrefix(msg, "waiting for slow") {
				close(release)
				return
			}
		}
	}()
	resp, err := WithRetry(p, RetryPolicy{ProgressInterval: time.Millisecond}).Complete(ctx, Request{})
	if err != nil || resp.Content != "done" {
		t.Fatalf("%+v %v", resp, err)
	}
}
