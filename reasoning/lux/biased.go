package lux

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// biased_reasoning (Lux): a step machine, one step per call. Query →
// Reasoning (primary model) → BiasAnalysis (verifier model) → Correction
// when a bias was found → BiasAnalysis of the correction … up to
// max_analysis_rounds analyses → Synthesis → complete. The machine's state
// is in the session's metadata.

// Biased reasoning step types (Lux's StepType of biased_reasoning).
const (
	BiasedQuery        = "Query"
	BiasedReasoning    = "Reasoning"
	BiasedBiasAnalysis = "BiasAnalysis"
	BiasedCorrection   = "Correction"
	BiasedGuidance     = "Guidance"
	BiasedSynthesis    = "Synthesis"
)

// Next actions (Lux's NextAction).
const (
	NextBiasCheck         = "BiasCheck"
	NextContinueReasoning = "ContinueReasoning"
	NextRequestGuidance   = "RequestGuidance"
	NextSynthesize        = "Synthesize"
	NextComplete          = "Complete"
)

// DefaultMaxAnalysisRounds and MaxAnalysisRounds bound the bias analyses.
const (
	DefaultMaxAnalysisRounds = 3
	MaxAnalysisRounds        = 10
)

// BiasedInput is one call of biased_reasoning.
type BiasedInput struct {
	Session       reasoning.SessionRef
	NewSession    bool
	Query         string
	MaxRounds     *int
	PrimaryModel  string
	VerifierModel string
	Call          reasoning.LLMCall
}

// BiasInfo is a bias the verifier found.
type BiasInfo struct {
	BiasType            string `json:"bias_type"`
	Severity            string `json:"severity"`
	Description         string `json:"description"`
	SuggestedCorrection string `json:"suggested_correction"`
}

// BiasedStatus is the session's progress (Lux's SessionStatus).
type BiasedStatus struct {
	TotalSteps      int  `json:"total_steps"`
	ReasoningRounds int  `json:"reasoning_rounds"`
	BiasesDetected  int  `json:"biases_detected"`
	CorrectionsMade int  `json:"corrections_made"`
	IsComplete      bool `json:"is_complete"`
}

// BiasedSnapshot is biased_reasoning's synthesis snapshot.
type BiasedSnapshot struct {
	CurrentUnderstanding string   `json:"current_understanding"`
	TopInsights          []string `json:"top_insights"`
	NextActions          []string `json:"next_actions"`
	ConfidenceLevel      string   `json:"confidence_level"`
	ReadyForDecision     bool     `json:"ready_for_decision"`
}

// BiasedResult is the step biased_reasoning took: the tool's result.
type BiasedResult struct {
	StepType          string          `json:"step_type" jsonschema:"Query, Reasoning, BiasAnalysis, Correction, Guidance or Synthesis"`
	StepNumber        int             `json:"step_number"`
	Content           string          `json:"content"`
	ModelUsed         string          `json:"model_used" jsonschema:"the model that wrote this step (client for the query)"`
	NextAction        string          `json:"next_action" jsonschema:"BiasCheck, ContinueReasoning, RequestGuidance, Synthesize or Complete"`
	SessionID         string          `json:"session_id"`
	SessionStatus     BiasedStatus    `json:"session_status"`
	BiasDetected      *BiasInfo       `json:"bias_detected"`
	SynthesisSnapshot *BiasedSnapshot `json:"synthesis_snapshot"`
	FinalSynthesis    *string         `json:"final_synthesis"`
	ThoughtID         string          `json:"thought_id" jsonschema:"id of the step in the session graph"`
}

