package semantic

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeEmbeddings speaks the OpenAI /v1/embeddings wire format. Each input's
// vector is (len(text), 1, 2, ...) up to dim, so tests can check order.
func fakeEmbeddings(t *testing.T, dim int, fail func(call int, w http.ResponseWriter) bool) (*httptest.Server, *int32, *[]int) {
	t.Helper()
	var calls int32
	var batches []int
	var mu sync.Mutex // batches: requests may be served concurrently
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(atomic.AddInt32(&calls, 1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found: "+r.URL.Path, http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-secret-123" {
			http.Error(w, `{"error":{"message":"bad key `+got+`"}}`, http.StatusUnauthorized)
			return
		}
		if fail != nil && fail(n, w) {
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		batches = append(batches, len(req.Input))
		mu.Unlock()
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		resp := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
			Usage  any    `json:"usage"`
		}{Object: "list", Model: req.Model, Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
		// Return items in reverse order to check that index is honoured.
		for i := len(req.Input) - 1; i >= 0; i-- {
			v := make([]float64, dim)
			v[0] = float64(len(req.Input[i]))
			for j := 1; j < dim; j++ {
				v[j] = float64(j)
			}
			resp.Data = append(resp.Data, item{"embedding", i, v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls, &batches
}

func TestOpenAIEmbedderBatchesAndNormalises(t *testing.T) {
	srv, _, batches := fakeEmbeddings(t, 4, nil)
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/"} {
		*batches = nil
		e, err := NewOpenAIEmbedder(OpenAIConfig{URL: base, Model: "test-embed", APIKey: "sk-secret-123", BatchSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
		vecs, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if len(vecs) != 5 || e.Dim() != 4 {
			t.Fatalf("got %d vectors, dim %d", len(vecs), e.Dim())
		}
		if got := *batches; len(got) != 3 || got[0] != 2 || got[2] != 1 {
			t.Fatalf("batches = %v, want [2 2 1]", got)
		}
		for i, v := range vecs {
			var n float64
			for _, x := range v {
				n += float64(x) * float64(x)
			}
			if math.Abs(n-1) > 1e-5 {
				t.Fatalf("vector %d not normalised: |v|²=%v", i, n)
			}
			want := float64(len(texts[i])) / math.Sqrt(float64(len(texts[i])*len(texts[i]))+1+4+9)
			if math.Abs(float64(v[0])-want) > 1e-5 {
				t.Fatalf("vector %d out of order: v[0]=%v want %v", i, v[0], want)
			}
		}
	}
}

func TestOpenAIEmbedderRetries(t *testing.T) {
	srv, calls, _ := fakeEmbeddings(t, 3, func(call int, w http.ResponseWriter) bool {
		switch call {
		case 1:
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		case 2:
			http.Error(w, "oops", http.StatusBadGateway)
			return true
		}
		return false
	})
	e, _ := NewOpenAIEmbedder(OpenAIConfig{URL: srv.URL, Model: "test-embed", APIKey: "sk-secret-123", Backoff: time.Millisecond})
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if *calls != 3 {
		t.Fatalf("calls = %d, want 3", *calls)
	}
}

func TestOpenAIEmbedderNoRetryOn4xxAndKeyNotLeaked(t *testing.T) {
	srv, calls, _ := fakeEmbeddings(t, 3, func(call int, w http.ResponseWriter) bool {
		http.Error(w, `{"error":{"message":"model not found; you sent Bearer sk-secret-123"}}`, http.StatusNotFound)
		return true
	})
	e, _ := NewOpenAIEmbedder(OpenAIConfig{URL: srv.URL, Model: "test-embed", APIKey: "sk-secret-123", Backoff: time.Millisecond})
	_, err := e.Embed(context.Background(), []string{"x"})
	if err == nil {
		t.Fatal("want error")
	}
	if *calls != 1 {
		t.Fatalf("calls = %d, want 1 (no retry on 404)", *calls)
	}
	if strings.Contains(err.Error(), "sk-secret-123") {
		t.Fatalf("API key leaked in error: %v", err)
	}
	if !strings.Contains(err.Error(), "404") {
		t.Fatalf("error should name the status: %v", err)
	}
}

func TestOpenAIEmbedderTimeoutRetriesThenFails(t *testing.T) {
	srv, calls, _ := fakeEmbeddings(t, 3, func(call int, w http.ResponseWriter) bool {
		time.Sleep(200 * time.Millisecond)
		return false
	})
	e, _ := NewOpenAIEmbedder(OpenAIConfig{URL: srv.URL, Model: "test-embed", APIKey: "sk-secret-123",
		Timeout: 20 * time.Millisecond, MaxRetries: 2, Backoff: time.Millisecond})
	_, err := e.Embed(context.Background(), []string{"x"})
	if err == nil {
		t.Fatal("want timeout error")
	}
	// Every attempt gave up at its own timeout, not the server's 200 ms:
	// the error is the client's deadline, after the first try and 2 retries.
	if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(err.Error(), "Timeout") && !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("want a timeout error, got %v", err)
	}
	if n := atomic.LoadInt32(calls); n != 3 {
		t.Fatalf("calls = %d, want 3", n)
	}
}

func TestOpenAIEmbedderDimensionCheck(t *testing.T) {
	srv, _, _ := fakeEmbeddings(t, 3, nil)
	e, _ := NewOpenAIEmbedder(OpenAIConfig{URL: srv.URL, Model: "test-embed", APIKey: "sk-secret-123", Dim: 8})
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "dimension") {
		t.Fatalf("want dimension error, got %v", err)
	}
}

func TestOpenAIEmbedderConfig(t *testing.T) {
	if _, err := NewOpenAIEmbedder(OpenAIConfig{Model: "m"}); err == nil {
		t.Fatal("missing URL accepted")
	}
	if _, err := NewOpenAIEmbedder(OpenAIConfig{URL: "http://x"}); err == nil {
		t.Fatal("missing model accepted")
	}
}
