package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/lux"
)

// The Lux tools (docs/lux.md): confer, traced_reasoning, biased_reasoning and
// planner.

type conferOutput struct {
	Content   string     `json:"content" jsonschema:"the model's answer"`
	Model     string     `json:"model" jsonschema:"the model that answered, as the provider reported it"`
	Usage     *llm.Usage `json:"usage" jsonschema:"token usage reported by the provider; null when it reported none"`
	SessionID string     `json:"session_id"`
	ThoughtID string     `json:"thought_id" jsonschema:"id of the answer, stored as a thought of the session"`
}

const luxProviderNote = " The server calls the configured language model (OpenAI-compatible, Anthropic, Langbase, or the client's own model through MCP sampling); every step is stored in the session graph and every model call is logged as an invocation."

func temperatureProp(def string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(lux.MaxTemperature),
		Description: "Sampling temperature, 0 to 2" + def}
}

type tracedMetadata struct {
	ThoughtHistoryLength int      `json:"thought_history_length" jsonschema:"thoughts the model wrote in this run (revisions included)"`
	InterventionsCount   int      `json:"interventions_count"`
	SemanticCoherence    *float64 `json:"semantic_coherence" jsonschema:"mean semantic_similarity of the run's thoughts; null when none is known"`
	CurrentConfidence    *float64 `json:"current_confidence" jsonschema:"mean geometric token probability (exp of the mean token log-probability) of the run's thoughts; null without log-probabilities"`
	IsRevision           bool     `json:"is_revision"`
	RevisesThought       *int     `json:"revises_thought"`
	BranchID             *string  `json:"branch_id"`
	NeedsMoreThoughts    bool     `json:"needs_more_thoughts"`
	// NullMetrics says why a metric is null.
	NullMetrics map[string]string `json:"null_metrics" jsonschema:"for each null metric, why it could not be computed"`
}

type tracedOutput struct {
	Status            string                 `json:"status" jsonschema:"thinking, intervention_needed or conclusion_reached"`
	ThoughtNumber     int                    `json:"thought_number"`
	TotalThoughts     int                    `json:"total_thoughts"`
	NextThoughtNeeded bool                   `json:"next_thought_needed"`
	ThoughtContent    string                 `json:"thought_content" jsonschema:"the thought the model wrote"`
	ThoughtType       string                 `json:"thought_type" jsonschema:"Initial, Exploration, Analysis, Synthesis, Validation or Conclusion"`
	Metrics           lux.StepMetrics        `json:"metrics"`
	Metadata          tracedMetadata         `json:"metadata"`
	ContinuationID    string                 `json:"continuation_id" jsonschema:"pass as continuation_id or session_id to continue"`
	SessionID         string                 `json:"session_id"`
	ThoughtID         string                 `json:"thought_id" jsonschema:"id of the thought in the session graph"`
	ReasoningComplete *bool                  `json:"reasoning_complete"`
	FinalAnswer       *string                `json:"final_answer"`
	NextSteps         *string                `json:"next_steps"`
	Intervention      *lux.Intervention      `json:"intervention" jsonschema:"the most severe open intervention"`
	Interventions     []lux.Intervention     `json:"interventions" jsonschema:"every intervention raised on this thought"`
	OverallMetrics    *lux.ReasoningMetrics  `json:"overall_metrics"`
	ModelUsed         *string                `json:"model_used"`
	SynthesisSnapshot *lux.SynthesisSnapshot `json:"synthesis_snapshot"`
}

type plannerMetadata struct {
	Branches          []string `json:"branches"`
	StepHistoryLength int      `json:"step_history_length"`
	IsStepRevision    bool     `json:"is_step_revision"`
	RevisesStepNumber *int     `json:"revises_step_number"`
	IsBranchPoint     bool     `json:"is_branch_point"`
	BranchFromStep    *int     `json:"branch_from_step"`
	BranchID          *string  `json:"branch_id"`
	MoreStepsNeeded   bool     `json:"more_steps_needed"`
}

