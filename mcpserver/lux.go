package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// The Lux tools of seed 003: confer, traced_reasoning, biased_reasoning and
// planner.

type conferOutput struct {
	Content   string     `json:"content" jsonschema:"the model's answer"`
	Model     string     `json:"model" jsonschema:"the model that answered, as the provider reported it"`
	Usage     *llm.Usage `json:"usage" jsonschema:"token usage reported by the provider; null when it reported none"`
	SessionID string     `json:"session_id"`
	ThoughtID string     `json:"thought_id" jsonschema:"id of the answer, stored as a thought of the session"`
}

const luxProviderNote = " The server calls the configured language model (OpenAI-compatible, Anthropic, Langbase, or the client's own model through MCP sampling); every step is stored in the session graph and every model call is logged as an invocation."

func temperatureProp(def string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(reasoning.MaxTemperature),
		Description: "Sampling temperature, 0 to 2" + def}
}

func (s *Server) addLuxTools() {
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:  "confer",
			Title: "Chat with a model",
			Description: "Send a message to a chosen model and get its answer. With a session_id the conversation continues: the session's earlier " +
				"confer exchanges go with the message." + luxProviderNote,
			InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"message"}, Properties: map[string]*jsonschema.Schema{
				"message":     {Type: "string", Description: "The message to send to the model"},
				"model":       {Type: "string", Description: "Model to use (default: the provider's configured model)"},
				"temperature": temperatureProp(""),
				"max_tokens":  {Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "Maximum tokens of the answer"},
				"session_id":  sessionIDProp,
			}},
			Annotations: llmAnnotations("Chat with a model"),
		},
		output: conferOutput{},
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.sessionRef(req, a)
			if err != nil {
				return nil, err
			}
			in := reasoning.ConferInput{Session: ref, Call: s.llmCall(ctx, req)}
			if in.Message, _, err = a.str("message"); err != nil {
				return nil, err
			}
			if in.Model, _, err = a.str("model"); err != nil {
				return nil, err
			}
			if in.Temperature, err = a.number("temperature"); err != nil {
				return nil, err
			}
			if in.MaxTokens, err = a.integer("max_tokens"); err != nil {
				return nil, err
			}
			res, err := s.svc.Confer(ctx, in)
			if err != nil {
				return nil, err
			}
			return conferOutput{Content: res.Answer.Content, Model: res.Model, Usage: res.Usage, SessionID: res.Session.ID, ThoughtID: res.Answer.ID}, nil
		},
	})
}
