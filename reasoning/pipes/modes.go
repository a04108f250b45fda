package pipes

import (
	"context"
	"fmt"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Tree, divergent and reflection reasoning (the later modes of mcp-langbase-reasoning's
// server), on the same machinery as Linear.

// BranchAnswer is one branch or perspective the model proposed, or the
// synthesis.
type BranchAnswer struct {
	BranchID   string   `json:"branch_id,omitempty"`
	Label      string   `json:"label,omitempty"`
	ThoughtID  string   `json:"thought_id"`
	Content    string   `json:"content"`
	Confidence *float64 `json:"confidence"`
}

// TreeResult is what reasoning.tree recorded: the tool's result.
type TreeResult struct {
	SessionID         string         `json:"session_id"`
	InputThoughtID    string         `json:"input_thought_id"`
	Branches          []BranchAnswer `json:"branches"`
	RecommendedBranch string         `json:"recommended_branch"`
	Structured        bool           `json:"structured" jsonschema:"false when the model did not answer in the requested JSON and its whole answer became one branch"`
}

type treeAnswer struct {
	Branches []struct {
		Thought    string   `json:"thought"`
		Confidence *float64 `json:"confidence"`
		Rationale  string   `json:"rationale"`
	} `json:"branches"`
	Recommended *int `json:"recommended"`
}

// startFanOut is the common start of the modes that ask for several
// answers at once: it validates the input and the count field (default 3,
// from lo to hi), checks the session, picks the provider and stores the
// input, so that a failing provider loses nothing.
func (pm *Modes) startFanOut(ctx context.Context, in ReasoningInput, tool, mode, countField string, count *int, lo, hi int) (int, llm.Provider, *thinkgraph.Session, *thinkgraph.Thought, error) {
	if err := pm.reasoningValidate(&in); err != nil {
		return 0, nil, nil, nil, err
	}
	n, err := reasoning.ClampCount(countField, count, 3, lo, hi)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	if err := checkSessionRef(in.Session); err != nil {
		return 0, nil, nil, nil, err
	}
	p, err := pm.svc.Provider(tool, in.Session, true, in.Call)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	sess, input, err := pm.storeInput(ctx, in, tool, mode, map[string]any{countField: n})
	if err != nil {
		return 0, nil, nil, nil, err
	}
	return n, p, sess, input, nil
}

// Tree asks the model for 2–4 alternative lines of reasoning from one
// prompt and writes each as a branch of the graph forking from the input.
func (pm *Modes) Tree(ctx context.Context, in ReasoningInput, numBranches *int) (*TreeResult, error) {
	const tool = "reasoning.tree"
	n, p, sess, input, err := pm.startFanOut(ctx, in, tool, "tree", "num_branches", numBranches, 2, 4)
	if err != nil {
		return nil, err
	}
	prompt := fmt.Sprintf(`Explore %d distinct, alternative lines of reasoning about the user's problem, each a different approach.
Answer with JSON only: {"branches": [{"thought": "<the line of reasoning>", "confidence": <0..1>, "rationale": "<why this approach>"}], "recommended": <0-based index of the most promising branch>}.`, n)
	resp, err := pm.svc.Complete(ctx, p, in.Call, llm.Request{ThreadID: sess.ID, Pipe: pm.svc.Pipes().Tree,
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: prompt}, {Role: llm.RoleUser, Content: in.Content}}})
	if err != nil {
		return nil, err
	}
	var ans treeAnswer
	structured := llm.ExtractJSON(resp.Content, &ans) == nil && len(ans.Branches) > 0
	var answers []modelThought
	if structured {
		for i, b := range ans.Branches {
			if i == 4 || strings.TrimSpace(b.Thought) == "" {
				continue
			}
			answers = append(answers, modelThought{Content: b.Thought, Confidence: confOr(b.Confidence, 0.8), Type: "hypothesis",
				ParentID: input.ID, Alternative: true, Meta: map[string]any{"rationale": b.Rationale}})
		}
	}
	if len(answers) == 0 {
		// Not the JSON asked for: the whole answer is one branch (mcp-langbase-reasoning's fallback).
		structured = false
		answers = []modelThought{{Content: resp.Content, Confidence: 0.8, Type: "hypothesis", ParentID: input.ID, Alternative: true}}
	}
	for i := range answers {
		answers[i].Branch = fmt.Sprintf("tree-%d-%d", input.Step, i+1)
		answers[i].Meta = reasoning.WithModel(answers[i].Meta, resp)
	}
	rec := 0
	if ans.Recommended != nil && *ans.Recommended >= 0 && *ans.Recommended < len(answers) {
		rec = *ans.Recommended
	}
	answers[rec].Meta["recommended"] = true
	ths, se, err := pm.storeAnswers(ctx, sess.ID, sess.Tenant, reasoning.Author(resp), tool, answers, nil)
	if err != nil {
		return nil, err
	}
	res := &TreeResult{SessionID: se.ID, InputThoughtID: input.ID, RecommendedBranch: ths[rec].BranchID, Structured: structured}
	for _, th := range ths {
		res.Branches = append(res.Branches, BranchAnswer{BranchID: th.BranchID, ThoughtID: th.ID, Content: th.Content, Confidence: th.Confidence})
	}
	return res, nil
}

