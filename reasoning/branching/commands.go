package branching

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// A BranchCommand is one command of branch-thinking: its name, the data
// fields it takes and its handler. BranchCommands is the one list of them;
// the MCP tool reads it for the input schema, the command.data description,
// the check of the fields a call sends and, from its handlers' result
// types, the output schema.
type BranchCommand struct {
	Name string
	// Fields are the data fields it takes, each as command.data's
	// description shows it: the name, "?" if optional, then a default
	// ("=3"), a shape ("{excellent, good, moderate}") or the values
	// (": a|b"). FieldNames gives the bare names.
	Fields []string
	// Document, when set, says that the command takes a whole document as
	// command.data instead of fields, and describes it (import).
	Document string
	// Note follows the fields in the description.
	Note string
	// Paged marks a command whose result is a list, most relevant first,
	// cut to a page: it takes limit and cursor too (bounds.go).
	Paged bool
	run   commandRun
}

// commandRun is a command's handler and the types of its result (the MCP
// tool's output schema is derived from them).
type commandRun struct {
	call    func(*BranchThinking, context.Context, CommandInput) (any, error)
	results []reflect.Type
}

// ResultTypes are the types of the command's result.
func (c BranchCommand) ResultTypes() []reflect.Type { return c.run.results }

// BranchCommands are the commands of branch-thinking: the seed's 24 in its
// order, then judge (the answer to a review group of findContradictions,
// or a verdict on two thoughts).
var BranchCommands = []BranchCommand{
	{Name: "list", Paged: true, run: handler((*BranchThinking).list)},
	{Name: "focus", Fields: []string{"branchId"}, run: handler((*BranchThinking).focus)},
	{Name: "history", Paged: true, Fields: []string{"branchId?", "verbose?"}, run: handler((*BranchThinking).history)},
	{Name: "evaluate", Fields: []string{"branchId?"}, run: handler((*BranchThinking).evaluate)},
	{Name: "statistics", run: handler((*BranchThinking).statistics)},
	{Name: "findContradictions", Paged: true, Fields: []string{"verbose?"}, run: handler((*BranchThinking).findContradictions)},
	{Name: "detectCircular", Paged: true, Fields: []string{"verbose?"}, run: handler((*BranchThinking).detectCircular)},
	{Name: "findStrongestPaths", Fields: []string{"topK?=3"}, run: handler((*BranchThinking).strongestPaths)},
	{Name: "findSimilar", Paged: true, Fields: []string{"query"}, run: handler((*BranchThinking).findSimilar)},
	{Name: "jumpToRelated", Fields: []string{"thoughtId", "limit?=3"}, Note: "moves focus to its branch",
		run: handler((*BranchThinking).jumpToRelated)},
	{Name: "semanticPath", Fields: []string{"fromThoughtId", "toThoughtId", "minSimilarity?"}, run: handler((*BranchThinking).semanticPath)},
	{Name: "setGoal", Fields: []string{"goal"}, run: handler((*BranchThinking).setGoal)},
	{Name: "toggleAutoEval", run: handler((*BranchThinking).autoEval)},
	{Name: "configAutoEval", Fields: []string{"enabled?", "thresholds?{excellent, good, moderate}", "suggestPivotThreshold?"},
		run: handler((*BranchThinking).autoEval)},
	{Name: "compareProfiles", Paged: true, run: handler((*BranchThinking).compareProfiles)},
	{Name: "suggestMerges", Paged: true, Fields: []string{"minSimilarity?"}, run: handler((*BranchThinking).suggestMerges)},
	{Name: "detectDrift", Paged: true, Fields: []string{"threshold?"}, run: handler((*BranchThinking).detectDrift)},
	{Name: "generateCounterfactuals", Fields: []string{"branchId?", "count?=3"}, run: handler((*BranchThinking).counterfactuals)},
	{Name: "detectKnowledgeGaps", Paged: true, run: handler((*BranchThinking).knowledgeGaps)},
	{Name: "synthesizeDialectical", Fields: []string{"branches?: [thesis, antithesis, ...]"}, run: handler((*BranchThinking).dialectical)},
	{Name: "prune", Fields: []string{"threshold?", "branchId?", "reason?"},
		Note: "closes branchId",
		run:  handler((*BranchThinking).prune)},
	{Name: "export", run: handler((*BranchThinking).export)},
	{Name: "import", Document: "export's document; restored as a new session that calls without session_id continue",
		run: handler((*BranchThinking).importSession)},
	{Name: "suggestTools", run: handler((*BranchThinking).suggestTools)},
	{Name: "judge", Fields: []string{"verdicts?: [{group, verdict, conflicts?}]", "group?", "conflicts?", "thoughtId?", "otherThoughtId?", "verdict?", "reason?"},
		Note: "consistent|contradiction|circular|not_circular", run: handlerOf((*BranchThinking).judgeAny,
			reflect.TypeFor[*JudgeResult](), reflect.TypeFor[*GroupJudgeResult](), reflect.TypeFor[*BatchJudgeResult]())},
}

// handler adapts a command's method to the table's handler type; its
// result type is R.
func handler[R any](f func(*BranchThinking, context.Context, CommandInput) (R, error)) commandRun {
	return handlerOf(f, reflect.TypeFor[R]())
}

// handlerOf is handler for a method whose result is one of results (R is
// an interface: judge).
func handlerOf[R any](f func(*BranchThinking, context.Context, CommandInput) (R, error), results ...reflect.Type) commandRun {
	return commandRun{call: func(bt *BranchThinking, ctx context.Context, in CommandInput) (any, error) { return f(bt, ctx, in) }, results: results}
}

// FindBranchCommand returns the command named name.
func FindBranchCommand(name string) (BranchCommand, bool) {
	i := slices.IndexFunc(BranchCommands, func(c BranchCommand) bool { return c.Name == name })
	if i < 0 {
		return BranchCommand{}, false
	}
	return BranchCommands[i], true
}

// FieldNames are the names of the data fields the command takes, in order
// (a paged command's limit and cursor last).
func (c BranchCommand) FieldNames() []string {
	names := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		names[i] = f[:len(f)-len(strings.TrimLeft(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))]
	}
	if c.Paged {
		names = append(names, "limit", "cursor")
	}
	return names
}

// branchCommandNames are the names of BranchCommands, in order.
func branchCommandNames() []string {
	names := make([]string, len(BranchCommands))
	for i, c := range BranchCommands {
		names[i] = c.Name
	}
	return names
}

// PartialThresholds are the thresholds of configAutoEval; nil fields keep
// their value.
type PartialThresholds struct {
	Excellent *float64
	Good      *float64
	Moderate  *float64
}

// CommandInput is a branch-thinking command with every field any command
// takes (command-level fields and data fields merged).
type CommandInput struct {
	Session  reasoning.SessionRef
	Type     string
	BranchID string
	Goal     *string
	TopK     *int
	Limit    *int
	Count    *int
	Query    string
	// Cursor is a paged command's cursor (page.cursor of an earlier
	// result); Verbose asks history for whole texts, and findContradictions
	// for the texts of review groups it showed before.
	Cursor    string
	Verbose   bool
	ThoughtID string
	// OtherThoughtID, Verdict and Reason are judge's: the verdict on the
	// pair (ThoughtID, OtherThoughtID).
	OtherThoughtID string
	Verdict        string
	Reason         string
	// Group and Conflicts are judge's answer on a review group: the
	// group's key and the pairs of its claims (by step or thought id) that
	// conflict.
	Group     string
	Conflicts [][]string
	// Verdicts are judge's answers on several review groups at once (nil:
	// not given).
	Verdicts      []GroupVerdict
	FromThoughtID string
	ToThoughtID   string
	Enabled       *bool
	Thresholds    *PartialThresholds
	PivotThresh   *float64
	Branches      []string
	Threshold     *float64
	MinSimilarity *float64
	// Document is the exported session for import.
	Document json.RawMessage
}