// biasedState is the machine's state, in the session metadata.
type biasedState struct {
	Query     string `json:"query"`
	QueryID   string `json:"query_id"`
	MaxRounds int    `json:"max_rounds"`
	Primary   string `json:"primary_model,omitempty"`
	Verifier  string `json:"verifier_model,omitempty"`
	// Pending is the step type the next call takes ("" when complete).
	Pending string `json:"pending"`
	BiasedStatus
	// ReasoningID is the latest Reasoning or Correction thought.
	ReasoningID string `json:"reasoning_id,omitempty"`
	// LastBias is the bias found by the latest analysis, nil if none.
	LastBias *BiasInfo `json:"last_bias,omitempty"`
	// Analysed is true when the latest reasoning has been checked.
	Analysed bool       `json:"analysed,omitempty"`
	Found    []BiasInfo `json:"found,omitempty"`
	// Guidance holds the client's guidance not yet given to a model.
	Guidance []string `json:"guidance,omitempty"`
	// InputID is the latest guidance thought, stored off the current path
	// until the next model step, its child, is stored.
	InputID string `json:"input_id,omitempty"`
	// AwaitGuidance is set when the machine cannot judge the reasoning by
	// itself before the next step: next_action is RequestGuidance.
	AwaitGuidance bool `json:"await_guidance,omitempty"`
}

// nextAction is the next_action of a response: RequestGuidance while the
// machine asks for guidance, else what the pending step is.
func (st *biasedState) nextAction() string {
	if st.AwaitGuidance && st.Pending != "" {
		return NextRequestGuidance
	}
	return nextAction(st.Pending)
}

const biasedKey = "biased_reasoning"

func nextAction(pending string) string {
	switch pending {
	case BiasedBiasAnalysis:
		return NextBiasCheck
	case BiasedReasoning, BiasedCorrection:
		return NextContinueReasoning
	case BiasedSynthesis:
		return NextSynthesize
	}
	return NextComplete
}

type biasVerdict struct {
	BiasDetected        *bool  `json:"bias_detected"`
	BiasType            string `json:"bias_type"`
	Severity            string `json:"severity"`
	Description         string `json:"description"`
	SuggestedCorrection string `json:"suggested_correction"`
}

const (
	biasedReasoningPrompt = `Reason carefully about the question you are given. Give your analysis and a tentative answer in at most three short paragraphs of plain text.`
	biasedVerifierPrompt  = `You check a piece of reasoning for cognitive biases: confirmation bias, anchoring, availability, overconfidence, status quo bias, sunk cost, framing, bandwagon effect, survivorship bias and the like.
Answer with JSON only: {"bias_detected": true or false, "bias_type": "<the bias, or empty>", "severity": "low" | "medium" | "high", "description": "<where the reasoning shows it>", "suggested_correction": "<how to correct it>"}.`
	biasedCorrectionPrompt = `Rewrite the reasoning you are given so that it no longer shows the bias described. Keep what was sound; give the corrected analysis and answer in at most three short paragraphs of plain text.`
	biasedSynthesisPrompt  = `Write the final synthesis of an analysis: the answer to the question, how the biases found were corrected, and the uncertainties that remain, in at most two short paragraphs of plain text.`
)

// biasedTool is the tool name of biased_reasoning's thoughts and calls.
const biasedTool = "biased_reasoning"

// biasedCall is one call of biased_reasoning after its first transaction:
// the machine's state then, and what the model step it takes needs.
type biasedCall struct {
	p    llm.Provider
	call reasoning.LLMCall
	sess *thinkgraph.Session
	st   biasedState
	// step is the step the call takes: st.Pending when the call began.
	step string
	// query is the question stored by the call that started the analysis
	// (nil for every later call, which takes a model step).
	query *thinkgraph.Thought
	// reasoning is the text of the latest Reasoning or Correction.
	reasoning string
	// guidance is the client's guidance not yet given to a model.
	guidance string
}

// Biased takes the next step of a biased reasoning session: the first call
// stores the question (biasedStart), a later one records guidance
// (biasedGuide) and takes the model step the machine is at.
func (lx *Tools) Biased(ctx context.Context, in BiasedInput) (*BiasedResult, error) {
	c, err := lx.biasedBegin(ctx, in)
	if err != nil {
		return nil, err
	}
	if c.query != nil {
		return &BiasedResult{StepType: BiasedQuery, StepNumber: 1, Content: c.query.Content, ModelUsed: "client", NextAction: c.st.nextAction(),
			SessionID: c.sess.ID, SessionStatus: c.st.BiasedStatus, SynthesisSnapshot: biasedSnapshot(&c.st, ""), ThoughtID: c.query.ID}, nil
	}
	switch c.step {
	case BiasedBiasAnalysis:
		return lx.biasedAnalyse(ctx, c)
	case BiasedCorrection:
		return lx.biasedCorrect(ctx, c)
	case BiasedSynthesis:
		return lx.biasedSynthesise(ctx, c)
	}
	return lx.biasedReason(ctx, c)
}

