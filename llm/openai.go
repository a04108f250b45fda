package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// OpenAI calls an OpenAI-compatible chat completions API (OpenAI,
// OpenRouter, Ollama, vLLM, LM Studio...) through the official SDK.
type OpenAI struct {
	client   openai.Client
	apiKey   Secret
	model    string
	official bool // api.openai.com: uses max_completion_tokens
}

// NewOpenAI returns the OpenAI-compatible provider of cfg, with the SDK's
// own retries disabled (see [WithRetry]).
func NewOpenAI(cfg Config) *OpenAI {
	base := cfg.OpenAI.BaseURL
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	model := cfg.OpenAI.Model
	if model == "" {
		model = DefaultOpenAIModel
	}
	official := false
	if u, err := url.Parse(base); err == nil {
		official = strings.EqualFold(u.Hostname(), "api.openai.com")
	}
	c := openai.NewClient(
		option.WithBaseURL(base),
		option.WithAPIKey(string(cfg.OpenAI.APIKey)),
		option.WithHTTPClient(cfg.httpClient()),
		option.WithMaxRetries(0),
	)
	return &OpenAI{client: c, apiKey: cfg.OpenAI.APIKey, model: model, official: official}
}

// Name returns "openai".
func (o *OpenAI) Name() string { return ProviderOpenAI }

// Complete sends one chat completion. With req.Logprobs it asks for
// logprobs and top_logprobs and returns them.
func (o *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	model := req.Model
	if model == "" {
		model = o.model
	}
	// The SDK's encoding of the request (reflection over its parameter
	// types) costs more than the rest of the call: the request is encoded
	// here, to the same bytes (see TestChatRequestBodyMatchesSDK), and the
	// SDK sends it as it is.
	if body, ok := o.chatRequestBody(model, req); ok {
		return o.send(ctx, model, req, openai.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body))
	}
	return o.send(ctx, model, req, o.chatParams(model, req))
}

// chatParams returns the SDK's parameters of req.
func (o *OpenAI) chatParams(model string, req Request) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{Model: model}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			params.Messages = append(params.Messages, openai.SystemMessage(m.Content))
		case RoleAssistant:
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		default:
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if o.official {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			// Most compatible servers know only max_tokens.
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	if req.Logprobs {
		top := req.TopLogprobs
		if top <= 0 {
			top = DefaultTopLogprobs
		}
		params.Logprobs = openai.Bool(true)
		params.TopLogprobs = openai.Int(int64(min(top, 20)))
	}
	return params
}

// chatMessage and chatRequest are the JSON of the requests Complete sends,
// with the SDK's member order; omitempty stands for the SDK's omitzero.
type chatMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"`
}

type chatRequest struct {
	Messages            []chatMessage `json:"messages,omitempty"`
	Model               string        `json:"model,omitempty"`
	Logprobs            bool          `json:"logprobs,omitempty"`
	MaxCompletionTokens int64         `json:"max_completion_tokens,omitempty"`
	MaxTokens           int64         `json:"max_tokens,omitempty"`
	Temperature         *float64      `json:"temperature,omitempty"`
	TopLogprobs         int64         `json:"top_logprobs,omitempty"`
}

