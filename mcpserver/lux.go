package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/lux"
)

// The Lux tools (docs/lux.md): confer, traced_reasoning, biased_reasoning and
// planner.

const luxProviderNote = " The server calls the configured language model (OpenAI-compatible, Anthropic, Langbase, or the client's own model through MCP sampling); every step is stored in the session graph and every model call is logged as an invocation."

// luxSessionArgs are the session arguments of traced_reasoning and planner:
// session_id and its alias continuation_id.
type luxSessionArgs struct {
	sessionField
	ContinuationID *string `json:"continuation_id,omitempty" jsonschema:"Continue the session of an earlier response (the same as session_id)"`
}

// luxSession resolves session_id and its alias continuation_id.
func (s *Server) luxSession(req *mcp.CallToolRequest, a luxSessionArgs) (reasoning.SessionRef, error) {
	if a.ContinuationID == nil {
		return s.session(req, a.SessionID), nil
	}
	cid := *a.ContinuationID
	if a.SessionID != nil && *a.SessionID != cid {
		return reasoning.SessionRef{}, thinkgraph.Invalid("continuation_id", "the same id as session_id", cid,
			"'continuation_id' (%q) and 'session_id' (%q) name different sessions; pass one of them", reasoning.Clip(cid, 40), reasoning.Clip(*a.SessionID, 40))
	}
	ref := s.session(req, &cid)
	if err := reasoning.ValidateSessionID(cid); err != nil {
		te := thinkgraph.AsError(err)
		te.Field = "continuation_id"
		return ref, te
	}
	return ref, nil
}

// continuationError names continuation_id in a SessionNotFound error when
// the caller named the session with it.
func continuationError(a luxSessionArgs, err error) error {
	te := thinkgraph.AsError(err)
	if a.ContinuationID != nil && te.Code == thinkgraph.CodeSessionNotFound {
		te.Field = "continuation_id"
		te.Expected = "a continuation_id returned by an earlier call"
		te.Message = fmt.Sprintf("continuation_id %q: no such session", reasoning.Clip(te.Received, 64))
	}
	return te
}

// luxMissing is the error for a required count or flag of traced_reasoning
// and planner left out; their text (thought, step) may be empty.
func luxMissing(name string, v any) error {
	switch v.(type) {
	case integer:
		return thinkgraph.Invalid(name, "an integer", "nothing", "'%s' is required", name)
	case boolean:
		return thinkgraph.Invalid(name, "true or false", "nothing", "'%s' is required", name)
	}
	return nil
}

// constrainLux bounds the Lux tools' arguments: every count from 1, the
// temperature from 0 to 2.
func constrainLux(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		if p.Type == "integer" {
			p.Minimum = jsonschema.Ptr(1.0)
		}
	}
	if t := s.Properties["temperature"]; t != nil {
		between(t, 0, lux.MaxTemperature)
	}
}

// modelArgs are the model and temperature of traced_reasoning and planner.
type modelArgs struct {
	Model       string  `json:"model,omitempty" jsonschema:"Model to use (default: the provider's configured model)"`
	Temperature *number `json:"temperature,omitempty" jsonschema:"Sampling temperature, 0 to 2 (default 0.7)"`
}

type conferArgs struct {
	sessionField
	Message     string   `json:"message" jsonschema:"The message to send to the model"`
	Model       string   `json:"model,omitempty" jsonschema:"Model to use (default: the provider's configured model)"`
	Temperature *number  `json:"temperature,omitempty" jsonschema:"Sampling temperature, 0 to 2"`
	MaxTokens   *integer `json:"max_tokens,omitempty" jsonschema:"Maximum tokens of the answer"`
}

func (conferArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) { constrainLux(s) }

type tracedArgs struct {
	luxSessionArgs
	Thought           string   `json:"thought" jsonschema:"The query for thought 1; guidance for thoughts 2 and later (may be empty)"`
	ThoughtNumber     integer  `json:"thought_number" jsonschema:"Current thought number (starts at 1; 1 starts a new run)"`
	TotalThoughts     integer  `json:"total_thoughts" jsonschema:"Estimated total thoughts needed"`
	NextThoughtNeeded boolean  `json:"next_thought_needed" jsonschema:"Whether another thought is needed after this one; false asks for the conclusion"`
	IsRevision        boolean  `json:"is_revision,omitempty" jsonschema:"True if this thought revises an earlier one"`
	RevisesThought    *integer `json:"revises_thought,omitempty" jsonschema:"Which thought is being revised"`
	BranchFromThought *integer `json:"branch_from_thought,omitempty" jsonschema:"Thought to branch from"`
	BranchID          string   `json:"branch_id,omitempty" jsonschema:"Branch identifier"`
	NeedsMoreThoughts boolean  `json:"needs_more_thoughts,omitempty" jsonschema:"More thoughts are needed beyond the estimate"`
	modelArgs
	Guardrails *guardrails `json:"guardrails,omitempty" jsonschema:"Monitoring configuration; absent fields keep their defaults"`
}

func (tracedArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	constrainLux(s)
	between(s.Properties["guardrails"].Properties["semantic_drift_threshold"], 0, 1)
}

