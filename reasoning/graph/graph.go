// Package graph holds the confidence-graph tools (docs/graph.md):
// select_path, backtrack, show_current_path and get_unexplored_branches.
// A think thought with a low confidence is a branch point; select_path
// records alternatives under it and follows one, backtrack returns to the
// nearest confident thought.
package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// MaxAlternatives bounds the alternatives of one select_path call.
const MaxAlternatives = 20

// Graph runs the confidence-graph tools on a reasoning service.
type Graph struct {
	svc *reasoning.Service
}

// New returns the confidence-graph tools of svc.
func New(svc *reasoning.Service) *Graph { return &Graph{svc: svc} }

// Alternative is one proposed thought at a branch point.
type Alternative struct {
	Thought    string
	Confidence *float64
}

// SelectInput is a select_path call: either new Alternatives with the
// SelectedIndex to follow, or the NodeID of an existing thought (typically an
// alternative proposed earlier) to follow now.
type SelectInput struct {
	Session       reasoning.SessionRef
	Alternatives  []Alternative
	SelectedIndex *int
	NodeID        string
}

// Node is a thought as the graph tools show it.
type Node struct {
	NodeID     string   `json:"node_id"`
	Step       int      `json:"step,omitempty" jsonschema:"the thought's step in the session: node_id takes it as \"#8\""`
	Thought    string   `json:"thought"`
	Confidence *float64 `json:"confidence" jsonschema:"null when the thought was written without a confidence"`
}

func node(th thinkgraph.Thought) Node {
	return Node{NodeID: th.ID, Step: th.Step, Thought: th.Content, Confidence: th.Confidence}
}

// listClip is how much of a thought's text the lists of this family
// (the path, the unexplored alternatives) show.
const listClip = 300

// PathNode is a thought of show_current_path.
type PathNode struct {
	NodeID      string   `json:"node_id"`
	Step        int      `json:"step,omitempty"`
	Thought     string   `json:"thought"`
	Confidence  *float64 `json:"confidence"`
	BranchPoint bool     `json:"branch_point"`
}

// pathPage bounds show_current_path: the latest thoughts of the path.
var pathPage = reasoning.PageSize{Default: 10, Max: 100, Bytes: 8 << 10}

// unexploredPage bounds get_unexplored_branches: the latest branch
// points first.
var unexploredPage = reasoning.PageSize{Default: 10, Max: 100, Bytes: 8 << 10}

// maxAlternatives is how many open alternatives of one branch point
// get_unexplored_branches shows (unexplored_count counts them all).
const maxAlternatives = 5

// AlternativeNode is an alternative written by select_path.
type AlternativeNode struct {
	NodeID     string   `json:"node_id"`
	Thought    string   `json:"thought"`
	Confidence *float64 `json:"confidence"`
	Selected   bool     `json:"selected"`
}

