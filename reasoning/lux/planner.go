package lux

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// planner (Lux): step 1 is the task; each step of the plan is written
// by the model from the plan so far and the client's input for the step.

// PlannerInput is one call of planner.
type PlannerInput struct {
	Session           reasoning.SessionRef
	Step              string
	StepNumber        int
	TotalSteps        int
	NextStepRequired  bool
	IsStepRevision    bool
	RevisesStepNumber *int
	IsBranchPoint     bool
	BranchFromStep    *int
	BranchID          string
	MoreStepsNeeded   bool
	Model             string
	Temperature       *float64
	Call              reasoning.LLMCall
}

// planState is the planner's record of a run.
type planState struct {
	// Confidences are the steps' geometric mean token probabilities, where known.
	Confidences []float64 `json:"confidences,omitempty"`
	Complete    bool      `json:"complete,omitempty"`
}

// PlanSnapshot is the planner's synthesis of the plan (Lux).
type PlanSnapshot struct {
	CurrentPlan       string   `json:"current_plan"`
	KeyDecisions      []string `json:"key_decisions"`
	NextActions       []string `json:"next_actions"`
	ConfidenceLevel   string   `json:"confidence_level"`
	ReadyForExecution bool     `json:"ready_for_execution"`
}

// PlannerMetadata is the metadata of a planner result.
type PlannerMetadata struct {
	Branches          []string `json:"branches"`
	StepHistoryLength int      `json:"step_history_length"`
	IsStepRevision    bool     `json:"is_step_revision"`
	RevisesStepNumber *int     `json:"revises_step_number"`
	IsBranchPoint     bool     `json:"is_branch_point"`
	BranchFromStep    *int     `json:"branch_from_step"`
	BranchID          *string  `json:"branch_id"`
	MoreStepsNeeded   bool     `json:"more_steps_needed"`
}

// PlannerResult is what planner generated: the tool's result.
type PlannerResult struct {
	Status           string          `json:"status" jsonschema:"planning, revising, branching or complete"`
	StepNumber       int             `json:"step_number"`
	TotalSteps       int             `json:"total_steps"`
	NextStepRequired bool            `json:"next_step_required"`
	StepContent      string          `json:"step_content" jsonschema:"the plan step the model wrote"`
	Metadata         PlannerMetadata `json:"metadata"`
	ContinuationID   string          `json:"continuation_id"`
	SessionID        string          `json:"session_id"`
	ThoughtID        string          `json:"thought_id"`
	PlanningComplete *bool           `json:"planning_complete"`
	PlanSummary      *string         `json:"plan_summary"`
	NextSteps        *string         `json:"next_steps"`
	// ThinkingRequired and RequiredThinking are the questions the model
	// said the step leaves open; null when it did not answer in the form
	// asked for.
	ThinkingRequired  *bool         `json:"thinking_required" jsonschema:"whether the model said this step leaves questions that need careful thought; null when its answer did not say"`
	RequiredThinking  []string      `json:"required_thinking" jsonschema:"those questions; null when the model's answer did not say"`
	PlannerRequired   *bool         `json:"planner_required" jsonschema:"whether more planning steps are needed (next_step_required or more_steps_needed)"`
	ModelUsed         *string       `json:"model_used"`
	SynthesisSnapshot *PlanSnapshot `json:"synthesis_snapshot"`
}

var plannerFields = stepFields{tool: "planner", mode: "planner", content: "step", number: "step_number", total: "total_steps",
	revises: "revises_step_number", branchFrom: "branch_from_step", branch: "branch_id", rootType: "task", inputType: "guidance", rootName: "task"}

const plannerSystemPrompt = `You are a planning assistant. You build a plan for a task one step at a time. Write only the plan step you are asked for: concrete and actionable, one to four sentences, without preamble or numbering.`

// plannerStepPrompt asks for the step and the questions it leaves open,
// which become thinking_required and required_thinking.
const plannerStepPrompt = `Answer with JSON only: {"step": "<the plan step>", "open_questions": ["<a question that needs careful thought before this step can be carried out>", "..."]}; "open_questions" is [] when the step leaves none.`

const plannerFinalPrompt = `This is the last step of the plan. Answer with JSON only: {"step": "<the last plan step>", "open_questions": ["<a question that needs careful thought before the plan can be carried out>", "..."] ([] when none), "summary": "<the whole plan in two to four sentences>", "next_steps": ["<first action to take>", "..."]}.`

type plannerAnswer struct {
	Step          string    `json:"step"`
	OpenQuestions *[]string `json:"open_questions"`
	Summary       string    `json:"summary"`
	NextSteps     []string  `json:"next_steps"`
}