// chatRequestBody encodes the request chatParams describes as the SDK
// does; ok is false for what it leaves to the SDK (a message without
// content, which the SDK writes in its own way).
func (o *OpenAI) chatRequestBody(model string, req Request) (body []byte, ok bool) {
	r := chatRequest{Model: model, Messages: make([]chatMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		if m.Content == "" {
			return nil, false
		}
		role := "user"
		switch m.Role {
		case RoleSystem:
			role = "system"
		case RoleAssistant:
			role = "assistant"
		}
		r.Messages = append(r.Messages, chatMessage{Content: m.Content, Role: role})
	}
	if len(r.Messages) == 0 {
		r.Messages = nil
	}
	r.Temperature = req.Temperature
	if req.MaxTokens > 0 {
		if o.official {
			r.MaxCompletionTokens = int64(req.MaxTokens)
		} else {
			r.MaxTokens = int64(req.MaxTokens)
		}
	}
	if req.Logprobs {
		top := req.TopLogprobs
		if top <= 0 {
			top = DefaultTopLogprobs
		}
		r.Logprobs = true
		r.TopLogprobs = int64(min(top, 20))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, false
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}

// send runs the request and reads the response.
func (o *OpenAI) send(ctx context.Context, model string, req Request, params openai.ChatCompletionNewParams, opts ...option.RequestOption) (Response, error) {
	// The SDK reads the body; it is decoded here, into only the fields
	// used, which costs a fraction of the SDK's own decoding (most of all
	// with log-probabilities).
	var body []byte
	var httpResp *http.Response
	opts = append(opts, option.WithResponseInto(&httpResp), option.WithResponseBodyInto(&body))
	if _, err := o.client.Chat.Completions.New(ctx, params, opts...); err != nil {
		return Response{}, o.mapError(err)
	}
	cc, err := decodeChatCompletion(httpResp, body)
	if err != nil {
		return Response{}, o.mapError(err)
	}
	if len(cc.Choices) == 0 {
		return Response{}, &APIError{Provider: ProviderOpenAI, StatusCode: 200, Message: "response has no choices"}
	}
	ch := cc.Choices[0]
	resp := Response{
		Content:    ch.Message.Content,
		Model:      cc.Model,
		Provider:   ProviderOpenAI,
		StopReason: ch.FinishReason,
	}
	if resp.Model == "" {
		resp.Model = model
	}
	if cc.Usage != nil {
		resp.Usage = &Usage{
			PromptTokens:     int(cc.Usage.PromptTokens),
			CompletionTokens: int(cc.Usage.CompletionTokens),
			TotalTokens:      int(cc.Usage.TotalTokens),
		}
	}
	if req.Logprobs {
		for _, t := range ch.Logprobs.Content {
			tl := TokenLogprob{Token: t.Token, Logprob: t.Logprob}
			for _, a := range t.TopLogprobs {
				tl.Top = append(tl.Top, TopLogprob{Token: a.Token, Logprob: a.Logprob})
			}
			resp.Logprobs = append(resp.Logprobs, tl)
		}
	}
	return resp, nil
}

func (o *OpenAI) mapError(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		e := &APIError{Provider: ProviderOpenAI, StatusCode: apiErr.StatusCode}
		e.Message = sdkErrorBody(apiErr.Response, apiErr.RawJSON(), o.apiKey)
		if apiErr.Response != nil {
			e.RetryAfter = retryAfter(apiErr.Response.Header)
		}
		return e
	}
	return wrapTransport(ProviderOpenAI, err, o.apiKey)
}

// chatCompletion holds the fields of a chat completion response that
// Complete uses.
type chatCompletion struct {
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	// Usage is nil when the response has none.
	Usage *chatUsage `json:"usage"`
}

type chatChoice struct {
	FinishReason string `json:"finish_reason"`
	Message      struct {
		Content string `json:"content"`
	} `json:"message"`
	Logprobs struct {
		Content []chatTokenLogprob `json:"content"`
	} `json:"logprobs"`
}

type chatTokenLogprob struct {
	Token       string           `json:"token"`
	Logprob     float64          `json:"logprob"`
	TopLogprobs []chatTopLogprob `json:"top_logprobs"`
}

type chatTopLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

type chatUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// decodeChatCompletion decodes a successful response's body. A well-formed
// body (valid UTF-8, every field of the expected JSON type) is decoded with
// encoding/json into only the fields used; any other goes through the SDK's
// own lenient decoder, so the result is always the one the SDK gives.
func decodeChatCompletion(resp *http.Response, body []byte) (*chatCompletion, error) {
	if resp != nil {
		contentType := resp.Header.Get("content-type")
		mediaType, _, _ := mime.ParseMediaType(contentType)
		if !strings.Contains(mediaType, "application/json") && !strings.HasSuffix(mediaType, "+json") {
			return nil, fmt.Errorf("expected destination type of 'string' or '[]byte' for responses with content-type '%s' that is not 'application/json'", contentType)
		}
	}
	if utf8.Valid(body) {
		var cc chatCompletion
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&cc); err == nil {
			return &cc, nil
		}
	}
	return sdkChatCompletion(body)
}

// sdkChatCompletion decodes body with the SDK's decoder.
func sdkChatCompletion(body []byte) (*chatCompletion, error) {
	var sdk openai.ChatCompletion
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&sdk); err != nil {
		return nil, fmt.Errorf("error parsing response json: %w", err)
	}
	cc := &chatCompletion{Model: sdk.Model}
	for _, ch := range sdk.Choices {
		c := chatChoice{FinishReason: ch.FinishReason}
		c.Message.Content = ch.Message.Content
		for _, t := range ch.Logprobs.Content {
			tl := chatTokenLogprob{Token: t.Token, Logprob: t.Logprob}
			for _, a := range t.TopLogprobs {
				tl.TopLogprobs = append(tl.TopLogprobs, chatTopLogprob{Token: a.Token, Logprob: a.Logprob})
			}
			c.Logprobs.Content = append(c.Logprobs.Content, tl)
		}
		cc.Choices = append(cc.Choices, c)
	}
	if sdk.JSON.Usage.Valid() {
		cc.Usage = &chatUsage{PromptTokens: sdk.Usage.PromptTokens, CompletionTokens: sdk.Usage.CompletionTokens, TotalTokens: sdk.Usage.TotalTokens}
	}
	return cc, nil
}