// biasedBegin checks the input and, in the call's first transaction,
// starts the analysis or reads where it is (recording guidance).
func (lx *Tools) biasedBegin(ctx context.Context, in BiasedInput) (*biasedCall, error) {
	if in.NewSession {
		if in.Session.Explicit {
			return nil, thinkgraph.Invalid("new_session", "new_session without session_id", "both",
				"'new_session' starts a fresh session: do not pass 'session_id' with it")
		}
		in.Session = reasoning.SessionRef{ID: reasoning.NewID(), Tenant: in.Session.Tenant}
	}
	if strings.TrimSpace(in.Query) != "" {
		if err := reasoning.ValidateContent("query", in.Query, lx.svc.Config().MaxThoughtLength); err != nil {
			return nil, err
		}
	}
	maxRounds, err := reasoning.ClampCount("max_analysis_rounds", in.MaxRounds, DefaultMaxAnalysisRounds, 1, MaxAnalysisRounds)
	if err != nil {
		return nil, err
	}
	// Without a model the analysis cannot go on: refuse before the first
	// step records anything.
	p, err := lx.svc.Provider(biasedTool, in.Session, false, in.Call)
	if err != nil {
		return nil, err
	}
	// A named session that does not exist is reported by the first
	// transaction, before the model is called.
	var vecs []semantic.Vector
	if strings.TrimSpace(in.Query) != "" {
		vecs = lx.svc.EmbedForWrite(ctx, in.Query)
	}
	c := &biasedCall{p: p, call: in.Call}
	c.sess, err = lx.write(ctx, in.Session, "biased", func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		*c = biasedCall{p: p, call: in.Call}
		found, err := reasoning.GetSessionMeta(sess, biasedKey, &c.st)
		if err != nil {
			return err
		}
		if found && c.st.Pending == "" {
			return &thinkgraph.Error{Code: thinkgraph.CodeValidation, Field: "session_id", Expected: "a session whose bias analysis is not complete", Received: sess.ID,
				Message:     fmt.Sprintf("the bias analysis of session %q is complete (%d steps, final synthesis given); pass new_session: true to analyse another question", sess.ID, c.st.TotalSteps),
				Suggestions: []string{"pass new_session: true (without session_id) to start a fresh session"}}
		}
		if in.PrimaryModel != "" {
			c.st.Primary = in.PrimaryModel
		}
		if in.VerifierModel != "" {
			c.st.Verifier = in.VerifierModel
		}
		if in.MaxRounds != nil || !found {
			c.st.MaxRounds = maxRounds
		}
		if !found {
			if err := lx.biasedStart(ctx, tx, sess, c, in.Query, reasoning.VectorAt(vecs, 0)); err != nil {
				return err
			}
		} else if err := lx.biasedGuide(ctx, tx, sess, c, in.Query, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		return reasoning.SetSessionMeta(sess, biasedKey, c.st)
	})
	if err != nil {
		return nil, err
	}
	c.step = c.st.Pending
	return c, nil
}

// biasedStart is the Query step: the question is stored and the primary
// model reasons about it next.
func (lx *Tools) biasedStart(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, c *biasedCall, query string, vec semantic.Vector) error {
	if strings.TrimSpace(query) == "" {
		return thinkgraph.Invalid("query", "a non-empty string", "", "'query' is required to start a bias analysis")
	}
	th := &thinkgraph.Thought{Content: query, Tool: biasedTool, Author: "client", Type: "query", Metadata: metaJSON(map[string]any{"step_type": BiasedQuery})}
	if err := lx.svc.AddThought(ctx, tx, sess, th, vec); err != nil {
		return err
	}
	c.st.Query, c.st.QueryID, c.st.Pending = query, th.ID, BiasedReasoning
	c.st.TotalSteps = 1
	c.query = th
	return nil
}

