package reasoning

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/llm"
)

// The providers configured in the environment are built once and shared by
// every call; MCP sampling, which belongs to the calling client, is built
// per call; a new configuration starts afresh.
func TestProvidersBuiltOnce(t *testing.T) {
	s := New(nil, Config{})
	cfg := llm.DefaultConfig()
	cfg.OpenAI.APIKey = "sk-test"
	s.EnableLLM(cfg, nil)
	count := func() int {
		n := 0
		s.providers.Range(func(any, any) bool { n++; return true })
		return n
	}
	for i := range 3 {
		if _, err := s.Provider("confer", SessionRef{ID: "s1"}, false, LLMCall{}); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	first, ok := s.providers.Load(llm.ProviderOpenAI)
	if !ok || count() != 1 {
		t.Fatalf("after 3 openai calls: %d cached providers, openai cached %v", count(), ok)
	}

	sampler := llm.SamplingFunc(func(context.Context, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{}, nil
	})
	none := New(nil, Config{})
	if _, err := none.Provider("confer", SessionRef{ID: "s1"}, false, LLMCall{Sampler: sampler}); err != nil {
		t.Fatal(err)
	}
	if _, cached := none.providers.Load(llm.ProviderSampling); cached {
		t.Fatal("a client's sampling provider was cached for every client")
	}

	cfg.OpenAI.Model = "another-model"
	s.EnableLLM(cfg, nil)
	if _, err := s.Provider("confer", SessionRef{ID: "s1"}, false, LLMCall{}); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.providers.Load(llm.ProviderOpenAI); again == first {
		t.Fatal("the provider of the old configuration is still used after EnableLLM")
	}
}
