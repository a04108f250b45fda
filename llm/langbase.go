package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Langbase runs Langbase pipes: POST {BaseURL}/v1/pipes/run.
type Langbase struct {
	apiKey  Secret
	baseURL string
	pipe    string // default pipe
	client  *http.Client
}

// NewLangbase returns the Langbase pipes provider of cfg. It does no retries
// of its own; [Select] and [ForReasoning] wrap it with [WithRetry].
func NewLangbase(cfg Config) *Langbase {
	base := cfg.Langbase.BaseURL
	if base == "" {
		base = DefaultLangbaseBaseURL
	}
	pipe := cfg.Langbase.Pipes.Linear
	if pipe == "" {
		pipe = DefaultPipeLinear
	}
	return &Langbase{apiKey: cfg.Langbase.APIKey, baseURL: strings.TrimRight(base, "/"), pipe: pipe, client: cfg.httpClient()}
}

// Name returns "langbase".
func (l *Langbase) Name() string { return ProviderLangbase }

type langbaseRunRequest struct {
	Name     string    `json:"name"`
	Messages []Message `json:"messages"`
	Stream   bool      `json:"stream"`
	ThreadID string    `json:"threadId,omitempty"`
}

type langbaseRunResponse struct {
	Success    *bool  `json:"success"`
	Completion string `json:"completion"`
	ThreadID   string `json:"threadId"`
	Raw        *struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
			TotalTokens      int `json:"total_tokens"`
		} `json:"usage"`
	} `json:"raw"`
}

// Complete runs the pipe req.Pipe (default PIPE_LINEAR) with req.Messages
// and req.ThreadID. Model, temperature and token limits belong to the pipe.
func (l *Langbase) Complete(ctx context.Context, req Request) (Response, error) {
	pipe := req.Pipe
	if pipe == "" {
		pipe = l.pipe
	}
	msgs := req.Messages
	if msgs == nil {
		msgs = []Message{}
	}
	body, err := json.Marshal(langbaseRunRequest{Name: pipe, Messages: msgs, Stream: false, ThreadID: req.ThreadID})
	if err != nil {
		return Response{}, fmt.Errorf("langbase: encode request: %w", err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, l.baseURL+"/v1/pipes/run", bytes.NewReader(body))
	if err != nil {
		return Response{}, &plainError{msg: "langbase: " + redact(err.Error(), l.apiKey)}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+string(l.apiKey))

	hresp, err := l.client.Do(hreq)
	if err != nil {
		return Response{}, wrapTransport(ProviderLangbase, err, l.apiKey)
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, 16<<20))
	if err != nil {
		return Response{}, wrapTransport(ProviderLangbase, err, l.apiKey)
	}
	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		return Response{}, &APIError{
			Provider:   ProviderLangbase,
			StatusCode: hresp.StatusCode,
			Message:    apiErrorMessage(data, l.apiKey),
			RetryAfter: retryAfter(hresp.Header),
		}
	}
	var out langbaseRunResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return Response{}, &APIError{Provider: ProviderLangbase, StatusCode: hresp.StatusCode,
			Message: "response is not the pipe run JSON: " + truncate(redact(string(data), l.apiKey), 200)}
	}
	if out.Success != nil && !*out.Success {
		return Response{}, &APIError{Provider: ProviderLangbase, StatusCode: hresp.StatusCode, Message: apiErrorMessage(data, l.apiKey)}
	}
	resp := Response{
		Content:  out.Completion,
		Provider: ProviderLangbase,
		Pipe:     pipe,
		ThreadID: hresp.Header.Get("lb-thread-id"),
	}
	if resp.ThreadID == "" {
		resp.ThreadID = out.ThreadID
	}
	if out.Raw != nil {
		resp.Model = out.Raw.Model
		if len(out.Raw.Choices) > 0 {
			if resp.Content == "" {
				resp.Content = out.Raw.Choices[0].Message.Content
			}
			resp.StopReason = out.Raw.Choices[0].FinishReason
		}
		if u := out.Raw.Usage; u != nil {
			resp.Usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
			if resp.Usage.TotalTokens == 0 {
				resp.Usage.TotalTokens = u.PromptTokens + u.CompletionTokens
			}
		}
	}
	return resp, nil
}

// retryAfter reads retry-after-ms (used by OpenAI and Anthropic) or
// Retry-After (seconds or HTTP date).
func retryAfter(h http.Header) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		var ms float64
		if _, err := fmt.Sscanf(v, "%g", &ms); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	return parseRetryAfter(h, time.Now())
}