type plannerOutput struct {
	Status            string            `json:"status" jsonschema:"planning, revising, branching or complete"`
	StepNumber        int               `json:"step_number"`
	TotalSteps        int               `json:"total_steps"`
	NextStepRequired  bool              `json:"next_step_required"`
	StepContent       string            `json:"step_content" jsonschema:"the plan step the model wrote"`
	Metadata          plannerMetadata   `json:"metadata"`
	ContinuationID    string            `json:"continuation_id"`
	SessionID         string            `json:"session_id"`
	ThoughtID         string            `json:"thought_id"`
	PlanningComplete  *bool             `json:"planning_complete"`
	PlanSummary       *string           `json:"plan_summary"`
	NextSteps         *string           `json:"next_steps"`
	ThinkingRequired  *bool             `json:"thinking_required" jsonschema:"whether the model said this step leaves questions that need careful thought; null when its answer did not say"`
	RequiredThinking  []string          `json:"required_thinking" jsonschema:"those questions; null when the model's answer did not say"`
	PlannerRequired   *bool             `json:"planner_required" jsonschema:"whether more planning steps are needed (next_step_required or more_steps_needed)"`
	ModelUsed         *string           `json:"model_used"`
	SynthesisSnapshot *lux.PlanSnapshot `json:"synthesis_snapshot"`
}

type biasedOutput struct {
	StepType          string              `json:"step_type" jsonschema:"Query, Reasoning, BiasAnalysis, Correction, Guidance or Synthesis"`
	StepNumber        int                 `json:"step_number"`
	Content           string              `json:"content"`
	ModelUsed         string              `json:"model_used" jsonschema:"the model that wrote this step (client for the query)"`
	NextAction        string              `json:"next_action" jsonschema:"BiasCheck, ContinueReasoning, RequestGuidance, Synthesize or Complete"`
	SessionID         string              `json:"session_id"`
	SessionStatus     lux.BiasedStatus    `json:"session_status"`
	BiasDetected      *lux.BiasInfo       `json:"bias_detected"`
	SynthesisSnapshot *lux.BiasedSnapshot `json:"synthesis_snapshot"`
	FinalSynthesis    *string             `json:"final_synthesis"`
	ThoughtID         string              `json:"thought_id" jsonschema:"id of the step in the session graph"`
}

// luxSession resolves session_id and its alias continuation_id.
func (s *Server) luxSession(req *mcp.CallToolRequest, a *args) (reasoning.SessionRef, error) {
	sid, hasSID, err := a.str("session_id")
	if err != nil {
		return reasoning.SessionRef{}, err
	}
	cid, hasCID, err := a.str("continuation_id")
	if err != nil {
		return reasoning.SessionRef{}, err
	}
	if hasCID {
		if hasSID && sid != cid {
			return reasoning.SessionRef{}, thinkgraph.Invalid("continuation_id", "the same id as session_id", cid,
				"'continuation_id' (%q) and 'session_id' (%q) name different sessions; pass one of them", clip(cid, 40), clip(sid, 40))
		}
		ref := reasoning.SessionRef{ID: cid, Explicit: true, Tenant: tenantOf(req.Extra)}
		if err := reasoning.ValidateSessionID(cid); err != nil {
			te := thinkgraph.AsError(err)
			te.Field = "continuation_id"
			return ref, te
		}
		return ref, nil
	}
	return s.sessionRef(req, a)
}

// continuationError names continuation_id in a SessionNotFound error when
// the caller named the session with it.
func continuationError(a *args, err error) error {
	te := thinkgraph.AsError(err)
	if _, ok := a.get("continuation_id"); ok && te.Code == thinkgraph.CodeSessionNotFound {
		te.Field = "continuation_id"
		te.Expected = "a continuation_id returned by an earlier call"
		te.Message = fmt.Sprintf("continuation_id %q: no such session", clip(te.Received, 64))
	}
	return te
}

func reqInt(a *args, name string) (int, error) {
	n, err := a.integer(name)
	if err != nil {
		return 0, err
	}
	if n == nil {
		return 0, thinkgraph.Invalid(name, "an integer", "nothing", "'%s' is required", name)
	}
	return *n, nil
}

func reqBool(a *args, name string) (bool, error) {
	b, err := a.boolean(name)
	if err != nil {
		return false, err
	}
	if b == nil {
		return false, thinkgraph.Invalid(name, "true or false", "nothing", "'%s' is required", name)
	}
	return *b, nil
}

