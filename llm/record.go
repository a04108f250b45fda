package llm

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// Invocation is one call of an LLM provider, as stored in the invocations
// table (mcp-langbase-reasoning's Invocation, plus provider, model and token usage).
// It never holds an API key.
type Invocation struct {
	ID               string          `json:"id"`
	SessionID        string          `json:"session_id,omitempty"`
	ToolName         string          `json:"tool_name"`
	Input            json.RawMessage `json:"input"`
	Output           json.RawMessage `json:"output,omitempty"`
	Provider         string          `json:"provider"`
	PipeName         string          `json:"pipe_name,omitempty"`
	Model            string          `json:"model,omitempty"`
	LatencyMS        int64           `json:"latency_ms"`
	Success          bool            `json:"success"`
	Error            string          `json:"error,omitempty"`
	PromptTokens     int             `json:"prompt_tokens"`
	CompletionTokens int             `json:"completion_tokens"`
	TotalTokens      int             `json:"total_tokens"`
	CreatedAt        time.Time       `json:"created_at"`
}

// Recorder stores invocations.
type Recorder interface {
	Record(ctx context.Context, inv Invocation) error
}

// RecorderFunc adapts a function to [Recorder].
type RecorderFunc func(ctx context.Context, inv Invocation) error

// Record calls f.
func (f RecorderFunc) Record(ctx context.Context, inv Invocation) error { return f(ctx, inv) }

// Recording wraps p so that every Complete call, successful or not, is
// recorded as one [Invocation] of toolName in sessionID. Wrap the provider
// returned by [Select] (which retries) so that a call with retries is one
// row. Input is the request, Output the response; an error of the recorder
// does not fail the call (the recorder should log it) and the record is
// written even when ctx was cancelled.
func Recording(p Provider, rec Recorder, toolName, sessionID string) Provider {
	return &recording{p: p, rec: rec, tool: toolName, session: sessionID}
}

type recording struct {
	p       Provider
	rec     Recorder
	tool    string
	session string
}

func (r *recording) Name() string { return r.p.Name() }

type recordedOutput struct {
	Content    string         `json:"content"`
	ThreadID   string         `json:"thread_id,omitempty"`
	StopReason string         `json:"stop_reason,omitempty"`
	Attempts   int            `json:"attempts,omitempty"`
	Logprobs   []TokenLogprob `json:"logprobs,omitempty"`
}

func (r *recording) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	resp, err := r.p.Complete(ctx, req)
	inv := Invocation{
		ID:        uuid.NewString(),
		SessionID: r.session,
		ToolName:  r.tool,
		Provider:  r.p.Name(),
		PipeName:  resp.Pipe,
		Model:     resp.Model,
		LatencyMS: time.Since(start).Milliseconds(),
		Success:   err == nil,
		CreatedAt: start.UTC(),
	}
	if inv.Model == "" {
		inv.Model = req.Model
	}
	if inv.Model == "" {
		inv.Model = defaultModel(r.p) // a failed call asked for the default
	}
	if inv.PipeName == "" && r.p.Name() == ProviderLangbase {
		inv.PipeName = req.Pipe
		if inv.PipeName == "" {
			inv.PipeName = defaultPipe(r.p)
		}
	}
	inv.Input, _ = json.Marshal(req)
	if err != nil {
		inv.Error = err.Error()
		if k := ErrorKind(err); k != "" {
			inv.Error = k + ": " + inv.Error
		}
	} else {
		inv.Output, _ = json.Marshal(recordedOutput{
			Content: resp.Content, ThreadID: resp.ThreadID, StopReason: resp.StopReason,
			Attempts: resp.Attempts, Logprobs: resp.Logprobs,
		})
		if u := resp.Usage; u != nil {
			inv.PromptTokens, inv.CompletionTokens, inv.TotalTokens = u.PromptTokens, u.CompletionTokens, u.TotalTokens
		}
	}
	if r.rec != nil {
		_ = r.rec.Record(context.WithoutCancel(ctx), inv)
	}
	return resp, err
}

// defaultModel returns the configured model of a (possibly wrapped)
// OpenAI-compatible or Anthropic provider; "" for the others, whose model
// the far side chooses (a Langbase pipe, a sampling client).
func defaultModel(p Provider) string {
	return unwrapped(p, func(p Provider) (string, bool) {
		switch q := p.(type) {
		case *OpenAI:
			return q.model, true
		case *Anthropic:
			return q.model, true
		}
		return "", false
	})
}

// defaultPipe returns the default pipe of a (possibly wrapped) Langbase
// provider.
func defaultPipe(p Provider) string {
	return unwrapped(p, func(p Provider) (string, bool) {
		if q, ok := p.(*Langbase); ok {
			return q.pipe, true
		}
		return "", false
	})
}

// unwrapped returns what get finds on p or on a provider p wraps.
func unwrapped(p Provider, get func(Provider) (string, bool)) string {
	for p != nil {
		if v, ok := get(p); ok {
			return v
		}
		w, ok := p.(interface{ Unwrap() Provider })
		if !ok {
			return ""
		}
		p = w.Unwrap()
	}
	return ""
}
