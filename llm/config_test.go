package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnvDefaults(t *testing.T) {
	cfg, err := ConfigFromEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	if fmt.Sprint(cfg) != fmt.Sprint(want) {
		t.Errorf("cfg = %+v\nwant %+v", cfg, want)
	}
	if cfg.Timeout != 30*time.Second || cfg.MaxRetries != 3 || cfg.RetryDelay != time.Second ||
		cfg.Langbase.BaseURL != "https://api.langbase.com" || cfg.Langbase.Pipes.Linear != "linear-reasoning-v1" ||
		cfg.Langbase.Pipes.Tree != "tree-reasoning-v1" || cfg.Provider != "" {
		t.Errorf("defaults = %+v", cfg)
	}
}

func TestConfigFromEnvAll(t *testing.T) {
	cfg, err := ConfigFromEnv(envOf(map[string]string{
		"LANGBASE_API_KEY":        "lb-key",
		"LANGBASE_BASE_URL":       "https://lb.example.com/",
		"PIPE_LINEAR":             "l1",
		"PIPE_TREE":               "t1",
		"PIPE_DIVERGENT":          "d1",
		"PIPE_REFLECTION":         "r1",
		"OPENAI_API_KEY":          "oa-key",
		"OPENAI_BASE_URL":         "http://localhost:11434/v1",
		"OPENAI_MODEL":            "llama3.2",
		"ANTHROPIC_API_KEY":       "an-key",
		"ANTHROPIC_BASE_URL":      "https://proxy.example.com",
		"ANTHROPIC_MODEL":         "claude-x",
		"THINKGRAPH_LLM_PROVIDER": " Anthropic ",
		"REQUEST_TIMEOUT_MS":      "1500",
		"MAX_RETRIES":             "0",
		"RETRY_DELAY_MS":          "0",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Langbase.APIKey != "lb-key" || cfg.Langbase.BaseURL != "https://lb.example.com" ||
		cfg.Langbase.Pipes != (Pipes{"l1", "t1", "d1", "r1"}) ||
		cfg.OpenAI != (OpenAIConfig{"oa-key", "http://localhost:11434/v1", "llama3.2"}) ||
		cfg.Anthropic != (AnthropicConfig{"an-key", "https://proxy.example.com", "claude-x"}) ||
		cfg.Provider != "anthropic" || cfg.Timeout != 1500*time.Millisecond || cfg.MaxRetries != 0 || cfg.RetryDelay != 0 {
		t.Errorf("cfg = %#v", cfg)
	}
}

func TestConfigFromEnvInvalid(t *testing.T) {
	_, err := ConfigFromEnv(envOf(map[string]string{
		"THINKGRAPH_LLM_PROVIDER": "gemini",
		"REQUEST_TIMEOUT_MS":      "30s",
		"MAX_RETRIES":             "-1",
		"RETRY_DELAY_MS":          "soon",
		"OPENAI_BASE_URL":         "localhost:11434",
		"LANGBASE_BASE_URL":       "ftp://x",
		"ANTHROPIC_BASE_URL":      "https://user:pw@/nohost?key=abc",
	}))
	if err == nil {
		t.Fatal("want error")
	}
	msg := err.Error()
	for _, want := range []string{
		"THINKGRAPH_LLM_PROVIDER: want one of openai, anthropic, langbase, sampling",
		"REQUEST_TIMEOUT_MS: want a positive integer number of milliseconds",
		"MAX_RETRIES: want an integer from 0 to 100",
		"RETRY_DELAY_MS: want a non-negative integer number of milliseconds",
		"OPENAI_BASE_URL: want an absolute http(s) URL",
		"LANGBASE_BASE_URL: want an absolute http(s) URL",
		"ANTHROPIC_BASE_URL: want an absolute http(s) URL",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "pw") || strings.Contains(msg, "abc") {
		t.Errorf("error echoes URL credentials: %s", msg)
	}
	if _, err := ConfigFromEnv(envOf(map[string]string{"REQUEST_TIMEOUT_MS": "0"})); err == nil {
		t.Error("REQUEST_TIMEOUT_MS=0 accepted")
	}
}

func TestSecretNeverPrinted(t *testing.T) {
	cfg := DefaultConfig()
	cfg.OpenAI.APIKey = testKey
	cfg.Anthropic.APIKey = testKey
	cfg.Langbase.APIKey = testKey
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "cfg", cfg, "key", cfg.OpenAI.APIKey)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "cfg", cfg, "key", cfg.OpenAI.APIKey)
	j, _ := json.Marshal(cfg)
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v %#v %s %q", cfg, cfg, cfg.OpenAI.APIKey, cfg.OpenAI.APIKey), buf.String(), string(j)} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("secret printed: %s", s)
		}
	}
	if string(cfg.OpenAI.APIKey) != testKey {
		t.Error("value lost")
	}
}

func TestModelAliases(t *testing.T) {
	cfg, err := ConfigFromEnv(envOf(map[string]string{"THINKGRAPH_MODEL_ALIASES": " opus=claude-opus-4-1 , fast=gpt-4.1-nano"}))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"opus": "claude-opus-4-1", "fast": "gpt-4.1-nano", // configured
		"gpt4": "gpt-4", "GPT4": "gpt-4", "4": "gpt-4", "mini": "gpt-4o-mini", "4omini": "gpt-4o-mini", // Lux MCP's
		"claude": "anthropic/claude-4-sonnet", "sonnet": "anthropic/claude-4-sonnet", "claude-3.5": "anthropic/claude-3.5-sonnet",
		"claude-3.5-sonnet-20241022": "anthropic/claude-3.5-sonnet", "gemini-flash": "google/gemini-2.5-flash",
		"gpt-4o-2024-08-06": "gpt-4o-2024-08-06", "meta-llama/llama-3-70b": "meta-llama/llama-3-70b", "": "", // not aliases
	} {
		if got := ResolveModel(cfg.ModelAliases, in); got != want {
			t.Errorf("ResolveModel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ResolveModel(DefaultModelAliases(), "opus"); got != "anthropic/claude-4.1-opus" {
		t.Errorf("default opus = %q", got)
	}
	_, err = ConfigFromEnv(envOf(map[string]string{"THINKGRAPH_MODEL_ALIASES": "opus"}))
	if err == nil || !strings.Contains(err.Error(), "THINKGRAPH_MODEL_ALIASES: want comma-separated alias=model pairs") {
		t.Fatalf("malformed: %v", err)
	}
}
