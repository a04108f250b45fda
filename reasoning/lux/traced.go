package lux

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
)

// traced_reasoning (Lux): the model writes each thought; the server
// watches it with guardrails computed from the embeddings, the
// contradiction decider and the token log-probabilities.

// Step types of traced_reasoning (Lux's StepType).
const (
	StepInitial     = "Initial"
	StepExploration = "Exploration"
	StepAnalysis    = "Analysis"
	StepSynthesis   = "Synthesis"
	StepValidation  = "Validation"
	StepConclusion  = "Conclusion"
)

// Intervention types (Lux's InterventionType).
const (
	InterventionSemanticDrift     = "SemanticDrift"
	InterventionHighPerplexity    = "HighPerplexity"
	InterventionCircularReasoning = "CircularReasoning"
	InterventionInconsistentLogic = "InconsistentLogic"
	InterventionAttentionScatter  = "AttentionScatter"
)

// Severities (Lux's Severity).
const (
	SeverityLow      = "Low"
	SeverityMedium   = "Medium"
	SeverityHigh     = "High"
	SeverityCritical = "Critical"
)

// Thresholds of the guardrails that the seed leaves open.
const (
	// CircularSimilarity is the cosine from which a thought may restate an
	// earlier one (analyze.DefaultNearDuplicate).
	CircularSimilarity = analyze.DefaultNearDuplicate
	// CircularOverlap is the share of the shorter thought's word trigrams
	// (content words, stemmed) that must also be in the other.
	CircularOverlap = 0.5
	// ScatterEntropy is the normalised top-k entropy from which a thought's
	// token choices count as scattered.
	ScatterEntropy = 0.6
)

// GuardrailConfig configures traced_reasoning's monitoring (Lux).
type GuardrailConfig struct {
	SemanticDriftCheck bool `json:"semantic_drift_check"`
	// SemanticDriftThreshold is a relatedness (analyze.Calibration): a
	// thought drifts when its best relatedness to the query, the earlier
	// thoughts' mean and its guidance is below it. With the default offline
	// embedder the default 0.3 stands for a cosine of 0.145 (0 is the mean
	// cosine of unrelated thoughts, 0.127; 1 that of thoughts on one topic,
	// 0.187); with an uncalibrated embedder it is the cosine itself.
	SemanticDriftThreshold     float64 `json:"semantic_drift_threshold"`
	PerplexityMonitoring       bool    `json:"perplexity_monitoring"`
	PerplexityThreshold        float64 `json:"perplexity_threshold"`
	CircularReasoningDetection bool    `json:"circular_reasoning_detection"`
	ConsistencyValidation      bool    `json:"consistency_validation"`
	AttentionEntropyAnalysis   bool    `json:"attention_entropy_analysis"`
}

// DefaultGuardrails returns the seed's defaults.
func DefaultGuardrails() GuardrailConfig {
	return GuardrailConfig{SemanticDriftCheck: true, SemanticDriftThreshold: 0.3, PerplexityMonitoring: true, PerplexityThreshold: 50,
		CircularReasoningDetection: true, ConsistencyValidation: true, AttentionEntropyAnalysis: true}
}

// StepMetrics are the measurements of one thought; nil means not computed
// (the reason is in TracedMetadata.NullMetrics).
type StepMetrics struct {
	SemanticSimilarity *float64 `json:"semantic_similarity"`
	Perplexity         *float64 `json:"perplexity"`
	AttentionEntropy   *float64 `json:"attention_entropy"`
	ConsistencyScore   *float64 `json:"consistency_score"`
}

// Intervention is a guardrail's finding on a thought.
type Intervention struct {
	Step             int    `json:"step"`
	InterventionType string `json:"intervention_type"`
	Description      string `json:"description"`
	Severity         string `json:"severity"`
}

// tracedState is traced_reasoning's record of a run.
type tracedState struct {
	Interventions []tracedIntervention `json:"interventions,omitempty"`
	Records       []tracedRecord       `json:"records,omitempty"`
}

