package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Error kinds, named as mcp-langbase-reasoning's error types.
const (
	KindUnavailable = "LangbaseUnavailable" // Langbase unreachable after retries
	KindAPI         = "ApiError"            // the API answered with an error
	KindTimeout     = "Timeout"             // the request timed out
	// KindProviderUnavailable is KindUnavailable for the providers other
	// than Langbase, whose failure the seed's name would misreport.
	KindProviderUnavailable = "ProviderUnavailable"
)

// ErrNoProvider is returned by [Select] and [ForReasoning] when no provider
// is configured and MCP sampling is not available.
var ErrNoProvider = errors.New("no LLM provider configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama), ANTHROPIC_API_KEY or LANGBASE_API_KEY, or connect with an MCP client that supports sampling")

// ErrorKind returns the seed-002 error type of err: "LangbaseUnavailable"
// (or "ProviderUnavailable" for another provider than Langbase), "ApiError"
// or "Timeout", or "" when err is none of them (for example a cancelled call
// or a configuration error).
func ErrorKind(err error) string {
	var u *UnavailableError
	var t *TimeoutError
	var a *APIError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &u):
		return u.Kind()
	case errors.As(err, &t):
		return KindTimeout
	case errors.As(err, &a):
		return KindAPI
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	}
	return ""
}

// APIError is an error answer of a provider's API.
type APIError struct {
	Provider   string
	StatusCode int    // HTTP status, 0 when not HTTP (e.g. MCP sampling)
	Message    string // the provider's message, secrets removed
	// RetryAfter is the delay the server asked for (Retry-After), or 0.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(" API error")
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " %d", e.StatusCode)
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Kind returns "ApiError".
func (e *APIError) Kind() string { return KindAPI }

// Retryable reports whether the status is worth retrying (429 and 5xx).
func (e *APIError) Retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout || e.StatusCode >= 500
}

// TimeoutError reports that the last attempt exceeded the per-attempt timeout.
type TimeoutError struct {
	Provider string
	Timeout  time.Duration
	Attempts int
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s request timed out after %v (%d attempt%s)", e.Provider, e.Timeout, e.Attempts, plural(e.Attempts))
}

// Kind returns "Timeout".
func (e *TimeoutError) Kind() string { return KindTimeout }

// Unwrap makes errors.Is(err, context.DeadlineExceeded) true.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// UnavailableError reports that the provider could not be reached or kept
// failing with retryable errors until the retries ran out. Err is the last
// failure (an *APIError for 429/5xx, or a connection error).
type UnavailableError struct {
	Provider string
	Attempts int
	Err      error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%s unavailable after %d attempt%s: %v", e.Provider, e.Attempts, plural(e.Attempts), e.Err)
}

// Kind returns "LangbaseUnavailable", the seed's name for this error, for
// Langbase, and "ProviderUnavailable" for the other providers.
func (e *UnavailableError) Kind() string {
	if e.Provider == ProviderLangbase {
		return KindUnavailable
	}
	return KindProviderUnavailable
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// connError is a transport failure (connection refused, reset, DNS...), with
// its text stripped of secrets.
type connError struct {
	provider string
	msg      string
	cause    error
}

func (e *connError) Error() string { return e.provider + ": " + e.msg }
func (e *connError) Unwrap() error { return e.cause }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var (
	bearerRe = regexp.MustCompile(`(?i)(bearer\s+)[^\s"',;]+`)
	headerRe = regexp.MustCompile(`(?i)((?:x-api-key|api-key|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]+`)
	keyRe    = regexp.MustCompile(`\b(sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,})`)
)

// redact removes the given secrets and anything that looks like a
// credential (bearer tokens, api-key headers, sk-... keys) from s.
func redact(s string, secrets ...Secret) string {
	for _, k := range secrets {
		if len(k) >= 4 {
			s = strings.ReplaceAll(s, string(k), redacted)
		}
	}
	s = bearerRe.ReplaceAllString(s, "${1}"+redacted)
	s = headerRe.ReplaceAllString(s, "${1}"+redacted)
	s = keyRe.ReplaceAllString(s, redacted)
	return s
}

// truncate shortens s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	var secs float64
	if _, err := fmt.Sscanf(v, "%g", &secs); err == nil && !strings.ContainsAny(v, " ,:") {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