// biasedGuide is the Guidance step of a later call: a text other than the
// question is guidance for the next model step, stored off the current
// path. It reads what the model step needs.
func (lx *Tools) biasedGuide(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, c *biasedCall, query string, vec semantic.Vector) error {
	st := &c.st
	if q := strings.TrimSpace(query); q != "" && q != strings.TrimSpace(st.Query) && !slices.Contains(st.Guidance, q) {
		th := &thinkgraph.Thought{Content: query, Tool: biasedTool, Author: "client", Type: "guidance", Metadata: metaJSON(map[string]any{"step_type": BiasedGuidance})}
		if st.InputID != "" {
			th.ParentID = st.InputID // guidance after guidance not yet answered
		}
		if err := lx.svc.AddInput(ctx, tx, sess, th, vec); err != nil {
			return err
		}
		st.Guidance, st.InputID = append(st.Guidance, q), th.ID
	}
	c.guidance = strings.Join(st.Guidance, "\n")
	if st.ReasoningID != "" {
		th, err := tx.Thought(ctx, sess.Key, st.ReasoningID)
		if err != nil {
			return err
		}
		c.reasoning = th.Content
	}
	return nil
}

// question is the user message of the primary model's steps: the question
// and the guidance not yet given.
func (c *biasedCall) question() string {
	user := "Question: " + c.st.Query
	if c.guidance != "" {
		user += "\n\nGuidance from the user:\n" + c.guidance
	}
	return user
}

// biasedReason is the Reasoning step: the primary model reasons about the
// question; the verifier checks the reasoning next.
func (lx *Tools) biasedReason(ctx context.Context, c *biasedCall) (*BiasedResult, error) {
	resp, content, err := lx.biasedAsk(ctx, c, c.st.Primary, biasedReasoningPrompt, c.question())
	if err != nil {
		return nil, err
	}
	th := biasedThought(c.step, "analysis", resp, content, nil)
	return lx.biasedStore(ctx, c, resp, th, content, func(st *biasedState, id string) { st.reasoned(id) })
}

// biasedAnalyse is the BiasAnalysis step: the verifier model checks the
// latest reasoning for a bias. A bias found is corrected next; else (or
// when the verdict is not the JSON asked for, which asks the user first)
// the synthesis is written next.
func (lx *Tools) biasedAnalyse(ctx context.Context, c *biasedCall) (*BiasedResult, error) {
	resp, content, err := lx.biasedAsk(ctx, c, c.st.Verifier, biasedVerifierPrompt, "Question: "+c.st.Query+"\n\nReasoning to check:\n"+c.reasoning)
	if err != nil {
		return nil, err
	}
	var bias *BiasInfo
	structured := true
	var v biasVerdict
	if llm.ExtractJSON(content, &v) != nil || v.BiasDetected == nil {
		structured = false
	} else if *v.BiasDetected {
		bias = &BiasInfo{BiasType: strings.TrimSpace(v.BiasType), Severity: normSeverity(v.Severity), Description: strings.TrimSpace(v.Description),
			SuggestedCorrection: strings.TrimSpace(v.SuggestedCorrection)}
		if bias.BiasType == "" {
			bias.BiasType = "unspecified"
		}
		content = fmt.Sprintf("Bias detected: %s (%s severity). %s", bias.BiasType, bias.Severity, bias.Description)
		if bias.SuggestedCorrection != "" {
			content += " Suggested correction: " + bias.SuggestedCorrection
		}
	} else {
		content = "No bias detected."
		if d := strings.TrimSpace(v.Description); d != "" {
			content += " " + d
		}
	}
	meta := map[string]any{}
	if bias != nil {
		meta["bias"] = bias
	}
	if !structured {
		meta["verdict_structured"] = false
	}
	th := biasedThought(c.step, "critique", resp, content, meta)
	th.ParentID = c.st.ReasoningID
	res, err := lx.biasedStore(ctx, c, resp, th, c.reasoning, func(st *biasedState, _ string) {
		st.ReasoningRounds++
		st.Analysed, st.LastBias = true, bias
		if bias != nil {
			st.BiasesDetected++
			st.Found = append(st.Found, *bias)
			st.Pending = BiasedCorrection
		} else {
			st.Pending = BiasedSynthesis
			// A verdict without its JSON says neither yes nor no:
			// ask the user rather than assume no bias.
			st.AwaitGuidance = !structured
		}
	})
	if err != nil {
		return nil, err
	}
	res.BiasDetected = bias
	return res, nil
}

