package reasoning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
)

// LLMCall carries what an LLM-backed operation needs from its caller: the
// MCP client's sampling function when it declared the capability, and a
// progress callback.
type LLMCall struct {
	Sampler  llm.SamplingFunc
	Progress llm.ProgressFunc
	// Observe, if set, is told about each provider call's outcome (metrics).
	Observe func(provider string, success bool)
}

// EnableLLM gives the service a provider configuration for its LLM-backed
// tools.
func (s *Service) EnableLLM(cfg llm.Config, logger *slog.Logger) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg.Logger = logger
	s.llmCfg = &cfg
	s.llmLog = logger
	s.providers.Clear()
}

// sharedProvider returns the provider name of cfg, built once: every
// provider but MCP sampling (which belongs to the calling client) is the
// same for every call, and its SDK client is safe for concurrent use and
// costs about 0.1 ms to build.
func (s *Service) sharedProvider(cfg llm.Config, name string) (llm.Provider, error) {
	if p, ok := s.providers.Load(name); ok {
		return p.(llm.Provider), nil
	}
	p, err := llm.New(cfg, name, nil)
	if err != nil {
		return nil, err
	}
	p2, _ := s.providers.LoadOrStore(name, p)
	return p2.(llm.Provider), nil
}

// ModelAvailable reports whether an LLM-backed tool can reach a model: a
// provider is configured (Langbase counts for the reasoning tools only), or
// the client declared sampling and no other provider is required.
func (s *Service) ModelAvailable(reasoningTool, clientSampling bool) bool {
	cfg := llm.DefaultConfig()
	if s.llmCfg != nil {
		cfg = *s.llmCfg
	}
	if reasoningTool && cfg.Langbase.APIKey != "" {
		return true
	}
	name, err := llm.SelectName(cfg, clientSampling)
	if err != nil {
		return false
	}
	if name == llm.ProviderSampling {
		return clientSampling
	}
	_, err = s.sharedProvider(cfg, name)
	return err == nil
}

// Provider returns the provider for tool: Langbase for the reasoning.*
// tools whenever LANGBASE_API_KEY is set, else the selected one, wrapped so
// that every call is recorded as an invocation of the session, in a
// transaction of its own when the call returns (failed or not).
func (s *Service) Provider(tool string, ref SessionRef, reasoningTool bool, call LLMCall) (llm.Provider, error) {
	cfg := llm.DefaultConfig()
	if s.llmCfg != nil {
		cfg = *s.llmCfg
	}
	// The same choice as llm.ForReasoning and llm.Select, with the
	// call-independent providers built once.
	var (
		p    llm.Provider
		name string
		err  error
	)
	if reasoningTool && cfg.Langbase.APIKey != "" {
		name = llm.ProviderLangbase
	} else {
		name, err = llm.SelectName(cfg, call.Sampler != nil)
	}
	if err == nil {
		if name == llm.ProviderSampling {
			p, err = llm.New(cfg, name, call.Sampler)
		} else {
			p, err = s.sharedProvider(cfg, name)
		}
	}
	if err != nil {
		return nil, &thinkgraph.Error{Code: thinkgraph.CodeProviderNotConfigured, Message: err.Error(), Err: nil,
			Suggestions: []string{"set OPENAI_API_KEY (and OPENAI_BASE_URL for Ollama, vLLM or LM Studio), ANTHROPIC_API_KEY or LANGBASE_API_KEY in the server's environment"}}
	}
	rec := llm.RecorderFunc(func(ctx context.Context, inv llm.Invocation) error {
		if call.Observe != nil {
			call.Observe(inv.Provider, inv.Success)
		}
		err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
			return tx.AddInvocation(ctx, &thinkgraph.Invocation{
				ID: inv.ID, Tenant: ref.tenant(), SessionID: inv.SessionID, ToolName: inv.ToolName, Input: inv.Input, Output: inv.Output,
				Provider: inv.Provider, PipeName: inv.PipeName, Model: inv.Model, LatencyMS: inv.LatencyMS, Success: inv.Success,
				Error: inv.Error, PromptTokens: inv.PromptTokens, CompletionTokens: inv.CompletionTokens, TotalTokens: inv.TotalTokens,
				CreatedAt: inv.CreatedAt,
			})
		})
		if err != nil && s.llmLog != nil {
			s.llmLog.Warn("recording an LLM invocation failed", "tool", inv.ToolName, "err", err)
		}
		return err
	})
	return llm.Recording(p, rec, tool, ref.ID), nil
}