func (tracedArgs) missing(name string, v any) error { return luxMissing(name, v) }

type plannerArgs struct {
	luxSessionArgs
	Step              string   `json:"step" jsonschema:"The task for step 1; your input for steps 2 and later (may be empty)"`
	StepNumber        integer  `json:"step_number" jsonschema:"Current step number (starts at 1; 1 starts a new plan)"`
	TotalSteps        integer  `json:"total_steps" jsonschema:"Estimated total steps"`
	NextStepRequired  boolean  `json:"next_step_required" jsonschema:"Whether another step is needed; false makes this the last step"`
	IsStepRevision    boolean  `json:"is_step_revision,omitempty" jsonschema:"True if this step revises an earlier one"`
	RevisesStepNumber *integer `json:"revises_step_number,omitempty" jsonschema:"Which step is being revised"`
	IsBranchPoint     boolean  `json:"is_branch_point,omitempty" jsonschema:"True if this step starts a branch"`
	BranchFromStep    *integer `json:"branch_from_step,omitempty" jsonschema:"Step to branch from"`
	BranchID          string   `json:"branch_id,omitempty" jsonschema:"Branch identifier (default branch-from-<step>)"`
	MoreStepsNeeded   boolean  `json:"more_steps_needed,omitempty" jsonschema:"More steps are needed than estimated"`
	modelArgs
}

func (plannerArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) { constrainLux(s) }

func (plannerArgs) missing(name string, v any) error { return luxMissing(name, v) }

type biasedArgs struct {
	sessionField
	Query             string   `json:"query,omitempty" jsonschema:"The question to analyse (required to start; later, optional guidance)"`
	NewSession        boolean  `json:"new_session,omitempty" jsonschema:"Start a fresh session"`
	MaxAnalysisRounds *integer `json:"max_analysis_rounds,omitempty" jsonschema:"Maximum bias analyses (default 3)"`
	PrimaryModel      string   `json:"primary_model,omitempty" jsonschema:"Model that reasons, corrects and synthesises"`
	VerifierModel     string   `json:"verifier_model,omitempty" jsonschema:"Model that checks for bias"`
}

func (biasedArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	constrainLux(s)
	between(s.Properties["max_analysis_rounds"], 1, lux.MaxAnalysisRounds)
}

// guardrailsArg is the guardrails object; absent fields keep the defaults.
type guardrailsArg struct {
	SemanticDriftCheck         *bool    `json:"semantic_drift_check,omitempty" jsonschema:"Check semantic drift (default true)"`
	SemanticDriftThreshold     *float64 `json:"semantic_drift_threshold,omitempty" jsonschema:"Drift threshold: cosine similarity below which a thought drifts (default 0.3)"`
	PerplexityMonitoring       *bool    `json:"perplexity_monitoring,omitempty" jsonschema:"Monitor perplexity (default true)"`
	PerplexityThreshold        *float64 `json:"perplexity_threshold,omitempty" jsonschema:"Perplexity above which a thought is flagged (default 50)"`
	CircularReasoningDetection *bool    `json:"circular_reasoning_detection,omitempty" jsonschema:"Detect circular reasoning (default true)"`
	ConsistencyValidation      *bool    `json:"consistency_validation,omitempty" jsonschema:"Validate consistency (default true)"`
	AttentionEntropyAnalysis   *bool    `json:"attention_entropy_analysis,omitempty" jsonschema:"Top-k token entropy analysis (default true)"`
}

// guardrails is the guardrails argument: a guardrailsArg read strictly (no
// strings for numbers or booleans, no unknown fields).
type guardrails struct{ guardrailsArg }

func (g *guardrails) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g.guardrailsArg); err != nil {
		return &fieldError{"an object with " + fieldsOf(reflect.TypeFor[guardrailsArg]()).names(), typeOf(b), ": " + err.Error()}
	}
	return nil
}