// biasedCorrect is the Correction step: the primary model rewrites the
// reasoning without the bias found; the verifier checks the correction
// next, unless the rounds are used up (then the synthesis is next).
func (lx *Tools) biasedCorrect(ctx context.Context, c *biasedCall) (*BiasedResult, error) {
	b := BiasInfo{BiasType: "unspecified"}
	if c.st.LastBias != nil {
		b = *c.st.LastBias
	}
	user := c.question() + fmt.Sprintf("\n\nReasoning:\n%s\n\nBias found: %s (%s severity): %s\nSuggested correction: %s", c.reasoning,
		b.BiasType, b.Severity, b.Description, b.SuggestedCorrection)
	resp, content, err := lx.biasedAsk(ctx, c, c.st.Primary, biasedCorrectionPrompt, user)
	if err != nil {
		return nil, err
	}
	th := biasedThought(c.step, "revision", resp, content, nil)
	th.RevisesID, th.ParentID = c.st.ReasoningID, c.st.ReasoningID
	return lx.biasedStore(ctx, c, resp, th, content, func(st *biasedState, id string) {
		st.reasoned(id)
		st.CorrectionsMade++
		corrected := st.LastBias
		st.LastBias = nil
		if st.ReasoningRounds >= st.MaxRounds {
			st.Pending = BiasedSynthesis
			// The rounds are used up, so this correction of a
			// high-severity bias will not be checked: ask the
			// user before the synthesis.
			st.AwaitGuidance = corrected != nil && corrected.Severity == "high"
		}
	})
}

// biasedSynthesise is the Synthesis step: the primary model writes the
// final synthesis, and the analysis is complete.
func (lx *Tools) biasedSynthesise(ctx context.Context, c *biasedCall) (*BiasedResult, error) {
	user := c.question() + "\n\nFinal reasoning:\n" + c.reasoning
	if len(c.st.Found) > 0 {
		user += "\n\nBiases found and corrected:"
		for _, b := range c.st.Found {
			user += fmt.Sprintf("\n- %s: %s", b.BiasType, b.Description)
		}
	}
	resp, content, err := lx.biasedAsk(ctx, c, c.st.Primary, biasedSynthesisPrompt, user)
	if err != nil {
		return nil, err
	}
	th := biasedThought(c.step, "synthesis", resp, content, nil)
	res, err := lx.biasedStore(ctx, c, resp, th, content, func(st *biasedState, _ string) {
		st.Pending, st.IsComplete, st.Guidance = "", true, nil
	})
	if err != nil {
		return nil, err
	}
	res.FinalSynthesis = &content
	return res, nil
}

// reasoned moves the machine past a Reasoning or Correction thought id:
// the verifier checks it next.
func (st *biasedState) reasoned(id string) {
	st.ReasoningID, st.Analysed, st.Guidance = id, false, nil
	st.Pending = BiasedBiasAnalysis
}

// biasedAsk runs the model step's request: its answer, trimmed, which must
// not be empty.
func (lx *Tools) biasedAsk(ctx context.Context, c *biasedCall, model, system, user string) (llm.Response, string, error) {
	resp, err := lx.svc.Complete(ctx, c.p, c.call, llm.Request{Model: model, ThreadID: c.sess.ID,
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user}}})
	if err != nil {
		return resp, "", err
	}
	content := strings.TrimSpace(resp.Content)
	if content == "" {
		return resp, "", reasoning.ProviderError(&llm.APIError{Provider: resp.Provider, StatusCode: 200, Message: "the model returned an empty answer"})
	}
	return resp, content, nil
}

// biasedThought is the thought of a model step, with the step type, the
// model and meta in its metadata.
func biasedThought(step, typ string, resp llm.Response, content string, meta map[string]any) thinkgraph.Thought {
	m := reasoning.WithModel(map[string]any{"step_type": step}, resp)
	maps.Copy(m, meta)
	return thinkgraph.Thought{Content: content, Tool: biasedTool, Author: reasoning.Author(resp), Type: typ, Metadata: metaJSON(m)}
}