// tracedIntervention is an intervention of the run; it is open until a
// later thought passes the guardrails or the thought is revised.
type tracedIntervention struct {
	Intervention
	Open bool `json:"open"`
}

type tracedRecord struct {
	Number          int         `json:"number"`
	Metrics         StepMetrics `json:"metrics"`
	TokenConfidence *float64    `json:"token_confidence,omitempty"`
}

// TracedInput is one call of traced_reasoning.
type TracedInput struct {
	Session           reasoning.SessionRef
	Thought           string
	ThoughtNumber     int
	TotalThoughts     int
	NextThoughtNeeded bool
	IsRevision        bool
	RevisesThought    *int
	BranchFromThought *int
	BranchID          string
	NeedsMoreThoughts bool
	Model             string
	Temperature       *float64
	Guardrails        GuardrailConfig
	Call              reasoning.LLMCall
}

// ReasoningMetrics are the figures of a whole run (Lux's
// overall_metrics); means over the thoughts where the figure is known.
type ReasoningMetrics struct {
	Thoughts               int            `json:"thoughts"`
	MeanSemanticSimilarity *float64       `json:"mean_semantic_similarity"`
	MeanPerplexity         *float64       `json:"mean_perplexity"`
	MeanAttentionEntropy   *float64       `json:"mean_attention_entropy"`
	MeanConsistencyScore   *float64       `json:"mean_consistency_score"`
	InterventionsCount     int            `json:"interventions_count"`
	InterventionsByType    map[string]int `json:"interventions_by_type"`
}

// SynthesisSnapshot is traced_reasoning's running synthesis.
type SynthesisSnapshot struct {
	CurrentUnderstanding string   `json:"current_understanding"`
	KeyInsights          []string `json:"key_insights"`
	NextActions          []string `json:"next_actions"`
	ConfidenceLevel      string   `json:"confidence_level"`
	ClarityLevel         string   `json:"clarity_level"`
	ReadyForConclusion   bool     `json:"ready_for_conclusion"`
}

