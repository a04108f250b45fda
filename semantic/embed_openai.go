package semantic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// OpenAIConfig configures an embedder that calls an OpenAI-compatible
// /v1/embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio, ...). The caller
// fills it, typically from THINKGRAPH_EMBEDDINGS_URL, _MODEL and _API_KEY.
type OpenAIConfig struct {
	// URL is the base URL, with or without the /v1 suffix
	// ("http://localhost:11434", "https://api.openai.com/v1").
	URL   string
	Model string
	// APIKey is sent as a bearer token when set. It never appears in errors.
	APIKey string
	// BatchSize is the number of texts per request (default 64).
	BatchSize int
	// Timeout bounds each HTTP request (default 30s).
	Timeout time.Duration
	// MaxRetries is the number of retries after a 429, a 5xx, a timeout or a
	// network error (default 3; negative disables retries). Other 4xx
	// responses are not retried.
	MaxRetries int
	// Backoff is the first retry delay, doubled on each retry (default
	// 500ms); a Retry-After header, when present, takes precedence.
	Backoff time.Duration
	// Dim, when non-zero, is the expected vector length; otherwise it is
	// learned from the first response.
	Dim int
	// HTTPClient is used when non-nil (its Timeout is left as is).
	HTTPClient *http.Client
}

// OpenAIEmbedder is an Embedder backed by an OpenAI-compatible embeddings
// endpoint. It is safe for concurrent use.
type OpenAIEmbedder struct {
	cfg      OpenAIConfig
	endpoint string
	client   *http.Client

	mu  sync.Mutex
	dim int
}

// NewOpenAIEmbedder validates cfg and returns the embedder. It does not
// contact the server.
func NewOpenAIEmbedder(cfg OpenAIConfig) (*OpenAIEmbedder, error) {
	if cfg.URL == "" {
		return nil, errors.New("openai embedder: URL is required")
	}
	if cfg.Model == "" {
		return nil, errors.New("openai embedder: model is required")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	base := strings.TrimRight(cfg.URL, "/")
	base = strings.TrimSuffix(base, "/embeddings")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	return &OpenAIEmbedder{cfg: cfg, endpoint: base + "/embeddings", client: client, dim: cfg.Dim}, nil
}

// Model returns the configured model name.
func (e *OpenAIEmbedder) Model() string { return e.cfg.Model }

// Dim returns the vector length: the configured one, else the one seen in
// the first response, else 0 before any successful call.
func (e *OpenAIEmbedder) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// StatusError is returned when the endpoint answers with an error status.
type StatusError struct {
	StatusCode int
	Body       string // first bytes of the response body
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("embeddings endpoint returned %d: %s", e.StatusCode, e.Body)
}

// Embed returns one L2-normalised vector per text, calling the endpoint in
// batches of BatchSize.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([]Vector, error) {
	out := make([]Vector, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		end := min(start+e.cfg.BatchSize, len(texts))
		vecs, err := e.embedBatch(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("openai embedder (%s): %w", e.cfg.Model, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *OpenAIEmbedder) embedBatch(ctx context.Context, texts []string) ([]Vector, error) {
	body, err := json.Marshal(embeddingsRequest{Model: e.cfg.Model, Input: texts})
	if err != nil {
		return nil, err
	}
	delay := e.cfg.Backoff
	var lastErr error
	for attempt := 0; attempt <= e.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, errors.Join(ctx.Err(), lastErr)
			case <-t.C:
			}
			delay *= 2
		}
		vecs, retryAfter, err := e.post(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		lastErr = err
		if ctx.Err() != nil || !retryable(err) {
			return nil, err
		}
		if retryAfter > 0 {
			delay = retryAfter
		}
	}
	return nil, fmt.Errorf("giving up after %d attempts: %w", e.cfg.MaxRetries+1, lastErr)
}

func retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.StatusCode == http.StatusTooManyRequests || se.StatusCode >= 500
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF)
}

// post performs one request. The returned duration is the server's
// Retry-After, if any.
func (e *OpenAIEmbedder) post(ctx context.Context, body []byte, n int) ([]Vector, time.Duration, error) {
	rctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		// *url.Error includes the URL, never the headers: the key stays out.
		return nil, 0, e.scrub(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, 0, e.scrub(err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(raw))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		var ra time.Duration
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
			ra = min(time.Duration(s)*time.Second, time.Minute)
		}
		return nil, ra, &StatusError{StatusCode: resp.StatusCode, Body: e.redact(msg)}
	}
	var er embeddingsResponse
	if err := json.Unmarshal(raw, &er); err != nil {
		return nil, 0, fmt.Errorf("decoding response: %w", err)
	}
	if len(er.Data) != n {
		return nil, 0, fmt.Errorf("response has %d embeddings for %d inputs", len(er.Data), n)
	}
	out := make([]Vector, n)
	for i, d := range er.Data {
		idx := d.Index
		if idx < 0 || idx >= n || out[idx] != nil {
			idx = i // servers that omit index return data in input order
		}
		if out[idx] != nil {
			return nil, 0, fmt.Errorf("response repeats embedding index %d", d.Index)
		}
		v, err := normalise(d.Embedding)
		if err != nil {
			return nil, 0, fmt.Errorf("embedding %d: %w", idx, err)
		}
		out[idx] = v
	}
	if err := e.checkDim(len(out[0])); err != nil {
		return nil, 0, err
	}
	for _, v := range out {
		if len(v) != len(out[0]) {
			return nil, 0, fmt.Errorf("inconsistent dimensions in one response: %d and %d", len(out[0]), len(v))
		}
	}
	return out, 0, nil
}

func (e *OpenAIEmbedder) checkDim(d int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dim == 0 {
		e.dim = d
		return nil
	}
	if d != e.dim {
		return fmt.Errorf("dimension changed: expected %d, got %d", e.dim, d)
	}
	return nil
}

func normalise(x []float64) (Vector, error) {
	if len(x) == 0 {
		return nil, errors.New("empty vector")
	}
	var n float64
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("vector holds NaN or Inf")
		}
		n += v * v
	}
	if n == 0 {
		return nil, errors.New("zero vector")
	}
	inv := 1 / math.Sqrt(n)
	out := make(Vector, len(x))
	for i, v := range x {
		out[i] = float32(v * inv)
	}
	return out, nil
}

// redact removes the API key from text that came back from the server
// (some servers echo the Authorization header in error bodies).
func (e *OpenAIEmbedder) redact(s string) string {
	if e.cfg.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, e.cfg.APIKey, "[redacted]")
}

func (e *OpenAIEmbedder) scrub(err error) error {
	if e.cfg.APIKey == "" || !strings.Contains(err.Error(), e.cfg.APIKey) {
		return err
	}
	return &redactedError{msg: e.redact(err.Error()), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (r *redactedError) Error() string { return r.msg }
func (r *redactedError) Unwrap() error { return r.err }
