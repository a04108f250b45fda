package llm

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

const langbaseOK = `{
  "success": true,
  "completion": "{\"thought\":\"SQL fits\",\"confidence\":0.9,\"metadata\":{}}",
  "raw": {
    "id": "chatcmpl-1", "object": "chat.completion", "created": 1720000000,
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ignored"}, "logprobs": null, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19},
    "system_fingerprint": null
  }
}`

func newTestLangbase(cfg Config) Provider { return WithRetry(NewLangbase(cfg), cfg.retryPolicy()) }

func TestLangbaseWireFormat(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, langbaseOK, "lb-thread-id", "thread-42"))
	p := newTestLangbase(testConfig(srv.URL))
	resp, err := p.Complete(context.Background(), Request{
		Messages: []Message{{Role: RoleSystem, Content: "System prompt..."}, {Role: RoleUser, Content: "User input"}},
		ThreadID: "session-uuid",
		Pipe:     "tree-reasoning-v1",
		Model:    "ignored-model",
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1/pipes/run" {
		t.Errorf("request %s %s, want POST /v1/pipes/run", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type = %q", got)
	}
	assertJSON(t, r.Body, `{"name":"tree-reasoning-v1","messages":[{"role":"system","content":"System prompt..."},{"role":"user","content":"User input"}],"stream":false,"threadId":"session-uuid"}`)

	if resp.Content != `{"thought":"SQL fits","confidence":0.9,"metadata":{}}` {
		t.Errorf("Content = %q", resp.Content)
	}
	if resp.Model != "gpt-4o-mini" || resp.Provider != "langbase" || resp.Pipe != "tree-reasoning-v1" || resp.ThreadID != "thread-42" || resp.StopReason != "stop" {
		t.Errorf("resp = %+v", resp)
	}
	if resp.Usage == nil || *resp.Usage != (Usage{12, 7, 19}) {
		t.Errorf("Usage = %+v", resp.Usage)
	}
	if resp.Attempts != 1 {
		t.Errorf("Attempts = %d", resp.Attempts)
	}
	var answer struct {
		Thought    string  `json:"thought"`
		Confidence float64 `json:"confidence"`
	}
	if err := ExtractJSON(resp.Content, &answer); err != nil || answer.Thought != "SQL fits" || answer.Confidence != 0.9 {
		t.Errorf("ExtractJSON = %+v, %v", answer, err)
	}
}

func TestLangbaseDefaultPipeAndNoThread(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, `{"success":true,"completion":"plain text","threadId":"t-body"}`))
	cfg := testConfig(srv.URL)
	cfg.Langbase.Pipes.Linear = "my-linear"
	resp, err := newTestLangbase(cfg).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, srv.requests()[0].Body, `{"name":"my-linear","messages":[{"role":"user","content":"x"}],"stream":false}`)
	if resp.Content != "plain text" || resp.Usage != nil || resp.ThreadID != "t-body" || resp.Pipe != "my-linear" {
		t.Errorf("resp = %+v", resp)
	}
}

func TestLangbaseRetryThenSuccess(t *testing.T) {
	srv := newFakeServer(t,
		jsonReply(500, `{"error":{"message":"boom"}}`),
		jsonReply(502, `bad gateway`),
		jsonReply(200, langbaseOK))
	var progress []string
	ctx := WithProgress(context.Background(), func(attempt int, msg string) { progress = append(progress, msg) })
	resp, err := newTestLangbase(testConfig(srv.URL)).Complete(ctx, Request{Messages: []Message{{Role: RoleUser, Content: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 3 || len(srv.requests()) != 3 {
		t.Errorf("attempts %d, requests %d, want 3", resp.Attempts, len(srv.requests()))
	}
	if len(progress) < 4 {
		t.Errorf("progress = %q, want calls per attempt and per retry", progress)
	}
}

func TestLangbaseUnavailableAfterRetries(t *testing.T) {
	srv := newFakeServer(t, jsonReply(503, `{"error":{"message":"down for maintenance"}}`))
	_, err := newTestLangbase(testConfig(srv.URL)).Complete(context.Background(), Request{})
	var ue *UnavailableError
	var ae *APIError
	if !errors.As(err, &ue) || !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T)", err, err)
	}
	if ErrorKind(err) != "LangbaseUnavailable" || ue.Attempts != 3 || ae.StatusCode != 503 || ae.Message != "down for maintenance" {
		t.Errorf("kind %q, %+v, %+v", ErrorKind(err), ue, ae)
	}
	if len(srv.requests()) != 3 {
		t.Errorf("%d requests, want 3", len(srv.requests()))
	}
}

func TestLangbaseNoRetryOn4xx(t *testing.T) {
	srv := newFakeServer(t, jsonReply(400, `{"error":{"status":400,"message":"Pipe not found"}}`))
	_, err := newTestLangbase(testConfig(srv.URL)).Complete(context.Background(), Request{})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Message != "Pipe not found" {
		t.Fatalf("err = %v", err)
	}
	if ErrorKind(err) != "ApiError" {
		t.Errorf("kind = %q", ErrorKind(err))
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestLangbaseRetryAfter(t *testing.T) {
	srv := newFakeServer(t,
		jsonReply(429, `{"error":{"message":"slow down"}}`, "Retry-After", "7"),
		jsonReply(503, `{}`, "Retry-After", time.Now().Add(90*time.Second).UTC().Format(http.TimeFormat)),
		jsonReply(200, langbaseOK))
	cfg := testConfig(srv.URL)
	pol := cfg.retryPolicy()
	pol.MaxDelay = 10 * time.Minute
	var waits []time.Duration
	pol.sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	if _, err := WithRetry(NewLangbase(cfg), pol).Complete(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	if len(waits) != 2 || waits[0] != 7*time.Second || waits[1] < 80*time.Second || waits[1] > 91*time.Second {
		t.Errorf("waits = %v, want [7s ~90s]", waits)
	}
}

func TestLangbaseTimeout(t *testing.T)   { testTimeout(t, newTestLangbase) }
func TestLangbaseNoKeyLeak(t *testing.T) { testNoLeak(t, newTestLangbase) }
func TestLangbaseCancellation(t *testing.T) {
	testCancellation(t, func(url string) Provider { return newTestLangbase(testConfig(url)) })
}

func TestLangbaseConnectionRefused(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, langbaseOK))
	url := srv.URL
	srv.Close()
	_, err := newTestLangbase(testConfig(url)).Complete(context.Background(), Request{})
	if ErrorKind(err) != KindUnavailable {
		t.Fatalf("err = %v, kind %q", err, ErrorKind(err))
	}
}
