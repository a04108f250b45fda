package llm

import (
	"fmt"
)

// New returns the named provider of cfg (openai, anthropic, langbase or
// sampling), wrapped with the retry policy of cfg. It fails when the
// provider is not configured, naming the variable to set.
func New(cfg Config, name string, sampler SamplingFunc) (Provider, error) {
	var p Provider
	switch name {
	case ProviderOpenAI:
		if !cfg.openAIConfigured() {
			return nil, fmt.Errorf("LLM provider openai is not configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server)")
		}
		p = NewOpenAI(cfg)
	case ProviderAnthropic:
		if cfg.Anthropic.APIKey == "" {
			return nil, fmt.Errorf("LLM provider anthropic is not configured: set ANTHROPIC_API_KEY")
		}
		p = NewAnthropic(cfg)
	case ProviderLangbase:
		if cfg.Langbase.APIKey == "" {
			return nil, fmt.Errorf("LLM provider langbase is not configured: set LANGBASE_API_KEY")
		}
		p = NewLangbase(cfg)
	case ProviderSampling:
		if sampler == nil {
			return nil, fmt.Errorf("LLM provider sampling is not available: the MCP client did not declare the sampling capability; set THINKGRAPH_LLM_PROVIDER to openai, anthropic or langbase and its API key instead")
		}
		p = NewSampling(cfg, sampler)
	default:
		return nil, fmt.Errorf("unknown LLM provider %q: THINKGRAPH_LLM_PROVIDER must be one of openai, anthropic, langbase, sampling", name)
	}
	// Aliases name API models; a sampling client takes the name as a hint
	// and a Langbase pipe chooses its own model.
	if len(cfg.ModelAliases) > 0 && (name == ProviderOpenAI || name == ProviderAnthropic) {
		p = withAliases{Provider: p, aliases: cfg.ModelAliases}
	}
	return WithRetry(p, cfg.retryPolicy()), nil
}

// SelectName returns the name of the provider [Select] would use:
// cfg.Provider when set, else the first configured of openai, anthropic
// and langbase, else sampling when hasSampler. It returns [ErrNoProvider]
// when there is none.
func SelectName(cfg Config, hasSampler bool) (string, error) {
	switch {
	case cfg.Provider != "":
		return cfg.Provider, nil
	case cfg.openAIConfigured():
		return ProviderOpenAI, nil
	case cfg.Anthropic.APIKey != "":
		return ProviderAnthropic, nil
	case cfg.Langbase.APIKey != "":
		return ProviderLangbase, nil
	case hasSampler:
		return ProviderSampling, nil
	}
	return "", ErrNoProvider
}

// Select returns the provider for general LLM calls (see [SelectName]),
// wrapped with the retry policy. sampler may be nil when the MCP client has
// no sampling capability.
func Select(cfg Config, sampler SamplingFunc) (Provider, error) {
	name, err := SelectName(cfg, sampler != nil)
	if err != nil {
		return nil, err
	}
	return New(cfg, name, sampler)
}

// ForReasoning returns the provider of the reasoning.* tools: Langbase
// pipes whenever LANGBASE_API_KEY is set (mcp-langbase-reasoning), otherwise [Select].
func ForReasoning(cfg Config, sampler SamplingFunc) (Provider, error) {
	if cfg.Langbase.APIKey != "" {
		return New(cfg, ProviderLangbase, sampler)
	}
	return Select(cfg, sampler)
}
