package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/render"
)

// bandRows is the number of layers per band; eagerBands bands are drawn
// in the page, the others when scrolled into view.
const (
	bandRows   = 20
	eagerBands = 2
)

// Bounds of what a page carries, so that no session makes it large: the
// eager bands only while the page's drawing stays within pageSVGBytes,
// and the thought data only while the page stays within pageBytes (else
// both come from the graph endpoint after the first paint); the panel's
// lists show their latest entries (the downloads hold them all) and a
// link's reason its start.
const (
	pageSVGBytes     = 640 << 10
	pageBytes        = 1 << 20
	panelFeedback    = 20  // the overview's feedback
	thoughtFeedback  = 10  // a thought's feedback
	thoughtLinks     = 50  // a thought's links, contradictions and circular chains
	panelBranches    = 50  // the overview's branches
	panelUnexplored  = 100 // the overview's unexplored alternatives
	panelLinkText    = 300 // characters of a link's reason
	pageSkeletonSize = 16 << 10
)

// graphPayload is a rendered session: the SVG, and per thought what the side
// panel shows.
type graphPayload struct {
	ID       string
	Goal     string
	Mode     string
	Steps    int
	Branches int
	Updated  time.Time
	Analysis string // a note when the analyses are unavailable
	Findings struct {
		Contradictions, Circular int
	}
	SVG string
	// bands are the SVG of every band (see render.Bands).
	bands []string
	// dataJSON is the thought data; json is {version, svg, thoughts, ...}
	// for live updates. Both are HTML-safe JSON.
	dataJSON []byte
	json     []byte
}

// size is about the memory p holds, in bytes.
func (p *graphPayload) size() int {
	n := len(p.SVG) + len(p.dataJSON) + len(p.json)
	for _, b := range p.bands {
		n += len(b)
	}
	return n
}

// thoughtData is what the side panel shows of a thought.
type thoughtData struct {
	ID         string      `json:"id"`
	Step       int         `json:"step"`
	Branch     string      `json:"branch"`
	Type       string      `json:"type,omitempty"`
	Confidence *float64    `json:"confidence"`
	Content    string      `json:"content"`
	KeyPoints  []string    `json:"keyPoints,omitempty"`
	Author     string      `json:"author,omitempty"`
	Tool       string      `json:"tool,omitempty"`
	CreatedAt  time.Time   `json:"createdAt"`
	Parent     int         `json:"parent,omitempty"`
	Children   []int       `json:"children,omitempty"`
	Revises    int         `json:"revises,omitempty"`
	Flags      []string    `json:"flags,omitempty"`
	Links      []panelLink `json:"links,omitempty"`
	Unexplored int         `json:"unexplored,omitempty"` // unexplored alternatives below a branch point
	// LinksMore counts the links not listed (the first thoughtLinks are).
	LinksMore int `json:"linksMore,omitempty"`
	// Feedback is what people said about the thought, oldest first: the
	// latest thoughtFeedback pieces, FeedbackMore the earlier ones.
	Feedback     []feedbackItem `json:"feedback,omitempty"`
	FeedbackMore int            `json:"feedbackMore,omitempty"`
}

