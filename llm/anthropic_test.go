package llm

import (
	"context"
	"errors"
	"testing"
)

const anthropicOK = `{
  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
  "content": [{"type": "text", "text": "Hello"}, {"type": "text", "text": " world"}],
  "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": 15, "output_tokens": 4, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}`

func newTestAnthropic(cfg Config) Provider { return WithRetry(NewAnthropic(cfg), cfg.retryPolicy()) }

func TestAnthropicWireFormat(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, anthropicOK))
	temp := 0.5
	resp, err := newTestAnthropic(testConfig(srv.URL)).Complete(context.Background(), Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "sys one"},
			{Role: RoleUser, Content: "hi"},
			{Role: RoleAssistant, Content: "hello"},
			{Role: RoleSystem, Content: "sys two"},
			{Role: RoleUser, Content: "again"},
		},
		Model:       "claude-test",
		Temperature: &temp,
		MaxTokens:   100,
		Logprobs:    true, // not offered by the API: ignored
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if r.Method != "POST" || r.Path != "/v1/messages" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("X-Api-Key"); got != testKey {
		t.Errorf("x-api-key = %q", got)
	}
	if got := r.Header.Get("Anthropic-Version"); got != "2023-06-01" {
		t.Errorf("anthropic-version = %q", got)
	}
	if got := r.Header.Get("Authorization"); got != "" {
		t.Errorf("unexpected Authorization header %q", got)
	}
	assertJSON(t, r.Body, `{
		"model": "claude-test",
		"max_tokens": 100,
		"system": [{"type": "text", "text": "sys one\n\nsys two"}],
		"messages": [
			{"role": "user", "content": [{"type": "text", "text": "hi"}]},
			{"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
			{"role": "user", "content": [{"type": "text", "text": "again"}]}
		],
		"temperature": 0.5
	}`)
	if resp.Content != "Hello world" || resp.Model != "claude-sonnet-4-5-20250929" || resp.Provider != "anthropic" || resp.StopReason != "end_turn" {
		t.Errorf("resp = %+v", resp)
	}
	if resp.Usage == nil || *resp.Usage != (Usage{15, 4, 19}) {
		t.Errorf("Usage = %+v", resp.Usage)
	}
	if resp.Logprobs != nil {
		t.Errorf("Logprobs = %v", resp.Logprobs)
	}
}

func TestAnthropicDefaults(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, anthropicOK))
	cfg := testConfig(srv.URL)
	cfg.MaxTokens = 321
	if _, err := newTestAnthropic(cfg).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}}); err != nil {
		t.Fatal(err)
	}
	assertJSON(t, srv.requests()[0].Body, `{"model":"`+DefaultAnthropicModel+`","max_tokens":321,"messages":[{"role":"user","content":[{"type":"text","text":"q"}]}]}`)
}

func TestAnthropicRetryOverloaded(t *testing.T) {
	srv := newFakeServer(t,
		jsonReply(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "retry-after", "0"),
		jsonReply(200, anthropicOK))
	resp, err := newTestAnthropic(testConfig(srv.URL)).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 2 {
		t.Errorf("Attempts = %d", resp.Attempts)
	}
}

func TestAnthropicNoRetryOn400(t *testing.T) {
	srv := newFakeServer(t, jsonReply(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: field required"}}`))
	_, err := newTestAnthropic(testConfig(srv.URL)).Complete(context.Background(), Request{})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Message != "invalid_request_error: max_tokens: field required" {
		t.Fatalf("err = %v", err)
	}
	if len(srv.requests()) != 1 {
		t.Errorf("%d requests", len(srv.requests()))
	}
}

func TestAnthropicSDKRetriesDisabled(t *testing.T) {
	srv := newFakeServer(t, jsonReply(500, `{"type":"error","error":{"type":"api_error","message":"boom"}}`))
	_, err := NewAnthropic(testConfig(srv.URL)).Complete(context.Background(), Request{})
	if err == nil || len(srv.requests()) != 1 {
		t.Fatalf("err %v, %d requests", err, len(srv.requests()))
	}
}

func TestAnthropicTimeout(t *testing.T)   { testTimeout(t, newTestAnthropic) }
func TestAnthropicNoKeyLeak(t *testing.T) { testNoLeak(t, newTestAnthropic) }
func TestAnthropicCancellation(t *testing.T) {
	testCancellation(t, func(url string) Provider { return newTestAnthropic(testConfig(url)) })
}
