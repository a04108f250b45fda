package llm

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"testing"
)

const openAIOK = `{
  "id": "chatcmpl-abc", "object": "chat.completion", "created": 1720000000, "model": "gpt-4o-mini-2024-07-18",
  "choices": [{
    "index": 0,
    "message": {"role": "assistant", "content": "Hello there", "refusal": null},
    "logprobs": {"content": [
      {"token": "Hello", "logprob": -0.1, "bytes": [72,101,108,108,111], "top_logprobs": [
        {"token": "Hello", "logprob": -0.1, "bytes": null}, {"token": "Hi", "logprob": -2.5, "bytes": null}]},
      {"token": " there", "logprob": -0.7, "bytes": null, "top_logprobs": [
        {"token": " there", "logprob": -0.7, "bytes": null}]}
    ], "refusal": null},
    "finish_reason": "stop"
  }],
  "usage": {"prompt_tokens": 20, "completion_tokens": 2, "total_tokens": 22}
}`

func newTestOpenAI(cfg Config) Provider { return WithRetry(NewOpenAI(cfg), cfg.retryPolicy()) }

func TestOpenAIWireFormat(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, openAIOK))
	temp := 0.3
	resp, err := newTestOpenAI(testConfig(srv.URL)).Complete(context.Background(), Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "be brief"},
			{Role: RoleUser, Content: "hi"},
			{Role: RoleAssistant, Content: "hello"},
			{Role: RoleUser, Content: "again"},
		},
		Model:       "gpt-test",
		Temperature: &temp,
		MaxTokens:   50,
		Logprobs:    true,
		TopLogprobs: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if r.Method != "POST" || r.Path != "/v1/chat/completions" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if got := r.Header.Get("X-Stainless-Retry-Count"); got != "" && got != "0" {
		t.Errorf("SDK retry count header = %q", got)
	}
	// Not api.openai.com: the widely supported max_tokens.
	assertJSON(t, r.Body, `{
		"model": "gpt-test",
		"messages": [
			{"role": "system", "content": "be brief"},
			{"role": "user", "content": "hi"},
			{"role": "assistant", "content": "hello"},
			{"role": "user", "content": "again"}
		],
		"temperature": 0.3,
		"max_tokens": 50,
		"logprobs": true,
		"top_logprobs": 2
	}`)
	if resp.Content != "Hello there" || resp.Model != "gpt-4o-mini-2024-07-18" || resp.Provider != "openai" || resp.StopReason != "stop" {
		t.Errorf("resp = %+v", resp)
	}
	if resp.Usage == nil || *resp.Usage != (Usage{20, 2, 22}) {
		t.Errorf("Usage = %+v", resp.Usage)
	}
	want := []TokenLogprob{
		{Token: "Hello", Logprob: -0.1, Top: []TopLogprob{{"Hello", -0.1}, {"Hi", -2.5}}},
		{Token: " there", Logprob: -0.7, Top: []TopLogprob{{" there", -0.7}}},
	}
	if len(resp.Logprobs) != len(want) {
		t.Fatalf("Logprobs = %+v", resp.Logprobs)
	}
	for i, w := range want {
		g := resp.Logprobs[i]
		if g.Token != w.Token || math.Abs(g.Logprob-w.Logprob) > 1e-12 || len(g.Top) != len(w.Top) {
			t.Errorf("Logprobs[%d] = %+v, want %+v", i, g, w)
			continue
		}
		for j := range w.Top {
			if g.Top[j] != w.Top[j] {
				t.Errorf("Logprobs[%d].Top[%d] = %+v, want %+v", i, j, g.Top[j], w.Top[j])
			}
		}
	}
}

func TestOpenAIDefaultsMinimalBody(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`))
	cfg := testConfig(srv.URL)
	cfg.OpenAI.Model = "llama3.2"
	resp, err := newTestOpenAI(cfg).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	assertJSON(t, srv.requests()[0].Body, `{"model":"llama3.2","messages":[{"role":"user","content":"q"}]}`)
	if resp.Usage != nil || resp.Logprobs != nil || resp.Content != "ok" {
		t.Errorf("resp = %+v", resp)
	}
}

func TestOpenAIRetry(t *testing.T) {
	srv := newFakeServer(t,
		jsonReply(429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "0"),
		jsonReply(500, `Internal Server Error`),
		jsonReply(200, openAIOK))
	resp, err := newTestOpenAI(testConfig(srv.URL)).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 3 || len(srv.requests()) != 3 {
		t.Errorf("attempts %d, requests %d", resp.Attempts, len(srv.requests()))
	}
}

func TestOpenAISDKRetriesDisabled(t *testing.T) {
	srv := newFakeServer(t, jsonReply(500, `{"error":{"message":"boom"}}`))
	cfg := testConfig(srv.URL)
	_, err := NewOpenAI(cfg).Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "q"}}})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 || ae.Message != "boom" {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("bare provider made %d requests, want 1 (SDK retries must be off)", n)
	}
}

func TestOpenAINoRetryOn400(t *testing.T) {
	srv := newFakeServer(t, jsonReply(400, `{"error":{"message":"'messages' is required","type":"invalid_request_error","param":"messages","code":null}}`))
	_, err := newTestOpenAI(testConfig(srv.URL)).Complete(context.Background(), Request{})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Message != "invalid_request_error: 'messages' is required" {
		t.Fatalf("err = %v", err)
	}
	if ErrorKind(err) != KindAPI || len(srv.requests()) != 1 {
		t.Errorf("kind %q, %d requests", ErrorKind(err), len(srv.requests()))
	}
}

// redirect sends every request to the test server, whatever its host.
type redirect struct{ target *url.URL }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.target.Scheme, r.target.Host
	return http.DefaultTransport.RoundTrip(req)
}

func TestOpenAIOfficialUsesMaxCompletionTokens(t *testing.T) {
	srv := newFakeServer(t, jsonReply(200, openAIOK))
	target, _ := url.Parse(srv.URL)
	cfg := testConfig(srv.URL)
	cfg.OpenAI.BaseURL = DefaultOpenAIBaseURL
	cfg.HTTPClient = &http.Client{Transport: redirect{target}}
	if _, err := newTestOpenAI(cfg).Complete(context.Background(), Request{MaxTokens: 9, Messages: []Message{{Role: RoleUser, Content: "q"}}}); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path %s", r.Path)
	}
	assertJSON(t, r.Body, `{"model":"`+DefaultOpenAIModel+`","messages":[{"role":"user","content":"q"}],"max_completion_tokens":9}`)
}

func TestOpenAITimeout(t *testing.T)   { testTimeout(t, newTestOpenAI) }
func TestOpenAINoKeyLeak(t *testing.T) { testNoLeak(t, newTestOpenAI) }
func TestOpenAICancellation(t *testing.T) {
	testCancellation(t, func(url string) Provider { return newTestOpenAI(testConfig(url)) })
}
