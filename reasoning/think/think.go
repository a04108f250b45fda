// Package think holds the think tool and clear_context: a log of reasoning
// steps appended to the session, with a context window that can be started
// afresh. A thought with a confidence below the threshold becomes a branch
// point of the confidence graph (reasoning/graph).
package think

import (
	"context"
	"fmt"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Log runs the think tools on a reasoning service.
type Log struct {
	svc *reasoning.Service
}

// New returns the think tools of svc.
func New(svc *reasoning.Service) *Log { return &Log{svc: svc} }

// Input is one call of the think tool.
type Input struct {
	Session    reasoning.SessionRef
	Thought    string
	Confidence *float64
}

// Output is the think tool's result: the fields of the think tool and the confidence graph.
type Output struct {
	Status               string   `json:"status" jsonschema:"success without confidence; with confidence: branch (below the threshold: propose alternatives) or continue"`
	Step                 int      `json:"step" jsonschema:"1-based step number of this thought in the session"`
	Thought              string   `json:"thought" jsonschema:"the thought as recorded, clipped to 300 characters"`
	ContextSize          int      `json:"context_size" jsonschema:"thoughts in the session's context window"`
	SessionID            string   `json:"session_id" jsonschema:"the session this thought was recorded in"`
	CurrentNodeID        string   `json:"current_node_id" jsonschema:"id of the recorded thought, now the session's current node"`
	RequiresAlternatives bool     `json:"requires_alternatives" jsonschema:"true when confidence is below the threshold"`
	Confidence           *float64 `json:"confidence,omitempty" jsonschema:"the confidence given, if any"`
	Message              string   `json:"message"`
}

// Think appends a thought to the session as a child of its current thought
// and makes it current. A confidence below the threshold makes the thought a
// branch point.
func (l *Log) Think(ctx context.Context, in Input) (*Output, error) {
	cfg := l.svc.Config()
	if err := reasoning.ValidateContent("thought", in.Thought, cfg.MaxThoughtLength); err != nil {
		return nil, err
	}
	if err := reasoning.ValidateConfidence("confidence", in.Confidence); err != nil {
		return nil, err
	}
	vecs := l.svc.EmbedForWrite(ctx, in.Thought)
	var out Output
	err := l.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := l.svc.Session(ctx, tx, in.Session, true, "think")
		if err != nil {
			return err
		}
		th := &thinkgraph.Thought{
			Content:     in.Thought,
			Confidence:  in.Confidence,
			BranchPoint: in.Confidence != nil && *in.Confidence < cfg.ConfidenceThreshold,
			Author:      "client",
			Tool:        "think",
		}
		if err := l.svc.AppendThought(ctx, tx, sess, th, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		out = Output{
			Status: "success", Step: th.Step, Thought: thinkgraph.Clip(th.Content, reasoning.EchoClip), ContextSize: l.svc.ContextSize(sess),
			SessionID: sess.ID, CurrentNodeID: th.ID, Confidence: th.Confidence,
			Message: fmt.Sprintf("Thought recorded as step %d.", th.Step),
		}
		if c := th.Confidence; c != nil {
			if th.BranchPoint {
				out.Status, out.RequiresAlternatives = "branch", true
				out.Message = fmt.Sprintf("Thought recorded as step %d. Confidence %.2g is below %.2g: this is a branch point; "+
					"propose alternatives with select_path.", th.Step, *c, cfg.ConfidenceThreshold)
			} else {
				out.Status = "continue"
				out.Message = fmt.Sprintf("Thought recorded as step %d with confidence %.2g; continue.", th.Step, *c)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ClearOutput is clear_context's result.
type ClearOutput struct {
	Status      string `json:"status"`
	SessionID   string `json:"session_id"`
	Cleared     int    `json:"cleared" jsonschema:"thoughts that left the context window"`
	TotalSteps  int    `json:"total_steps" jsonschema:"thoughts in the session (none is deleted)"`
	ContextSize int    `json:"context_size"`
	Message     string `json:"message"`
}

// ClearContext empties the session's context window. The thoughts stay in
// the graph; only the window starts after them.
func (l *Log) ClearContext(ctx context.Context, ref reasoning.SessionRef) (*ClearOutput, error) {
	var out ClearOutput
	err := l.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := l.svc.Session(ctx, tx, ref, !ref.Explicit, "think")
		if err != nil {
			return err
		}
		cleared := l.svc.ContextSize(sess)
		sess.ContextStart = sess.StepCount
		sess.UpdatedAt = l.svc.Now()
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		out = ClearOutput{
			Status: "success", SessionID: sess.ID, Cleared: cleared, TotalSteps: sess.StepCount,
			Message: fmt.Sprintf("Context window cleared (%d thoughts left it; all %d stay in the session).", cleared, sess.StepCount),
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