// config is the guardrail configuration: the defaults, with the fields
// given.
func (ga *guardrails) config() lux.GuardrailConfig {
	g := lux.DefaultGuardrails()
	if ga == nil {
		return g
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
	return g
}

func (s *Server) addLuxTools() {
	lx := lux.New(s.svc)
	s.addTool(toolDef{
		toolset: luxTools,
		tool: &mcp.Tool{
			Name:  "confer",
			Title: "Chat with a model",
			Description: "Send a message to a chosen model and get its answer. With a session_id the conversation continues: the session's earlier " +
				"confer exchanges go with the message." + luxProviderNote,
			Annotations: llmAnnotations("Chat with a model"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *conferArgs) (*lux.ConferResult, reasoning.SessionRef, error) {
			in := lux.ConferInput{Session: s.session(req, a.SessionID), Call: s.llmCall(ctx, req), Message: a.Message, Model: a.Model,
				Temperature: (*float64)(a.Temperature), MaxTokens: (*int)(a.MaxTokens)}
			out, err := lx.Confer(ctx, in)
			return out, in.Session, err
		}),
	})

	s.addTool(toolDef{
		toolset: luxTools,
		tool: &mcp.Tool{
			Name:  "traced_reasoning",
			Title: "Traced reasoning with guardrails",
			Description: "Step-by-step reasoning written by a model and watched by guardrails. Thought 1 is the query; later thoughts carry your guidance (may be empty). " +
				"Each call has the model write one thought from the query, the thoughts so far and the guidance, then measures it: similarity to the previous thought, " +
				"semantic drift from the query, circular reasoning, contradictions with earlier thoughts, perplexity and top-k token entropy from the model's token " +
				"log-probabilities (null with the reason when the provider gives none). Findings are interventions; status is intervention_needed while one is open, conclusion_reached on the last thought. " +
				"Revisions (is_revision, revises_thought) and branches (branch_from_thought, branch_id) are stored in the session graph." + luxProviderNote,
			Annotations: llmAnnotations("Traced reasoning"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *tracedArgs) (*lux.TracedResult, reasoning.SessionRef, error) {
			ref, err := s.luxSession(req, a.luxSessionArgs)
			if err != nil {
				return nil, ref, err
			}
			in := lux.TracedInput{Session: ref, Call: s.llmCall(ctx, req), Thought: a.Thought,
				ThoughtNumber: int(a.ThoughtNumber), TotalThoughts: int(a.TotalThoughts), NextThoughtNeeded: bool(a.NextThoughtNeeded),
				IsRevision: bool(a.IsRevision), RevisesThought: (*int)(a.RevisesThought), BranchFromThought: (*int)(a.BranchFromThought),
				BranchID: a.BranchID, NeedsMoreThoughts: bool(a.NeedsMoreThoughts), Model: a.Model, Temperature: (*float64)(a.Temperature),
				Guardrails: a.Guardrails.config()}
			res, err := lx.Traced(ctx, in)
			if err != nil {
				return nil, ref, continuationError(a.luxSessionArgs, err)
			}
			return res, ref, nil
		}),
	})

	s.addTool(toolDef{
		toolset: luxTools,
		tool: &mcp.Tool{
			Name:  "planner",
			Title: "Planner",
			Description: "Build a plan step by step with a model. Step 1 is the task; later steps carry your input for the step (may be empty). Each call has the model " +
				"write one plan step from the task and the plan so far. Revisions (is_step_revision, revises_step_number) and branches (is_branch_point, " +
				"branch_from_step, branch_id) are stored in the session graph. The last step (next_step_required false) returns the plan summary, next steps " +
				"and the plan's synthesis." + luxProviderNote,
			Annotations: llmAnnotations("Planner"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *plannerArgs) (*lux.PlannerResult, reasoning.SessionRef, error) {
			ref, err := s.luxSession(req, a.luxSessionArgs)
			if err != nil {
				return nil, ref, err
			}
			in := lux.PlannerInput{Session: ref, Call: s.llmCall(ctx, req), Step: a.Step,
				StepNumber: int(a.StepNumber), TotalSteps: int(a.TotalSteps), NextStepRequired: bool(a.NextStepRequired),
				IsStepRevision: bool(a.IsStepRevision), RevisesStepNumber: (*int)(a.RevisesStepNumber), IsBranchPoint: bool(a.IsBranchPoint),
				BranchFromStep: (*int)(a.BranchFromStep), BranchID: a.BranchID, MoreStepsNeeded: bool(a.MoreStepsNeeded),
				Model: a.Model, Temperature: (*float64)(a.Temperature)}
			res, err := lx.Planner(ctx, in)
			if err != nil {
				return nil, ref, continuationError(a.luxSessionArgs, err)
			}
			return res, ref, nil
		}),
	})

	s.addTool(toolDef{
		toolset: luxTools,
		tool: &mcp.Tool{
			Name:  "biased_reasoning",
			Title: "Reasoning with bias checks",
			Description: fmt.Sprintf("Step-by-step reasoning checked for cognitive biases, one step per call: Query → Reasoning (primary_model) → BiasAnalysis "+
				"(verifier_model) → Correction when a bias was found → another BiasAnalysis … up to max_analysis_rounds analyses (default %d) → Synthesis → "+
				"complete. Call again with the session_id to take the next step; next_action says what it will be. A query that differs from the question "+
				"is recorded as guidance for the next step. new_session starts a fresh session.", lux.DefaultMaxAnalysisRounds) + luxProviderNote,
			Annotations: llmAnnotations("Reasoning with bias checks"),
		},
		input: typed(func(ctx context.Context, req *mcp.CallToolRequest, a *biasedArgs) (*lux.BiasedResult, reasoning.SessionRef, error) {
			in := lux.BiasedInput{Session: s.session(req, a.SessionID), Call: s.llmCall(ctx, req), Query: a.Query,
				NewSession: bool(a.NewSession), MaxRounds: (*int)(a.MaxAnalysisRounds), PrimaryModel: a.PrimaryModel, VerifierModel: a.VerifierModel}
			out, err := lx.Biased(ctx, in)
			if err != nil {
				return nil, in.Session, err
			}
			// new_session starts the session the result names.
			ref := in.Session
			ref.ID = out.SessionID
			return out, ref, nil
		}),
	})
}
