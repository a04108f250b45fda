package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// humanFeedbackField is the field of a tool result that carries what a
// person said about the session's thoughts in the viewer.
const humanFeedbackField = "human_feedback"

// feedbackSchema is the output schema of human_feedback, part of every
// tool's output schema.
var feedbackSchema = sync.OnceValue(func() *jsonschema.Schema {
	s, err := jsonschema.ForType(reflect.TypeFor[[]reasoning.FeedbackNote](), &jsonschema.ForOptions{})
	if err != nil {
		panic(err) // a programming error: FeedbackNote has no schema
	}
	s.Description = "what a person said about thoughts of this session in the viewer since the last tool result (each piece once), with what to do about it"
	return s
})

// deliverFeedback adds the session's undelivered feedback to a successful
// tool result: human_feedback in the structured content (and in its JSON
// text), and a short line of text. The feedback stays undelivered when
// that fails.
func (s *Server) deliverFeedback(ctx context.Context, ref reasoning.SessionRef, res *mcp.CallToolResult) {
	raw, ok := structuredJSON(res)
	if !ok {
		return
	}
	notes, err := s.svc.DeliverFeedback(ctx, ref)
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
	// The object with the field added before its closing brace: its other
	// fields stay as they were, in their order.
	body := bytes.TrimSpace(raw)
	var out bytes.Buffer
	out.Write(body[:len(body)-1])
	if len(bytes.TrimSpace(body[1:len(body)-1])) > 0 {
		out.WriteByte(',')
	}
	fmt.Fprintf(&out, "%q:%s}", humanFeedbackField, nb)
	withFeedback := json.RawMessage(out.Bytes())
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(tc.Text) == string(body) {
			tc.Text = string(withFeedback)
		}
	}
	res.StructuredContent = withFeedback
	res.Content = append(res.Content, &mcp.TextContent{Text: feedbackLine(notes)})
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

// feedbackLine tells the model in a line what a person said and what to
// do about it.
func feedbackLine(notes []reasoning.FeedbackNote) string {
	parts := make([]string, len(notes))
	for i, n := range notes {
		parts[i] = fmt.Sprintf("%s on thought %s: %q. %s", n.Kind, n.ThoughtID, reasoning.Clip(n.Text, 200), n.Advice)
	}
	return "Human feedback (human_feedback): " + strings.Join(parts, " ")
}