// DivergentResult is what reasoning.divergent recorded: the tool's result.
type DivergentResult struct {
	SessionID      string         `json:"session_id"`
	InputThoughtID string         `json:"input_thought_id"`
	Perspectives   []BranchAnswer `json:"perspectives"`
	Synthesis      *BranchAnswer  `json:"synthesis"`
	Structured     bool           `json:"structured"`
}

type divergentAnswer struct {
	Perspectives []struct {
		Perspective string   `json:"perspective"`
		Thought     string   `json:"thought"`
		Confidence  *float64 `json:"confidence"`
	} `json:"perspectives"`
	Synthesis string `json:"synthesis"`
}

// Divergent asks the model for 2–5 different perspectives on the content and
// a synthesis; perspectives are stored as alternative children of the input,
// the synthesis as a child of the input.
func (pm *Modes) Divergent(ctx context.Context, in ReasoningInput, numPerspectives *int) (*DivergentResult, error) {
	const tool = "reasoning.divergent"
	n, p, sess, input, err := pm.startFanOut(ctx, in, tool, "divergent", "num_perspectives", numPerspectives, 2, 5)
	if err != nil {
		return nil, err
	}
	prompt := fmt.Sprintf(`Look at the user's problem from %d clearly different perspectives (e.g. a sceptic, a practitioner, a theorist, a user), then synthesise.
Answer with JSON only: {"perspectives": [{"perspective": "<who/which angle>", "thought": "<reasoning from that angle>", "confidence": <0..1>}], "synthesis": "<what the perspectives together suggest>"}.`, n)
	resp, err := pm.svc.Complete(ctx, p, in.Call, llm.Request{ThreadID: sess.ID, Pipe: pm.svc.Pipes().Divergent,
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: prompt}, {Role: llm.RoleUser, Content: in.Content}}})
	if err != nil {
		return nil, err
	}
	var ans divergentAnswer
	structured := llm.ExtractJSON(resp.Content, &ans) == nil && len(ans.Perspectives) > 0
	var answers []modelThought
	var labels []string
	if structured {
		for i, p := range ans.Perspectives {
			if i == 5 || strings.TrimSpace(p.Thought) == "" {
				continue
			}
			label := strings.TrimSpace(p.Perspective)
			if label == "" {
				label = fmt.Sprintf("perspective %d", i+1)
			}
			labels = append(labels, label)
			answers = append(answers, modelThought{Content: p.Thought, Confidence: confOr(p.Confidence, 0.8), Type: "analysis",
				ParentID: input.ID, Alternative: true, Meta: reasoning.WithModel(map[string]any{"perspective": label}, resp)})
		}
	}
	if len(answers) == 0 {
		structured = false
		labels = []string{"answer"}
		answers = []modelThought{{Content: resp.Content, Confidence: 0.8, Type: "analysis", ParentID: input.ID, Meta: reasoning.WithModel(nil, resp)}}
	}
	hasSynthesis := structured && strings.TrimSpace(ans.Synthesis) != ""
	if hasSynthesis {
		answers = append(answers, modelThought{Content: ans.Synthesis, Confidence: 0.8, Type: "synthesis", ParentID: input.ID, Meta: reasoning.WithModel(nil, resp)})
	}
	ths, se, err := pm.storeAnswers(ctx, sess.ID, sess.Tenant, reasoning.Author(resp), tool, answers, nil)
	if err != nil {
		return nil, err
	}
	res := &DivergentResult{SessionID: se.ID, InputThoughtID: input.ID, Perspectives: []BranchAnswer{}, Structured: structured}
	for i, th := range ths[:len(labels)] {
		res.Perspectives = append(res.Perspectives, BranchAnswer{Label: labels[i], ThoughtID: th.ID, Content: th.Content, Confidence: th.Confidence})
	}
	if hasSynthesis {
		th := ths[len(ths)-1]
		res.Synthesis = &BranchAnswer{ThoughtID: th.ID, Content: th.Content, Confidence: th.Confidence}
	}
	return res, nil
}

// ReflectionIteration is one critique-and-improve round.
type ReflectionIteration struct {
	Iteration         int     `json:"iteration"`
	Critique          string  `json:"critique"`
	CritiqueThoughtID string  `json:"critique_thought_id"`
	ImprovedThought   string  `json:"improved_thought"`
	ThoughtID         string  `json:"thought_id"`
	Confidence        float64 `json:"confidence"`
}

