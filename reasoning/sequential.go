package reasoning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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
	if err := validateContent("thought", in.Thought, maxLen); err != nil {
		return err
	}
	if in.ThoughtNumber < 1 {
		return thinkgraph.Invalid("thoughtNumber", "an integer ≥ 1", fmt.Sprint(in.ThoughtNumber), "'thoughtNumber' must be an integer ≥ 1, got %d", in.ThoughtNumber)
	}
	if in.TotalThoughts < 1 {
		return thinkgraph.Invalid("totalThoughts", "an integer ≥ 1", fmt.Sprint(in.TotalThoughts), "'totalThoughts' must be an integer ≥ 1, got %d", in.TotalThoughts)
	}
	if in.IsRevision && in.RevisesThought == nil {
		return thinkgraph.Invalid("revisesThought", "the thoughtNumber of the thought being revised", "none",
			"'revisesThought' is required when 'isRevision' is true: the thoughtNumber of the thought you revise")
	}
	if in.RevisesThought != nil && *in.RevisesThought < 1 {
		return thinkgraph.Invalid("revisesThought", "an integer ≥ 1", fmt.Sprint(*in.RevisesThought), "'revisesThought' must be an integer ≥ 1")
	}
	if in.BranchFromThought != nil {
		if *in.BranchFromThought < 1 {
			return thinkgraph.Invalid("branchFromThought", "an integer ≥ 1", fmt.Sprint(*in.BranchFromThought), "'branchFromThought' must be an integer ≥ 1")
		}
		if in.BranchID == "" {
			return thinkgraph.Invalid("branchId", "a branch name", "none", "'branchId' is required with 'branchFromThought': name the new branch")
		}
	}
	if in.BranchID != "" {
		if err := ValidateBranchID("branchId", in.BranchID); err != nil {
			return err
		}
	}
	return nil
}

// Sequential records one thought of sequential thinking. A thoughtNumber
// above totalThoughts raises totalThoughts. A revision is stored as a
// revision of the thought it names (an error if that thought does not
// exist). branchFromThought with branchId starts a branch of the graph
// forking from that thought; later thoughts with the same branchId continue
// it. Thoughts without branchId go to the session's active branch.
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
		th := &thinkgraph.Thought{Content: in.Thought, Tool: "sequentialthinking", Author: "client"}
		if in.IsRevision {
			revised, err := s.sequentialThought(ctx, tx, sess, "revisesThought", *in.RevisesThought)
			if err != nil {
				return err
			}
			th.RevisesID = revised.ID
			meta.RevisesThought = *in.RevisesThought
		}
		if in.BranchID != "" {
			if err := s.enterBranch(ctx, tx, sess, in, th, &meta); err != nil {
				return err
			}
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

// enterBranch puts th on branch in.BranchID, creating the branch (forking
// from thought branchFromThought, or else from the current thought) when it
// does not exist, and attaching th to the branch's latest thought when it
// does.
func (s *Service) enterBranch(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, in SequentialInput, th *thinkgraph.Thought, meta *sequentialMeta) error {
	th.BranchID = in.BranchID
	sess.ActiveBranch = in.BranchID
	_, err := tx.Branch(ctx, sess.Key, in.BranchID)
	if err == nil {
		if in.BranchFromThought != nil {
			meta.BranchFromThought = *in.BranchFromThought
		}
		last, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: in.BranchID, Last: 1})
		if err != nil {
			return err
		}
		if len(last) > 0 {
			th.ParentID = last[0].ID
		}
		return nil
	}
	if !errors.Is(err, thinkgraph.ErrNotFound) {
		return err
	}
	var fork *thinkgraph.Thought
	if in.BranchFromThought != nil {
		if fork, err = s.sequentialThought(ctx, tx, sess, "branchFromThought", *in.BranchFromThought); err != nil {
			return err
		}
		meta.BranchFromThought = *in.BranchFromThought
	} else if sess.CurrentThoughtID != "" {
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
// the given thoughtNumber.
func (s *Service) sequentialThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field string, number int) (*thinkgraph.Thought, error) {
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
	if err != nil {
		return nil, err
	}
	var numbers []int
	for i := len(ths) - 1; i >= 0; i-- {
		if ths[i].Tool != "sequentialthinking" {
			continue
		}
		var m sequentialMeta
		if json.Unmarshal(ths[i].Metadata, &m) != nil {
			continue
		}
		if m.ThoughtNumber == number {
			return &ths[i], nil
		}
		numbers = append(numbers, m.ThoughtNumber)
	}
	slices.Sort(numbers)
	numbers = slices.Compact(numbers)
	have := "this session has no sequential thoughts yet"
	if len(numbers) > 0 {
		have = fmt.Sprintf("this session has thoughts %d to %d", numbers[0], numbers[len(numbers)-1])
	}
	return nil, &thinkgraph.Error{
		Code: thinkgraph.CodeThoughtNotFound, Field: field, Expected: "the thoughtNumber of an earlier thought in this session",
		Received: fmt.Sprint(number),
		Message:  fmt.Sprintf("'%s': there is no thought number %d in session %q; %s", field, number, sess.ID, have),
	}
}
