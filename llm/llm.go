// Package llm is thinkgraph's language-model provider layer: Langbase pipes,
// OpenAI-compatible chat completions, Anthropic Messages and MCP sampling
// behind one small [Provider] interface, with configuration from the
// environment, provider selection, retries with backoff, typed errors,
// invocation records and a tolerant JSON extractor for model output.
//
// A typical caller builds a [Config] once with [ConfigFromEnv], then per call
// picks a provider with [Select] (or [ForReasoning] for the reasoning.* tools),
// wraps it with [Recording] and calls Complete:
//
//	cfg, err := llm.ConfigFromEnv(os.Getenv)
//	p, err := llm.ForReasoning(cfg, session.CreateMessage)
//	p = llm.Recording(p, store, "reasoning.linear", sessionID)
//	resp, err := p.Complete(llm.WithProgress(ctx, notify), llm.Request{...})
//	if err != nil { kind := llm.ErrorKind(err) /* LangbaseUnavailable | ProviderUnavailable | ApiError | Timeout */ }
package llm

import (
	"context"
	"time"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message. Role is one of [RoleSystem], [RoleUser] or
// [RoleAssistant].
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one completion request, independent of the provider.
type Request struct {
	// Messages is the conversation; system messages are mapped to each
	// provider's system prompt.
	Messages []Message `json:"messages"`
	// Model overrides the provider's default model. Langbase pipes choose
	// their own model and ignore it; MCP sampling passes it as a hint.
	Model string `json:"model,omitempty"`
	// Temperature, when set, is sent to providers that accept it.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens limits the answer; 0 means the provider default
	// (Config.MaxTokens for Anthropic and sampling, which require one).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Logprobs asks for token log-probabilities where the API offers them
	// (OpenAI-compatible chat completions).
	Logprobs bool `json:"logprobs,omitempty"`
	// TopLogprobs is the number of alternatives per token when Logprobs is
	// set; 0 means [DefaultTopLogprobs].
	TopLogprobs int `json:"top_logprobs,omitempty"`
	// ThreadID continues a Langbase thread (mcp-langbase-reasoning sends the session id).
	ThreadID string `json:"thread_id,omitempty"`
	// Pipe is the Langbase pipe to run; empty means Config.Langbase.Pipes.Linear.
	Pipe string `json:"pipe,omitempty"`
}

// DefaultTopLogprobs is the number of alternatives requested per token when
// Request.Logprobs is set and Request.TopLogprobs is 0.
const DefaultTopLogprobs = 5

// Usage is the token accounting of one completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// TopLogprob is one alternative token with its log-probability.
type TopLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// TokenLogprob is the log-probability of one generated token and, when
// requested, of the most likely alternatives at that position.
type TokenLogprob struct {
	Token   string       `json:"token"`
	Logprob float64      `json:"logprob"`
	Top     []TopLogprob `json:"top,omitempty"`
}

// Response is one completion.
type Response struct {
	// Content is the generated text.
	Content string `json:"content"`
	// Model is the model that answered, as reported by the provider (or the
	// requested one when the provider does not say).
	Model string `json:"model,omitempty"`
	// Provider is the provider's name: openai, anthropic, langbase or sampling.
	Provider string `json:"provider"`
	// Pipe is the Langbase pipe that ran, if any.
	Pipe string `json:"pipe,omitempty"`
	// ThreadID is the Langbase thread of the answer, if any.
	ThreadID string `json:"thread_id,omitempty"`
	// StopReason is the provider's reason for stopping, if reported.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage is nil when the provider does not report token usage.
	Usage *Usage `json:"usage,omitempty"`
	// Logprobs is nil unless requested and returned by the provider.
	Logprobs []TokenLogprob `json:"logprobs,omitempty"`
	// Latency is the wall time of the call including retries.
	Latency time.Duration `json:"latency"`
	// Attempts is the number of attempts made (1 without retries).
	Attempts int `json:"attempts,omitempty"`
}

// Provider completes chat requests with one language-model backend. The
// providers of this package are safe for concurrent use.
type Provider interface {
	// Name is the provider's short name: openai, anthropic, langbase or sampling.
	Name() string
	// Complete sends req and returns the answer. Cancelling ctx aborts the
	// call in flight.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Provider names, as accepted by THINKGRAPH_LLM_PROVIDER.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderLangbase  = "langbase"
	ProviderSampling  = "sampling"
)

// splitSystem returns the system messages joined by blank lines and the
// remaining conversation.
func splitSystem(msgs []Message) (string, []Message) {
	var sys string
	rest := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == RoleSystem {
			if sys != "" {
				sys += "\n\n"
			}
			sys += m.Content
			continue
		}
		rest = append(rest, m)
	}
	return sys, rest
}

// ProviderFunc returns a Provider named name that calls fn; handy for tests
// and adapters.
func ProviderFunc(name string, fn func(ctx context.Context, req Request) (Response, error)) Provider {
	return funcProvider{name: name, fn: fn}
}

type funcProvider struct {
	name string
	fn   func(ctx context.Context, req Request) (Response, error)
}

func (f funcProvider) Name() string { return f.name }

func (f funcProvider) Complete(ctx context.Context, req Request) (Response, error) {
	return f.fn(ctx, req)
}