// TracedMetadata is the metadata of a traced_reasoning result.
type TracedMetadata struct {
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

// TracedResult is what traced_reasoning generated and measured: the tool's
// result.
type TracedResult struct {
	Status            string             `json:"status" jsonschema:"thinking, intervention_needed or conclusion_reached"`
	ThoughtNumber     int                `json:"thought_number"`
	TotalThoughts     int                `json:"total_thoughts"`
	NextThoughtNeeded bool               `json:"next_thought_needed"`
	ThoughtContent    string             `json:"thought_content" jsonschema:"the thought the model wrote"`
	ThoughtType       string             `json:"thought_type" jsonschema:"Initial, Exploration, Analysis, Synthesis, Validation or Conclusion"`
	Metrics           StepMetrics        `json:"metrics"`
	Metadata          TracedMetadata     `json:"metadata"`
	ContinuationID    string             `json:"continuation_id" jsonschema:"pass as continuation_id or session_id to continue"`
	SessionID         string             `json:"session_id"`
	ThoughtID         string             `json:"thought_id" jsonschema:"id of the thought in the session graph"`
	ReasoningComplete *bool              `json:"reasoning_complete"`
	FinalAnswer       *string            `json:"final_answer"`
	NextSteps         *string            `json:"next_steps"`
	Intervention      *Intervention      `json:"intervention" jsonschema:"the most severe open intervention"`
	Interventions     []Intervention     `json:"interventions" jsonschema:"every intervention raised on this thought"`
	OverallMetrics    *ReasoningMetrics  `json:"overall_metrics"`
	ModelUsed         *string            `json:"model_used"`
	SynthesisSnapshot *SynthesisSnapshot `json:"synthesis_snapshot"`
}

var tracedFields = stepFields{tool: "traced_reasoning", mode: "traced", content: "thought", number: "thought_number", total: "total_thoughts",
	revises: "revises_thought", branchFrom: "branch_from_thought", branch: "branch_id", rootType: "query", inputType: "guidance", rootName: "query"}

const tracedSystemPrompt = `You are a careful reasoner working through a query one thought at a time. Write only the thought you are asked for: one focused reasoning step of one to five sentences, in plain text, without preamble or numbering.`

// Traced runs one thought of traced reasoning: it stores the query (thought
// 1) or guidance, has the model write the thought, measures it with the
// guardrails and stores it with its metrics.
func (lx *Tools) Traced(ctx context.Context, in TracedInput) (*TracedResult, error) {
	f := tracedFields
	if in.RevisesThought != nil {
		in.IsRevision = true
	}
	if in.IsRevision && in.RevisesThought == nil {
		return nil, thinkgraph.Invalid(f.revises, "the thought_number of the thought being revised", "none",
			"'revises_thought' is required when 'is_revision' is true")
	}
	sin := stepInput{Session: in.Session, Number: in.ThoughtNumber, Total: in.TotalThoughts, Next: in.NextThoughtNeeded, Content: in.Thought,
		Revises: in.RevisesThought, BranchFrom: in.BranchFromThought, BranchID: in.BranchID, MoreNeeded: in.NeedsMoreThoughts}
	if err := f.validate(&sin, lx.svc.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	if err := validateTemperature("temperature", in.Temperature); err != nil {
		return nil, err
	}
	g := in.Guardrails
	if g.SemanticDriftThreshold < 0 || g.SemanticDriftThreshold > 1 {
		return nil, thinkgraph.Invalid("guardrails.semantic_drift_threshold", "a number from 0 to 1", fmt.Sprint(g.SemanticDriftThreshold),
			"'guardrails.semantic_drift_threshold' must be from 0 to 1")
	}
	if g.PerplexityThreshold <= 0 {
		return nil, thinkgraph.Invalid("guardrails.perplexity_threshold", "a number > 0", fmt.Sprint(g.PerplexityThreshold),
			"'guardrails.perplexity_threshold' must be greater than 0")
	}
	// A named session that does not exist is reported by the first
	// transaction, before the model is called.
	p, err := lx.svc.Provider(f.tool, in.Session, false, in.Call)
	if err != nil {
		return nil, err
	}
	st, err := lx.prepareStep(ctx, f, sin, "thought", true)
	if err != nil {
		return nil, err
	}
	prompt := st.transcript("Query", "Thought")
	if st.Input != nil && st.Input.ID != st.Root.ID {
		prompt += fmt.Sprintf("\nGuidance for this thought: %s\n", st.Input.Content)
	}
	switch {
	case in.RevisesThought != nil:
		prompt += fmt.Sprintf("\nWrite thought %d: a revision of thought %d that corrects or improves it.", in.ThoughtNumber, *in.RevisesThought)
	case !in.NextThoughtNeeded:
		prompt += fmt.Sprintf("\nWrite thought %d, the final thought: the conclusion that answers the query.", in.ThoughtNumber)
	case in.BranchFromThought != nil:
		prompt += fmt.Sprintf("\nWrite thought %d, starting the alternative branch %q from thought %d: take a different approach from there.", in.ThoughtNumber, in.BranchID, *in.BranchFromThought)
	default:
		prompt += fmt.Sprintf("\nWrite thought %d of about %d.", in.ThoughtNumber, st.Run.Total)
	}
	temp := 0.7
	if in.Temperature != nil {
		temp = *in.Temperature
	}
	resp, requested, err := lx.completeLogprobs(ctx, p, in.Call, llm.Request{Model: in.Model, Temperature: &temp, ThreadID: st.Session.ID,
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: tracedSystemPrompt}, {Role: llm.RoleUser, Content: prompt}}})
	if err != nil {
		return nil, err
	}
	content := strings.TrimSpace(resp.Content)
	if content == "" {
		return nil, reasoning.ProviderError(&llm.APIError{Provider: resp.Provider, StatusCode: 200, Message: "the model returned an empty thought"})
	}
	vecs := lx.svc.EmbedForWrite(ctx, content)
	vec := reasoning.VectorAt(vecs, 0)
	gr, err := lx.guardrails(ctx, st, in, content, vec, computeTokenStats(resp, requested))
	if err != nil {
		return nil, err
	}
	stepType := tracedStepType(in, st.Run.Total, content)
	meta := stepMeta{Run: st.Run.Run, Number: in.ThoughtNumber, Role: "step", StepType: stepType, Provider: resp.Provider, Model: resp.Model,
		Metrics: &gr.metrics, TokenConfidence: gr.tokens.Confidence}
	if in.RevisesThought != nil {
		meta.Revises = *in.RevisesThought
	}
	if in.BranchFromThought != nil {
		meta.BranchFrom = *in.BranchFromThought
	}
	th := thinkgraph.Thought{Content: content, Author: reasoning.Author(resp), Type: strings.ToLower(stepType), Metadata: metaJSON(meta)}
	sess, run, stored, err := lx.finishStep(ctx, f, st, sin, th, vec, func(run *stepRun, th *thinkgraph.Thought) {
		ts := run.Traced
		if ts == nil {
			ts = &tracedState{}
			run.Traced = ts
		}
		for i := range ts.Interventions {
			iv := &ts.Interventions[i]
			if len(gr.found) == 0 || (in.RevisesThought != nil && iv.Step == *in.RevisesThought) {
				iv.Open = false
			}
		}
		for _, iv := range gr.found {
			ts.Interventions = append(ts.Interventions, tracedIntervention{Intervention: iv, Open: true})
		}
		ts.Records = append(ts.Records, tracedRecord{Number: in.ThoughtNumber, Metrics: gr.metrics, TokenConfidence: gr.tokens.Confidence})
	})
	if err != nil {
		return nil, err
	}
	model := resp.Model
	if model == "" {
		model = reasoning.Author(resp)
	}
	res := &TracedResult{ThoughtNumber: in.ThoughtNumber, TotalThoughts: run.Total, NextThoughtNeeded: in.NextThoughtNeeded,
		ThoughtContent: stored.Content, ThoughtType: stepType, Metrics: gr.metrics, ContinuationID: sess.ID, SessionID: sess.ID,
		ThoughtID: stored.ID, Interventions: gr.found, ModelUsed: &model,
		Metadata: TracedMetadata{ThoughtHistoryLength: run.Count, IsRevision: in.RevisesThought != nil, RevisesThought: in.RevisesThought,
			NeedsMoreThoughts: in.NeedsMoreThoughts, NullMetrics: gr.null}}
	if res.Interventions == nil {
		res.Interventions = []Intervention{}
	}
	if stored.BranchID != thinkgraph.DefaultBranch {
		res.Metadata.BranchID = strPtr(stored.BranchID)
	}
	ts := run.Traced
	var open []Intervention
	for _, iv := range ts.Interventions {
		if iv.Open {
			open = append(open, iv.Intervention)
		}
	}
	md := &res.Metadata
	md.InterventionsCount = len(ts.Interventions)
	if len(gr.found) > 0 {
		res.Intervention = &gr.found[0]
	} else if len(open) > 0 {
		res.Intervention = &open[0]
	}
	overall := overallMetrics(ts)
	md.SemanticCoherence = overall.MeanSemanticSimilarity
	if md.SemanticCoherence == nil {
		md.NullMetrics["semantic_coherence"] = "no thought of this run has a semantic similarity"
	}
	var confs []float64
	for _, r := range ts.Records {
		if r.TokenConfidence != nil {
			confs = append(confs, *r.TokenConfidence)
		}
	}
	md.CurrentConfidence = mean(confs)
	if md.CurrentConfidence == nil {
		md.NullMetrics["current_confidence"] = "current_confidence is the mean geometric token probability of the run's thoughts, and no thought has token log-probabilities"
	}
	// next_thought_needed false concludes, as in lux-mcp: an intervention
	// raised on the last step is still reported (intervention, next_steps).
	done := !in.NextThoughtNeeded
	switch {
	case done:
		res.Status = "conclusion_reached"
	case len(open) > 0:
		res.Status = "intervention_needed"
	default:
		res.Status = "thinking"
	}
	if done {
		res.FinalAnswer = strPtr(content)
		res.ReasoningComplete = &done
		res.OverallMetrics = &overall
	}
	// The synthesis snapshot.
	steps := append(slices.Clone(st.pathSteps()), pathThought{Thought: *stored, Meta: meta})
	var insights []string
	for _, p := range steps {
		insights = append(insights, fmt.Sprintf("Thought %d: %s", p.Meta.Number, firstSentence(p.Content, 200)))
	}
	if len(insights) > 5 {
		insights = insights[len(insights)-5:]
	}
	var actions []string
	for _, iv := range open {
		actions = append(actions, fmt.Sprintf("Address the %s at thought %d: %s", iv.InterventionType, iv.Step, iv.Description))
	}
	switch {
	case done && len(open) == 0:
		actions = append(actions, "Act on the final answer")
		res.NextSteps = strPtr("The reasoning is complete; the final answer is the last thought.")
	case done:
		res.NextSteps = strPtr("The reasoning concluded with open interventions: weigh them before relying on the answer, or revise the flagged thoughts (is_revision with revises_thought).")
	default:
		actions = append(actions, fmt.Sprintf("Continue with thought %d of %d", in.ThoughtNumber+1, max(run.Total, in.ThoughtNumber+1)))
		res.NextSteps = strPtr(actions[0])
	}
	conf := "medium"
	if md.CurrentConfidence != nil {
		conf = level(*md.CurrentConfidence, 0.5, 0.8)
	} else if len(open) > 0 {
		conf = "low"
	}
	clarity := "unknown"
	if md.SemanticCoherence != nil {
		clarity = level(*md.SemanticCoherence, 0.3, 0.6)
	}
	res.SynthesisSnapshot = &SynthesisSnapshot{CurrentUnderstanding: reasoning.Clip(content, 600), KeyInsights: insights, NextActions: actions, ConfidenceLevel: conf,
		ClarityLevel: clarity, ReadyForConclusion: len(open) == 0 && (done || in.ThoughtNumber >= run.Total)}
	return res, nil
}

