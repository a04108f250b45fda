package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SamplingFunc asks the MCP client's own model for a message; pass
// (*mcp.ServerSession).CreateMessage of the session whose client declared
// the sampling capability.
type SamplingFunc func(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)

// Sampling completes requests through MCP sampling (sampling/createMessage).
type Sampling struct {
	sample    SamplingFunc
	maxTokens int
}

// NewSampling returns the MCP sampling provider calling fn. Requests
// without MaxTokens ask for cfg.MaxTokens.
func NewSampling(cfg Config, fn SamplingFunc) *Sampling {
	return &Sampling{sample: fn, maxTokens: cfg.maxTokens(Request{})}
}

// Name returns "sampling".
func (s *Sampling) Name() string { return ProviderSampling }

// Complete sends one sampling/createMessage request: system messages become
// the system prompt, req.Model a model preference hint. The client reports
// no token usage or log-probabilities.
func (s *Sampling) Complete(ctx context.Context, req Request) (Response, error) {
	if s.sample == nil {
		return Response{}, errors.New("sampling: the MCP client does not support sampling")
	}
	sys, conv := splitSystem(req.Messages)
	p := &mcp.CreateMessageParams{
		SystemPrompt: sys,
		MaxTokens:    int64(s.maxTokens),
		Messages:     make([]*mcp.SamplingMessage, 0, len(conv)),
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = int64(req.MaxTokens)
	}
	for _, m := range conv {
		role := mcp.Role("user")
		if m.Role == RoleAssistant {
			role = "assistant"
		}
		p.Messages = append(p.Messages, &mcp.SamplingMessage{Role: role, Content: &mcp.TextContent{Text: m.Content}})
	}
	if req.Temperature != nil {
		p.Temperature = *req.Temperature
	}
	if req.Model != "" {
		p.ModelPreferences = &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: req.Model}}}
	}
	res, err := s.sample(ctx, p)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return Response{}, err
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return Response{}, &APIError{Provider: ProviderSampling, Message: truncate(redact(fmt.Sprintf("%s (code %d)", rpcErr.Message, rpcErr.Code)), 500)}
		}
		return Response{}, &plainError{msg: "sampling: " + truncate(redact(err.Error()), 500)}
	}
	if res == nil {
		return Response{}, &APIError{Provider: ProviderSampling, Message: "client returned no result"}
	}
	resp := Response{Model: res.Model, Provider: ProviderSampling, StopReason: res.StopReason}
	switch c := res.Content.(type) {
	case *mcp.TextContent:
		resp.Content = c.Text
	case nil:
		return Response{}, &APIError{Provider: ProviderSampling, Message: "client returned no content"}
	default:
		return Response{}, &APIError{Provider: ProviderSampling, Message: fmt.Sprintf("client returned %s content, want text", strings.TrimPrefix(fmt.Sprintf("%T", c), "*mcp."))}
	}
	return resp, nil
}
