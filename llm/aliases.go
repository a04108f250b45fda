package llm

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"unicode"
)

// DefaultModelAliases returns Lux MCP's model aliases: short names a model
// may be asked for by ("gpt4", "mini", "claude", "opus", …) and the model
// each stands for, as OpenAI and OpenRouter name them (the Claude, Gemini,
// Llama, Mistral and DeepSeek names are OpenRouter's, so they suit the
// OpenAI-compatible provider pointed at OpenRouter).
func DefaultModelAliases() map[string]string {
	m := map[string]string{}
	add := func(model string, aliases ...string) {
		for _, a := range aliases {
			m[a] = model
		}
	}
	add("gpt-4", "gpt4", "gpt-4", "4")
	add("gpt-4-turbo-preview", "gpt4.1", "gpt-4.1", "4.1", "gpt41", "gpt-4-turbo")
	add("gpt-5", "gpt5", "gpt-5", "5")
	add("gpt-5-mini", "gpt5-mini", "gpt5mini")
	add("o3", "o3")
	add("o3-pro-2025-06-10", "o3-pro", "o3pro")
	add("o4-mini", "o4-mini", "o4mini")
	add("gpt-4o-mini", "mini", "4omini", "gpt4o-mini", "gpt-4o-mini")
	add("anthropic/claude-4-sonnet", "claude", "sonnet", "sonnet-4", "sonnet4", "4-sonnet", "claude-4-sonnet")
	add("anthropic/claude-3-opus", "claude3", "claude-3", "claude-opus")
	add("anthropic/claude-4.1-opus", "opus")
	add("anthropic/claude-3-sonnet", "claude-sonnet")
	add("anthropic/claude-3-haiku", "haiku", "claude-haiku")
	add("anthropic/claude-instant-1.2", "claude-instant", "instant")
	add("anthropic/claude-3.5-sonnet", "claude-3.5", "claude3.5", "sonnet-3.5", "claude-3.5-sonnet",
		"claude-3-5-sonnet-20241022", "claude-3.5-sonnet-20241022", "claude-3-5-sonnet-latest", "claude-3.5-sonnet-latest")
	add("anthropic/claude-4-opus", "opus-4", "opus4", "4-opus", "claude-4-opus")
	add("google/gemini-2.5-pro", "gemini", "gemini-pro", "geminipro", "gemini-2.5", "gemini2.5", "gemini-1.5", "gemini1.5", "gemini2")
	add("google/gemini-2.5-flash", "flash", "gemini-flash", "geminiflash", "gemini-2.5-flash", "gemini2.5flash", "flash-2.5", "flash2.5", "gflash")
	add("meta-llama/llama-3-70b-instruct", "llama3", "llama-3")
	add("mistralai/mixtral-8x7b-instruct", "mixtral")
	add("mistralai/mistral-7b-instruct", "mistral")
	add("deepseek/deepseek-coder", "deepseek")
	return m
}

// ParseModelAliases reads THINKGRAPH_MODEL_ALIASES: comma-separated
// alias=model pairs.
func ParseModelAliases(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		alias, model, ok := strings.Cut(pair, "=")
		alias, model = strings.TrimSpace(alias), strings.TrimSpace(model)
		if !ok || alias == "" || model == "" || strings.ContainsFunc(alias+model, unicode.IsSpace) {
			return nil, fmt.Errorf("THINKGRAPH_MODEL_ALIASES: want comma-separated alias=model pairs such as opus=claude-opus-4-1,mini=gpt-4o-mini, got %q", pair)
		}
		out[alias] = model
	}
	return out, nil
}

// ResolveModel returns the model an alias stands for, as Lux MCP resolves
// it: the name as given, then lower-cased without '-', '_' and spaces, then
// both again without a date or "-latest" suffix. A name that is no alias is
// returned unchanged.
func ResolveModel(aliases map[string]string, name string) string {
	if name == "" || len(aliases) == 0 {
		return name
	}
	normal := func(s string) string {
		return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(s))
	}
	candidates := []string{name, normal(name)}
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		if suffix := name[i+1:]; suffix == "latest" || (suffix != "" && strings.Trim(suffix, "0123456789") == "") {
			candidates = append(candidates, name[:i], normal(name[:i]))
		}
	}
	for _, c := range candidates {
		if m, ok := aliases[c]; ok {
			return m
		}
	}
	return name
}

// withAliases resolves each request's model through aliases.
type withAliases struct {
	Provider
	aliases map[string]string
}

func (p withAliases) Complete(ctx context.Context, req Request) (Response, error) {
	req.Model = ResolveModel(p.aliases, req.Model)
	return p.Provider.Complete(ctx, req)
}

// Unwrap returns the wrapped provider.
func (p withAliases) Unwrap() Provider { return p.Provider }

// mergeAliases returns base with over's entries added or replacing.
func mergeAliases(base, over map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}