// Complete runs one request on p, reporting progress to the caller; a
// failure is the thinkgraph error of its kind.
func (s *Service) Complete(ctx context.Context, p llm.Provider, call LLMCall, req llm.Request) (llm.Response, error) {
	if call.Progress != nil {
		ctx = llm.WithProgress(ctx, call.Progress)
	}
	resp, err := p.Complete(ctx, req)
	if err != nil {
		return resp, ProviderError(err)
	}
	return resp, nil
}

// providerCodes are the error codes of the provider failures llm.ErrorKind
// tells apart.
var providerCodes = map[string]thinkgraph.Code{
	llm.KindUnavailable:         thinkgraph.CodeLangbaseUnavailable,
	llm.KindProviderUnavailable: thinkgraph.CodeProviderUnavailable,
	llm.KindAPI:                 thinkgraph.CodeAPI,
	llm.KindTimeout:             thinkgraph.CodeTimeout,
}

// ProviderError classifies a provider failure as the thinkgraph error of
// its kind.
func ProviderError(err error) error {
	code, known := providerCodes[llm.ErrorKind(err)]
	switch {
	case known:
		return &thinkgraph.Error{Code: code, Message: "the language model call failed", Err: err,
			Suggestions: []string{"the input was stored; call again to retry, or check the provider configuration"}}
	case errors.Is(err, context.Canceled):
		return &thinkgraph.Error{Code: thinkgraph.CodeCancelled, Message: "the call was cancelled", Err: err}
	default:
		return &thinkgraph.Error{Code: thinkgraph.CodeInternal, Message: "the language model call failed", Err: err}
	}
}

// sessionMeta is the session's metadata object, by key: the tools keep
// their state under a key each (GetSessionMeta, SetSessionMeta). A
// metadata value that is not a JSON object has no keys.
func sessionMeta(sess *thinkgraph.Session) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(sess.Metadata) > 0 {
		_ = json.Unmarshal(sess.Metadata, &m)
	}
	if m == nil { // metadata null
		m = map[string]json.RawMessage{}
	}
	return m
}

// GetSessionMeta decodes the session metadata key into v; it reports
// whether the key was there (a key set to null is not).
func GetSessionMeta(sess *thinkgraph.Session, key string, v any) (bool, error) {
	raw, ok := sessionMeta(sess)[key]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("session %q: metadata %q: %w", sess.ID, key, err)
	}
	return true, nil
}

// SetSessionMeta sets the session metadata key to v: the object is written
// with its keys sorted, as json.Marshal writes a map.
func SetSessionMeta(sess *thinkgraph.Session, key string, v any) error {
	m := sessionMeta(sess)
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	m[key] = b
	meta, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("session metadata: %w", err)
	}
	if err := ValidateMetadata("session metadata", meta, MaxSessionMetadata); err != nil {
		return err
	}
	sess.Metadata = meta
	return nil
}

// Pipes returns the Langbase pipes the reasoning.* tools run on.
func (s *Service) Pipes() llm.Pipes {
	if s.llmCfg != nil {
		return s.llmCfg.Langbase.Pipes
	}
	return llm.DefaultConfig().Langbase.Pipes
}

// Author names the model that wrote an answer: the model, else the
// Langbase pipe, else the provider.
func Author(resp llm.Response) string {
	switch {
	case resp.Model != "":
		return resp.Model
	case resp.Pipe != "":
		return "langbase:" + resp.Pipe
	case resp.Provider != "":
		return resp.Provider
	}
	return "model"
}

// WithModel adds the provider, model and pipe of resp to the metadata m
// of the thought it wrote (a new map when m is nil).
func WithModel(m map[string]any, resp llm.Response) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m["provider"] = resp.Provider
	if resp.Model != "" {
		m["model"] = resp.Model
	}
	if resp.Pipe != "" {
		m["pipe"] = resp.Pipe
	}
	return m
}