// Header starts every command result.
type Header struct {
	Command   string `json:"command"`
	SessionID string `json:"session_id"`
}

// UnknownCommand is the error for a command type that does not exist.
func UnknownCommand(t string) error {
	names := strings.Join(branchCommandNames(), ", ")
	e := thinkgraph.Invalid("command.type", "one of: "+names, reasoning.Clip(t, 40),
		"unknown command %q; valid commands: %s", reasoning.Clip(t, 40), names)
	if t == "" {
		e.Message = "'command.type' is required; valid commands: " + names
		e.Received = "none"
	}
	return e
}

// Command runs a branch-thinking command.
func (bt *BranchThinking) Command(ctx context.Context, in CommandInput) (any, error) {
	c, ok := FindBranchCommand(in.Type)
	if !ok {
		return nil, UnknownCommand(in.Type)
	}
	return c.run.call(bt, ctx, in)
}

// BranchSummary is one branch in list.
type BranchSummary struct {
	ID           string   `json:"id"`
	State        string   `json:"state"`
	ThoughtCount int      `json:"thoughtCount"`
	Priority     float64  `json:"priority"`
	Confidence   *float64 `json:"confidence" jsonschema:"mean of the known confidences of the branch's thoughts; null when none"`
	Parent       string   `json:"parentBranchId,omitempty"`
	ForkStep     int      `json:"forkStep,omitempty" jsonschema:"the step of the thought the branch forked from"`
	LastStep     int      `json:"lastStep,omitempty" jsonschema:"the step of the branch's latest thought"`
	Active       bool     `json:"active,omitempty"`
}

type branchStats struct {
	n       int
	confSum float64
	confN   int
	last    int
}

func summarize(bs []thinkgraph.Branch, ths []thinkgraph.Thought, active string) []BranchSummary {
	stats := map[string]*branchStats{}
	step := make(map[string]int, len(ths))
	for _, th := range ths {
		step[th.ID] = th.Step
		s := stats[th.BranchID]
		if s == nil {
			s = &branchStats{}
			stats[th.BranchID] = s
		}
		s.n++
		s.last = th.Step
		if th.Confidence != nil {
			s.confSum += *th.Confidence
			s.confN++
		}
	}
	out := make([]BranchSummary, 0, len(bs))
	for _, b := range bs {
		sum := BranchSummary{ID: b.ID, State: b.State, Priority: b.Priority, Parent: b.ParentBranchID, ForkStep: step[b.ForkThoughtID], Active: b.ID == active}
		if s := stats[b.ID]; s != nil {
			sum.ThoughtCount, sum.LastStep = s.n, s.last
			if s.confN > 0 {
				c := round3(s.confSum / float64(s.confN))
				sum.Confidence = &c
			}
		}
		out = append(out, sum)
	}
	return out
}

// ListResult is the answer of list.
type ListResult struct {
	Header
	ActiveBranch string          `json:"activeBranch"`
	Branches     []BranchSummary `json:"branches" jsonschema:"the active branch, then the branches written to last"`
	Page         *reasoning.Page `json:"page,omitempty"`
}

func (bt *BranchThinking) list(ctx context.Context, in CommandInput) (*ListResult, error) {
	res := &ListResult{Header: Header{Command: "list"}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		bs, ths, err := branchesAndThoughts(ctx, tx, sess)
		if err != nil {
			return err
		}
		res.SessionID, res.ActiveBranch = sess.ID, activeOf(sess)
		res.Branches = summarize(bs, ths, res.ActiveBranch)
		byRecency(res.Branches, lastSteps(ths))
		res.Branches, res.Page, err = reasoning.Paginate(res.Branches, in.page(), branchPage)
		return err
	})
	return res, err
}

func activeOf(sess *thinkgraph.Session) string {
	if sess.ActiveBranch == "" {
		return thinkgraph.DefaultBranch
	}
	return sess.ActiveBranch
}

// branchesAndThoughts lists a session's branches (main first even in a
// session not stored yet) and thoughts.
func branchesAndThoughts(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) ([]thinkgraph.Branch, []thinkgraph.Thought, error) {
	bs, err := tx.Branches(ctx, sess.Key)
	if err != nil {
		return nil, nil, err
	}
	if len(bs) == 0 {
		bs = []thinkgraph.Branch{{Session: sess.Key, ID: thinkgraph.DefaultBranch, State: "active", Priority: 1}}
	}
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
	return bs, ths, err
}

// FocusResult is the answer of focus and jumpToRelated: the
// StandardResponse of the branch now active.
type FocusResult struct {
	Header
	BranchID         string              `json:"branchId"`
	BranchState      string              `json:"branchState"`
	BranchPriority   float64             `json:"branchPriority"`
	NumThoughts      int                 `json:"numThoughts"`
	ActiveBranch     string              `json:"activeBranch"`
	CurrentThoughtID string              `json:"currentThoughtId,omitempty"`
	PreviousBranch   string              `json:"previousBranch"`
	From             *analyze.ThoughtRef `json:"from,omitempty"`
	Related          []RelatedThought    `json:"related,omitempty"`
	Message          string              `json:"message"`
	Page             *reasoning.Page     `json:"page,omitempty" jsonschema:"related thoughts left out to keep the result short"`
}

// RelatedThought is a thought with its cosine to a reference, in Branch
// Thinking's shape ({thoughtId, content, branchId, similarity, type} and,
// for jumpToRelated, relationship) with the thought's step added.
type RelatedThought struct {
	ThoughtID  string  `json:"thoughtId"`
	Content    string  `json:"content"`
	BranchID   string  `json:"branchId"`
	Similarity float64 `json:"similarity"`
	Type       string  `json:"type"`
	// Relationship is the thought's branch seen from the reference's:
	// same-branch, child-branch, parent-branch or cross-branch.
	Relationship string `json:"relationship,omitempty"`
	Step         int    `json:"step"`
}

// moveFocus makes branch active, its latest thought (or its fork thought)
// current.
func (bt *BranchThinking) moveFocus(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, b *thinkgraph.Branch, res *FocusResult) error {
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: b.ID})
	if err != nil {
		return err
	}
	res.PreviousBranch = activeOf(sess)
	sess.ActiveBranch = b.ID
	if len(ths) > 0 {
		sess.CurrentThoughtID = ths[len(ths)-1].ID
	} else {
		sess.CurrentThoughtID = b.ForkThoughtID
	}
	res.SessionID, res.BranchID, res.BranchState, res.BranchPriority = sess.ID, b.ID, b.State, b.Priority
	res.NumThoughts, res.ActiveBranch, res.CurrentThoughtID = len(ths), b.ID, sess.CurrentThoughtID
	return nil
}

func (in *CommandInput) requireBranch() error {
	if in.BranchID == "" {
		return thinkgraph.Invalid("branchId", "the id of an existing branch", "none", "'%s' needs 'branchId' (in command or command.data)", in.Type)
	}
	return reasoning.ValidateBranchID("branchId", in.BranchID)
}