// ReflectionResult is what reasoning.reflection recorded: the tool's result.
type ReflectionResult struct {
	SessionID         string                `json:"session_id"`
	OriginalThoughtID string                `json:"original_thought_id"`
	Iterations        []ReflectionIteration `json:"iterations"`
	FinalThoughtID    string                `json:"final_thought_id"`
	FinalContent      string                `json:"final_content"`
}

type reflectionAnswer struct {
	Critique   string   `json:"critique"`
	Improved   string   `json:"improved_thought"`
	Confidence *float64 `json:"confidence"`
}

// MaxReflectionIterations bounds reasoning.reflection.
const MaxReflectionIterations = 3

// Reflection critiques and improves a thought: an existing one (thoughtID)
// or new content (stored first). Each iteration stores the critique and the
// improved thought (a revision of the one before); at most
// MaxReflectionIterations rounds.
func (pm *Modes) Reflection(ctx context.Context, in ReasoningInput, thoughtID string, iterations *int) (*ReflectionResult, error) {
	const tool = "reasoning.reflection"
	n, err := reasoning.ClampCount("iterations", iterations, 1, 1, MaxReflectionIterations)
	if err != nil {
		return nil, err
	}
	if thoughtID != "" && strings.TrimSpace(in.Content) != "" {
		return nil, thinkgraph.Invalid("thought_id", "either thought_id or content", "both", "give either 'thought_id' (reflect on a stored thought) or 'content', not both")
	}
	if thoughtID == "" {
		if err := pm.reasoningValidate(&in); err != nil {
			return nil, err
		}
	} else if err := reasoning.ValidateConfidence("confidence", in.Confidence); err != nil {
		return nil, err
	}
	if err := checkSessionRef(in.Session); err != nil {
		return nil, err
	}
	p, err := pm.svc.Provider(tool, in.Session, true, in.Call)
	if err != nil {
		return nil, err
	}
	var sess *thinkgraph.Session
	var original *thinkgraph.Thought
	if thoughtID != "" {
		err = pm.svc.View(ctx, in.Session, func(tx thinkgraph.Tx, se *thinkgraph.Session) error {
			th, err := pm.svc.Thought(ctx, tx, se, "thought_id", thoughtID)
			sess, original = se, th
			return err
		})
		if err != nil {
			return nil, err
		}
	} else if sess, original, err = pm.storeInput(ctx, in, tool, "reflection", map[string]any{}); err != nil {
		return nil, err
	}
	res := &ReflectionResult{OriginalThoughtID: original.ID}
	current := *original
	for i := 0; i < n; i++ {
		resp, err := pm.svc.Complete(ctx, p, in.Call, llm.Request{ThreadID: sess.ID, Pipe: pm.svc.Pipes().Reflection, Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: `Critique the reasoning you are given: find errors, gaps, unstated assumptions and weak steps. Then write an improved version.
Answer with JSON only: {"critique": "<the problems found>", "improved_thought": "<the improved reasoning>", "confidence": <0..1 in the improved version>}.`},
			{Role: llm.RoleUser, Content: current.Content},
		}})
		if err != nil {
			if len(res.Iterations) > 0 {
				// Keep the rounds already made; report the failure.
				te := thinkgraph.AsError(err)
				te.Message = fmt.Sprintf("%s after %d of %d iterations (those are stored)", te.Message, len(res.Iterations), n)
				return nil, te
			}
			return nil, err
		}
		var ans reflectionAnswer
		if llm.ExtractJSON(resp.Content, &ans) != nil || strings.TrimSpace(ans.Improved) == "" {
			ans = reflectionAnswer{Critique: "(the model did not answer in the requested form)", Improved: resp.Content}
		}
		if strings.TrimSpace(ans.Critique) == "" {
			ans.Critique = "(no critique given)"
		}
		ths, se, err := pm.storeAnswers(ctx, sess.ID, sess.Tenant, reasoning.Author(resp), tool, []modelThought{
			{Content: ans.Critique, Confidence: 0.8, Type: "critique", ParentID: current.ID, Meta: reasoning.WithModel(map[string]any{"iteration": i + 1}, resp)},
			{Content: ans.Improved, Confidence: confOr(ans.Confidence, 0.8), Type: "synthesis", ParentID: current.ID, RevisesID: current.ID,
				Meta: reasoning.WithModel(map[string]any{"iteration": i + 1}, resp)},
		}, nil)
		if err != nil {
			return nil, err
		}
		res.Iterations = append(res.Iterations, ReflectionIteration{Iteration: i + 1, Critique: ths[0].Content, CritiqueThoughtID: ths[0].ID,
			ImprovedThought: ths[1].Content, ThoughtID: ths[1].ID, Confidence: *ths[1].Confidence})
		res.SessionID = se.ID
		current = ths[1]
	}
	res.FinalThoughtID, res.FinalContent = current.ID, current.Content
	return res, nil
}

func confOr(c *float64, def float64) float64 {
	if c == nil || *c < 0 || *c > 1 {
		return def
	}
	return *c
}
