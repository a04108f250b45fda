// Package sequential holds the sequentialthinking tool of
// @modelcontextprotocol/server-sequential-thinking: numbered thoughts that
// can be revised and branched, kept in a persisted session.
package sequential

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Thinking runs sequentialthinking on a reasoning service.
type Thinking struct {
	svc *reasoning.Service
}

// New returns the sequentialthinking tool of svc.
func New(svc *reasoning.Service) *Thinking { return &Thinking{svc: svc} }

// Input is one call of the sequentialthinking tool, with the fields of
// @modelcontextprotocol/server-sequential-thinking.
type Input struct {
	Session           reasoning.SessionRef
	Thought           string
	NextThoughtNeeded bool
	ThoughtNumber     int
	TotalThoughts     int
	IsRevision        bool
	RevisesThought    *int
	BranchFromThought *int
	BranchID          string
	NeedsMoreThoughts bool
}

// Output has the fields of the official server's result, plus the
// recorded thought, the session and the thought's node id.
type Output struct {
	ThoughtNumber        int      `json:"thoughtNumber"`
	TotalThoughts        int      `json:"totalThoughts"`
	NextThoughtNeeded    bool     `json:"nextThoughtNeeded"`
	Branches             []string `json:"branches" jsonschema:"the session's branches, at most the 20 written to last"`
	BranchesOmitted      int      `json:"branchesOmitted,omitempty" jsonschema:"branches left out of branches"`
	ThoughtHistoryLength int      `json:"thoughtHistoryLength" jsonschema:"thoughts in this session's history"`
	Thought              string   `json:"thought" jsonschema:"the thought as recorded, clipped to 300 characters"`
	SessionID            string   `json:"session_id"`
	NodeID               string   `json:"node_id" jsonschema:"id of the recorded thought in the session graph"`
	BranchID             string   `json:"branchId,omitempty"`
}

// maxBranches is how many branches a result lists.
const maxBranches = 20

// sequentialMeta is stored as the metadata of a sequential thought.
type sequentialMeta struct {
	ThoughtNumber     int  `json:"thoughtNumber"`
	TotalThoughts     int  `json:"totalThoughts"`
	NextThoughtNeeded bool `json:"nextThoughtNeeded"`
	NeedsMoreThoughts bool `json:"needsMoreThoughts,omitempty"`
	IsRevision        bool `json:"isRevision,omitempty"`
	RevisesThought    int  `json:"revisesThought,omitempty"`
	BranchFromThought int  `json:"branchFromThought,omitempty"`
}

func (in *Input) validate(maxLen int) error {
	// An empty thought is accepted, as the official server accepts it.
	if err := reasoning.ValidateText("thought", in.Thought, maxLen); err != nil {
		return err
	}
	if in.ThoughtNumber < 1 {
		return thinkgraph.Invalid("thoughtNumber", "an integer ≥ 1", fmt.Sprint(in.ThoughtNumber), "'thoughtNumber' must be an integer ≥ 1, got %d", in.ThoughtNumber)
	}
	if in.TotalThoughts < 1 {
		return thinkgraph.Invalid("totalThoughts", "an integer ≥ 1", fmt.Sprint(in.TotalThoughts), "'totalThoughts' must be an integer ≥ 1, got %d", in.TotalThoughts)
	}
	if in.RevisesThought != nil && *in.RevisesThought < 1 {
		return thinkgraph.Invalid("revisesThought", "an integer ≥ 1", fmt.Sprint(*in.RevisesThought), "'revisesThought' must be an integer ≥ 1")
	}
	if in.BranchFromThought != nil && *in.BranchFromThought < 1 {
		return thinkgraph.Invalid("branchFromThought", "an integer ≥ 1", fmt.Sprint(*in.BranchFromThought), "'branchFromThought' must be an integer ≥ 1")
	}
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return err
		}
	}
	return nil
}