func optBool(a *args, name string) (bool, error) {
	b, err := a.boolean(name)
	if err != nil || b == nil {
		return false, err
	}
	return *b, nil
}

// guardrailsArg is the guardrails object; absent fields keep the defaults.
type guardrailsArg struct {
	SemanticDriftCheck         *bool    `json:"semantic_drift_check"`
	SemanticDriftThreshold     *float64 `json:"semantic_drift_threshold"`
	PerplexityMonitoring       *bool    `json:"perplexity_monitoring"`
	PerplexityThreshold        *float64 `json:"perplexity_threshold"`
	CircularReasoningDetection *bool    `json:"circular_reasoning_detection"`
	ConsistencyValidation      *bool    `json:"consistency_validation"`
	AttentionEntropyAnalysis   *bool    `json:"attention_entropy_analysis"`
}

func parseGuardrails(a *args) (lux.GuardrailConfig, error) {
	g := lux.DefaultGuardrails()
	raw, ok := a.get("guardrails")
	if !ok {
		return g, nil
	}
	var ga guardrailsArg
	dec := json.NewDecoder(bytesReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ga); err != nil {
		return g, thinkgraph.Invalid("guardrails", "an object with semantic_drift_check, semantic_drift_threshold, perplexity_monitoring, perplexity_threshold, "+
			"circular_reasoning_detection, consistency_validation, attention_entropy_analysis", typeOf(raw), "'guardrails': %v", err)
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&g.SemanticDriftCheck, ga.SemanticDriftCheck)
	set(&g.PerplexityMonitoring, ga.PerplexityMonitoring)
	set(&g.CircularReasoningDetection, ga.CircularReasoningDetection)
	set(&g.ConsistencyValidation, ga.ConsistencyValidation)
	set(&g.AttentionEntropyAnalysis, ga.AttentionEntropyAnalysis)
	if ga.SemanticDriftThreshold != nil {
		g.SemanticDriftThreshold = *ga.SemanticDriftThreshold
	}
	if ga.PerplexityThreshold != nil {
		g.PerplexityThreshold = *ga.PerplexityThreshold
	}
	return g, nil
}

func strPtr(s string) *string { return &s }