func (bt *BranchThinking) focus(ctx context.Context, in CommandInput) (*FocusResult, error) {
	if err := in.requireBranch(); err != nil {
		return nil, err
	}
	res := &FocusResult{Header: Header{Command: "focus"}}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		b, err := branchOf(ctx, tx, sess, "branchId", in.BranchID)
		if err != nil {
			return err
		}
		if err := bt.moveFocus(ctx, tx, sess, b, res); err != nil {
			return err
		}
		res.Message = fmt.Sprintf("Focused on branch %q (%s); new thoughts without branchId go there.", b.ID, thinkgraph.Count(res.NumThoughts, "thought", ""))
		if b.State != "active" {
			res.Message += fmt.Sprintf(" The branch is %s; adding a thought makes it active again.", b.State)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// HistoryThought is one thought of a branch's history.
type HistoryThought struct {
	ID          string          `json:"id,omitempty" jsonschema:"the thought's id, with verbose (its step names it everywhere)"`
	Step        int             `json:"step"`
	Type        string          `json:"type,omitempty"`
	Content     string          `json:"content"`
	Confidence  *float64        `json:"confidence,omitempty" jsonschema:"absent when the thought has none"`
	KeyPoints   []string        `json:"keyPoints,omitempty"`
	ParentID    string          `json:"parentId,omitempty"`
	BranchPoint bool            `json:"branchPoint,omitempty"`
	Tool        string          `json:"tool,omitempty"`
	CrossRefs   []HistoryLink   `json:"crossRefs,omitempty"`
	Timestamp   *time.Time      `json:"timestamp,omitempty"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// HistoryLink is a cross-reference made by a thought.
type HistoryLink struct {
	ToBranch  string  `json:"toBranch"`
	ToThought string  `json:"toThoughtId,omitempty"`
	Type      string  `json:"type"`
	Reason    string  `json:"reason,omitempty"`
	Strength  float64 `json:"strength"`
}

// HistoryResult is the answer of history.
type HistoryResult struct {
	Header
	Branch   BranchSummary    `json:"branch"`
	Thoughts []HistoryThought `json:"thoughts" jsonschema:"the branch's latest thoughts, in step order; texts clipped to 300 characters, and no parentId, tool, timestamp or metadata, unless verbose"`
	Page     *reasoning.Page  `json:"page,omitempty" jsonschema:"the earlier thoughts left out: page.cursor goes further back"`
	// Earlier summarises the thoughts before this page.
	Earlier *HistorySummary `json:"earlier,omitempty"`
	// Incoming are cross-references from other branches to this one.
	Incoming   []thinkgraph.Link `json:"-"`
	Referenced []IncomingRef     `json:"referencedBy,omitempty"`
	Omitted    map[string]int    `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

// HistorySummary sums up the thoughts of a branch that a history page
// leaves out before its first thought.
type HistorySummary struct {
	Thoughts     int            `json:"thoughts"`
	FirstStep    int            `json:"firstStep"`
	LastStep     int            `json:"lastStep"`
	ByType       map[string]int `json:"byType"`
	BranchPoints int            `json:"branchPoints"`
	// Lowest is the least confident of them.
	Lowest *analyze.ThoughtRef `json:"lowestConfidence,omitempty"`
}

// IncomingRef is a cross-reference from another branch.
type IncomingRef struct {
	FromBranch  string  `json:"fromBranch"`
	FromThought string  `json:"fromThoughtId,omitempty"`
	Type        string  `json:"type"`
	Reason      string  `json:"reason,omitempty"`
	Strength    float64 `json:"strength"`
}

func (bt *BranchThinking) history(ctx context.Context, in CommandInput) (*HistoryResult, error) {
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return nil, err
		}
	}
	res := &HistoryResult{Header: Header{Command: "history"}, Thoughts: []HistoryThought{}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		id := in.BranchID
		if id == "" {
			id = activeOf(sess)
		}
		b, err := tx.Branch(ctx, sess.Key, id)
		if errors.Is(err, thinkgraph.ErrNotFound) {
			if id == thinkgraph.DefaultBranch && sess.StepCount == 0 {
				b, err = &thinkgraph.Branch{ID: id, State: "active", Priority: 1}, nil
			} else {
				return branchNotFound(ctx, tx, sess, "branchId", id)
			}
		}
		if err != nil {
			return err
		}
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: id})
		if err != nil {
			return err
		}
		links, err := tx.Links(ctx, sess.Key)
		if err != nil {
			return err
		}
		out := map[string][]HistoryLink{}
		for _, l := range links {
			if l.FromThought != "" {
				out[l.FromThought] = append(out[l.FromThought], HistoryLink{ToBranch: l.ToBranch, ToThought: l.ToThought, Type: l.Type, Reason: l.Reason, Strength: l.Strength})
			}
			if l.ToBranch == id && l.FromBranch != id {
				res.Referenced = append(res.Referenced, IncomingRef{FromBranch: l.FromBranch, FromThought: l.FromThought, Type: l.Type, Reason: l.Reason, Strength: l.Strength})
			}
		}
		res.SessionID = sess.ID
		res.Branch = summarize([]thinkgraph.Branch{*b}, ths, activeOf(sess))[0]
		if b.ForkThoughtID != "" && res.Branch.ForkStep == 0 { // forked from another branch
			fork, err := tx.Thought(ctx, sess.Key, b.ForkThoughtID)
			if err != nil {
				return err
			}
			res.Branch.ForkStep = fork.Step
		}
		all := make([]HistoryThought, len(ths))
		for i, th := range ths {
			h := HistoryThought{Step: th.Step, Type: th.Type, Content: th.Content, Confidence: th.Confidence,
				KeyPoints: th.KeyPoints, BranchPoint: th.BranchPoint, CrossRefs: out[th.ID]}
			if in.Verbose {
				// The parent is the step before in the branch, or its fork.
				t := th.CreatedAt
				h.ID, h.ParentID, h.Tool, h.Timestamp, h.Metadata = th.ID, th.ParentID, th.Tool, &t, th.Metadata
			} else {
				h.Content = thinkgraph.Clip(h.Content, historyClip)
			}
			all[i] = h
		}
		if res.Thoughts, res.Page, err = reasoning.Latest(all, in.page(), historyPage); err != nil {
			return err
		}
		for i := range res.Thoughts {
			res.Thoughts[i].CrossRefs = head(&res.Omitted, fmt.Sprintf("thoughts[%d].crossRefs", i), res.Thoughts[i].CrossRefs, fewRefs)
		}
		if len(res.Thoughts) > 0 && len(res.Thoughts) < len(ths) {
			res.Earlier = summariseBefore(ths, res.Thoughts[0].Step)
		}
		res.Referenced = head(&res.Omitted, "referencedBy", res.Referenced, 2*fewRefs)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// summariseBefore sums up the thoughts before step.
func summariseBefore(ths []thinkgraph.Thought, step int) *HistorySummary {
	sum := &HistorySummary{ByType: map[string]int{}}
	var lowest *thinkgraph.Thought
	for i, th := range ths {
		if th.Step >= step {
			break
		}
		if sum.Thoughts == 0 {
			sum.FirstStep = th.Step
		}
		sum.Thoughts++
		sum.LastStep = th.Step
		sum.ByType[cmp.Or(th.Type, "untyped")]++
		if th.BranchPoint {
			sum.BranchPoints++
		}
		if th.Confidence != nil && (lowest == nil || *th.Confidence < *lowest.Confidence) {
			lowest = &ths[i]
		}
	}
	if sum.Thoughts == 0 {
		return nil
	}
	if lowest != nil {
		r := analyze.Ref(analyze.Doc{ID: lowest.ID, Branch: lowest.BranchID, Step: lowest.Step, Content: lowest.Content})
		sum.Lowest = &r
	}
	return sum
}

// EvaluateResult is the answer of evaluate.
type EvaluateResult struct {
	Header
	BranchID   string             `json:"branchId"`
	Evaluation analyze.Evaluation `json:"evaluation"`
	Omitted    map[string]int     `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) evaluate(ctx context.Context, in CommandInput) (*EvaluateResult, error) {
	res := &EvaluateResult{Header: Header{Command: "evaluate"}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		id := in.BranchID
		if id == "" {
			id = activeOf(sess)
		} else if _, err := branchOf(ctx, tx, sess, "branchId", id); err != nil {
			return err
		}
		ev, err := st.Evaluation(ctx, tx, sess, id)
		if err != nil {
			return err
		}
		res.SessionID, res.BranchID = sess.ID, id
		res.Evaluation = ev
		boundEvaluation(&res.Evaluation, &res.Omitted, "evaluation")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// StatisticsResult is the answer of statistics.
type StatisticsResult struct {
	Header
	TotalThoughts     int            `json:"totalThoughts"`
	TotalBranches     int            `json:"totalBranches"`
	ActiveBranch      string         `json:"activeBranch"`
	Goal              string         `json:"goal,omitempty"`
	BranchesByState   map[string]int `json:"branchesByState"`
	ThoughtsByType    map[string]int `json:"thoughtsByType"`
	ThoughtsByBranch  map[string]int `json:"thoughtsByBranch"`
	ThoughtsByTool    map[string]int `json:"thoughtsByTool"`
	AverageConfidence *float64       `json:"averageConfidence"`
	WithConfidence    int            `json:"thoughtsWithConfidence"`
	BranchPoints      int            `json:"branchPoints"`
	CrossReferences   map[string]int `json:"crossReferences"`
	TotalCrossRefs    int            `json:"totalCrossReferences"`
	AverageKeyPoints  float64        `json:"averageKeyPoints"`
	MaxBranchDepth    int            `json:"maxBranchDepth" jsonschema:"longest chain of parent branches"`
	AutoEval          AutoEvalConfig `json:"autoEval"`
	SemanticEngine    bool           `json:"semanticEngine"`
	CreatedAt         *time.Time     `json:"createdAt,omitempty"`
	UpdatedAt         *time.Time     `json:"updatedAt,omitempty"`
	Omitted           map[string]int `json:"omitted,omitempty" jsonschema:"how many items of each shortened list or count were left out"`
}

func (bt *BranchThinking) statistics(ctx context.Context, in CommandInput) (*StatisticsResult, error) {
	res := &StatisticsResult{Header: Header{Command: "statistics"}, BranchesByState: map[string]int{}, ThoughtsByType: map[string]int{},
		ThoughtsByBranch: map[string]int{}, ThoughtsByTool: map[string]int{}, CrossReferences: map[string]int{}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		bs, ths, err := branchesAndThoughts(ctx, tx, sess)
		if err != nil {
			return err
		}
		links, err := tx.Links(ctx, sess.Key)
		if err != nil {
			return err
		}
		res.SessionID, res.ActiveBranch, res.Goal = sess.ID, activeOf(sess), sess.Goal
		res.TotalThoughts, res.TotalBranches = len(ths), len(bs)
		res.AutoEval, res.SemanticEngine = analysis.AutoEvalOf(sess), bt.svc.Semantic() != nil
		if !sess.CreatedAt.IsZero() {
			res.CreatedAt, res.UpdatedAt = &sess.CreatedAt, &sess.UpdatedAt
		}
		parent := map[string]string{}
		for _, b := range bs {
			res.BranchesByState[b.State]++
			parent[b.ID] = b.ParentBranchID
		}
		for _, b := range bs {
			d := 0
			for p, seen := parent[b.ID], 0; p != "" && seen < len(bs); p, seen = parent[p], seen+1 {
				d++
			}
			res.MaxBranchDepth = max(res.MaxBranchDepth, d)
		}
		var conf float64
		kp := 0
		for _, th := range ths {
			t := th.Type
			if t == "" {
				t = "untyped"
			}
			res.ThoughtsByType[t]++
			res.ThoughtsByBranch[th.BranchID]++
			res.ThoughtsByTool[cmp.Or(th.Tool, "unknown")]++
			if th.Confidence != nil {
				conf += *th.Confidence
				res.WithConfidence++
			}
			if th.BranchPoint {
				res.BranchPoints++
			}
			kp += len(th.KeyPoints)
		}
		if res.WithConfidence > 0 {
			c := round3(conf / float64(res.WithConfidence))
			res.AverageConfidence = &c
		}
		if len(ths) > 0 {
			res.AverageKeyPoints = round3(float64(kp) / float64(len(ths)))
		}
		links = review.Latest(links) // a verdict a later one replaced is not counted
		for _, l := range links {
			res.CrossReferences[l.Type]++
		}
		res.TotalCrossRefs = len(links)
		res.ThoughtsByBranch = topCounts(res.ThoughtsByBranch, branchPage.Default, &res.Omitted, "thoughtsByBranch")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ContradictionsResult is the answer of findContradictions.
type ContradictionsResult struct {
	Header
	Contradictions  []analyze.Contradiction `json:"contradictions" jsonschema:"what the offline judge is certain of, and every stated verdict (source declared)"`
	Count           int                     `json:"count"`
	ThoughtsChecked int                     `json:"thoughtsChecked"`
	Review          *review.Review          `json:"review" jsonschema:"the claims the model should judge, grouped by what they speak of"`
	LLMJudge        *LLMJudgeReport         `json:"llmJudge,omitempty" jsonschema:"what the server's language-model judge settled (THINKGRAPH_JUDGE=llm)"`
	Page            *reasoning.Page         `json:"page,omitempty" jsonschema:"the contradictions left out"`
}

func (bt *BranchThinking) findContradictions(ctx context.Context, in CommandInput) (*ContradictionsResult, error) {
	res, err := bt.findContradictionsAll(ctx, in)
	if err != nil {
		return nil, err
	}
	// The latest first: a contradiction the model just wrote is the one to
	// act on.
	latest := func(c analyze.Contradiction) int { return max(c.ThoughtA.Step, c.ThoughtB.Step) }
	res.Contradictions = slices.Clone(res.Contradictions) // the state's own list stays as it is
	slices.SortStableFunc(res.Contradictions, func(a, b analyze.Contradiction) int { return cmp.Compare(latest(b), latest(a)) })
	res.Contradictions, res.Page, err = reasoning.Paginate(res.Contradictions, in.page(), findingPage)
	return res, err
}

func (bt *BranchThinking) findContradictionsAll(ctx context.Context, in CommandInput) (*ContradictionsResult, error) {
	res, shown, err := bt.findContradictionsOnce(ctx, in)
	if err != nil || bt.svc.Config().Judge != reasoning.JudgeLLM || len(shown) == 0 {
		return res, err
	}
	rep := bt.settleWithLLM(ctx, in.Session, res.SessionID, shown)
	if rep.Settled > 0 {
		if again, _, err := bt.findContradictionsOnce(ctx, in); err == nil {
			res = again
		}
	}
	res.LLMJudge = rep
	return res, nil
}

func (bt *BranchThinking) findContradictionsOnce(ctx context.Context, in CommandInput) (*ContradictionsResult, []analysis.Reviewed, error) {
	res := &ContradictionsResult{Header: Header{Command: "findContradictions"}}
	var shown []analysis.Reviewed
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		rep, err := st.Contradictions(ctx, tx, sess)
		if err != nil {
			return err
		}
		res.SessionID = sess.ID
		res.Contradictions, res.Count, res.ThoughtsChecked = rep.Contradictions, len(rep.Contradictions), rep.Thoughts
		if res.Contradictions == nil {
			res.Contradictions = []analyze.Contradiction{}
		}
		res.Review, shown, err = st.Review(ctx, tx, sess, in.Verbose)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return res, shown, nil
}

// CircularResult is the answer of detectCircular.
type CircularResult struct {
	Header
	Circular []analyze.CircularReasoning `json:"circularReasoning"`
	Count    int                         `json:"count"`
	Review   *review.Review              `json:"review" jsonschema:"arguments the detector could not decide: a claim and a premise it rests on that say much the same; answer each group with one judge call"`
	Page     *reasoning.Page             `json:"page,omitempty" jsonschema:"the circular arguments left out"`
	Omitted  map[string]int              `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) detectCircular(ctx context.Context, in CommandInput) (*CircularResult, error) {
	res := &CircularResult{Header: Header{Command: "detectCircular"}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		circ, rv, err := st.CircularFindings(ctx, tx, sess, in.Verbose)
		if err != nil {
			return err
		}
		res.SessionID, res.Review = sess.ID, rv
		res.Circular = slices.Clone(circ) // the assessment's own list stays as it is
		res.Count = len(res.Circular)
		if res.Circular, res.Page, err = reasoning.Paginate(res.Circular, in.page(), reasoning.PageSize{Default: 5, Max: findingPage.Max, Bytes: findingPage.Bytes}); err != nil {
			return err
		}
		for i := range res.Circular {
			boundCircular(&res.Circular[i], &res.Omitted, fmt.Sprintf("circularReasoning[%d]", i))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// PathsResult is the answer of findStrongestPaths.
type PathsResult struct {
	Header
	Paths   []advice.StrongPath `json:"paths" jsonschema:"a long path shows its first thought and its last ones"`
	TopK    int                 `json:"topK"`
	Method  string              `json:"method"`
	Omitted map[string]int      `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func intOr(p *int, def, lo, hi int, field string) (int, error) {
	if p == nil {
		return def, nil
	}
	if *p < lo || *p > hi {
		return 0, thinkgraph.Invalid(field, fmt.Sprintf("an integer from %d to %d", lo, hi), fmt.Sprint(*p), "'%s' must be from %d to %d, got %d", field, lo, hi, *p)
	}
	return *p, nil
}

// pathsMethod says how findStrongestPaths ranks.
const pathsMethod = "score = mean confidence (none: 0.5; a thought of a circular argument: 0) × coherence of consecutive thoughts. " +
	"First the sound path to the session's conclusion, then open paths by score, then paths into a drifting branch, last paths into a closed one"

func (bt *BranchThinking) strongestPaths(ctx context.Context, in CommandInput) (*PathsResult, error) {
	k, err := intOr(in.TopK, 3, 1, 50, "topK")
	if err != nil {
		return nil, err
	}
	res := &PathsResult{Header: Header{Command: "findStrongestPaths"}, TopK: k, Method: pathsMethod}
	err = bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		a, err := st.Assess(ctx, tx, sess)
		if err != nil {
			return err
		}
		res.SessionID = sess.ID
		res.Paths = advice.RankPaths(a.Docs, k, advice.PathOptions{Closed: a.Closed, Drifting: a.Drifting, Circular: a.Circular(),
			Conclusion: a.Conclusion, Calibration: bt.svc.Calibration()})
		if res.Paths == nil {
			res.Paths = []advice.StrongPath{}
		}
		for i := range res.Paths {
			p := &res.Paths[i]
			p.Thoughts = pathEndsOf(&res.Omitted, fmt.Sprintf("paths[%d].thoughts", i), p.Thoughts)
			p.Circular = head(&res.Omitted, fmt.Sprintf("paths[%d].circular", i), p.Circular, fewRefs)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// SimilarResult is the answer of findSimilar.
type SimilarResult struct {
	Header
	Query   string           `json:"query"`
	Results []RelatedThought `json:"results"`
	// TotalFound is len(Results), as Branch Thinking reports it.
	TotalFound int             `json:"totalFound"`
	Page       *reasoning.Page `json:"page,omitempty" jsonschema:"more results: page.cursor gives the next ones"`
}

func (bt *BranchThinking) embedQuery(ctx context.Context, text string) (semantic.Vector, error) {
	if bt.svc.Semantic() == nil {
		return nil, reasoning.ErrNoSemantic
	}
	ctx, cancel := context.WithTimeout(ctx, bt.svc.Semantic().EmbedTimeout)
	defer cancel()
	vs, err := bt.svc.Semantic().Embedder.Embed(ctx, []string{text})
	if err != nil || len(vs) != 1 {
		return nil, &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "embedding the query failed", Err: err,
			Suggestions: []string{"retry; check that the embedding service is up"}}
	}
	return vs[0], nil
}

func (bt *BranchThinking) findSimilar(ctx context.Context, in CommandInput) (*SimilarResult, error) {
	if err := reasoning.ValidateContent("query", in.Query, bt.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	if _, _, err := reasoning.Paginate([]int{}, reasoning.PageArgs{Limit: in.Limit}, similarPage); err != nil {
		return nil, err
	}
	limit := similarPage.Default
	if in.Limit != nil {
		limit = *in.Limit
	}
	start, _ := strconv.Atoi(in.Cursor)
	q, err := bt.embedQuery(ctx, in.Query)
	if err != nil {
		return nil, err
	}
	res := &SimilarResult{Header: Header{Command: "findSimilar"}, Query: in.Query}
	err = bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res.SessionID = sess.ID
		return bt.svc.DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, byID map[string]int, idx *semantic.Index) error {
			hits, err := bt.rankSimilar(docs, byID, idx, q, in.Query, start+limit)
			if err != nil {
				return err
			}
			var err2 error
			if res.Results, res.Page, err2 = reasoning.Paginate(refsOf(docs, byID, hits), in.page(), similarPage); err2 != nil {
				return err2
			}
			res.TotalFound = len(res.Results)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func findDoc(docs []analyze.Doc, id string) (analyze.Doc, bool) {
	for _, d := range docs {
		if d.ID == id {
			return d, true
		}
	}
	return analyze.Doc{}, false
}

func (bt *BranchThinking) jumpToRelated(ctx context.Context, in CommandInput) (*FocusResult, error) {
	if in.ThoughtID == "" {
		return nil, thinkgraph.Invalid("thoughtId", "the id of a thought in this session", "none", "'jumpToRelated' needs 'thoughtId' in command.data")
	}
	limit, err := intOr(in.Limit, 3, 1, 100, "limit")
	if err != nil {
		return nil, err
	}
	if bt.svc.Semantic() == nil {
		return nil, reasoning.ErrNoSemantic
	}
	res := &FocusResult{Header: Header{Command: "jumpToRelated"}}
	err = bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		th, err := bt.svc.Thought(ctx, tx, sess, "thoughtId", in.ThoughtID)
		if err != nil {
			return err
		}
		var d analyze.Doc
		var related []RelatedThought
		err = bt.svc.DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, byID map[string]int, idx *semantic.Index) error {
			i, ok := byID[th.ID]
			if !ok {
				return reasoning.ThoughtNotFound("thoughtId", in.ThoughtID, sess.ID)
			}
			d = docs[i]
			v, ok := idx.Vector(d.ID)
			if !ok {
				return &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: fmt.Sprintf("thought #%d has no vector yet", d.Step)}
			}
			hits, err := bt.rankSimilar(docs, byID, idx, v, d.Content, limit, d.ID)
			if err != nil {
				return err
			}
			related = refsOf(docs, byID, hits)
			return nil
		})
		if err != nil {
			return err
		}
		b, err := branchOf(ctx, tx, sess, "thoughtId", d.Branch)
		if err != nil {
			return err
		}
		if err := bt.moveFocus(ctx, tx, sess, b, res); err != nil {
			return err
		}
		if err := setRelationships(ctx, tx, sess.Key, d.Branch, related); err != nil {
			return err
		}
		ref := analyze.Ref(d)
		if related, res.Page, err = reasoning.Paginate(related, reasoning.PageArgs{Limit: &limit}, similarPage); err != nil {
			return err
		}
		res.From, res.Related = &ref, related
		res.Message = fmt.Sprintf("Found %s; focused on branch %q, the branch of thought #%d.", thinkgraph.Count(len(related), "related thought", ""), b.ID, d.Step)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// PathResult is the answer of semanticPath.
type PathResult struct {
	Header
	analyze.SemanticPathResult
	Omitted map[string]int `json:"omitted,omitempty" jsonschema:"how many steps of a long path were left out (its first step and its last ones are shown)"`
}

func (bt *BranchThinking) semanticPath(ctx context.Context, in CommandInput) (*PathResult, error) {
	for _, f := range []struct{ name, v string }{{"fromThoughtId", in.FromThoughtID}, {"toThoughtId", in.ToThoughtID}} {
		if f.v == "" {
			return nil, thinkgraph.Invalid(f.name, "the id of a thought in this session", "none", "'semanticPath' needs '%s' in command.data", f.name)
		}
	}
	minSim := 0.0
	if in.MinSimilarity != nil {
		if *in.MinSimilarity <= 0 || *in.MinSimilarity > 1 {
			return nil, thinkgraph.Invalid("minSimilarity", "a number in (0, 1]", fmt.Sprint(*in.MinSimilarity), "'minSimilarity' must be in (0, 1]")
		}
		minSim = *in.MinSimilarity
	}
	res := &PathResult{Header: Header{Command: "semanticPath"}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		docs, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		var ends [2]string
		for i, f := range []struct{ name, v string }{{"fromThoughtId", in.FromThoughtID}, {"toThoughtId", in.ToThoughtID}} {
			th, err := bt.svc.Thought(ctx, tx, sess, f.name, f.v)
			if err != nil {
				return err
			}
			if _, ok := findDoc(docs, th.ID); !ok {
				return reasoning.ThoughtNotFound(f.name, f.v, sess.ID)
			}
			ends[i] = th.ID
		}
		r, err := analyze.SemanticPath(docs, ends[0], ends[1], minSim)
		if err != nil {
			return &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "semantic path failed", Err: err}
		}
		res.SessionID, res.SemanticPathResult = sess.ID, r
		res.Steps = pathEndsOf(&res.Omitted, "steps", res.Steps)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// GoalResult is the answer of setGoal.
type GoalResult struct {
	Header
	Goal         string `json:"goal"`
	PreviousGoal string `json:"previousGoal,omitempty"`
	Message      string `json:"message"`
}

func (bt *BranchThinking) setGoal(ctx context.Context, in CommandInput) (*GoalResult, error) {
	if in.Goal == nil {
		return nil, thinkgraph.Invalid("goal", "a non-empty string", "none", "'setGoal' needs 'goal' (in command or command.data)")
	}
	if err := reasoning.ValidateContent("goal", *in.Goal, bt.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	res := &GoalResult{Header: Header{Command: "setGoal"}, Goal: strings.TrimSpace(*in.Goal)}
	err := bt.writeOrStart(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		res.PreviousGoal, sess.Goal, res.SessionID = sess.Goal, res.Goal, sess.ID
		res.Message = "Goal set: goal alignment and drift from the goal are now measured against it."
		if sess.StepCount == 0 {
			res.Message += fmt.Sprintf(" Session %q has no thoughts yet: add the first one with this session_id.", sess.ID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// AutoEvalResult is the answer of toggleAutoEval and configAutoEval.
type AutoEvalResult struct {
	Header
	AutoEval AutoEvalConfig `json:"autoEval"`
	Previous AutoEvalConfig `json:"previous"`
	Message  string         `json:"message"`
}

func (bt *BranchThinking) autoEval(ctx context.Context, in CommandInput) (*AutoEvalResult, error) {
	res := &AutoEvalResult{Header: Header{Command: in.Type}}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, _ *analysis.State) error {
		cfg := analysis.AutoEvalOf(sess)
		res.Previous = cfg
		if in.Type == "toggleAutoEval" {
			cfg.Enabled = !cfg.Enabled
		} else {
			if in.Enabled != nil {
				cfg.Enabled = *in.Enabled
			}
			set := func(field string, p *float64, dst *float64) error {
				if p == nil {
					return nil
				}
				if *p < 0 || *p > 1 || math.IsNaN(*p) {
					return thinkgraph.Invalid(field, "a number from 0 to 1", fmt.Sprint(*p), "'%s' must be from 0 to 1", field)
				}
				*dst = *p
				return nil
			}
			if t := in.Thresholds; t != nil {
				for _, f := range []struct {
					name string
					p    *float64
					dst  *float64
				}{{"thresholds.excellent", t.Excellent, &cfg.Thresholds.Excellent}, {"thresholds.good", t.Good, &cfg.Thresholds.Good}, {"thresholds.moderate", t.Moderate, &cfg.Thresholds.Moderate}} {
					if err := set(f.name, f.p, f.dst); err != nil {
						return err
					}
				}
			}
			if err := set("suggestPivotThreshold", in.PivotThresh, &cfg.SuggestPivotThreshold); err != nil {
				return err
			}
			th := cfg.Thresholds
			if !(th.Excellent > th.Good && th.Good > th.Moderate && th.Moderate > 0) {
				return thinkgraph.Invalid("thresholds", "0 < moderate < good < excellent ≤ 1",
					fmt.Sprintf("excellent %g, good %g, moderate %g", th.Excellent, th.Good, th.Moderate),
					"thresholds must satisfy 0 < moderate < good < excellent ≤ 1 (got excellent %g, good %g, moderate %g)", th.Excellent, th.Good, th.Moderate)
			}
		}
		res.SessionID, res.AutoEval = sess.ID, cfg
		state := "off"
		if cfg.Enabled {
			state = "on"
		}
		res.Message = fmt.Sprintf("Auto-evaluation is %s: quality Excellent ≥ %g, Good ≥ %g, Moderate ≥ %g; pivot suggested below %g.",
			state, cfg.Thresholds.Excellent, cfg.Thresholds.Good, cfg.Thresholds.Moderate, cfg.SuggestPivotThreshold)
		return setAutoEval(sess, cfg)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ProfilesResult is the answer of compareProfiles.
type ProfilesResult struct {
	Header
	Profiles    []analyze.BranchProfile     `json:"profiles" jsonschema:"the largest branches first"`
	Comparisons []analyze.ProfileComparison `json:"comparisons" jsonschema:"the most similar pairs of the profiles shown, first"`
	Page        *reasoning.Page             `json:"page,omitempty" jsonschema:"the profiles left out"`
	Omitted     map[string]int              `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) compareProfiles(ctx context.Context, in CommandInput) (*ProfilesResult, error) {
	res := &ProfilesResult{Header: Header{Command: "compareProfiles"}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		docs, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		ps := analyze.Profiles(docs)
		slices.SortStableFunc(ps, func(a, b analyze.BranchProfile) int { return cmp.Compare(b.Size, a.Size) })
		if ps, res.Page, err = reasoning.Paginate(ps, in.page(), findingPage); err != nil {
			return err
		}
		cs := analyze.CompareProfiles(ps)
		slices.SortStableFunc(cs, func(a, b analyze.ProfileComparison) int { return cmp.Compare(b.Similarity, a.Similarity) })
		res.SessionID, res.Profiles, res.Comparisons = sess.ID, ps, head(&res.Omitted, "comparisons", cs, findingPage.Default)
		if res.Profiles == nil {
			res.Profiles = []analyze.BranchProfile{}
		}
		if res.Comparisons == nil {
			res.Comparisons = []analyze.ProfileComparison{}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// MergesResult is the answer of suggestMerges.
type MergesResult struct {
	Header
	Suggestions   []analyze.MergeCandidate `json:"suggestions"`
	MinSimilarity float64                  `json:"minSimilarity"`
	Page          *reasoning.Page          `json:"page,omitempty" jsonschema:"the suggestions left out"`
	Omitted       map[string]int           `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

// activeDocs drops the thoughts of pruned (and merged) branches.
func activeDocs(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey, docs []analyze.Doc) ([]analyze.Doc, error) {
	bs, err := tx.Branches(ctx, session)
	if err != nil {
		return nil, err
	}
	off := map[string]bool{}
	for _, b := range bs {
		if b.State == "pruned" || b.State == "merged" {
			off[b.ID] = true
		}
	}
	if len(off) == 0 {
		return docs, nil
	}
	out := make([]analyze.Doc, 0, len(docs))
	for _, d := range docs {
		if !off[d.Branch] {
			out = append(out, d)
		}
	}
	return out, nil
}

func (bt *BranchThinking) suggestMerges(ctx context.Context, in CommandInput) (*MergesResult, error) {
	minSim := analyze.DefaultMergeSimilarity
	if in.MinSimilarity != nil {
		if *in.MinSimilarity <= 0 || *in.MinSimilarity > 1 {
			return nil, thinkgraph.Invalid("minSimilarity", "a number in (0, 1]", fmt.Sprint(*in.MinSimilarity), "'minSimilarity' must be in (0, 1]")
		}
		minSim = *in.MinSimilarity
	}
	res := &MergesResult{Header: Header{Command: "suggestMerges"}, MinSimilarity: minSim}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		docs, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		if docs, err = activeDocs(ctx, tx, sess.Key, docs); err != nil {
			return err
		}
		res.SessionID, res.Suggestions = sess.ID, analyze.MergeCandidates(analyze.Profiles(docs), minSim)
		if res.Suggestions == nil {
			res.Suggestions = []analyze.MergeCandidate{}
		}
		if res.Suggestions, res.Page, err = reasoning.Paginate(res.Suggestions, in.page(), findingPage); err != nil {
			return err
		}
		for i := range res.Suggestions {
			res.Suggestions[i].Evidence = head(&res.Omitted, fmt.Sprintf("suggestions[%d].evidence", i), res.Suggestions[i].Evidence, fewRefs)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// DriftResult is the answer of detectDrift.
type DriftResult struct {
	Header
	Branches  []advice.BranchDrift `json:"branches"`
	Drifting  []string             `json:"drifting"`
	Threshold float64              `json:"threshold" jsonschema:"standard deviations below the session's mean anchoring at which a branch's second half drifts"`
	Method    string               `json:"method"`
	Note      string               `json:"note,omitempty"`
	Page      *reasoning.Page      `json:"page,omitempty" jsonschema:"the branches left out (drifting branches come first)"`
	Omitted   map[string]int       `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

// driftMethod says what detectDrift measured with the active embedder, in
// one sentence (docs/branch-thinking.md has the whole method).
func (bt *BranchThinking) driftMethod(o advice.DriftOptions) string {
	what := "vectors"
	if o.TextSimilarity != nil {
		what = "vectors and word alignment"
	}
	return fmt.Sprintf("anchoring: relatedness to the goal and the session (%s, embedder %s), in standard deviations from the other branches' thoughts; "+
		"drifting: a branch's second half at −%.2f or below (4+ thoughts)", what, bt.svc.Semantic().Embedder.Model(), o.Threshold)
}

func (bt *BranchThinking) detectDrift(ctx context.Context, in CommandInput) (*DriftResult, error) {
	th := advice.DefaultDriftThreshold
	if in.Threshold != nil {
		if *in.Threshold <= 0 || *in.Threshold > 3 {
			return nil, thinkgraph.Invalid("threshold", "a number of standard deviations in (0, 3]", fmt.Sprint(*in.Threshold), "'threshold' must be in (0, 3] (standard deviations; default %.0f)", advice.DefaultDriftThreshold)
		}
		th = *in.Threshold
	}
	res := &DriftResult{Header: Header{Command: "detectDrift"}, Threshold: th, Drifting: []string{}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		a, err := st.Assess(ctx, tx, sess)
		if err != nil {
			return err
		}
		res.SessionID = sess.ID
		// The session's drift, as evaluate and the exports read it; another
		// threshold asks what it would be.
		branches, o := st.DriftAt(ctx, sess, a, th)
		res.Method = bt.driftMethod(o)
		res.Branches = slices.Clone(branches)
		if res.Branches == nil {
			res.Branches = []advice.BranchDrift{}
		}
		for _, b := range res.Branches {
			if b.Drifting {
				res.Drifting = append(res.Drifting, b.Branch)
			}
		}
		slices.SortStableFunc(res.Branches, func(a, b advice.BranchDrift) int {
			if a.Drifting != b.Drifting {
				if a.Drifting {
					return -1
				}
				return 1
			}
			return 0
		})
		if res.Branches, res.Page, err = reasoning.Paginate(res.Branches, in.page(), findingPage); err != nil {
			return err
		}
		res.Drifting = head(&res.Omitted, "drifting", res.Drifting, branchPage.Default)
		if sess.Goal == "" {
			res.Note = "no goal is set: anchoring is measured against the session's other thoughts only; setGoal to measure it against the goal too"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// GapsResult is the answer of detectKnowledgeGaps.
type GapsResult struct {
	Header
	Gaps   []analyze.KnowledgeGap `json:"gaps"`
	ByKind map[string]int         `json:"byKind"`
	Page   *reasoning.Page        `json:"page,omitempty" jsonschema:"the gaps left out"`
}

func (bt *BranchThinking) knowledgeGaps(ctx context.Context, in CommandInput) (*GapsResult, error) {
	res := &GapsResult{Header: Header{Command: "detectKnowledgeGaps"}, ByKind: map[string]int{}}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		a, err := st.Assess(ctx, tx, sess)
		if err != nil {
			return err
		}
		res.SessionID, res.Gaps = sess.ID, a.KnowledgeGaps()
		if res.Gaps == nil {
			res.Gaps = []analyze.KnowledgeGap{}
		}
		for _, g := range res.Gaps {
			res.ByKind[g.Kind]++
		}
		res.Gaps, res.Page, err = reasoning.Paginate(res.Gaps, in.page(), findingPage)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// PruneEntry is one branch considered by prune.
type PruneEntry struct {
	BranchID string   `json:"branchId"`
	Score    *float64 `json:"score"`
	Quality  string   `json:"quality,omitempty"`
	Reason   string   `json:"reason"`
}

// PruneResult is the answer of prune.
type PruneResult struct {
	Header
	Threshold    float64      `json:"threshold"`
	Pruned       []PruneEntry `json:"pruned"`
	Kept         []PruneEntry `json:"kept"`
	Skipped      []PruneEntry `json:"skipped"`
	ActiveBranch string       `json:"activeBranch"`
	Message      string       `json:"message"`
	// Omitted counts the entries left out of pruned, kept and skipped
	// (the pruned ones, then the kept ones with the lowest scores, are
	// shown first).
	Omitted map[string]int `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) prune(ctx context.Context, in CommandInput) (*PruneResult, error) {
	if in.Threshold != nil && (*in.Threshold < 0 || *in.Threshold > 1) {
		return nil, thinkgraph.Invalid("threshold", "a number from 0 to 1", fmt.Sprint(*in.Threshold), "'threshold' must be from 0 to 1")
	}
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return nil, err
		}
		if in.Threshold != nil {
			return nil, thinkgraph.Invalid("threshold", "no threshold with branchId", fmt.Sprint(*in.Threshold),
				"'prune' takes either 'branchId' (close that branch) or 'threshold' (prune what evaluation finds weak), not both")
		}
	} else if in.Reason != "" {
		return nil, thinkgraph.Invalid("reason", "a reason together with branchId", reasoning.Clip(in.Reason, 40),
			"'reason' says why you close the branch named by 'branchId'; add 'branchId' or drop 'reason'")
	}
	if bt.svc.Semantic() == nil {
		return nil, reasoning.ErrNoSemantic
	}
	res := &PruneResult{Header: Header{Command: "prune"}, Pruned: []PruneEntry{}, Kept: []PruneEntry{}, Skipped: []PruneEntry{}}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res.Pruned, res.Kept, res.Skipped = res.Pruned[:0], res.Kept[:0], res.Skipped[:0]
		th := analysis.AutoEvalOf(sess).SuggestPivotThreshold
		if in.Threshold != nil {
			th = *in.Threshold
		}
		res.Threshold, res.SessionID = th, sess.ID
		bs, err := tx.Branches(ctx, sess.Key)
		if err != nil {
			return err
		}
		if in.BranchID != "" {
			if _, err := branchOf(ctx, tx, sess, "branchId", in.BranchID); err != nil {
				return err
			}
		}
		settings := analysis.SettingsOf(sess)
		if settings.Closed == nil {
			settings.Closed = map[string]string{}
		}
		now := bt.svc.Now()
		var best string
		bestScore := -1.0
		for i := range bs {
			b := &bs[i]
			if in.BranchID != "" && b.ID != in.BranchID {
				continue
			}
			if b.State != "active" {
				res.Skipped = append(res.Skipped, PruneEntry{BranchID: b.ID, Reason: "state is " + b.State})
				continue
			}
			ev, err := st.Evaluation(ctx, tx, sess, b.ID)
			if err != nil {
				return err
			}
			e := PruneEntry{BranchID: b.ID, Score: ev.OverallScore, Quality: ev.Quality}
			var why string
			switch {
			case in.BranchID != "":
				why = cmp.Or(strings.TrimSpace(in.Reason), "closed by the model")
			case slices.ContainsFunc(ev.Findings, func(f analyze.Finding) bool { return f.Kind != analyze.FindingCircular }):
				for _, f := range ev.Findings {
					if f.Kind != analyze.FindingCircular {
						why = f.Kind + ": " + f.Reason
						break
					}
				}
			case ev.OverallScore == nil:
				e.Reason = "no score: too few thoughts to evaluate"
				res.Skipped = append(res.Skipped, e)
				continue
			case *ev.OverallScore < th:
				why = fmt.Sprintf("score %.2f < threshold %.2g", *ev.OverallScore, th)
				if len(ev.Issues) > 0 {
					why += "; " + strings.Join(ev.Issues, "; ")
				}
			}
			if why == "" {
				e.Reason = fmt.Sprintf("score %.2f ≥ threshold %.2g", *ev.OverallScore, th)
				if len(ev.Findings) > 0 {
					e.Reason += "; " + ev.Issues[0]
				}
				res.Kept = append(res.Kept, e)
				if *ev.OverallScore > bestScore {
					best, bestScore = b.ID, *ev.OverallScore
				}
				continue
			}
			e.Reason = why
			res.Pruned = append(res.Pruned, e)
			settings.Closed[b.ID] = reasoning.Clip(why, 200)
			b.State, b.UpdatedAt = "pruned", now
			if err := tx.PutBranch(ctx, b); err != nil {
				return err
			}
		}
		if len(res.Pruned) > 0 {
			if err := setSettings(sess, settings); err != nil {
				return err
			}
		}
		active := activeOf(sess)
		if best == "" && slices.ContainsFunc(res.Pruned, func(p PruneEntry) bool { return p.BranchID == active }) {
			// Closing one branch: focus moves to the root branch, else the
			// first active one.
			for _, b := range bs {
				if b.State == "active" && (best == "" || b.ID == thinkgraph.DefaultBranch) {
					best = b.ID
				}
			}
		}
		for _, p := range res.Pruned {
			if p.BranchID == active && best != "" {
				b, err := tx.Branch(ctx, sess.Key, best)
				if err != nil {
					return err
				}
				var fr FocusResult
				if err := bt.moveFocus(ctx, tx, sess, b, &fr); err != nil {
					return err
				}
			}
		}
		res.ActiveBranch = activeOf(sess)
		if in.BranchID != "" {
			res.Message = fmt.Sprintf("Closed branch %q (state \"pruned\"; nothing deleted): analyses treat it as a dead end; a new thought on it reopens it.", in.BranchID)
			if len(res.Pruned) == 0 {
				res.Message = fmt.Sprintf("Branch %q was not closed: %s.", in.BranchID, res.Skipped[0].Reason)
			}
		} else {
			res.Message = fmt.Sprintf("Pruned %d branches (marked state \"pruned\"; nothing deleted): drifting and closed branches and those scoring below the threshold; kept %d, skipped %d.", len(res.Pruned), len(res.Kept), len(res.Skipped))
		}
		if res.ActiveBranch != active {
			res.Message += fmt.Sprintf(" The active branch %q was pruned; focus moved to %q.", active, res.ActiveBranch)
		}
		slices.SortStableFunc(res.Kept, func(a, b PruneEntry) int { return cmp.Compare(*a.Score, *b.Score) })
		res.Pruned = head(&res.Omitted, "pruned", res.Pruned, findingPage.Default)
		res.Kept = head(&res.Omitted, "kept", res.Kept, 2*fewRefs)
		res.Skipped = head(&res.Omitted, "skipped", res.Skipped, 2*fewRefs)
		for _, l := range [][]PruneEntry{res.Pruned, res.Kept, res.Skipped} {
			for i := range l {
				l[i].Reason = thinkgraph.Clip(l[i].Reason, 200)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
