package render

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// SessionOverview is the JSON of a session's overview (the MCP resource
// thinkgraph://sessions/{id}).
type SessionOverview struct {
	ID               string            `json:"session_id"`
	Goal             string            `json:"goal"`
	Mode             string            `json:"mode"`
	CreatedAt        time.Time         `json:"created_at"`
	UpdatedAt        time.Time         `json:"last_updated"`
	Steps            int               `json:"total_steps"`
	ActiveBranch     string            `json:"active_branch"`
	CurrentThoughtID string            `json:"current_node_id"`
	Branches         []overviewBranch  `json:"branches"`
	CurrentPath      []overviewThought `json:"current_path"`
	Unexplored       int               `json:"unexplored_alternatives"`
	Links            int               `json:"cross_references"`
	// HumanFeedback is what people said about the thoughts in the viewer,
	// oldest first; Refuted the thoughts that stand refuted.
	HumanFeedback []overviewFeedback `json:"human_feedback"`
	Refuted       []string           `json:"refuted_thoughts"`
	// The lists show their first (branches) or latest (the rest)
	// entries, so that no session makes the overview large; the totals
	// count them all, and Note says where to read the rest.
	BranchesTotal      int               `json:"branches_total"`
	CurrentPathTotal   int               `json:"current_path_total"`
	HumanFeedbackTotal int               `json:"human_feedback_total"`
	RefutedTotal       int               `json:"refuted_total"`
	Note               string            `json:"note,omitempty"`
	Resources          map[string]string `json:"resources"`
}

// Bounds of the overview's lists and texts: with them the overview of any
// session is at most 64 KiB (TestOverviewBounded).
const (
	overviewBranches     = 50
	overviewPath         = 20
	overviewFeedbacks    = 10
	overviewRefuted      = 100
	overviewGoal         = 500 // characters
	overviewThoughtText  = 100 // characters of a thought on the current path
	overviewFeedbackText = 200 // characters of a piece of feedback
)

// overviewFeedback is a person's feedback on a thought.
type overviewFeedback struct {
	ThoughtID string    `json:"node_id"`
	Step      int       `json:"step"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	Author    string    `json:"author"`
	At        time.Time `json:"at"`
	// Delivered says whether a tool result carried it to the model.
	Delivered bool `json:"delivered"`
}

// RefutedIDs lists the refuted thoughts of fb in step order.
func RefutedIDs(fb []thinkgraph.Feedback, ths []thinkgraph.Thought) []string {
	refuted := reasoning.Refuted(fb)
	out := []string{}
	for _, t := range ths {
		if refuted[t.ID] {
			out = append(out, t.ID)
		}
	}
	return out
}

type overviewBranch struct {
	ID       string `json:"branch_id"`
	State    string `json:"state"`
	Thoughts int    `json:"thoughts"`
}

type overviewThought struct {
	ID         string   `json:"node_id"`
	Step       int      `json:"step"`
	Branch     string   `json:"branch_id"`
	Thought    string   `json:"thought"`
	Confidence *float64 `json:"confidence"`
}

// Overview writes the overview of g as indented JSON: the session's
// figures, its first branches, the latest thoughts of its current path
// and feedback, each list bounded; views names the session's other
// representations (name -> URI).
func Overview(w io.Writer, g *Graph, views map[string]string) error {
	s := &g.Session
	o := SessionOverview{ID: s.ID, Goal: thinkgraph.Clip(s.Goal, overviewGoal), Mode: s.Mode, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Steps: s.StepCount,
		ActiveBranch: s.ActiveBranch, CurrentThoughtID: s.CurrentThoughtID, Links: len(g.Links),
		Branches: []overviewBranch{}, CurrentPath: []overviewThought{}, Resources: views,
		HumanFeedback: []overviewFeedback{}, Refuted: RefutedIDs(g.Feedback, g.Thoughts)}
	counts := map[string]int{}
	byID := map[string]*thinkgraph.Thought{}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		counts[t.BranchID]++
		byID[t.ID] = t
		if t.Alternative && !t.Selected {
			o.Unexplored++
		}
	}
	for _, b := range g.Branches {
		o.Branches = append(o.Branches, overviewBranch{ID: b.ID, State: b.State, Thoughts: counts[b.ID]})
	}
	for id, n := s.CurrentThoughtID, 0; id != "" && n <= len(g.Thoughts); n++ {
		t := byID[id]
		if t == nil {
			break
		}
		if o.CurrentPathTotal++; len(o.CurrentPath) < overviewPath {
			o.CurrentPath = append(o.CurrentPath, overviewThought{ID: t.ID, Step: t.Step, Branch: t.BranchID, Thought: thinkgraph.Clip(t.Content, overviewThoughtText), Confidence: t.Confidence})
		}
		id = t.ParentID
	}
	slices.Reverse(o.CurrentPath)
	o.HumanFeedbackTotal = len(g.Feedback)
	for _, f := range g.Feedback[max(0, len(g.Feedback)-overviewFeedbacks):] {
		step := 0
		if t := byID[f.ThoughtID]; t != nil {
			step = t.Step
		}
		o.HumanFeedback = append(o.HumanFeedback, overviewFeedback{ThoughtID: f.ThoughtID, Step: step, Kind: f.Kind, Text: thinkgraph.Clip(f.Text, overviewFeedbackText),
			Author: f.Author, At: f.CreatedAt, Delivered: f.DeliveredAt != nil})
	}
	o.BranchesTotal, o.RefutedTotal = len(o.Branches), len(o.Refuted)
	o.Branches, o.Refuted = o.Branches[:min(len(o.Branches), overviewBranches)], o.Refuted[:min(len(o.Refuted), overviewRefuted)]
	if o.BranchesTotal > len(o.Branches) || o.CurrentPathTotal > len(o.CurrentPath) || o.HumanFeedbackTotal > len(o.HumanFeedback) ||
		o.RefutedTotal > len(o.Refuted) || o.Goal != s.Goal || slices.ContainsFunc(o.CurrentPath, func(t overviewThought) bool { return strings.HasSuffix(t.Thought, "…") }) {
		o.Note = fmt.Sprintf("The lists show the first %d branches, the latest %d thoughts of the current path, the latest %d pieces of feedback and the first %d refuted thoughts, and texts their start; the markdown and json views hold everything.",
			overviewBranches, overviewPath, overviewFeedbacks, overviewRefuted)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}