func (s *Server) addLuxTools() {
	lx := lux.New(s.svc)
	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "confer",
			Title: "Chat with a model",
			Description: "Send a message to a chosen model and get its answer. With a session_id the conversation continues: the session's earlier " +
				"confer exchanges go with the message." + luxProviderNote,
			InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"message"}, Properties: map[string]*jsonschema.Schema{
				"message":     {Type: "string", Description: "The message to send to the model"},
				"model":       {Type: "string", Description: "Model to use (default: the provider's configured model)"},
				"temperature": temperatureProp(""),
				"max_tokens":  {Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "Maximum tokens of the answer"},
				"session_id":  sessionIDProp,
			}},
			Annotations: llmAnnotations("Chat with a model"),
		},
		output: conferOutput{},
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.sessionRef(req, a)
			if err != nil {
				return nil, err
			}
			in := lux.ConferInput{Session: ref, Call: s.llmCall(ctx, req)}
			if in.Message, _, err = a.str("message"); err != nil {
				return nil, err
			}
			if in.Model, _, err = a.str("model"); err != nil {
				return nil, err
			}
			if in.Temperature, err = a.number("temperature"); err != nil {
				return nil, err
			}
			if in.MaxTokens, err = a.integer("max_tokens"); err != nil {
				return nil, err
			}
			res, err := lx.Confer(ctx, in)
			if err != nil {
				return nil, err
			}
			return conferOutput{Content: res.Answer.Content, Model: res.Model, Usage: res.Usage, SessionID: res.Session.ID, ThoughtID: res.Answer.ID}, nil
		},
	})

	intProp := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: desc}
	}
	boolProp := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "boolean", Description: desc} }
	strProp := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	contID := strProp("Continue the session of an earlier response (the same as session_id)")

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "traced_reasoning",
			Title: "Traced reasoning with guardrails",
			Description: "Step-by-step reasoning written by a model and watched by guardrails. Thought 1 is the query; later thoughts carry your guidance (may be empty). " +
				"Each call has the model write one thought from the query, the thoughts so far and the guidance, then measures it: similarity to the previous thought, " +
				"semantic drift from the query, circular reasoning, contradictions with earlier thoughts, perplexity and top-k token entropy from the model's token " +
				"log-probabilities (null with the reason when the provider gives none). Findings are interventions; status is intervention_needed while one is open, conclusion_reached on the last thought. " +
				"Revisions (is_revision, revises_thought) and branches (branch_from_thought, branch_id) are stored in the session graph." + luxProviderNote,
			InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"thought", "thought_number", "total_thoughts", "next_thought_needed"},
				Properties: map[string]*jsonschema.Schema{
					"thought":             strProp("The query for thought 1; guidance for thoughts 2 and later (may be empty)"),
					"thought_number":      intProp("Current thought number (starts at 1; 1 starts a new run)"),
					"total_thoughts":      intProp("Estimated total thoughts needed"),
					"next_thought_needed": boolProp("Whether another thought is needed after this one; false asks for the conclusion"),
					"is_revision":         boolProp("True if this thought revises an earlier one"),
					"revises_thought":     intProp("Which thought is being revised"),
					"branch_from_thought": intProp("Thought to branch from"),
					"branch_id":           strProp("Branch identifier"),
					"needs_more_thoughts": boolProp("More thoughts are needed beyond the estimate"),
					"session_id":          sessionIDProp,
					"continuation_id":     contID,
					"model":               strProp("Model to use (default: the provider's configured model)"),
					"temperature":         temperatureProp(" (default 0.7)"),
					"guardrails": {Type: "object", Description: "Monitoring configuration; absent fields keep their defaults",
						Properties: map[string]*jsonschema.Schema{
							"semantic_drift_check":         boolProp("Check semantic drift (default true)"),
							"semantic_drift_threshold":     {Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(1.0), Description: "Drift threshold: cosine similarity below which a thought drifts (default 0.3)"},
							"perplexity_monitoring":        boolProp("Monitor perplexity (default true)"),
							"perplexity_threshold":         {Type: "number", Description: "Perplexity above which a thought is flagged (default 50)"},
							"circular_reasoning_detection": boolProp("Detect circular reasoning (default true)"),
							"consistency_validation":       boolProp("Validate consistency (default true)"),
							"attention_entropy_analysis":   boolProp("Top-k token entropy analysis (default true)"),
						}},
				}},
			Annotations: llmAnnotations("Traced reasoning"),
		},
		output: tracedOutput{},
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.luxSession(req, a)
			if err != nil {
				return nil, err
			}
			in := lux.TracedInput{Session: ref, Call: s.llmCall(ctx, req)}
			if in.Thought, _, err = a.str("thought"); err != nil {
				return nil, err
			}
			if in.ThoughtNumber, err = reqInt(a, "thought_number"); err != nil {
				return nil, err
			}
			if in.TotalThoughts, err = reqInt(a, "total_thoughts"); err != nil {
				return nil, err
			}
			if in.NextThoughtNeeded, err = reqBool(a, "next_thought_needed"); err != nil {
				return nil, err
			}
			if in.IsRevision, err = optBool(a, "is_revision"); err != nil {
				return nil, err
			}
			if in.RevisesThought, err = a.integer("revises_thought"); err != nil {
				return nil, err
			}
			if in.BranchFromThought, err = a.integer("branch_from_thought"); err != nil {
				return nil, err
			}
			if in.BranchID, _, err = a.str("branch_id"); err != nil {
				return nil, err
			}
			if in.NeedsMoreThoughts, err = optBool(a, "needs_more_thoughts"); err != nil {
				return nil, err
			}
			if in.Model, _, err = a.str("model"); err != nil {
				return nil, err
			}
			if in.Temperature, err = a.number("temperature"); err != nil {
				return nil, err
			}
			if in.Guardrails, err = parseGuardrails(a); err != nil {
				return nil, err
			}
			res, err := lx.Traced(ctx, in)
			if err != nil {
				return nil, continuationError(a, err)
			}
			out := tracedOutput{Status: res.Status, ThoughtNumber: in.ThoughtNumber, TotalThoughts: res.TotalThoughts, NextThoughtNeeded: in.NextThoughtNeeded,
				ThoughtContent: res.Step.Content, ThoughtType: res.StepType, Metrics: res.Metrics, ContinuationID: res.Session.ID, SessionID: res.Session.ID,
				ThoughtID: res.Step.ID, Intervention: res.Intervention, Interventions: res.Interventions, OverallMetrics: res.OverallMetrics,
				ModelUsed: strPtr(res.ModelUsed), SynthesisSnapshot: &res.Snapshot,
				Metadata: tracedMetadata{ThoughtHistoryLength: res.HistoryLength, InterventionsCount: res.InterventionsCount, SemanticCoherence: res.SemanticCoherence,
					CurrentConfidence: res.CurrentConfidence, IsRevision: in.RevisesThought != nil, RevisesThought: in.RevisesThought,
					NeedsMoreThoughts: in.NeedsMoreThoughts, NullMetrics: res.NullMetrics}}
			if out.Interventions == nil {
				out.Interventions = []lux.Intervention{}
			}
			if res.Step.BranchID != thinkgraph.DefaultBranch {
				out.Metadata.BranchID = strPtr(res.Step.BranchID)
			}
			if !in.NextThoughtNeeded {
				out.ReasoningComplete = &res.ReasoningComplete
				out.FinalAnswer = strPtr(res.FinalAnswer)
			}
			if res.NextSteps != "" {
				out.NextSteps = strPtr(res.NextSteps)
			}
			return out, nil
		},
	})

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "planner",
			Title: "Planner",
			Description: "Build a plan step by step with a model. Step 1 is the task; later steps carry your input for the step (may be empty). Each call has the model " +
				"write one plan step from the task and the plan so far. Revisions (is_step_revision, revises_step_number) and branches (is_branch_point, " +
				"branch_from_step, branch_id) are stored in the session graph. The last step (next_step_required false) returns the plan summary, next steps " +
				"and the plan's synthesis." + luxProviderNote,
			InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"step", "step_number", "total_steps", "next_step_required"},
				Properties: map[string]*jsonschema.Schema{
					"step":                strProp("The task for step 1; your input for steps 2 and later (may be empty)"),
					"step_number":         intProp("Current step number (starts at 1; 1 starts a new plan)"),
					"total_steps":         intProp("Estimated total steps"),
					"next_step_required":  boolProp("Whether another step is needed; false makes this the last step"),
					"is_step_revision":    boolProp("True if this step revises an earlier one"),
					"revises_step_number": intProp("Which step is being revised"),
					"is_branch_point":     boolProp("True if this step starts a branch"),
					"branch_from_step":    intProp("Step to branch from"),
					"branch_id":           strProp("Branch identifier (default branch-from-<step>)"),
					"more_steps_needed":   boolProp("More steps are needed than estimated"),
					"session_id":          sessionIDProp,
					"continuation_id":     contID,
					"model":               strProp("Model to use (default: the provider's configured model)"),
					"temperature":         temperatureProp(" (default 0.7)"),
				}},
			Annotations: llmAnnotations("Planner"),
		},
		output: plannerOutput{},
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.luxSession(req, a)
			if err != nil {
				return nil, err
			}
			in := lux.PlannerInput{Session: ref, Call: s.llmCall(ctx, req)}
			if in.Step, _, err = a.str("step"); err != nil {
				return nil, err
			}
			if in.StepNumber, err = reqInt(a, "step_number"); err != nil {
				return nil, err
			}
			if in.TotalSteps, err = reqInt(a, "total_steps"); err != nil {
				return nil, err
			}
			if in.NextStepRequired, err = reqBool(a, "next_step_required"); err != nil {
				return nil, err
			}
			if in.IsStepRevision, err = optBool(a, "is_step_revision"); err != nil {
				return nil, err
			}
			if in.RevisesStepNumber, err = a.integer("revises_step_number"); err != nil {
				return nil, err
			}
			if in.IsBranchPoint, err = optBool(a, "is_branch_point"); err != nil {
				return nil, err
			}
			if in.BranchFromStep, err = a.integer("branch_from_step"); err != nil {
				return nil, err
			}
			if in.BranchID, _, err = a.str("branch_id"); err != nil {
				return nil, err
			}
			if in.MoreStepsNeeded, err = optBool(a, "more_steps_needed"); err != nil {
				return nil, err
			}
			if in.Model, _, err = a.str("model"); err != nil {
				return nil, err
			}
			if in.Temperature, err = a.number("temperature"); err != nil {
				return nil, err
			}
			res, err := lx.Planner(ctx, in)
			if err != nil {
				return nil, continuationError(a, err)
			}
			out := plannerOutput{Status: res.Status, StepNumber: in.StepNumber, TotalSteps: res.TotalSteps, NextStepRequired: in.NextStepRequired,
				StepContent: res.Step.Content, ContinuationID: res.Session.ID, SessionID: res.Session.ID, ThoughtID: res.Step.ID,
				ModelUsed: strPtr(res.ModelUsed), SynthesisSnapshot: &res.Snapshot, NextSteps: strPtr(res.NextSteps),
				Metadata: plannerMetadata{Branches: res.Branches, StepHistoryLength: res.HistoryLength, IsStepRevision: res.Step.RevisesID != "",
					RevisesStepNumber: in.RevisesStepNumber, IsBranchPoint: in.BranchFromStep != nil, BranchFromStep: in.BranchFromStep,
					MoreStepsNeeded: in.MoreStepsNeeded}}
			if res.Step.BranchID != thinkgraph.DefaultBranch {
				out.Metadata.BranchID = strPtr(res.Step.BranchID)
			}
			more := in.NextStepRequired || in.MoreStepsNeeded
			out.PlannerRequired = &more
			if res.OpenQuestions != nil {
				need := len(res.OpenQuestions) > 0
				out.ThinkingRequired, out.RequiredThinking = &need, res.OpenQuestions
			}
			if res.PlanningComplete {
				out.PlanningComplete = &res.PlanningComplete
				out.PlanSummary = strPtr(res.PlanSummary)
			}
			return out, nil
		},
	})

	s.addTool(toolDef{
		llm: true,
		tool: &mcp.Tool{
			Name:  "biased_reasoning",
			Title: "Reasoning with bias checks",
			Description: fmt.Sprintf("Step-by-step reasoning checked for cognitive biases, one step per call: Query → Reasoning (primary_model) → BiasAnalysis "+
				"(verifier_model) → Correction when a bias was found → another BiasAnalysis … up to max_analysis_rounds analyses (default %d) → Synthesis → "+
				"complete. Call again with the session_id to take the next step; next_action says what it will be. A query that differs from the question "+
				"is recorded as guidance for the next step. new_session starts a fresh session.", lux.DefaultMaxAnalysisRounds) + luxProviderNote,
			InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"query":               strProp("The question to analyse (required to start; later, optional guidance)"),
				"session_id":          sessionIDProp,
				"new_session":         boolProp("Start a fresh session"),
				"max_analysis_rounds": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(lux.MaxAnalysisRounds)), Description: "Maximum bias analyses (default 3)"},
				"primary_model":       strProp("Model that reasons, corrects and synthesises"),
				"verifier_model":      strProp("Model that checks for bias"),
			}},
			Annotations: llmAnnotations("Reasoning with bias checks"),
		},
		output: biasedOutput{},
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.sessionRef(req, a)
			if err != nil {
				return nil, err
			}
			in := lux.BiasedInput{Session: ref, Call: s.llmCall(ctx, req)}
			if in.Query, _, err = a.str("query"); err != nil {
				return nil, err
			}
			if in.NewSession, err = optBool(a, "new_session"); err != nil {
				return nil, err
			}
			if in.MaxRounds, err = a.integer("max_analysis_rounds"); err != nil {
				return nil, err
			}
			if in.PrimaryModel, _, err = a.str("primary_model"); err != nil {
				return nil, err
			}
			if in.VerifierModel, _, err = a.str("verifier_model"); err != nil {
				return nil, err
			}
			res, err := lx.Biased(ctx, in)
			if err != nil {
				return nil, err
			}
			out := biasedOutput{StepType: res.StepType, StepNumber: res.StepNumber, Content: res.Step.Content, ModelUsed: res.ModelUsed,
				NextAction: res.NextAction, SessionID: res.Session.ID, SessionStatus: res.Status, BiasDetected: res.Bias,
				SynthesisSnapshot: &res.Snapshot, ThoughtID: res.Step.ID}
			if res.FinalSynthesis != "" {
				out.FinalSynthesis = strPtr(res.FinalSynthesis)
			}
			return out, nil
		},
	})
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