// biasedStore stores the model step's thought th and moves the machine on
// with next (given the thought's id), in the call's second transaction,
// unless another call advanced the machine meanwhile. current is the
// reasoning the snapshot reports.
func (lx *Tools) biasedStore(ctx context.Context, c *biasedCall, resp llm.Response, th thinkgraph.Thought, current string, next func(st *biasedState, id string)) (*BiasedResult, error) {
	vecs := lx.svc.EmbedForWrite(ctx, th.Content)
	steps := c.st.TotalSteps
	var st biasedState
	sess, err := lx.write(ctx, reasoning.SessionRef{ID: c.sess.ID, Explicit: true, Tenant: c.sess.Tenant}, "", func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		st = biasedState{}
		if _, err := reasoning.GetSessionMeta(sess, biasedKey, &st); err != nil {
			return err
		}
		if st.TotalSteps != steps || st.Pending != c.step {
			return &thinkgraph.Error{Code: thinkgraph.CodeValidation, Field: "session_id", Message: fmt.Sprintf(
				"another call advanced the bias analysis of session %q while this step was generated; this step was not stored", sess.ID)}
		}
		t := th
		if t.ParentID == "" && st.InputID != "" {
			t.ParentID = st.InputID // the guidance it answers
		}
		if err := lx.svc.AddThought(ctx, tx, sess, &t, reasoning.VectorAt(vecs, 0)); err != nil {
			return err
		}
		th, st.InputID = t, ""
		st.TotalSteps++
		st.AwaitGuidance = false
		next(&st, t.ID)
		return reasoning.SetSessionMeta(sess, biasedKey, st)
	})
	if err != nil {
		return nil, err
	}
	res := &BiasedResult{StepType: c.step, StepNumber: st.TotalSteps, Content: th.Content, ModelUsed: resp.Model, NextAction: st.nextAction(),
		SessionID: sess.ID, SessionStatus: st.BiasedStatus, SynthesisSnapshot: biasedSnapshot(&st, current), ThoughtID: th.ID}
	if res.ModelUsed == "" {
		res.ModelUsed = reasoning.Author(resp)
	}
	return res, nil
}

func normSeverity(s string) string {
	switch s = strings.ToLower(strings.TrimSpace(s)); s {
	case "low", "medium", "high":
		return s
	case "critical", "severe":
		return "high"
	case "minor":
		return "low"
	}
	return "medium"
}

// biasedSnapshot summarises the session: the confidence is high when the
// latest reasoning passed a bias check, medium when the biases found were
// corrected but the correction is not checked yet, low while a bias found is
// uncorrected or nothing was checked.
func biasedSnapshot(st *biasedState, current string) *BiasedSnapshot {
	snap := BiasedSnapshot{CurrentUnderstanding: reasoning.Clip(current, 800), TopInsights: []string{}, ConfidenceLevel: "low",
		ReadyForDecision: st.Pending == BiasedSynthesis || st.IsComplete}
	if current == "" {
		snap.CurrentUnderstanding = "Question: " + reasoning.Clip(st.Query, 400)
	}
	switch {
	case st.Analysed && st.LastBias == nil:
		snap.ConfidenceLevel = "high"
	case !st.Analysed && st.CorrectionsMade > 0:
		snap.ConfidenceLevel = "medium"
	}
	if current != "" {
		snap.TopInsights = append(snap.TopInsights, firstSentence(current, 240))
	}
	for i := len(st.Found) - 1; i >= 0 && len(snap.TopInsights) < 5; i-- {
		b := st.Found[i]
		snap.TopInsights = append(snap.TopInsights, fmt.Sprintf("%s (%s): %s", b.BiasType, b.Severity, firstSentence(b.Description, 200)))
	}
	switch st.Pending {
	case BiasedReasoning:
		snap.NextActions = []string{"Call again: the primary model reasons about the question"}
	case BiasedBiasAnalysis:
		snap.NextActions = []string{"Call again: the verifier model checks the latest reasoning for bias"}
	case BiasedCorrection:
		snap.NextActions = []string{"Call again: the primary model corrects the bias found"}
	case BiasedSynthesis:
		snap.NextActions = []string{"Call again: the primary model writes the final synthesis"}
	default:
		snap.NextActions = []string{"Decide on the final synthesis", "Pass new_session: true to analyse another question"}
	}
	return &snap
}