// completeLogprobs runs req asking for token log-probabilities; when the
// API refuses them (reasoning models do), it asks again without.
func (lx *Tools) completeLogprobs(ctx context.Context, p llm.Provider, call reasoning.LLMCall, req llm.Request) (llm.Response, bool, error) {
	req.Logprobs = true
	resp, err := lx.svc.Complete(ctx, p, call, req)
	var apiErr *llm.APIError
	if err != nil && errors.As(err, &apiErr) && apiErr.StatusCode == 400 && strings.Contains(strings.ToLower(apiErr.Message), "logprobs") {
		req.Logprobs = false
		resp, err = lx.svc.Complete(ctx, p, call, req)
		return resp, false, err
	}
	return resp, true, err
}

// guardrailResult is what the guardrails measured and found.
type guardrailResult struct {
	metrics StepMetrics
	null    map[string]string
	found   []Intervention
	tokens  tokenStats
}

func (lx *Tools) guardrails(ctx context.Context, st *stepStart, in TracedInput, content string, vec semantic.Vector, ts tokenStats) (*guardrailResult, error) {
	g := in.Guardrails
	sem := lx.svc.Semantic()
	n := in.ThoughtNumber
	gr := &guardrailResult{null: map[string]string{}, tokens: ts}
	// Earlier thoughts of the path, without the one being revised.
	var earlier []pathThought
	for _, p := range st.pathSteps() {
		if in.RevisesThought != nil && p.Meta.Number == *in.RevisesThought {
			continue
		}
		earlier = append(earlier, p)
	}
	vecs := st.Vectors
	vectorsWhy := ""
	switch {
	case sem == nil:
		vectorsWhy = "the semantic engine is not enabled on this server"
	case vec == nil:
		vectorsWhy = "embedding this thought failed"
	}
	// Similarity to the previous thought (the query for the first).
	prevVec, queryVec := semantic.Vector(nil), vecs[st.Root.ID]
	if len(earlier) > 0 {
		prevVec = vecs[earlier[len(earlier)-1].ID]
	} else {
		prevVec = queryVec
	}
	if vectorsWhy == "" && prevVec != nil {
		c := semantic.Cosine(vec, prevVec)
		if math.IsNaN(c) {
			c = 0
		}
		gr.metrics.SemanticSimilarity = &c
	} else if vectorsWhy != "" {
		gr.null["semantic_similarity"] = vectorsWhy
	} else {
		gr.null["semantic_similarity"] = "the previous thought has no vector yet"
	}
	// Semantic drift: relatedness (the embedder's calibration) to the query,
	// to the running synthesis (the mean cosine with the earlier thoughts)
	// and to this thought's guidance; the best of them must reach the
	// threshold.
	if g.SemanticDriftCheck && vectorsWhy == "" && queryVec != nil {
		cal := lx.svc.Calibration()
		c := semantic.Cosine(vec, queryVec)
		best := cal.Relatedness(c)
		against := fmt.Sprintf("relatedness to the query %.2f (cosine %.2f)", best, c)
		var sum, k float64
		for _, p := range earlier {
			if v := vecs[p.ID]; v != nil {
				sum += semantic.Cosine(vec, v)
				k++
			}
		}
		if k > 0 {
			r := cal.Relatedness(sum / k)
			against += fmt.Sprintf(", to the earlier thoughts %.2f (mean cosine %.2f)", r, sum/k)
			best = max(best, r)
		}
		if st.Input != nil && st.Input.ID != st.Root.ID {
			if v := vecs[st.Input.ID]; v != nil {
				// A thought that follows the client's guidance does not drift.
				c := semantic.Cosine(vec, v)
				r := cal.Relatedness(c)
				against += fmt.Sprintf(", to the guidance %.2f (cosine %.2f)", r, c)
				best = max(best, r)
			}
		}
		if best < g.SemanticDriftThreshold {
			sev := SeverityMedium
			if best < g.SemanticDriftThreshold/2 {
				sev = SeverityHigh
			}
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionSemanticDrift, Severity: sev,
				Description: fmt.Sprintf("thought %d drifts from the query: %s, below the threshold %.2f", n, against, g.SemanticDriftThreshold)})
		}
	}
	// Circular reasoning: a circular argument through this thought (the
	// detector of branch-thinking's detectCircular, over the path), else an
	// earlier thought restated (vectors and n-grams).
	circ := false
	if g.CircularReasoningDetection {
		if f, ok := circularStep(earlier, n, content); ok {
			circ = true
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionCircularReasoning, Severity: SeverityHigh,
				Description: fmt.Sprintf("thought %d argues in a circle: %s", n, f.Reason)})
		}
	}
	if g.CircularReasoningDetection && vectorsWhy == "" && !circ {
		grams := trigrams(content)
		bestN, bestC, bestO := 0, 0.0, 0.0
		for _, p := range earlier {
			v := vecs[p.ID]
			if v == nil {
				continue
			}
			c := semantic.Cosine(vec, v)
			if c < CircularSimilarity {
				continue
			}
			if o := overlap(grams, trigrams(p.Content)); o >= CircularOverlap && c+o > bestC+bestO {
				bestN, bestC, bestO = p.Meta.Number, c, o
			}
		}
		if bestN > 0 {
			sev := SeverityMedium
			if bestC >= 0.97 && bestO >= 0.8 {
				sev = SeverityHigh
			}
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionCircularReasoning, Severity: sev,
				Description: fmt.Sprintf("thought %d restates thought %d (cosine %.2f, %.0f%% of the word trigrams shared) instead of advancing", n, bestN, bestC, 100*bestO)})
		}
	}
	// Consistency: the contradiction decider against each earlier thought.
	if !g.ConsistencyValidation {
		gr.null["consistency_score"] = "consistency_validation is off"
	} else if sem == nil {
		gr.null["consistency_score"] = "the semantic engine (and its contradiction decider) is not enabled on this server"
	} else {
		score := 1.0
		worstN, worst := 0, contradict.Verdict{}
		for _, p := range earlier {
			v := sem.Contradictor.Contradiction(content, p.Content)
			if v.Contradicts && v.Confidence > worst.Confidence {
				worstN, worst = p.Meta.Number, v
			}
		}
		if worstN > 0 {
			score = 1 - worst.Confidence
			sev := SeverityMedium
			if worst.Confidence >= 0.8 {
				sev = SeverityHigh
			}
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionInconsistentLogic, Severity: sev,
				Description: fmt.Sprintf("thought %d contradicts thought %d: %s", n, worstN, worst.Reason)})
		}
		gr.metrics.ConsistencyScore = &score
	}
	// Perplexity from the token log-probabilities.
	if !g.PerplexityMonitoring {
		gr.null["perplexity"] = "perplexity_monitoring is off"
	} else if ts.Perplexity == nil {
		gr.null["perplexity"] = ts.PerplexityReason
	} else {
		gr.metrics.Perplexity = ts.Perplexity
		if *ts.Perplexity > g.PerplexityThreshold {
			sev := SeverityMedium
			if *ts.Perplexity > 2*g.PerplexityThreshold {
				sev = SeverityHigh
			}
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionHighPerplexity, Severity: sev,
				Description: fmt.Sprintf("thought %d has perplexity %.1f over %d tokens, above the threshold %.1f: the model was unsure of its wording", n, *ts.Perplexity, ts.Tokens, g.PerplexityThreshold)})
		}
	}
	// "Attention" entropy: the entropy of the top-k token alternatives.
	if !g.AttentionEntropyAnalysis {
		gr.null["attention_entropy"] = "attention_entropy_analysis is off"
	} else if ts.NormEntropy == nil {
		gr.null["attention_entropy"] = ts.EntropyReason + "; the API exposes no attention weights, and this figure is only computed from top log-probabilities"
	} else {
		gr.metrics.AttentionEntropy = ts.NormEntropy
		if *ts.NormEntropy >= ScatterEntropy {
			sev := SeverityLow
			if *ts.NormEntropy >= 0.8 {
				sev = SeverityMedium
			}
			gr.found = append(gr.found, Intervention{Step: n, InterventionType: InterventionAttentionScatter, Severity: sev,
				Description: fmt.Sprintf("thought %d: the model's top-%d token alternatives were nearly equally likely (normalised entropy %.2f ≥ %.2f)", n, ts.TopK, *ts.NormEntropy, ScatterEntropy)})
		}
	}
	slices.SortStableFunc(gr.found, func(a, b Intervention) int { return severityRank(b.Severity) - severityRank(a.Severity) })
	return gr, nil
}

