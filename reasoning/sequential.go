package reasoning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/thinkgraph/thinkgraph"
)

// SequentialInput is one call of the sequentialthinking tool, with the
// fields of @modelcontextprotocol/server-sequential-thinking.
type SequentialInput struct {
	Session           SessionRef
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

// SequentialResult is what sequentialthinking recorded.
type SequentialResult struct {
	Session       thinkgraph.Session
	Thought       thinkgraph.Thought
	TotalThoughts int
	// Branches are the session's branches other than main.
	Branches []string
}

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

// ValidateBranchID checks a caller-supplied branch id.
func ValidateBranchID(field, id string) error {
	if !thinkgraph.ValidName(id, 64, "._:@/ -") {
		return thinkgraph.Invalid(field, "1 to 64 letters, digits, spaces or . _ : @ / -, starting with a letter or digit", clip(id, 64),
			"'%s' must be 1 to 64 letters, digits, spaces or . _ : @ / -, starting with a letter or digit", field)
	}
	return nil
}

func (in *SequentialInput) validate(maxLen int) error {
	// An empty thought is accepted, as the official server accepts it.
	if err := validateText("thought", in.Thought, maxLen); err != nil {
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
		if err := ValidateBranchID("branchId", in.BranchID); err != nil {
			return err
		}
	}
	return nil
}

// Sequential records one thought of sequential thinking, accepting what the
// official server accepts. A thoughtNumber above totalThoughts raises
// totalThoughts. A revision is stored as a revision of the thought
// revisesThought names when the session has it (the number is recorded
// either way). branchFromThought with branchId starts a branch of the graph
// forking from that thought (from the current thought when the session has
// no thought with that number); later thoughts with the same branchId
// continue it. A thought without branchId goes to the main line, as a child
// of its latest thought.
func (s *Service) Sequential(ctx context.Context, in SequentialInput) (*SequentialResult, error) {
	if in.RevisesThought != nil && !in.IsRevision {
		in.IsRevision = true // revisesThought alone says it is a revision
	}
	if err := in.validate(s.cfg.MaxThoughtLength); err != nil {
		return nil, err
	}
	total := max(in.TotalThoughts, in.ThoughtNumber)
	vecs := s.embedForWrite(ctx, in.Thought)
	var res SequentialResult
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		res = SequentialResult{}
		sess, err := s.session(ctx, tx, in.Session, true, "sequential")
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
			revised, err := s.sequentialThought(ctx, tx, sess, *in.RevisesThought)
			if err != nil {
				return err
			}
			if revised != nil {
				th.RevisesID = revised.ID
			}
		}
		if in.BranchID != "" {
			err = s.enterBranch(ctx, tx, sess, in, th)
		} else {
			err = s.mainLine(ctx, tx, sess, th)
		}
		if err != nil {
			return err
		}
		if th.Metadata, err = json.Marshal(meta); err != nil {
			return err
		}
		if err := s.appendThought(ctx, tx, sess, th, vectorAt(vecs, 0)); err != nil {
			return err
		}
		branches, err := tx.Branches(ctx, sess.Key)
		if err != nil {
			return err
		}
		res.Branches = []string{}
		for _, b := range branches {
			if b.ID != thinkgraph.DefaultBranch {
				res.Branches = append(res.Branches, b.ID)
			}
		}
		res.Session, res.Thought, res.TotalThoughts = *sess, *th, total
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// mainLine puts th on the main branch. When the session was on another
// branch, th continues main's latest thought and main becomes active again.
func (s *Service) mainLine(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought) error {
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
func (s *Service) enterBranch(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, in SequentialInput, th *thinkgraph.Thought) error {
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
		if fork, err = s.sequentialThought(ctx, tx, sess, *in.BranchFromThought); err != nil {
			return err
		}
	}
	if fork == nil && sess.CurrentThoughtID != "" {
		if fork, err = tx.Thought(ctx, sess.Key, sess.CurrentThoughtID); err != nil {
			return err
		}
	}
	now := s.now()
	b := &thinkgraph.Branch{Session: sess.Key, ID: in.BranchID, State: "active", Priority: 1, CreatedAt: now, UpdatedAt: now}
	if fork != nil {
		b.ForkThoughtID, b.ParentBranchID = fork.ID, fork.BranchID
		th.ParentID = fork.ID
	}
	return tx.PutBranch(ctx, b)
}

// sequentialThought finds the latest sequential thought of the session with
// the given thoughtNumber, or nil when it has none.
func (s *Service) sequentialThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, number int) (*thinkgraph.Thought, error) {
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
