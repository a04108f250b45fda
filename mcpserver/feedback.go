package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// delivered is the feedback a tool result carries: what a person said
// about the session's thoughts in the viewer, and how many pieces still
// wait. Every output schema lists its fields (feedbackSchema).
type delivered struct {
	Notes   []reasoning.FeedbackNote `json:"human_feedback" jsonschema:"what a person said about thoughts of this session in the viewer (each piece once, at most 5 per result, the oldest first), with what to do about it"`
	Waiting int                      `json:"human_feedback_waiting,omitempty" jsonschema:"pieces of feedback still waiting: the next results carry them, at most 5 each"`
}

// The fields of a tool result that carry feedback.
const (
	humanFeedbackField   = "human_feedback"
	humanFeedbackWaiting = "human_feedback_waiting"
)

// feedbackSchema is the schema of delivered: its properties are part of
// every tool's output schema.
var feedbackSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := jsonschema.For[delivered](&jsonschema.ForOptions{})
	if err != nil {
		panic(err) // a programming error: delivered has no schema
	}
	return s
})

// deliverFeedback adds to a successful tool result the model sees the
// session's oldest undelivered feedback, at most
// reasoning.MaxFeedbackPerResult pieces (human_feedback, in the structured
// content and in its JSON text), and how many pieces still wait
// (human_feedback_waiting). A result for an MCP App only (graph_view)
// never takes any: the model would not see it. The feedback stays
// undelivered when adding it fails.
func (s *Server) deliverFeedback(ctx context.Context, tool string, ref reasoning.SessionRef, res *mcp.CallToolResult) {
	if s.appOnlyTool(tool) {
		return
	}
	raw, ok := structuredJSON(res)
	if !ok {
		return
	}
	notes, waiting, err := s.svc.DeliverFeedback(ctx, ref)
	if err != nil {
		s.log.Warn("human feedback not delivered", "session", ref.ID, "err", err)
		return
	}
	if len(notes) == 0 {
		return
	}
	nb, err := json.Marshal(notes)
	if err != nil {
		s.log.Error("human feedback", "err", err)
		return
	}
	// The object with the fields added before its closing brace: its other
	// fields stay as they were, in their order.
	body := bytes.TrimSpace(raw)
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	if len(bytes.TrimSpace(body[1:len(body)-1])) > 0 {
		out.WriteByte(',')
	}
	fmt.Fprintf(&out, "%q:%s", humanFeedbackField, nb)
	if waiting > 0 {
		fmt.Fprintf(&out, ",%q:%d", humanFeedbackWaiting, waiting)
	}
	out.WriteByte('}')
	withFeedback := json.RawMessage(out.Bytes())
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(tc.Text) == string(body) {
			tc.Text = string(withFeedback)
		}
	}
	res.StructuredContent = withFeedback
}

// appOnlyTool reports whether the tool named name is for an MCP App only.
func (s *Server) appOnlyTool(name string) bool {
	for _, t := range s.tools {
		if t.Name == name {
			return appOnly(t)
		}
	}
	return false
}

// structuredJSON is the structured content of a result as a JSON object.
func structuredJSON(res *mcp.CallToolResult) (json.RawMessage, bool) {
	var raw []byte
	switch sc := res.StructuredContent.(type) {
	case json.RawMessage:
		raw = sc
	case nil:
		return nil, false
	default:
		var err error
		if raw, err = json.Marshal(sc); err != nil {
			return nil, false
		}
	}
	t := bytes.TrimSpace(raw)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return nil, false
	}
	return raw, true
}