// SelectOutput is select_path's result.
type SelectOutput struct {
	Status          string            `json:"status"`
	Message         string            `json:"message"`
	SelectedThought string            `json:"selected_thought"`
	CurrentNodeID   string            `json:"current_node_id"`
	SessionID       string            `json:"session_id"`
	BranchNodeID    string            `json:"branch_node_id,omitempty" jsonschema:"the branch point the alternatives hang from"`
	Alternatives    []AlternativeNode `json:"alternatives,omitempty" jsonschema:"the alternatives written by this call"`
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
		if err := reasoning.ValidateContent(fmt.Sprintf("alternatives[%d].thought", i), a.Thought, maxLen); err != nil {
			return err
		}
		field := fmt.Sprintf("alternatives[%d].confidence", i)
		if a.Confidence == nil {
			return thinkgraph.Invalid(field, "a number from 0 to 1", "none", "'%s' is required: a number from 0 to 1", field)
		}
		if err := reasoning.ValidateConfidence(field, a.Confidence); err != nil {
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
func (g *Graph) SelectPath(ctx context.Context, in SelectInput) (*SelectOutput, error) {
	if err := in.validate(g.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	var vecs []semantic.Vector
	if in.NodeID == "" {
		texts := make([]string, len(in.Alternatives))
		for i, a := range in.Alternatives {
			texts[i] = a.Thought
		}
		vecs = g.svc.EmbedForWrite(ctx, texts...)
	}
	var out SelectOutput
	err := g.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		out = SelectOutput{Status: "success"}
		if in.NodeID != "" {
			sess, err := g.svc.Session(ctx, tx, in.Session, false, "")
			if err != nil {
				return err
			}
			th, err := g.svc.Thought(ctx, tx, sess, "node_id", in.NodeID)
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
			sess.UpdatedAt = g.svc.Now()
			if err := tx.UpdateSession(ctx, sess); err != nil {
				return err
			}
			out.SelectedThought, out.CurrentNodeID, out.SessionID = th.Content, th.ID, sess.ID
			out.Message = fmt.Sprintf("Now following thought #%d.", th.Step)
			return nil
		}

		sess, err := g.svc.Session(ctx, tx, in.Session, true, "graph")
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
			out.BranchNodeID = parent.ID
		}
		var selected *thinkgraph.Thought
		for i, a := range in.Alternatives {
			th := &thinkgraph.Thought{
				Content: a.Thought, Confidence: a.Confidence, ParentID: parentID,
				Alternative: true, Selected: i == *in.SelectedIndex, Tool: "select_path",
			}
			// AppendThought makes each new thought current; reset the
			// pointer so every alternative hangs from the branch point.
			sess.CurrentThoughtID = parentID
			if err := g.svc.AppendThought(ctx, tx, sess, th, reasoning.VectorAt(vecs, i)); err != nil {
				return err
			}
			out.Alternatives = append(out.Alternatives, AlternativeNode{NodeID: th.ID, Thought: th.Content, Confidence: th.Confidence, Selected: th.Selected})
			if th.Selected {
				selected = th
			}
		}
		sess.CurrentThoughtID = selected.ID
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		out.SelectedThought, out.CurrentNodeID, out.SessionID = selected.Content, selected.ID, sess.ID
		out.Message = fmt.Sprintf("Recorded %d alternatives; following alternative %d. The other %d stay unexplored.",
			len(out.Alternatives), *in.SelectedIndex, len(out.Alternatives)-1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// BacktrackOutput is backtrack's result.
type BacktrackOutput struct {
	Status        string `json:"status" jsonschema:"success or no_target"`
	Message       string `json:"message"`
	BacktrackedTo *Node  `json:"backtracked_to" jsonschema:"the thought that is now current; null with no_target"`
	CurrentNodeID string `json:"current_node_id"`
	SessionID     string `json:"session_id"`
}

// Backtrack walks from the current thought's parent toward the root and
// makes the nearest thought with a known confidence at or above the
// threshold current. It never stays in place: the current thought itself is
// not a target. Thoughts without a confidence are never targets. With no
// thought to return to, the status is no_target and the current thought is
// unchanged.
func (g *Graph) Backtrack(ctx context.Context, ref reasoning.SessionRef) (*BacktrackOutput, error) {
	threshold := g.svc.Config().ConfidenceThreshold
	var out BacktrackOutput
	err := g.svc.Store().Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := g.svc.Session(ctx, tx, ref, !ref.Explicit, "graph")
		if err != nil {
			return err
		}
		out = BacktrackOutput{Status: "no_target", SessionID: sess.ID, CurrentNodeID: sess.CurrentThoughtID,
			Message: "The session has no thoughts yet; nothing to backtrack to."}
		if sess.CurrentThoughtID == "" {
			return nil
		}
		path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
		if err != nil {
			return err
		}
		var target *thinkgraph.Thought
		for i := len(path) - 2; i >= 0; i-- {
			if c := path[i].Confidence; c != nil && *c >= threshold {
				target = &path[i]
				break
			}
		}
		if target == nil {
			out.Message = fmt.Sprintf("No thought before the current one has confidence ≥ %.2g; the current thought is unchanged.", threshold)
			return nil
		}
		sess.CurrentThoughtID = target.ID
		sess.ActiveBranch = target.BranchID
		sess.UpdatedAt = g.svc.Now()
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		n := node(*target)
		out.Status, out.BacktrackedTo, out.CurrentNodeID = "success", &n, sess.CurrentThoughtID
		out.Message = fmt.Sprintf("Backtracked to step %d (confidence %.2g).", target.Step, *target.Confidence)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// PathOutput is show_current_path's result.
type PathOutput struct {
	Path          []PathNode      `json:"path" jsonschema:"the latest thoughts of the path, root side first, texts clipped to 300 characters"`
	TotalNodes    int             `json:"total_nodes"`
	BranchPoints  int             `json:"branch_points"`
	CurrentNodeID string          `json:"current_node_id"`
	SessionID     string          `json:"session_id"`
	Page          *reasoning.Page `json:"page,omitempty" jsonschema:"the earlier thoughts left out: pass page.cursor as cursor to go further back"`
	Earlier       *PathSummary    `json:"earlier,omitempty"`
}

// PathSummary sums up the part of the path before the thoughts shown.
type PathSummary struct {
	Nodes        int  `json:"nodes"`
	BranchPoints int  `json:"branch_points"`
	Root         Node `json:"root"`
	// Weakest is the least confident of them.
	Weakest *Node `json:"weakest,omitempty"`
}

// PathInput is a call of show_current_path.
type PathInput struct {
	Session reasoning.SessionRef
	Page    reasoning.PageArgs
}

// CurrentPath returns the latest thoughts of the path from the root to the
// current thought, and a summary of the earlier ones.
func (g *Graph) CurrentPath(ctx context.Context, in PathInput) (*PathOutput, error) {
	var out PathOutput
	err := g.svc.ViewOrEmpty(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		out = PathOutput{Path: []PathNode{}, SessionID: sess.ID, CurrentNodeID: sess.CurrentThoughtID}
		if sess.CurrentThoughtID == "" {
			_, _, err := reasoning.Paginate([]PathNode{}, in.Page, pathPage)
			return err
		}
		path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
		if err != nil {
			return err
		}
		out.TotalNodes = len(path)
		nodes := make([]PathNode, len(path))
		for i, th := range path {
			nodes[i] = PathNode{NodeID: th.ID, Step: th.Step, Thought: thinkgraph.Clip(th.Content, listClip), Confidence: th.Confidence, BranchPoint: th.BranchPoint}
			if th.BranchPoint {
				out.BranchPoints++
			}
		}
		if out.Path, out.Page, err = reasoning.Latest(nodes, in.Page, pathPage); err != nil {
			return err
		}
		if len(out.Path) > 0 && out.Path[0].NodeID != path[0].ID {
			sum := &PathSummary{Root: node(path[0])}
			sum.Root.Thought = thinkgraph.Clip(sum.Root.Thought, listClip)
			for _, th := range path {
				if th.ID == out.Path[0].NodeID {
					break
				}
				sum.Nodes++
				if th.BranchPoint {
					sum.BranchPoints++
				}
				if th.Confidence != nil && (sum.Weakest == nil || *th.Confidence < *sum.Weakest.Confidence) {
					w := node(th)
					w.Thought = thinkgraph.Clip(w.Thought, listClip)
					sum.Weakest = &w
				}
			}
			out.Earlier = sum
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UnexploredBranch is a branch point with alternatives that were never
// selected.
type UnexploredBranch struct {
	BranchNodeID    string `json:"branch_node_id"`
	BranchStep      int    `json:"branch_step,omitempty"`
	BranchThought   string `json:"branch_thought"`
	UnexploredCount int    `json:"unexplored_count"`
	Alternatives    []Node `json:"alternatives"`
}

// UnexploredOutput is get_unexplored_branches' result.
type UnexploredOutput struct {
	Unexplored []UnexploredBranch `json:"unexplored" jsonschema:"the latest branch points first, at most 5 alternatives each (unexplored_count counts them all), texts clipped to 300 characters"`
	SessionID  string             `json:"session_id"`
	Message    string             `json:"message"`
	Page       *reasoning.Page    `json:"page,omitempty" jsonschema:"the earlier branch points left out: pass page.cursor as cursor for them"`
}

// UnexploredInput is a call of get_unexplored_branches.
type UnexploredInput struct {
	Session reasoning.SessionRef
	Page    reasoning.PageArgs
}

// UnexploredBranches lists the branch points of the session that have
// alternatives never selected, the latest first.
func (g *Graph) UnexploredBranches(ctx context.Context, in UnexploredInput) (*UnexploredOutput, error) {
	var out UnexploredOutput
	err := g.svc.ViewOrEmpty(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		out = UnexploredOutput{Unexplored: []UnexploredBranch{}, SessionID: sess.ID}
		// Only the open alternatives and their parents are read, not the
		// whole session.
		alts, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, OpenAlternatives: true})
		if err != nil {
			return err
		}
		open := map[string][]Node{}
		var parents []string
		for _, th := range alts {
			if _, seen := open[th.ParentID]; !seen && th.ParentID != "" {
				parents = append(parents, th.ParentID)
			}
			open[th.ParentID] = append(open[th.ParentID], node(th))
		}
		var points []*thinkgraph.Thought
		for _, id := range parents {
			bp, err := tx.Thought(ctx, sess.Key, id)
			if errors.Is(err, thinkgraph.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if bp.BranchPoint {
				points = append(points, bp)
			}
		}
		// The latest branch points first.
		slices.SortFunc(points, func(a, b *thinkgraph.Thought) int { return cmp.Compare(b.Step, a.Step) })
		total := 0
		all := make([]UnexploredBranch, 0, len(points))
		for _, bp := range points {
			alts, _ := reasoning.Head(open[bp.ID], maxAlternatives)
			for i := range alts {
				alts[i].Thought = thinkgraph.Clip(alts[i].Thought, listClip)
			}
			all = append(all, UnexploredBranch{BranchNodeID: bp.ID, BranchStep: bp.Step, BranchThought: thinkgraph.Clip(bp.Content, listClip),
				UnexploredCount: len(open[bp.ID]), Alternatives: alts})
			total += len(open[bp.ID])
		}
		out.Message = fmt.Sprintf("%s with %s.", thinkgraph.Count(len(all), "branch point", ""), thinkgraph.Count(total, "unexplored alternative", ""))
		out.Unexplored, out.Page, err = reasoning.Paginate(all, in.Page, unexploredPage)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
