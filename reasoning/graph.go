package reasoning

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// MaxAlternatives bounds the alternatives of one select_path call.
const MaxAlternatives = 20

// Alternative is one proposed thought at a branch point.
type Alternative struct {
	Thought    string
	Confidence *float64
}

// SelectInput is a select_path call: either new Alternatives with the
// SelectedIndex to follow, or the NodeID of an existing thought (typically an
// alternative proposed earlier) to follow now.
type SelectInput struct {
	Session       SessionRef
	Alternatives  []Alternative
	SelectedIndex *int
	NodeID        string
}

// SelectResult is what select_path did.
type SelectResult struct {
	Session  thinkgraph.Session
	Selected thinkgraph.Thought
	// Created are the alternatives written by this call, in input order.
	Created []thinkgraph.Thought
	// Parent is the branch point the alternatives hang from (nil for roots).
	Parent *thinkgraph.Thought
}

func (in *SelectInput) validate(maxLen int) error {
	if in.NodeID != "" {
		if len(in.Alternatives) > 0 || in.SelectedIndex != nil {
			return thinkgraph.Invalid("node_id", "either node_id alone, or alternatives with selected_index", "both",
				"give either 'node_id' (to follow an existing alternative) or 'alternatives' with 'selected_index' (to propose new ones), not both")
		}
		return nil
	}
	if len(in.Alternatives) == 0 {
		return thinkgraph.Invalid("alternatives", "a non-empty array of {thought, confidence}", "none",
			"'alternatives' is required: give a non-empty array of {thought, confidence} and the 'selected_index' to follow, or 'node_id' to follow an existing alternative")
	}
	if len(in.Alternatives) > MaxAlternatives {
		return thinkgraph.Invalid("alternatives", fmt.Sprintf("at most %d alternatives", MaxAlternatives), fmt.Sprintf("%d", len(in.Alternatives)),
			"'alternatives' has %d entries; at most %d are allowed", len(in.Alternatives), MaxAlternatives)
	}
	for i, a := range in.Alternatives {
		if err := validateContent(fmt.Sprintf("alternatives[%d].thought", i), a.Thought, maxLen); err != nil {
			return err
		}
		field := fmt.Sprintf("alternatives[%d].confidence", i)
		if a.Confidence == nil {
			return thinkgraph.Invalid(field, "a number from 0 to 1", "none", "'%s' is required: a number from 0 to 1", field)
		}
		if err := ValidateConfidence(field, a.Confidence); err != nil {
			return err
		}
	}
	if in.SelectedIndex == nil {
		return thinkgraph.Invalid("selected_index", fmt.Sprintf("an integer from 0 to %d", len(in.Alternatives)-1), "none",
			"'selected_index' is required: the 0-based index of the alternative to follow, from 0 to %d", len(in.Alternatives)-1)
	}
	if i := *in.SelectedIndex; i < 0 || i >= len(in.Alternatives) {
		return thinkgraph.Invalid("selected_index", fmt.Sprintf("an integer from 0 to %d", len(in.Alternatives)-1), fmt.Sprint(i),
			"'selected_index' %d is out of range: with %d alternatives it must be from 0 to %d", i, len(in.Alternatives), len(in.Alternatives)-1)
	}
	return nil
}

// SelectPath writes the alternatives as children of the current thought
// (which becomes a branch point), marks the chosen one selected and makes it
// current — all in one transaction. With NodeID it follows an existing
// thought instead, marking it selected if it is an alternative.
func (s *Service) SelectPath(ctx context.Context, in SelectInput) (*SelectResult, error) {
	if err := in.validate(s.cfg.MaxThoughtLength); err != nil {
		return nil, err
	}
	var vecs []semantic.Vector
	if in.NodeID == "" {
		texts := make([]string, len(in.Alternatives))
		for i, a := range in.Alternatives {
			texts[i] = a.Thought
		}
		vecs = s.embedForWrite(ctx, texts...)
	}
	var res SelectResult
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		res = SelectResult{}
		if in.NodeID != "" {
			sess, err := s.session(ctx, tx, in.Session, false, "")
			if err != nil {
				return err
			}
			th, err := s.thought(ctx, tx, sess, "node_id", in.NodeID)
			if err != nil {
				return err
			}
			if th.Alternative && !th.Selected {
				th.Selected = true
				if err := tx.UpdateThought(ctx, th); err != nil {
					return err
				}
			}
			sess.CurrentThoughtID = th.ID
			sess.ActiveBranch = th.BranchID
			sess.UpdatedAt = s.now()
			if err := tx.UpdateSession(ctx, sess); err != nil {
				return err
			}
			res.Session, res.Selected = *sess, *th
			return nil
		}

		sess, err := s.session(ctx, tx, in.Session, true, "graph")
		if err != nil {
			return err
		}
		parentID := sess.CurrentThoughtID
		if parentID != "" {
			parent, err := tx.Thought(ctx, sess.Key, parentID)
			if err != nil {
				return err
			}
			if !parent.BranchPoint {
				parent.BranchPoint = true
				if err := tx.UpdateThought(ctx, parent); err != nil {
					return err
				}
			}
			res.Parent = parent
		}
		var selected *thinkgraph.Thought
		for i, a := range in.Alternatives {
			th := &thinkgraph.Thought{
				Content: a.Thought, Confidence: a.Confidence, ParentID: parentID,
				Alternative: true, Selected: i == *in.SelectedIndex, Tool: "select_path",
			}
			// appendThought makes each new thought current; reset the
			// pointer so every alternative hangs from the branch point.
			sess.CurrentThoughtID = parentID
			if err := s.appendThought(ctx, tx, sess, th, vectorAt(vecs, i)); err != nil {
				return err
			}
			res.Created = append(res.Created, *th)
			if th.Selected {
				selected = th
			}
		}
		sess.CurrentThoughtID = selected.ID
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		res.Session, res.Selected = *sess, *selected
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// thought loads a thought of the session named by a caller's field, as a
// ThoughtNotFound error naming that field when it does not exist.
func (s *Service) thought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field, id string) (*thinkgraph.Thought, error) {
	th, err := tx.Thought(ctx, sess.Key, id)
	if errors.Is(err, thinkgraph.ErrNotFound) {
		return nil, &thinkgraph.Error{
			Code: thinkgraph.CodeThoughtNotFound, Field: field, Expected: "the id of a thought in this session", Received: clip(id, 64),
			Message:     fmt.Sprintf("'%s': no thought %q in session %q", field, clip(id, 64), sess.ID),
			Suggestions: []string{"use a node_id returned by think, select_path, show_current_path or get_unexplored_branches"},
		}
	}
	return th, err
}

