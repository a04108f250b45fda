package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Secret is a credential. It formats, logs and marshals as "[REDACTED]" (or
// "" when empty) so that a Config can be printed or logged safely; use
// string(s) to get the value.
type Secret string

const redacted = "[REDACTED]"

// String implements fmt.Stringer without revealing the secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString implements fmt.GoStringer without revealing the secret.
func (s Secret) GoString() string { return strconv.Quote(s.String()) }

// LogValue implements slog.LogValuer without revealing the secret.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText implements encoding.TextMarshaler without revealing the secret.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Default settings.
const (
	DefaultLangbaseBaseURL  = "https://api.langbase.com"
	DefaultOpenAIBaseURL    = "https://api.openai.com/v1"
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
	DefaultOpenAIModel      = "gpt-4o-mini"
	DefaultAnthropicModel   = "claude-sonnet-4-5"
	DefaultMaxTokens        = 4096
	DefaultTimeout          = 30 * time.Second
	DefaultMaxRetries       = 3
	DefaultRetryDelay       = time.Second

	DefaultPipeLinear     = "linear-reasoning-v1"
	DefaultPipeTree       = "tree-reasoning-v1"
	DefaultPipeDivergent  = "divergent-reasoning-v1"
	DefaultPipeReflection = "reflection-reasoning-v1"
)

// Pipes names the Langbase pipe of each reasoning mode.
type Pipes struct {
	Linear     string // PIPE_LINEAR
	Tree       string // PIPE_TREE
	Divergent  string // PIPE_DIVERGENT
	Reflection string // PIPE_REFLECTION
}

// LangbaseConfig configures the Langbase pipes provider.
type LangbaseConfig struct {
	APIKey  Secret // LANGBASE_API_KEY
	BaseURL string // LANGBASE_BASE_URL
	Pipes   Pipes
}

// OpenAIConfig configures the OpenAI-compatible provider.
type OpenAIConfig struct {
	APIKey  Secret // OPENAI_API_KEY
	BaseURL string // OPENAI_BASE_URL; also OpenRouter, Ollama, vLLM, LM Studio
	Model   string // OPENAI_MODEL
}

// AnthropicConfig configures the Anthropic Messages provider.
type AnthropicConfig struct {
	APIKey  Secret // ANTHROPIC_API_KEY
	BaseURL string // ANTHROPIC_BASE_URL
	Model   string // ANTHROPIC_MODEL
}

// Config holds every setting of the provider layer.
type Config struct {
	// Provider is the explicit choice (THINKGRAPH_LLM_PROVIDER): openai,
	// anthropic, langbase, sampling, or "" for automatic selection.
	Provider  string
	Langbase  LangbaseConfig
	OpenAI    OpenAIConfig
	Anthropic AnthropicConfig

	// ModelAliases maps a model name a tool is asked for to the model
	// requested from the provider: Lux MCP's aliases
	// ([DefaultModelAliases]), with THINKGRAPH_MODEL_ALIASES's pairs added
	// or replacing.
	ModelAliases map[string]string

	// MaxTokens is used when a request sets none and the API requires a
	// limit (Anthropic, MCP sampling).
	MaxTokens int
	// Timeout bounds each attempt (REQUEST_TIMEOUT_MS).
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt (MAX_RETRIES).
	MaxRetries int
	// RetryDelay is the first backoff delay, doubled per retry (RETRY_DELAY_MS).
	RetryDelay time.Duration

	// HTTPClient is used for all HTTP providers; nil means a client on
	// http.DefaultTransport. Not read from the environment.
	HTTPClient *http.Client
	// Logger receives retry warnings; nil means no logging. Secrets never
	// appear in its records. Not read from the environment.
	Logger *slog.Logger
}

// DefaultConfig returns the configuration with every default and no keys.
func DefaultConfig() Config {
	return Config{
		Langbase: LangbaseConfig{
			BaseURL: DefaultLangbaseBaseURL,
			Pipes: Pipes{
				Linear:     DefaultPipeLinear,
				Tree:       DefaultPipeTree,
				Divergent:  DefaultPipeDivergent,
				Reflection: DefaultPipeReflection,
			},
		},
		OpenAI:       OpenAIConfig{BaseURL: DefaultOpenAIBaseURL, Model: DefaultOpenAIModel},
		Anthropic:    AnthropicConfig{BaseURL: DefaultAnthropicBaseURL, Model: DefaultAnthropicModel},
		ModelAliases: DefaultModelAliases(),
		MaxTokens:    DefaultMaxTokens,
		Timeout:      DefaultTimeout,
		MaxRetries:   DefaultMaxRetries,
		RetryDelay:   DefaultRetryDelay,
	}
}

// ConfigFromEnv reads the configuration from environment variables through
// getenv (usually os.Getenv), starting from [DefaultConfig]. Empty variables
// keep the default. Every invalid value is reported, each error naming the
// variable and the expected form; key values are never echoed.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := DefaultConfig()
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var errs []error

	setString := func(dst *string, name string) {
		if v := get(name); v != "" {
			*dst = v
		}
	}
	setURL := func(dst *string, name string) {
		v := get(name)
		if v == "" {
			return
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s: want an absolute http(s) URL such as https://api.example.com, got %q", name, redactURL(v)))
			return
		}
		*dst = strings.TrimRight(v, "/")
	}
	setMillis := func(dst *time.Duration, name string, allowZero bool) {
		v := get(name)
		if v == "" {
			return
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || (n == 0 && !allowZero) || n > int64(24*time.Hour/time.Millisecond) {
			form := "a positive integer number of milliseconds"
			if allowZero {
				form = "a non-negative integer number of milliseconds"
			}
			errs = append(errs, fmt.Errorf("%s: want %s (at most 86400000), got %q", name, form, v))
			return
		}
		*dst = time.Duration(n) * time.Millisecond
	}

	cfg.Langbase.APIKey = Secret(get("LANGBASE_API_KEY"))
	setURL(&cfg.Langbase.BaseURL, "LANGBASE_BASE_URL")
	setString(&cfg.Langbase.Pipes.Linear, "PIPE_LINEAR")
	setString(&cfg.Langbase.Pipes.Tree, "PIPE_TREE")
	setString(&cfg.Langbase.Pipes.Divergent, "PIPE_DIVERGENT")
	setString(&cfg.Langbase.Pipes.Reflection, "PIPE_REFLECTION")

	cfg.OpenAI.APIKey = Secret(get("OPENAI_API_KEY"))
	setURL(&cfg.OpenAI.BaseURL, "OPENAI_BASE_URL")
	setString(&cfg.OpenAI.Model, "OPENAI_MODEL")

	cfg.Anthropic.APIKey = Secret(get("ANTHROPIC_API_KEY"))
	setURL(&cfg.Anthropic.BaseURL, "ANTHROPIC_BASE_URL")
	setString(&cfg.Anthropic.Model, "ANTHROPIC_MODEL")

	if v := strings.ToLower(get("THINKGRAPH_LLM_PROVIDER")); v != "" {
		switch v {
		case ProviderOpenAI, ProviderAnthropic, ProviderLangbase, ProviderSampling:
			cfg.Provider = v
		default:
			errs = append(errs, fmt.Errorf("THINKGRAPH_LLM_PROVIDER: want one of openai, anthropic, langbase, sampling, got %q", v))
		}
	}

	if v := get("THINKGRAPH_MODEL_ALIASES"); v != "" {
		if over, err := ParseModelAliases(v); err != nil {
			errs = append(errs, err)
		} else {
			cfg.ModelAliases = mergeAliases(cfg.ModelAliases, over)
		}
	}

	setMillis(&cfg.Timeout, "REQUEST_TIMEOUT_MS", false)
	setMillis(&cfg.RetryDelay, "RETRY_DELAY_MS", true)
	if v := get("MAX_RETRIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 100 {
			errs = append(errs, fmt.Errorf("MAX_RETRIES: want an integer from 0 to 100, got %q", v))
		} else {
			cfg.MaxRetries = n
		}
	}
	return cfg, errors.Join(errs...)
}

// openAIConfigured reports whether the OpenAI-compatible provider can be
// used: an API key, or a non-default base URL (local servers such as Ollama
// need no key).
func (c Config) openAIConfigured() bool {
	return c.OpenAI.APIKey != "" || (c.OpenAI.BaseURL != "" && c.OpenAI.BaseURL != DefaultOpenAIBaseURL)
}

func (c Config) retryPolicy() RetryPolicy {
	return RetryPolicy{
		Timeout:    c.Timeout,
		MaxRetries: c.MaxRetries,
		Delay:      c.RetryDelay,
		Logger:     c.Logger,
	}
}

func (c Config) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return &http.Client{}
}

func (c Config) maxTokens(req Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	if c.MaxTokens > 0 {
		return c.MaxTokens
	}
	return DefaultMaxTokens
}

// redactURL removes user information and the query from a URL so that
// credentials embedded in it are not echoed.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "<unparsable URL>"
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = redacted
	}
	return u.String()
}
