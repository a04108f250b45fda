// Package pipes holds the reasoning.* tools of mcp-langbase-reasoning
// (linear, tree, divergent, reflection): the model writes the reasoning, the
// server stores both the input and the answer in the session graph.
package pipes

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Modes runs the reasoning.* tools on a reasoning service.
type Modes struct {
	svc *reasoning.Service
}

// New returns the reasoning.* tools of svc.
func New(svc *reasoning.Service) *Modes { return &Modes{svc: svc} }

// ReasoningInput is the common input of the reasoning.* tools.
type ReasoningInput struct {
	Session    reasoning.SessionRef
	Content    string
	Confidence *float64
	Call       reasoning.LLMCall
}

// reasoningValidate checks content the way mcp-langbase-reasoning words its errors.
func (pm *Modes) reasoningValidate(in *ReasoningInput) error {
	if strings.TrimSpace(in.Content) == "" {
		return thinkgraph.Invalid("content", "a non-empty string", in.Content, "Validation failed: content - Content cannot be empty")
	}
	if err := reasoning.ValidateContent("content", in.Content, pm.svc.Config().MaxThoughtLength); err != nil {
		te := thinkgraph.AsError(err)
		te.Message = "Validation failed: content - " + te.Message
		return te
	}
	if err := reasoning.ValidateConfidence("confidence", in.Confidence); err != nil {
		te := thinkgraph.AsError(err)
		te.Message = "Validation failed: confidence - " + te.Message
		return te
	}
	return nil
}

// storeInput writes the caller's content as a thought of the session, in its
// own transaction, before the model is called: a failing provider loses
// nothing.
func (pm *Modes) storeInput(ctx context.Context, in ReasoningInput, tool, mode string, meta map[string]any) (*thinkgraph.Session, *thinkgraph.Thought, error) {
	vecs := pm.svc.EmbedForWrite(ctx, in.Content)
	var sess thinkgraph.Session
	var th thinkgraph.Thought
	err := pm.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		// A session the server has not seen is started under its id, as
		// mcp-langbase-reasoning 0.1 does.
		se, err := pm.svc.Session(ctx, tx, in.Session, true, mode)
		if err != nil {
			return err
		}
		t := &thinkgraph.Thought{Content: in.Content, Tool: tool, Author: "client", Type: "query"}
		if in.Confidence != nil {
			meta["confidence_threshold"] = *in.Confidence
		}
		if len(meta) > 0 {
			if t.Metadata, err = json.Marshal(meta); err != nil {
				return err
			}
		}
		if err := pm.svc.AddInput(ctx, tx, se, t, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		if err := tx.UpdateSession(ctx, se); err != nil {
			return err
		}
		sess, th = *se, *t
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &sess, &th, nil
}

// modelThought is one thought a model wrote, to be stored.
type modelThought struct {
	Content    string
	Confidence float64
	Type       string
	Branch     string // "" for the session's active branch
	ParentID   string
	RevisesID  string
	Meta       map[string]any
	// Alternative marks one of several answers to the same input.
	Alternative bool
}

// storeAnswers writes the model's thoughts in one transaction; each has its
// ParentID set by the caller (the input thought, or a previous answer).
// Branches that do not exist yet are created, forking from the parent.
func (pm *Modes) storeAnswers(ctx context.Context, sessionID string, tenant string, author, tool string, answers []modelThought, update func(*thinkgraph.Session, []thinkgraph.Thought) error) ([]thinkgraph.Thought, *thinkgraph.Session, error) {
	texts := make([]string, len(answers))
	for i, a := range answers {
		texts[i] = a.Content
	}
	vecs := pm.svc.EmbedForWrite(ctx, texts...)
	var out []thinkgraph.Thought
	var sess thinkgraph.Session
	err := pm.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		out = nil
		se, err := pm.svc.Session(ctx, tx, reasoning.SessionRef{ID: sessionID, Explicit: true, Tenant: tenant}, false, "")
		if err != nil {
			return err
		}
		for i, a := range answers {
			c := a.Confidence
			th := &thinkgraph.Thought{
				Content: a.Content, Confidence: &c, Type: a.Type, ParentID: a.ParentID, RevisesID: a.RevisesID,
				BranchID: a.Branch, Author: author, Tool: tool, Alternative: a.Alternative,
			}
			if a.Branch != "" {
				if _, err := tx.Branch(ctx, se.Key, a.Branch); errors.Is(err, thinkgraph.ErrNotFound) {
					now := pm.svc.Now()
					parent, err := tx.Thought(ctx, se.Key, a.ParentID)
					if err != nil {
						return err
					}
					if err := tx.PutBranch(ctx, &thinkgraph.Branch{Session: se.Key, ID: a.Branch, State: "active", Priority: 1,
						ParentBranchID: parent.BranchID, ForkThoughtID: parent.ID, CreatedAt: now, UpdatedAt: now}); err != nil {
						return err
					}
				} else if err != nil {
					return err
				}
			}
			if len(a.Meta) > 0 {
				if th.Metadata, err = json.Marshal(a.Meta); err != nil {
					return err
				}
			}
			if err := pm.svc.AppendThought(ctx, tx, se, th, reasoning.VectorAt(vecs, i)); err != nil {
				return err
			}
			out = append(out, *th)
		}
		if update != nil {
			if err := update(se, out); err != nil {
				return err
			}
		}
		if err := tx.UpdateSession(ctx, se); err != nil {
			return err
		}
		sess = *se
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, &sess, nil
}

// history returns the last n user/model exchanges of tool in the session as
// chat messages, oldest first (none before the session exists).
func (pm *Modes) history(ctx context.Context, ref reasoning.SessionRef, tool string, n int) ([]llm.Message, error) {
	var msgs []llm.Message
	err := pm.svc.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, Last: 4 * n})
		if err != nil {
			return err
		}
		for _, th := range ths {
			if th.Tool != tool {
				continue
			}
			role := llm.RoleAssistant
			if th.Author == "client" {
				role = llm.RoleUser
			}
			msgs = append(msgs, llm.Message{Role: role, Content: th.Content})
		}
		return nil
	})
	var te *thinkgraph.Error
	if errors.As(err, &te) && te.Code == thinkgraph.CodeSessionNotFound {
		err = nil
	}
	if len(msgs) > 2*n {
		msgs = msgs[len(msgs)-2*n:]
	}
	return msgs, err
}

