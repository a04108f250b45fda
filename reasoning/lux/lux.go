// Package lux holds the Lux tools (docs/lux.md): confer, traced_reasoning, biased_reasoning and
// planner. Every step they take is a thought of the session graph: what the
// client sent is written by "client", what a model wrote by that model.
// Their progress (which step is which thought, the bias machine's state) is
// kept in the session's metadata, so it survives restarts and is shared by
// every process serving the store.
package lux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Tools runs the Lux tools on a reasoning service.
type Tools struct {
	svc *reasoning.Service
}

// New returns the Lux tools of svc.
func New(svc *reasoning.Service) *Tools { return &Tools{svc: svc} }

// MaxTemperature is the highest sampling temperature the Lux tools accept.
const MaxTemperature = 2.0

// validateTemperature checks an optional temperature in [0, MaxTemperature].
func validateTemperature(field string, t *float64) error {
	if t == nil {
		return nil
	}
	if math.IsNaN(*t) || *t < 0 || *t > MaxTemperature {
		return thinkgraph.Invalid(field, "a number from 0 to 2", fmt.Sprint(*t), "'%s' must be from 0 to 2, got %v", field, *t)
	}
	return nil
}

// maxMaxTokens bounds max_tokens (no current model answers with more).
const maxMaxTokens = 1 << 20

// write runs fn on the session of ref in a write transaction. With a
// mode (a call's first write), a session the server has not seen is started
// under its id; without (a later write of the same call), it must exist.
// fn's changes to the session are saved (so fn appends thoughts with
// addThought, which leaves that to the end).
func (lx *Tools) write(ctx context.Context, ref reasoning.SessionRef, mode string, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session) error) (*thinkgraph.Session, error) {
	var out thinkgraph.Session
	err := lx.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := lx.svc.Session(ctx, tx, ref, mode != "" || !ref.Explicit, mode)
		if err != nil {
			return err
		}
		if err := fn(tx, sess); err != nil {
			return err
		}
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		out = *sess
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ensureBranch creates branch id of the session, forking from the thought
// fork, when it does not exist yet.
func (lx *Tools) ensureBranch(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, id string, fork *thinkgraph.Thought) (created bool, err error) {
	if id == "" || id == thinkgraph.DefaultBranch {
		return false, nil
	}
	_, err = tx.Branch(ctx, sess.Key, id)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, thinkgraph.ErrNotFound) {
		return false, err
	}
	now := lx.svc.Now()
	b := &thinkgraph.Branch{Session: sess.Key, ID: id, State: "active", Priority: 1, CreatedAt: now, UpdatedAt: now}
	if fork != nil {
		b.ForkThoughtID, b.ParentBranchID = fork.ID, fork.BranchID
	}
	return true, tx.PutBranch(ctx, b)
}

func strPtr(s string) *string { return &s }

func metaJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of plain values are marshalled here
	}
	return b
}

// ---- confer ----

// ConferInput is one call of confer.
type ConferInput struct {
	Session     reasoning.SessionRef
	Message     string
	Model       string
	Temperature *float64
	MaxTokens   *int
	Call        reasoning.LLMCall
}

// ConferResult is the model's answer to a confer message: the tool's
// result.
type ConferResult struct {
	Content   string     `json:"content" jsonschema:"the model's answer"`
	Model     string     `json:"model" jsonschema:"the model that answered, as the provider reported it"`
	Usage     *llm.Usage `json:"usage" jsonschema:"token usage reported by the provider; null when it reported none"`
	SessionID string     `json:"session_id"`
	ThoughtID string     `json:"thought_id" jsonschema:"id of the answer, stored as a thought of the session"`
}

// conferState is the session metadata of confer: its last completed
// exchanges (message, answer), oldest first.
type conferState struct {
	Exchanges []conferExchange `json:"exchanges"`
}

type conferExchange struct {
	Message string `json:"message"`
	Answer  string `json:"answer"`
	// Step is the message's step in the session.
	Step int `json:"step"`
}

// conferHistory is the number of earlier exchanges sent with a message.
const conferHistory = 10

const conferSystemPrompt = "You are a helpful, precise assistant in a conversation. Answer the user's latest message; earlier messages of the conversation are given for context."