// feedbackItem is a person's feedback in the panel.
type feedbackItem struct {
	Step      int       `json:"step"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	Delivered bool      `json:"delivered"`
}

// overview is what the side panel shows until a thought is selected: the
// goal, the branches with their evaluation, what the analyses found and
// the alternatives nobody followed.
type overview struct {
	Goal           string           `json:"goal,omitempty"`
	Branches       []branchOverview `json:"branches"`
	Contradictions []finding        `json:"contradictions"`
	Circular       []finding        `json:"circular"`
	// Questions are the open review groups the model is asked about (the
	// riskiest first, at most 50; Open counts them all), as
	// findContradictions shows them; Ask is the question they ask.
	Questions []question `json:"questions"`
	Open      int        `json:"openQuestions"`
	Ask       string     `json:"ask,omitempty"`
	// Drift lists the branches away from the goal, with detectDrift's
	// reason.
	Drift      []driftItem    `json:"drift"`
	Conclusion int            `json:"conclusion,omitempty"`
	Unexplored []int          `json:"unexplored"`
	Feedback   []feedbackItem `json:"feedback"`
	Analysis   string         `json:"analysis,omitempty"`
	// The entries the lists leave out: the branches and unexplored
	// alternatives after the first, the feedback before the latest.
	BranchesMore   int `json:"branchesMore,omitempty"`
	UnexploredMore int `json:"unexploredMore,omitempty"`
	FeedbackMore   int `json:"feedbackMore,omitempty"`
}

// question is an open review group in the overview: its key, the signs of
// conflict, its claims by step.
type question struct {
	Group  string         `json:"group"`
	Signs  string         `json:"signs,omitempty"`
	Claims []review.Claim `json:"claims"`
}

// driftItem is a branch away from the goal: drifting, or off it from its
// first thought.
type driftItem struct {
	Branch  string `json:"branch"`
	OffGoal bool   `json:"offGoal,omitempty"`
	Reason  string `json:"reason"`
}

// branchOverview is one branch in the overview.
type branchOverview struct {
	ID       string   `json:"id"`
	State    string   `json:"state,omitempty"`
	Thoughts int      `json:"thoughts"`
	Quality  string   `json:"quality,omitempty"`
	Score    *float64 `json:"score,omitempty"`
	// Away is "drifting" or "off the goal" for a branch away from the goal.
	Away string `json:"away,omitempty"`
}

// finding is a contradiction or circular chain in the overview: its steps,
// kind, score and reason.
type finding struct {
	Steps  []int  `json:"steps"`
	Kind   string `json:"kind,omitempty"`
	Score  string `json:"score,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// panelLink is a cross-reference, contradiction or circular chain a thought
// is part of.
type panelLink struct {
	Kind  string `json:"kind"` // link, contradiction, circular
	Dir   string `json:"dir"`  // to, from, with
	Step  int    `json:"step,omitempty"`
	Type  string `json:"type"`
	Text  string `json:"text,omitempty"`
	Score string `json:"score,omitempty"`
}

func newGraphPayload(g *render.Graph) (*graphPayload, error) {
	p := &graphPayload{ID: g.Session.ID, Goal: g.Session.Goal, Mode: g.Session.Mode, Steps: g.Session.StepCount,
		Updated: g.Session.UpdatedAt}
	// The page carries the first bands drawn and the others as
	// placeholders; the script draws a band from p.bands when it comes into
	// view, so a large session costs the browser only what is on screen.
	bs := g.Bands(bandRows)
	var svg bytes.Buffer
	svg.WriteString(`<div class="tg-bands">` + "\n")
	p.bands = make([]string, len(bs.Bands))
	size := len(bs.Overlay)
	for i, b := range bs.Bands {
		p.bands[i] = b.SVG
		if size += len(b.SVG); i < eagerBands && size <= pageSVGBytes {
			svg.WriteString(b.SVG)
		} else {
			svg.WriteString(b.Placeholder(bs.Width, i) + "\n")
		}
	}
	svg.WriteString(bs.Overlay)
	svg.WriteString("</div>\n")
	p.SVG = svg.String()
	step := map[string]int{}
	branches := map[string]bool{}
	for _, t := range g.Thoughts {
		step[t.ID] = t.Step
		branches[t.BranchID] = true
	}
	for _, b := range g.Branches {
		branches[b.ID] = true
	}
	p.Branches = len(branches)
	data := make(map[string]*thoughtData, len(g.Thoughts))
	order := make([]*thoughtData, 0, len(g.Thoughts))
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		d := &thoughtData{ID: t.ID, Step: t.Step, Branch: t.BranchID, Type: t.Type, Confidence: t.Confidence, Content: t.Content,
			KeyPoints: t.KeyPoints, Author: t.Author, Tool: t.Tool, CreatedAt: t.CreatedAt, Parent: step[t.ParentID], Revises: step[t.RevisesID]}
		if t.BranchPoint {
			d.Flags = append(d.Flags, "branch point")
		}
		if t.Alternative {
			if t.Selected {
				d.Flags = append(d.Flags, "selected alternative")
			} else {
				d.Flags = append(d.Flags, "unexplored alternative")
			}
		}
		if t.ID == g.Session.CurrentThoughtID {
			d.Flags = append(d.Flags, "current")
		}
		data[t.ID] = d
		order = append(order, d)
	}
	for i := range g.Thoughts {
		t := &g.Thoughts[i]
		if par := data[t.ParentID]; par != nil {
			par.Children = append(par.Children, t.Step)
			if t.Alternative && !t.Selected {
				par.Unexplored++
			}
			if len(par.Children) == 2 && !slices.Contains(par.Flags, "branch point") {
				par.Flags = append(par.Flags, "branch point")
			}
		}
	}
	refuted := reasoning.Refuted(g.Feedback)
	for _, f := range g.Feedback {
		if d := data[f.ThoughtID]; d != nil {
			d.Feedback = append(d.Feedback, feedbackItem{Step: d.Step, Kind: f.Kind, Text: f.Text, At: f.CreatedAt, Delivered: f.DeliveredAt != nil})
			if len(d.Feedback) > thoughtFeedback {
				d.Feedback = d.Feedback[1:]
				d.FeedbackMore++
			}
			if refuted[f.ThoughtID] && !slices.Contains(d.Flags, "refuted") {
				d.Flags = append(d.Flags, "refuted")
			}
		}
	}
	for _, l := range g.Links {
		from, to := data[l.FromThought], data[l.ToThought]
		reason := thinkgraph.Clip(l.Reason, panelLinkText)
		if from != nil {
			if to == nil && l.ToBranch != "" {
				reason = "branch " + l.ToBranch + ": " + reason
			}
			from.addLink(panelLink{Kind: "link", Dir: "to", Step: step[l.ToThought], Type: l.Type, Text: reason,
				Score: fmt.Sprintf("%.2f", l.Strength)})
		}
		if to != nil {
			to.addLink(panelLink{Kind: "link", Dir: "from", Step: step[l.FromThought], Type: l.Type, Text: thinkgraph.Clip(l.Reason, panelLinkText),
				Score: fmt.Sprintf("%.2f", l.Strength)})
		}
	}
	if a := g.Analysis; a != nil {
		if a.Unavailable != "" {
			p.Analysis = "Contradictions and circular reasoning not analysed: " + a.Unavailable
		}
		p.Findings.Contradictions, p.Findings.Circular = max(a.ContradictionsFound, len(a.Contradictions)), len(a.Circular)
		if a.ContradictionsFound > len(a.Contradictions) {
			p.Analysis = fmt.Sprintf("%d contradictions found; the %d most confident are drawn.", a.ContradictionsFound, len(a.Contradictions))
		}
		for _, c := range a.Contradictions {
			score := fmt.Sprintf("%.2f", c.Confidence)
			if d := data[c.ThoughtA.ID]; d != nil {
				d.addLink(panelLink{Kind: "contradiction", Dir: "with", Step: c.ThoughtB.Step, Type: "contradicts", Text: c.Reason, Score: score})
			}
			if d := data[c.ThoughtB.ID]; d != nil {
				d.addLink(panelLink{Kind: "contradiction", Dir: "with", Step: c.ThoughtA.Step, Type: "contradicts", Text: c.Reason, Score: score})
			}
		}
		for _, c := range a.Circular {
			for i, r := range c.Thoughts {
				if d := data[r.ID]; d != nil {
					next := c.Thoughts[(i+1)%len(c.Thoughts)]
					d.addLink(panelLink{Kind: "circular", Dir: "with", Step: next.Step, Type: c.Kind, Text: c.Reason})
				}
			}
		}
	} else {
		p.Analysis = "Contradictions and circular reasoning not analysed."
	}
	if bs.Note != "" {
		p.Analysis = strings.TrimSpace(p.Analysis + " " + bs.Note)
	}
	ov := newOverview(g, p.Analysis)
	var err error
	// The page's data block has the thoughts; the bands not drawn in the
	// page come from the graph endpoint, after the first paint.
	if p.dataJSON, err = json.Marshal(map[string]any{"thoughts": order, "overview": ov}); err != nil {
		return nil, err
	}
	return p, p.refreshJSON()
}

