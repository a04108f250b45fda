package reasoning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

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

// provider returns the provider for tool: Langbase for the reasoning.*
// tools whenever LANGBASE_API_KEY is set, else the selected one, wrapped so
// that every call is recorded as an invocation of the session.
func (s *Service) provider(tool string, ref SessionRef, reasoningTool bool, call LLMCall) (llm.Provider, error) {
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
		rec := &thinkgraph.Invocation{
			ID: inv.ID, Tenant: ref.tenant(), SessionID: inv.SessionID, ToolName: inv.ToolName, Input: inv.Input, Output: inv.Output,
			Provider: inv.Provider, PipeName: inv.PipeName, Model: inv.Model, LatencyMS: inv.LatencyMS, Success: inv.Success,
			Error: inv.Error, PromptTokens: inv.PromptTokens, CompletionTokens: inv.CompletionTokens, TotalTokens: inv.TotalTokens,
			CreatedAt: inv.CreatedAt,
		}
		if q := pendingInvocationsOf(ctx); q != nil {
			// Stored by the call's next write (luxWrite) or at its end.
			q.add(rec)
			return nil
		}
		return s.storeInvocations(ctx, []*thinkgraph.Invocation{rec})
	})
	return llm.Recording(p, rec, tool, ref.ID), nil
}

// storeInvocations writes invocation records in a transaction of their own.
func (s *Service) storeInvocations(ctx context.Context, invs []*thinkgraph.Invocation) error {
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		for _, inv := range invs {
			if err := tx.AddInvocation(ctx, inv); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && s.llmLog != nil {
		for _, inv := range invs {
			s.llmLog.Warn("recording an LLM invocation failed", "tool", inv.ToolName, "err", err)
		}
	}
	return err
}

// pendingInvocations holds the invocation records of a tool call's model
// calls until the call's next write transaction stores them with its own
// changes (luxWrite): one commit fewer per model call. What is left when
// the call ends (a failed model call, a step that was not stored) is
// stored then, in a transaction of its own, as the recorder would have.
type pendingInvocations struct {
	mu   sync.Mutex
	invs []*thinkgraph.Invocation
}

type pendingInvocationsKey struct{}

// withPendingInvocations returns ctx carrying a new pending list for the
// model calls made with it, and the function that stores what is left in
// the list: the caller must call it before it returns.
func (s *Service) withPendingInvocations(ctx context.Context) (context.Context, func()) {
	q := &pendingInvocations{}
	return context.WithValue(ctx, pendingInvocationsKey{}, q), func() {
		if invs := q.take(); len(invs) > 0 {
			// Written even when ctx was cancelled, as by the recorder.
			_ = s.storeInvocations(context.WithoutCancel(ctx), invs)
		}
	}
}

func pendingInvocationsOf(ctx context.Context) *pendingInvocations {
	q, _ := ctx.Value(pendingInvocationsKey{}).(*pendingInvocations)
	return q
}

func (q *pendingInvocations) add(inv *thinkgraph.Invocation) {
	q.mu.Lock()
	q.invs = append(q.invs, inv)
	q.mu.Unlock()
}

// take empties the list and returns what it held.
func (q *pendingInvocations) take() []*thinkgraph.Invocation {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	invs := q.invs
	q.invs = nil
	return invs
}

// putBack returns records that a transaction did not store to the front of
// the list.
func (q *pendingInvocations) putBack(invs []*thinkgraph.Invocation) {
	if q == nil || len(invs) == 0 {
		return
	}
	q.mu.Lock()
	q.invs = append(invs, q.invs...)
	q.mu.Unlock()
}

// complete runs one LLM request for tool, reporting progress to the caller.
func (s *Service) complete(ctx context.Context, p llm.Provider, call LLMCall, req llm.Request) (llm.Response, error) {
	if call.Progress != nil {
		ctx = llm.WithProgress(ctx, call.Progress)
	}
	resp, err := p.Complete(ctx, req)
	if err != nil {
		return resp, providerError(err)
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

// providerError classifies a provider failure.
func providerError(err error) error {
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

// sessionMeta reads and writes keys of a session's metadata object.
func sessionMeta(sess *thinkgraph.Session) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(sess.Metadata) > 0 {
		_ = json.Unmarshal(sess.Metadata, &m)
	}
	return m
}

func setSessionMeta(sess *thinkgraph.Session, key string, v any) error {
	m := sessionMeta(sess)
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	m[key] = b
	if sess.Metadata, err = json.Marshal(m); err != nil {
		return fmt.Errorf("session metadata: %w", err)
	}
	return nil
}
