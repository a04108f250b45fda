package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func fakeSampler(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "x"}}, nil
}

func TestSelect(t *testing.T) {
	base := DefaultConfig()
	with := func(f func(*Config)) Config { c := base; f(&c); return c }
	for _, tc := range []struct {
		name      string
		cfg       Config
		sampler   SamplingFunc
		general   string
		reasoning string
	}{
		{"openai first", with(func(c *Config) { c.OpenAI.APIKey = "k"; c.Anthropic.APIKey = "k"; c.Langbase.APIKey = "k" }), nil, "openai", "langbase"},
		{"local openai without key", with(func(c *Config) { c.OpenAI.BaseURL = "http://localhost:11434/v1" }), fakeSampler, "openai", "openai"},
		{"anthropic", with(func(c *Config) { c.Anthropic.APIKey = "k" }), fakeSampler, "anthropic", "anthropic"},
		{"langbase only", with(func(c *Config) { c.Langbase.APIKey = "k" }), nil, "langbase", "langbase"},
		{"sampling", base, fakeSampler, "sampling", "sampling"},
		{"explicit", with(func(c *Config) { c.Provider = "sampling"; c.OpenAI.APIKey = "k"; c.Langbase.APIKey = "k" }), fakeSampler, "sampling", "langbase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Select(tc.cfg, tc.sampler)
			if err != nil || p.Name() != tc.general {
				t.Errorf("Select = %v, %v; want %s", p, err, tc.general)
			}
			p, err = ForReasoning(tc.cfg, tc.sampler)
			if err != nil || p.Name() != tc.reasoning {
				t.Errorf("ForReasoning = %v, %v; want %s", p, err, tc.reasoning)
			}
		})
	}
}

func TestSelectNoProvider(t *testing.T) {
	_, err := Select(DefaultConfig(), nil)
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("err = %v", err)
	}
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "LANGBASE_API_KEY", "sampling"} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("message lacks %s: %v", v, err)
		}
	}
	if _, err := ForReasoning(DefaultConfig(), nil); !errors.Is(err, ErrNoProvider) {
		t.Errorf("ForReasoning err = %v", err)
	}
}

func TestSelectExplicitNotConfigured(t *testing.T) {
	for name, want := range map[string]string{
		"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "langbase": "LANGBASE_API_KEY", "sampling": "sampling capability",
	} {
		cfg := DefaultConfig()
		cfg.Provider = name
		_, err := Select(cfg, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want mention of %s", name, err, want)
		}
	}
	if _, err := New(DefaultConfig(), "gemini", nil); err == nil {
		t.Error("unknown provider accepted")
	}
}