// refreshJSON re-encodes the live-update document.
func (p *graphPayload) refreshJSON() error {
	var err error
	p.json, err = json.Marshal(map[string]any{
		"id": p.ID, "steps": p.Steps, "branches": p.Branches, "updated": p.Updated, "analysis": p.Analysis,
		"contradictions": p.Findings.Contradictions, "circular": p.Findings.Circular,
		"svg": p.SVG, "data": json.RawMessage(p.dataJSON), "bands": p.bands,
	})
	return err
}

// newOverview summarises g for the panel, with note on the analyses.
func newOverview(g *render.Graph, note string) *overview {
	ov := &overview{Goal: g.Session.Goal, Branches: []branchOverview{}, Contradictions: []finding{}, Circular: []finding{}, Unexplored: []int{},
		Questions: []question{}, Drift: []driftItem{}, Feedback: []feedbackItem{}, Analysis: note}
	away := map[string]string{}
	count := map[string]int{}
	step := map[string]int{}
	for _, t := range g.Thoughts {
		step[t.ID] = t.Step
		count[t.BranchID]++
		if t.Alternative && !t.Selected {
			ov.Unexplored = append(ov.Unexplored, t.Step)
		}
	}
	ov.FeedbackMore = max(0, len(g.Feedback)-panelFeedback)
	for _, f := range g.Feedback[ov.FeedbackMore:] {
		ov.Feedback = append(ov.Feedback, feedbackItem{Step: step[f.ThoughtID], Kind: f.Kind, Text: f.Text, At: f.CreatedAt, Delivered: f.DeliveredAt != nil})
	}
	if n := len(ov.Unexplored); n > panelUnexplored {
		ov.Unexplored, ov.UnexploredMore = ov.Unexplored[:panelUnexplored], n-panelUnexplored
	}
	evals := map[string]*render.BranchEvaluation{}
	if a := g.Analysis; a != nil {
		for i := range a.Evaluations {
			evals[a.Evaluations[i].Branch] = &a.Evaluations[i]
		}
		for _, c := range a.Contradictions {
			ov.Contradictions = append(ov.Contradictions, finding{Steps: []int{c.ThoughtA.Step, c.ThoughtB.Step}, Score: fmt.Sprintf("%.2f", c.Confidence), Reason: c.Reason})
		}
		for _, c := range a.Circular {
			f := finding{Kind: c.Kind, Reason: c.Reason}
			for _, r := range c.Thoughts {
				f.Steps = append(f.Steps, r.Step)
			}
			ov.Circular = append(ov.Circular, f)
		}
		for _, q := range a.OpenGroups {
			ov.Questions = append(ov.Questions, question{Group: q.Key, Signs: q.Signs, Claims: q.Claims})
		}
		if ov.Open = a.Open; ov.Open > 0 {
			ov.Ask = review.AskConsistent + " The model answers each group with " + review.Answer + "."
		}
		for _, d := range a.Drift {
			if d.Drifting {
				ov.Drift = append(ov.Drift, driftItem{Branch: d.Branch, OffGoal: d.OffGoal, Reason: d.Reason})
				away[d.Branch] = "drifting"
				if d.OffGoal {
					away[d.Branch] = "off the goal"
				}
			}
		}
		if a.Conclusion != nil {
			ov.Conclusion = a.Conclusion.Step
		}
	}
	seen := map[string]bool{}
	addBranch := func(id, state string) {
		if seen[id] || (count[id] == 0 && id == "main") {
			return
		}
		seen[id] = true
		b := branchOverview{ID: id, State: state, Thoughts: count[id], Away: away[id]}
		if e := evals[id]; e != nil {
			b.Quality, b.Score = e.Quality, e.OverallScore
		}
		ov.Branches = append(ov.Branches, b)
	}
	for _, b := range g.Branches {
		addBranch(b.ID, b.State)
	}
	for _, t := range g.Thoughts {
		addBranch(t.BranchID, "")
	}
	if n := len(ov.Branches); n > panelBranches {
		ov.Branches, ov.BranchesMore = ov.Branches[:panelBranches], n-panelBranches
	}
	return ov
}

// addLink lists l in the thought's panel, or counts it once thoughtLinks
// are listed.
func (d *thoughtData) addLink(l panelLink) {
	if len(d.Links) < thoughtLinks {
		d.Links = append(d.Links, l)
	} else {
		d.LinksMore++
	}
}