// Think records one thought of sequential thinking, accepting what the
// official server accepts. A thoughtNumber above totalThoughts raises
// totalThoughts. A revision is stored as a revision of the thought
// revisesThought names when the session has it (the number is recorded
// either way). branchFromThought with branchId starts a branch of the graph
// forking from that thought (from the current thought when the session has
// no thought with that number); later thoughts with the same branchId
// continue it. A thought without branchId goes to the main line, as a child
// of its latest thought.
func (q *Thinking) Think(ctx context.Context, in Input) (*Output, error) {
	if in.RevisesThought != nil && !in.IsRevision {
		in.IsRevision = true // revisesThought alone says it is a revision
	}
	if err := in.validate(q.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	total := max(in.TotalThoughts, in.ThoughtNumber)
	vecs := q.svc.EmbedForWrite(ctx, in.Thought)
	var out Output
	err := q.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := q.svc.Session(ctx, tx, in.Session, true, "sequential")
		if err != nil {
			return err
		}
		meta := sequentialMeta{
			ThoughtNumber: in.ThoughtNumber, TotalThoughts: total, NextThoughtNeeded: in.NextThoughtNeeded,
			NeedsMoreThoughts: in.NeedsMoreThoughts, IsRevision: in.IsRevision,
		}
		if in.BranchFromThought != nil {
			meta.BranchFromThought = *in.BranchFromThought
		}
		th := &thinkgraph.Thought{Content: in.Thought, Tool: "sequentialthinking", Author: "client"}
		if in.RevisesThought != nil {
			meta.RevisesThought = *in.RevisesThought
			revised, err := q.sequentialThought(ctx, tx, sess, *in.RevisesThought)
			if err != nil {
				return err
			}
			if revised != nil {
				th.RevisesID = revised.ID
			}
		}
		if in.BranchID != "" {
			err = q.enterBranch(ctx, tx, sess, in, th)
		} else {
			err = q.mainLine(ctx, tx, sess, th)
		}
		if err != nil {
			return err
		}
		if th.Metadata, err = json.Marshal(meta); err != nil {
			return err
		}
		if err := q.svc.AppendThought(ctx, tx, sess, th, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		branches, err := tx.Branches(ctx, sess.Key)
		if err != nil {
			return err
		}
		out = Output{
			ThoughtNumber: in.ThoughtNumber, TotalThoughts: total, NextThoughtNeeded: in.NextThoughtNeeded,
			Branches: []string{}, ThoughtHistoryLength: sess.StepCount, Thought: thinkgraph.Clip(th.Content, reasoning.EchoClip),
			SessionID: sess.ID, NodeID: th.ID,
		}
		branches = slices.DeleteFunc(branches, func(b thinkgraph.Branch) bool { return b.ID == thinkgraph.DefaultBranch })
		if len(branches) > maxBranches {
			// The branches written to last, in the order they were made.
			latest := slices.Clone(branches)
			slices.SortStableFunc(latest, func(a, b thinkgraph.Branch) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
			keep := map[string]bool{}
			for _, b := range latest[:maxBranches] {
				keep[b.ID] = true
			}
			out.BranchesOmitted = len(branches) - maxBranches
			branches = slices.DeleteFunc(branches, func(b thinkgraph.Branch) bool { return !keep[b.ID] })
		}
		for _, b := range branches {
			out.Branches = append(out.Branches, b.ID)
		}
		if th.BranchID != thinkgraph.DefaultBranch {
			out.BranchID = th.BranchID
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// mainLine puts th on the main branch. When the session was on another
// branch, th continues main's latest thought and main becomes active again.
func (q *Thinking) mainLine(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought) error {
	th.BranchID = thinkgraph.DefaultBranch
	if sess.ActiveBranch == thinkgraph.DefaultBranch {
		return nil
	}
	sess.ActiveBranch = thinkgraph.DefaultBranch
	return continueBranch(ctx, tx, sess, th)
}

// continueBranch makes th a child of the latest thought on its branch, if
// the branch has one.
func continueBranch(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought) error {
	last, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: th.BranchID, Last: 1})
	if err != nil {
		return err
	}
	if len(last) > 0 {
		th.ParentID = last[0].ID
	}
	return nil
}

// enterBranch puts th on branch in.BranchID, creating the branch (forking
// from thought branchFromThought when the session has it, or else from the
// current thought) when it does not exist, and attaching th to the branch's
// latest thought when it does.
func (q *Thinking) enterBranch(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, in Input, th *thinkgraph.Thought) error {
	th.BranchID = in.BranchID
	sess.ActiveBranch = in.BranchID
	_, err := tx.Branch(ctx, sess.Key, in.BranchID)
	if err == nil {
		return continueBranch(ctx, tx, sess, th)
	}
	if !errors.Is(err, thinkgraph.ErrNotFound) {
		return err
	}
	var fork *thinkgraph.Thought
	if in.BranchFromThought != nil {
		if fork, err = q.sequentialThought(ctx, tx, sess, *in.BranchFromThought); err != nil {
			return err
		}
	}
	if fork == nil && sess.CurrentThoughtID != "" {
		if fork, err = tx.Thought(ctx, sess.Key, sess.CurrentThoughtID); err != nil {
			return err
		}
	}
	now := q.svc.Now()
	b := &thinkgraph.Branch{Session: sess.Key, ID: in.BranchID, State: "active", Priority: 1, CreatedAt: now, UpdatedAt: now}
	if fork != nil {
		b.ForkThoughtID, b.ParentBranchID = fork.ID, fork.BranchID
		th.ParentID = fork.ID
	}
	return tx.PutBranch(ctx, b)
}

// sequentialThought finds the latest sequential thought of the session with
// the given thoughtNumber, or nil when it has none.
func (q *Thinking) sequentialThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, number int) (*thinkgraph.Thought, error) {
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
	if err != nil {
		return nil, err
	}
	for i := len(ths) - 1; i >= 0; i-- {
		if ths[i].Tool != "sequentialthinking" {
			continue
		}
		var m sequentialMeta
		if json.Unmarshal(ths[i].Metadata, &m) == nil && m.ThoughtNumber == number {
			return &ths[i], nil
		}
	}
	return nil, nil
}