const linearSystemPrompt = `You are a careful reasoning engine. Continue the reasoning with the single next logical step, or analyse the thought you are given.
Answer with JSON only: {"thought": "<your reasoning step>", "confidence": <0..1, how sure you are>, "metadata": {}}.`

// LinearResult is what reasoning.linear recorded: the tool's result.
type LinearResult struct {
	ThoughtID       string  `json:"thought_id" jsonschema:"id of the model's answer, stored as a thought of the session"`
	SessionID       string  `json:"session_id"`
	Content         string  `json:"content" jsonschema:"the reasoning the model wrote"`
	Confidence      float64 `json:"confidence"`
	PreviousThought *string `json:"previous_thought" jsonschema:"thought_id of the previous linear reasoning call of this session; null on the first"`
	InputThoughtID  string  `json:"input_thought_id" jsonschema:"id of the stored input"`
	Model           string  `json:"model,omitempty"`
}

// Linear runs one step of linear reasoning (mcp-langbase-reasoning's reasoning.linear): the
// content is stored, the model continues it, and its answer is stored as a
// thought written by the model, child of the input.
func (pm *Modes) Linear(ctx context.Context, in ReasoningInput) (*LinearResult, error) {
	const tool = "reasoning.linear"
	if err := pm.reasoningValidate(&in); err != nil {
		return nil, err
	}
	if err := checkSessionRef(in.Session); err != nil {
		return nil, err
	}
	p, err := pm.svc.Provider(tool, in.Session, true, in.Call)
	if err != nil {
		return nil, err
	}
	hist, err := pm.history(ctx, in.Session, tool, 5)
	if err != nil {
		return nil, err
	}
	sess, input, err := pm.storeInput(ctx, in, tool, "linear", map[string]any{})
	if err != nil {
		return nil, err
	}
	msgs := append([]llm.Message{{Role: llm.RoleSystem, Content: linearSystemPrompt}}, hist...)
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: in.Content})
	resp, err := pm.svc.Complete(ctx, p, in.Call, llm.Request{Messages: msgs, ThreadID: sess.ID, Pipe: pm.svc.Pipes().Linear})
	if err != nil {
		return nil, err
	}
	ans := llm.ParsePipeAnswer(resp.Content)
	var prev *string
	var id string
	if ok, _ := reasoning.GetSessionMeta(sess, "linear_last_thought", &id); ok && id != "" {
		prev = &id
	}
	m := reasoning.WithModel(map[string]any{"structured": ans.Structured}, resp)
	if len(ans.Metadata) > 0 {
		m["metadata"] = ans.Metadata
	}
	ths, se, err := pm.storeAnswers(ctx, sess.ID, sess.Tenant, reasoning.Author(resp), tool,
		[]modelThought{{Content: ans.Thought, Confidence: ans.Confidence, ParentID: input.ID, Type: "analysis", Meta: m}},
		func(se *thinkgraph.Session, ths []thinkgraph.Thought) error {
			return reasoning.SetSessionMeta(se, "linear_last_thought", ths[0].ID)
		})
	if err != nil {
		return nil, err
	}
	answer := ths[0]
	return &LinearResult{ThoughtID: answer.ID, SessionID: se.ID, Content: answer.Content, Confidence: *answer.Confidence,
		PreviousThought: prev, InputThoughtID: input.ID, Model: answer.Author}, nil
}

// checkSessionRef reports a malformed session id before anything is
// stored or any model called. A well-formed id the server has not seen
// starts a session when the input is stored.
func checkSessionRef(ref reasoning.SessionRef) error {
	if !ref.Explicit {
		return nil
	}
	return reasoning.ValidateSessionID(ref.ID)
}