func severityRank(s string) int {
	return slices.Index([]string{SeverityLow, SeverityMedium, SeverityHigh, SeverityCritical}, s)
}

// circularStep runs the circular-argument detector over the path's earlier
// thoughts and content (each the child of the one before) and returns a
// circular argument that content is part of.
func circularStep(earlier []pathThought, n int, content string) (analyze.CircularReasoning, bool) {
	// Thoughts are named by number, as the description names them.
	current := fmt.Sprintf("thought %d", n)
	docs := make([]analyze.Doc, 0, len(earlier)+1)
	parent := ""
	for i, p := range earlier {
		id := fmt.Sprintf("thought %d", p.Meta.Number)
		docs = append(docs, analyze.Doc{ID: id, ParentID: parent, Step: i + 1, Content: p.Content})
		parent = id
	}
	docs = append(docs, analyze.Doc{ID: current, ParentID: parent, Step: len(earlier) + 1, Content: content})
	for _, f := range analyze.DetectCircular(docs, analyze.CircularOptions{}) {
		if f.Kind != analyze.CircularSupport && f.Kind != analyze.CircularRestatedArgument {
			continue
		}
		for _, t := range f.Thoughts {
			if t.ID == current {
				return f, true
			}
		}
	}
	return analyze.CircularReasoning{}, false
}