// BacktrackResult is what backtrack did. Target is nil when there was no
// thought to return to (status no_target); the current thought is unchanged.
type BacktrackResult struct {
	Session thinkgraph.Session
	From    *thinkgraph.Thought
	Target  *thinkgraph.Thought
}

// Backtrack walks from the current thought's parent toward the root and
// makes the nearest thought with a known confidence at or above the
// threshold current. It never stays in place: the current thought itself is
// not a target. Thoughts without a confidence are never targets.
func (s *Service) Backtrack(ctx context.Context, ref SessionRef) (*BacktrackResult, error) {
	var res BacktrackResult
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		res = BacktrackResult{}
		sess, err := s.session(ctx, tx, ref, !ref.Explicit, "graph")
		if err != nil {
			return err
		}
		res.Session = *sess
		if sess.CurrentThoughtID == "" {
			return nil
		}
		path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
		if err != nil {
			return err
		}
		res.From = &path[len(path)-1]
		for i := len(path) - 2; i >= 0; i-- {
			if c := path[i].Confidence; c != nil && *c >= s.cfg.ConfidenceThreshold {
				res.Target = &path[i]
				break
			}
		}
		if res.Target == nil {
			return nil
		}
		sess.CurrentThoughtID = res.Target.ID
		sess.ActiveBranch = res.Target.BranchID
		sess.UpdatedAt = s.now()
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		res.Session = *sess
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// CurrentPath returns the thoughts from the root to the current thought.
func (s *Service) CurrentPath(ctx context.Context, ref SessionRef) (*thinkgraph.Session, []thinkgraph.Thought, error) {
	var sess *thinkgraph.Session
	var path []thinkgraph.Thought
	err := s.ViewOrEmpty(ctx, ref, func(tx thinkgraph.Tx, se *thinkgraph.Session) error {
		sess = se
		if se.CurrentThoughtID == "" {
			return nil
		}
		var err error
		path, err = tx.Ancestors(ctx, se.Key, se.CurrentThoughtID)
		return err
	})
	return sess, path, err
}

// Unexplored is a branch point with alternatives that were never selected.
type Unexplored struct {
	BranchPoint  thinkgraph.Thought
	Alternatives []thinkgraph.Thought
}

// UnexploredBranches lists every branch point of the session that has
// alternatives never selected, in step order.
func (s *Service) UnexploredBranches(ctx context.Context, ref SessionRef) (*thinkgraph.Session, []Unexplored, error) {
	var sess *thinkgraph.Session
	var out []Unexplored
	err := s.ViewOrEmpty(ctx, ref, func(tx thinkgraph.Tx, se *thinkgraph.Session) error {
		sess = se
		// Only the open alternatives and their parents are read, not the
		// whole session.
		alts, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: se.Key, OpenAlternatives: true})
		if err != nil {
			return err
		}
		open := map[string][]thinkgraph.Thought{}
		var parents []string
		for _, th := range alts {
			if _, seen := open[th.ParentID]; !seen && th.ParentID != "" {
				parents = append(parents, th.ParentID)
			}
			open[th.ParentID] = append(open[th.ParentID], th)
		}
		for _, id := range parents {
			bp, err := tx.Thought(ctx, se.Key, id)
			if errors.Is(err, thinkgraph.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if bp.BranchPoint {
				out = append(out, Unexplored{BranchPoint: *bp, Alternatives: open[id]})
			}
		}
		// Branch points in step order, as the session was written.
		slices.SortFunc(out, func(a, b Unexplored) int { return cmp.Compare(a.BranchPoint.Step, b.BranchPoint.Step) })
		return nil
	})
	return sess, out, err
}

// ViewOrEmpty is View, except that the not-yet-created session of a
// connection reads as an empty session rather than an error.
func (s *Service) ViewOrEmpty(ctx context.Context, ref SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session) error) error {
	err := s.View(ctx, ref, fn)
	var te *thinkgraph.Error
	if !ref.Explicit && errors.As(err, &te) && te.Code == thinkgraph.CodeSessionNotFound {
		return s.store.View(ctx, func(tx thinkgraph.Tx) error {
			return fn(tx, &thinkgraph.Session{ID: ref.ID, Tenant: ref.Tenant, ActiveBranch: thinkgraph.DefaultBranch})
		})
	}
	return err
}
