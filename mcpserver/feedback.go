package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// delivered is the feedback a tool result carries: what a person said
// about the session's thoughts in the viewer, and how many pieces still
// wait. Its fields follow the result's own (withFeedback), and every
// output schema lists them (feedbackSchema).
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

// withFeedback is the JSON object of a tool result the model sees (as
// encodeResult writes it) with the session's oldest undelivered feedback,
// at most reasoning.MaxFeedbackPerResult pieces, and how many pieces still
// wait. Without feedback, or when it cannot be taken, the result is as it
// was (the feedback stays undelivered).
func (s *Server) withFeedback(ctx context.Context, ref reasoning.SessionRef, result []byte) []byte {
	if len(result) < 2 || result[0] != '{' {
		return result // a nil result: nothing to add fields to
	}
	notes, waiting, err := s.svc.DeliverFeedback(ctx, ref)
	if err != nil {
		s.log.Warn("human feedback not delivered", "session", ref.ID, "err", err)
		return result
	}
	if len(notes) == 0 {
		return result
	}
	fb, err := json.Marshal(delivered{Notes: notes, Waiting: waiting})
	if err != nil {
		s.log.Error("human feedback", "err", err)
		return result
	}
	return joinObjects(result, fb)
}

// joinObjects is the JSON object with the fields of the objects a, then b,
// each as json.Marshal wrote it ({...}, no space around).
func joinObjects(a, b []byte) []byte {
	out := make([]byte, 0, len(a)+len(b))
	out = append(out, a[:len(a)-1]...)
	if len(a) > 2 && len(b) > 2 {
		out = append(out, ',')
	}
	return append(out, b[1:]...)
}