// trigrams returns the word trigrams of text's content words, stemmed (the
// words themselves when there are fewer than three).
func trigrams(text string) map[string]bool {
	var ws []string
	for _, t := range semantic.Tokenize(text) {
		if !semantic.IsStopWord(t) {
			ws = append(ws, semantic.Stem(t))
		}
	}
	out := map[string]bool{}
	if len(ws) < 3 {
		for _, w := range ws {
			out[w] = true
		}
		return out
	}
	for i := 0; i+3 <= len(ws); i++ {
		out[ws[i]+" "+ws[i+1]+" "+ws[i+2]] = true
	}
	return out
}

// overlap is the share of the smaller set's elements found in the other.
func overlap(a, b map[string]bool) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

func mean(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	return &m
}

func overallMetrics(ts *tracedState) ReasoningMetrics {
	var sim, ppl, ent, con []float64
	for _, r := range ts.Records {
		if v := r.Metrics.SemanticSimilarity; v != nil {
			sim = append(sim, *v)
		}
		if v := r.Metrics.Perplexity; v != nil {
			ppl = append(ppl, *v)
		}
		if v := r.Metrics.AttentionEntropy; v != nil {
			ent = append(ent, *v)
		}
		if v := r.Metrics.ConsistencyScore; v != nil {
			con = append(con, *v)
		}
	}
	m := ReasoningMetrics{Thoughts: len(ts.Records), MeanSemanticSimilarity: mean(sim), MeanPerplexity: mean(ppl), MeanAttentionEntropy: mean(ent),
		MeanConsistencyScore: mean(con), InterventionsCount: len(ts.Interventions), InterventionsByType: map[string]int{}}
	for _, iv := range ts.Interventions {
		m.InterventionsByType[iv.InterventionType]++
	}
	return m
}

