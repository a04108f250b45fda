package llm

import (
	"context"
	"errors"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic calls the Anthropic Messages API through the official SDK.
type Anthropic struct {
	client    anthropic.Client
	apiKey    Secret
	model     string
	maxTokens int
}

// NewAnthropic returns the Anthropic provider of cfg, with the SDK's own
// retries and environment defaults disabled (see [WithRetry]).
func NewAnthropic(cfg Config) *Anthropic {
	base := cfg.Anthropic.BaseURL
	if base == "" {
		base = DefaultAnthropicBaseURL
	}
	model := cfg.Anthropic.Model
	if model == "" {
		model = DefaultAnthropicModel
	}
	c := anthropic.NewClient(
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base),
		option.WithAPIKey(string(cfg.Anthropic.APIKey)),
		option.WithHTTPClient(cfg.httpClient()),
		option.WithMaxRetries(0),
	)
	return &Anthropic{client: c, apiKey: cfg.Anthropic.APIKey, model: model, maxTokens: cfg.maxTokens(Request{})}
}

// Name returns "anthropic".
func (a *Anthropic) Name() string { return ProviderAnthropic }

// Complete sends one Messages request; system messages become the system
// prompt. Anthropic returns no token log-probabilities.
func (a *Anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	model := req.Model
	if model == "" {
		model = a.model
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = a.maxTokens
	}
	sys, conv := splitSystem(req.Messages)
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: int64(maxTokens),
	}
	if sys != "" {
		params.System = []anthropic.TextBlockParam{{Text: sys}}
	}
	for _, m := range conv {
		if m.Role == RoleAssistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Content)))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Content)))
		}
	}
	if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	msg, err := a.client.Messages.New(ctx, params)
	if err != nil {
		return Response{}, a.mapError(err)
	}
	var text strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	resp := Response{
		Content:    text.String(),
		Model:      string(msg.Model),
		Provider:   ProviderAnthropic,
		StopReason: string(msg.StopReason),
	}
	if resp.Model == "" {
		resp.Model = model
	}
	if msg.JSON.Usage.Valid() {
		in := int(msg.Usage.InputTokens + msg.Usage.CacheCreationInputTokens + msg.Usage.CacheReadInputTokens)
		out := int(msg.Usage.OutputTokens)
		resp.Usage = &Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}
	}
	return resp, nil
}

func (a *Anthropic) mapError(err error) error {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		e := &APIError{Provider: ProviderAnthropic, StatusCode: apiErr.StatusCode}
		e.Message = sdkErrorBody(apiErr.Response, "", a.apiKey)
		if e.Message == "" {
			e.Message = apiErrorMessage([]byte(apiErr.RawJSON()), a.apiKey)
		}
		if apiErr.Response != nil {
			e.RetryAfter = retryAfter(apiErr.Response.Header)
		}
		return e
	}
	return wrapTransport(ProviderAnthropic, err, a.apiKey)
}
