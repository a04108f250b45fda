package llm

import (
	"context"
	"errors"
	"net/url"
	"strings"

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
	cc, err := o.client.Chat.Completions.New(ctx, params)
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
	if cc.JSON.Usage.Valid() {
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