var (
	validationCues  = []string{"verify", "verif", "validat", "double-check", "check whether", "check that", "sanity", "confirm", "test this", "testing"}
	synthesisCues   = []string{"in summary", "overall", "combining", "taken together", "putting this together", "putting it together", "synthes", "to sum up"}
	explorationCues = []string{"alternatively", "what if", "explore", "another approach", "possibilit", "options", "one option", "could also"}
)

// tracedStepType decides a thought's StepType: thought 1 is Initial, the
// last thought (next_thought_needed false) the Conclusion; otherwise the
// content decides when it has the cues of validation, synthesis or
// exploration (in that order), and else the position: the first third of
// the estimate explores, the second-to-last thought synthesises, the rest
// analyses.
func tracedStepType(in TracedInput, total int, content string) string {
	switch {
	case !in.NextThoughtNeeded:
		return StepConclusion
	case in.ThoughtNumber == 1 && in.RevisesThought == nil:
		return StepInitial
	}
	lc := strings.ToLower(content)
	for _, c := range []struct {
		cues []string
		typ  string
	}{{validationCues, StepValidation}, {synthesisCues, StepSynthesis}, {explorationCues, StepExploration}} {
		if slices.ContainsFunc(c.cues, func(cue string) bool { return strings.Contains(lc, cue) }) {
			return c.typ
		}
	}
	switch n := in.ThoughtNumber; {
	case total >= 3 && n == total-1:
		return StepSynthesis
	case float64(n) <= math.Ceil(float64(total)/3):
		return StepExploration
	}
	return StepAnalysis
}