var decisionCues = []string{"will ", "use ", "choose", "chose", "decide", "adopt", "select", "prefer", "go with", "opt for", "pick "}

// Planner runs one step of planning.
func (lx *Tools) Planner(ctx context.Context, in PlannerInput) (*PlannerResult, error) {
	f := plannerFields
	if in.RevisesStepNumber != nil {
		in.IsStepRevision = true
	}
	if in.IsStepRevision && in.RevisesStepNumber == nil {
		return nil, thinkgraph.Invalid(f.revises, "the step_number of the step being revised", "none", "'revises_step_number' is required when 'is_step_revision' is true")
	}
	if in.BranchFromStep != nil {
		in.IsBranchPoint = true
	}
	if in.IsBranchPoint && in.BranchFromStep == nil {
		return nil, thinkgraph.Invalid(f.branchFrom, "the step_number the branch starts from", "none", "'branch_from_step' is required when 'is_branch_point' is true")
	}
	if in.BranchFromStep != nil && in.BranchID == "" {
		in.BranchID = fmt.Sprintf("branch-from-%d", *in.BranchFromStep)
	}
	sin := stepInput{Session: in.Session, Number: in.StepNumber, Total: in.TotalSteps, Next: in.NextStepRequired, Content: in.Step,
		Revises: in.RevisesStepNumber, BranchFrom: in.BranchFromStep, BranchID: in.BranchID, MoreNeeded: in.MoreStepsNeeded}
	if err := f.validate(&sin, lx.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	if err := validateTemperature("temperature", in.Temperature); err != nil {
		return nil, err
	}
	// A named session that does not exist is reported by the first
	// transaction, before the model is called.
	p, err := lx.svc.Provider(f.tool, in.Session, false, in.Call)
	if err != nil {
		return nil, err
	}
	st, err := lx.prepareStep(ctx, f, sin, "step", false)
	if err != nil {
		return nil, err
	}
	prompt := st.transcript("Task", "Plan step")
	if st.Input != nil && st.Input.ID != st.Root.ID {
		prompt += fmt.Sprintf("\nInput for this step: %s\n", st.Input.Content)
	}
	done := !in.NextStepRequired
	switch {
	case in.RevisesStepNumber != nil:
		prompt += fmt.Sprintf("\nWrite plan step %d: a revision of plan step %d that corrects or improves it.", in.StepNumber, *in.RevisesStepNumber)
	case in.BranchFromStep != nil:
		prompt += fmt.Sprintf("\nWrite plan step %d, starting the alternative branch %q from plan step %d: take a different approach from there.", in.StepNumber, in.BranchID, *in.BranchFromStep)
	default:
		prompt += fmt.Sprintf("\nWrite plan step %d of about %d.", in.StepNumber, st.Run.Total)
	}
	if done {
		prompt += "\n" + plannerFinalPrompt
	} else {
		prompt += "\n" + plannerStepPrompt
	}
	temp := 0.7
	if in.Temperature != nil {
		temp = *in.Temperature
	}
	resp, requested, err := lx.completeLogprobs(ctx, p, in.Call, llm.Request{Model: in.Model, Temperature: &temp, ThreadID: st.Session.ID,
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: plannerSystemPrompt}, {Role: llm.RoleUser, Content: prompt}}})
	if err != nil {
		return nil, err
	}
	content := strings.TrimSpace(resp.Content)
	var final plannerAnswer
	if llm.ExtractJSON(content, &final) == nil && strings.TrimSpace(final.Step) != "" {
		content = strings.TrimSpace(final.Step)
	} else {
		// Not the JSON asked for: the whole answer is the step, and
		// nothing is known about open questions.
		final = plannerAnswer{}
	}
	var open []string
	if final.OpenQuestions != nil {
		open = []string{}
		for _, q := range *final.OpenQuestions {
			if q = strings.TrimSpace(q); q != "" {
				open = append(open, q)
			}
		}
	}
	if content == "" {
		return nil, reasoning.ProviderError(&llm.APIError{Provider: resp.Provider, StatusCode: 200, Message: "the model returned an empty plan step"})
	}
	ts := computeTokenStats(resp, requested)
	meta := stepMeta{Run: st.Run.Run, Number: in.StepNumber, Role: "step", Provider: resp.Provider, Model: resp.Model, TokenConfidence: ts.Confidence, OpenQuestions: open}
	if in.RevisesStepNumber != nil {
		meta.Revises = *in.RevisesStepNumber
	}
	if in.BranchFromStep != nil {
		meta.BranchFrom = *in.BranchFromStep
	}
	vec := reasoning.VectorAt(lx.svc.EmbedForWrite(ctx, content), 0)
	th := thinkgraph.Thought{Content: content, Author: reasoning.Author(resp), Type: "plan", Metadata: metaJSON(meta)}
	sess, run, stored, err := lx.finishStep(ctx, f, st, sin, th, vec, func(run *stepRun, th *thinkgraph.Thought) {
		if run.Plan == nil {
			run.Plan = &planState{}
		}
		if ts.Confidence != nil {
			run.Plan.Confidences = append(run.Plan.Confidences, *ts.Confidence)
		}
		run.Plan.Complete = done
	})
	if err != nil {
		return nil, err
	}
	model := resp.Model
	if model == "" {
		model = reasoning.Author(resp)
	}
	more := in.NextStepRequired || in.MoreStepsNeeded
	res := &PlannerResult{StepNumber: in.StepNumber, TotalSteps: run.Total, NextStepRequired: in.NextStepRequired, StepContent: stored.Content,
		ContinuationID: sess.ID, SessionID: sess.ID, ThoughtID: stored.ID, ModelUsed: &model, PlannerRequired: &more,
		Metadata: PlannerMetadata{Branches: slices.Clone(run.Branches), StepHistoryLength: run.Count, IsStepRevision: stored.RevisesID != "",
			RevisesStepNumber: in.RevisesStepNumber, IsBranchPoint: in.BranchFromStep != nil, BranchFromStep: in.BranchFromStep,
			MoreStepsNeeded: in.MoreStepsNeeded}}
	if res.Metadata.Branches == nil {
		res.Metadata.Branches = []string{}
	}
	if stored.BranchID != thinkgraph.DefaultBranch {
		res.Metadata.BranchID = strPtr(stored.BranchID)
	}
	if open != nil {
		need := len(open) > 0
		res.ThinkingRequired, res.RequiredThinking = &need, open
	}
	switch {
	case done:
		res.Status = "complete"
	case in.RevisesStepNumber != nil:
		res.Status = "revising"
	case in.BranchFromStep != nil:
		res.Status = "branching"
	default:
		res.Status = "planning"
	}
	steps := append(slices.Clone(st.pathSteps()), pathThought{Thought: *stored, Meta: meta})
	steps = slices.DeleteFunc(steps, func(p pathThought) bool { return p.ID != stored.ID && p.Meta.Number == in.StepNumber })
	var plan, decisions, outline []string
	for _, p := range steps {
		sent := firstSentence(p.Content, 240)
		plan = append(plan, fmt.Sprintf("%d. %s", p.Meta.Number, sent))
		outline = append(outline, sent)
		lc := strings.ToLower(p.Content)
		if slices.ContainsFunc(decisionCues, func(c string) bool { return strings.Contains(lc, c) }) {
			decisions = append(decisions, fmt.Sprintf("Step %d: %s", p.Meta.Number, sent))
		}
	}
	if len(decisions) > 5 {
		decisions = decisions[len(decisions)-5:]
	}
	if decisions == nil {
		decisions = []string{}
	}
	var actions []string
	if done {
		summary := strings.TrimSpace(final.Summary)
		if summary == "" {
			summary = fmt.Sprintf("Plan for %q in %d steps: %s", firstSentence(st.Root.Content, 200), len(outline), strings.Join(outline, " "))
		}
		res.PlanningComplete, res.PlanSummary = &done, &summary
		for _, a := range final.NextSteps {
			if a = strings.TrimSpace(a); a != "" {
				actions = append(actions, a)
			}
		}
		if len(actions) == 0 {
			actions = []string{"Execute plan step " + fmt.Sprint(steps[0].Meta.Number) + ": " + firstSentence(steps[0].Content, 200)}
		}
		res.NextSteps = strPtr(strings.Join(actions, "; "))
	} else {
		actions = []string{fmt.Sprintf("Write plan step %d of %d", in.StepNumber+1, max(run.Total, in.StepNumber+1))}
		res.NextSteps = strPtr(actions[0])
	}
	conf := "low"
	if c := mean(run.Plan.Confidences); c != nil {
		conf = level(*c, 0.5, 0.8)
	} else if done {
		conf = "medium"
	}
	res.SynthesisSnapshot = &PlanSnapshot{CurrentPlan: strings.Join(plan, "\n"), KeyDecisions: decisions, NextActions: actions, ConfidenceLevel: conf, ReadyForExecution: done}
	return res, nil
}