// Confer sends a chat message to a model. The conversation of the session
// (its last conferHistory exchanges) goes with it. The message is stored
// before the model is called, the answer after, as a thought written by the
// model and child of the message.
func (lx *Tools) Confer(ctx context.Context, in ConferInput) (*ConferResult, error) {
	const tool = "confer"
	if err := reasoning.ValidateContent("message", in.Message, lx.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	if err := validateTemperature("temperature", in.Temperature); err != nil {
		return nil, err
	}
	if in.MaxTokens != nil && (*in.MaxTokens < 1 || *in.MaxTokens > maxMaxTokens) {
		return nil, thinkgraph.Invalid("max_tokens", fmt.Sprintf("an integer from 1 to %d", maxMaxTokens), fmt.Sprint(*in.MaxTokens),
			"'max_tokens' must be from 1 to %d, got %d", maxMaxTokens, *in.MaxTokens)
	}
	// A named session that does not exist is reported by the first
	// transaction, before the model is called.
	p, err := lx.svc.Provider(tool, in.Session, false, in.Call)
	if err != nil {
		return nil, err
	}
	vecs := lx.svc.EmbedForWrite(ctx, in.Message)
	var msg thinkgraph.Thought
	var hist []llm.Message
	sess, err := lx.write(ctx, in.Session, "confer", func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		hist = hist[:0]
		var st conferState
		if _, err := reasoning.GetSessionMeta(sess, tool, &st); err != nil {
			return err
		}
		if len(st.Exchanges) > 0 {
			// One query from the first exchange's message on.
			ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, AfterStep: st.Exchanges[0].Step - 1})
			if err != nil {
				return err
			}
			byID := make(map[string]*thinkgraph.Thought, len(ths))
			for i := range ths {
				byID[ths[i].ID] = &ths[i]
			}
			for _, ex := range st.Exchanges {
				q, a := byID[ex.Message], byID[ex.Answer]
				if q != nil && a != nil {
					hist = append(hist, llm.Message{Role: llm.RoleUser, Content: q.Content}, llm.Message{Role: llm.RoleAssistant, Content: a.Content})
				}
			}
		}
		msg = thinkgraph.Thought{Content: in.Message, Tool: tool, Author: "client", Type: "message"}
		return lx.svc.AddInput(ctx, tx, sess, &msg, reasoning.VectorAt(vecs, 0))
	})
	if err != nil {
		return nil, err
	}
	msgs := append([]llm.Message{{Role: llm.RoleSystem, Content: conferSystemPrompt}}, hist...)
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: in.Message})
	req := llm.Request{Messages: msgs, Model: in.Model, Temperature: in.Temperature, ThreadID: sess.ID}
	if in.MaxTokens != nil {
		req.MaxTokens = *in.MaxTokens
	}
	resp, err := lx.svc.Complete(ctx, p, in.Call, req)
	if err != nil {
		return nil, err
	}
	meta := reasoning.WithModel(map[string]any{}, resp)
	if resp.Usage != nil {
		meta["usage"] = resp.Usage
	}
	vecs = lx.svc.EmbedForWrite(ctx, resp.Content)
	answer := thinkgraph.Thought{Content: resp.Content, Tool: tool, Author: reasoning.Author(resp), Type: "answer",
		ParentID: msg.ID, BranchID: msg.BranchID, Metadata: metaJSON(meta)}
	se, err := lx.write(ctx, reasoning.SessionRef{ID: sess.ID, Explicit: true, Tenant: sess.Tenant}, "", func(tx thinkgraph.Tx, se *thinkgraph.Session) error {
		a := answer
		if err := lx.svc.AddThought(ctx, tx, se, &a, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		var st conferState
		if _, err := reasoning.GetSessionMeta(se, tool, &st); err != nil {
			return err
		}
		st.Exchanges = append(st.Exchanges, conferExchange{Message: msg.ID, Answer: a.ID, Step: msg.Step})
		if len(st.Exchanges) > conferHistory {
			st.Exchanges = st.Exchanges[len(st.Exchanges)-conferHistory:]
		}
		answer = a
		return reasoning.SetSessionMeta(se, tool, st)
	})
	if err != nil {
		return nil, err
	}
	model := resp.Model
	if model == "" {
		model = reasoning.Author(resp)
	}
	return &ConferResult{Content: answer.Content, Model: model, Usage: resp.Usage, SessionID: se.ID, ThoughtID: answer.ID}, nil
}
