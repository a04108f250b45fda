package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// The prompts teach a model to use thinkgraph's tools well: each returns a
// user message with the task and the tool calls that fit it.

var sessionArg = &mcp.PromptArgument{Name: "session_id", Title: "Session",
	Description: "Session to work in (completion offers yours); omit it to use this connection's session."}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{
		Name: "think-step-by-step", Title: "Think step by step",
		Description: "Work through a problem one recorded step at a time with think, scoring confidence, and answer from the recorded path.",
		Arguments: []*mcp.PromptArgument{
			{Name: "problem", Title: "Problem", Description: "The problem to solve.", Required: true},
			{Name: "steps", Title: "Steps", Description: "Roughly how many steps to plan for (default 5)."},
			sessionArg,
		},
	}, s.promptStepByStep)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name: "explore-alternatives", Title: "Explore alternatives",
		Description: "Branch at uncertain steps, follow the most promising alternative, evaluate, backtrack and try the unexplored ones.",
		Arguments: []*mcp.PromptArgument{
			{Name: "problem", Title: "Problem", Description: "The problem to explore.", Required: true},
			{Name: "alternatives", Title: "Alternatives", Description: "How many alternatives to write at a branch point (2 to 5, default 3)."},
			sessionArg,
		},
	}, s.promptAlternatives)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name: "debate", Title: "Debate and synthesise",
		Description: "Argue a thesis and its antithesis on two branches, cross-reference them, then write a dialectical synthesis.",
		Arguments: []*mcp.PromptArgument{
			{Name: "question", Title: "Question", Description: "The question to debate.", Required: true},
			{Name: "thesis", Title: "Thesis", Description: "The position to defend first (default: the model chooses)."},
			{Name: "antithesis", Title: "Antithesis", Description: "The opposing position (default: the model chooses)."},
			sessionArg,
		},
	}, s.promptDebate)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name: "review-reasoning", Title: "Review a session's reasoning",
		Description: "Review a recorded session for contradictions, circular reasoning and gaps; the session's report is attached.",
		Arguments: []*mcp.PromptArgument{
			{Name: "session_id", Title: "Session", Description: "The session to review (completion offers yours).", Required: true},
		},
	}, s.promptReview)
}

// sessionClause tells the model which session to use.
func sessionClause(args map[string]string) string {
	if id := strings.TrimSpace(args["session_id"]); id != "" {
		return fmt.Sprintf("Pass \"session_id\": %s to every tool call.", strconv.Quote(id))
	}
	return "Omit session_id to use this connection's session; every response names it (session_id), so you can continue it later."
}

// quoteBlock sets user text apart from the instructions.
func quoteBlock(s string) string {
	return "<<<\n" + strings.TrimSpace(s) + "\n>>>"
}

// invalidPromptArg is the JSON-RPC invalid-params error (-32602) of a
// prompt argument.
func invalidPromptArg(req *mcp.GetPromptRequest, format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("prompt %s: ", req.Params.Name) + fmt.Sprintf(format, a...)}
}

func required(req *mcp.GetPromptRequest, name string) (string, error) {
	v := strings.TrimSpace(req.Params.Arguments[name])
	if v == "" {
		return "", invalidPromptArg(req, "argument %q is required", name)
	}
	return v, nil
}

// intArg reads an optional whole-number argument, def when absent, held to
// lo..hi.
func intArg(req *mcp.GetPromptRequest, name string, def, lo, hi int) (int, error) {
	v := strings.TrimSpace(req.Params.Arguments[name])
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, invalidPromptArg(req, "argument %q must be a whole number from %d to %d, got %q", name, lo, hi, reasoning.Clip(v, 40))
	}
	return max(lo, min(hi, n)), nil
}

func userPrompt(desc, text string, extra ...mcp.Content) *mcp.GetPromptResult {
	msgs := []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}
	for _, c := range extra {
		msgs = append(msgs, &mcp.PromptMessage{Role: "user", Content: c})
	}
	return &mcp.GetPromptResult{Description: desc, Messages: msgs}
}

func (s *Server) promptStepByStep(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	problem, err := required(req, "problem")
	if err != nil {
		return nil, err
	}
	steps, err := intArg(req, "steps", 5, 1, 50)
	if err != nil {
		return nil, err
	}
	return userPrompt("Think step by step with think", fmt.Sprintf(`Solve this problem by reasoning one step at a time, recording every step with thinkgraph's tools.

Problem:
%s

How to work:
1. Plan for about %d steps. For each step call "think" with one self-contained thought (what you concluded and why) and a "confidence" between 0 and 1 that says honestly how sure you are of that step.
2. A step with confidence below 0.6 becomes a branch point: before going on, say what would raise your confidence; if you can, check it in the next step. If a step turns out wrong, call "backtrack" to return to the last step you were confident in, and continue from there.
3. When you are done, call "show_current_path" and give your answer from the recorded path, citing the step numbers it rests on.
%s`, quoteBlock(problem), steps, sessionClause(req.Params.Arguments))), nil
}

// hasToolset reports whether the connection of a prompt request has the
// toolset name.
func (s *Server) hasToolset(req *mcp.GetPromptRequest, name string) bool {
	sampling, _ := clientSampling(req.Session)
	sets, err := s.connToolsets(req, sampling)
	return err == nil && containsToolset(sets, name)
}

func (s *Server) promptAlternatives(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	problem, err := required(req, "problem")
	if err != nil {
		return nil, err
	}
	n, err := intArg(req, "alternatives", 3, 2, 5)
	if err != nil {
		return nil, err
	}
	compare, last := "", 5
	if s.hasToolset(req, "branch") {
		compare, last = `5. To compare lines of thought, record them with "branch-thinking" on named branches and run its command {"type": "evaluate", "data": {"branchId": ...}} on each; prefer the branch with the better overall score and fewer contradictions.
`, 6
	}
	return userPrompt("Explore alternatives: branch, evaluate, backtrack", fmt.Sprintf(`Explore this problem by branching where you are unsure, instead of committing to the first idea.

Problem:
%s

How to work:
1. Record each step with "think" and an honest "confidence" (0..1).
2. At a step where you are unsure (confidence below 0.6), write %d distinct alternatives with "select_path": "alternatives" is a list of {thought, confidence}, "selected_index" the one to follow first (the most promising).
3. Follow the chosen alternative with more "think" steps. If it fails (a step contradicts an earlier one, or your confidence drops), call "backtrack".
4. Call "get_unexplored_branches" to list the alternatives not yet tried, and continue one of them with "select_path" and its "node_id".
%s%d. Finish with "show_current_path" and explain why the path you chose beats the alternatives you explored.
%s`, quoteBlock(problem), n, compare, last, sessionClause(req.Params.Arguments))), nil
}

func (s *Server) promptDebate(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	question, err := required(req, "question")
	if err != nil {
		return nil, err
	}
	args := req.Params.Arguments
	sides := "Choose the strongest thesis and the strongest antithesis yourself."
	if t := strings.TrimSpace(args["thesis"]); t != "" {
		sides = "Thesis:\n" + quoteBlock(t)
		if a := strings.TrimSpace(args["antithesis"]); a != "" {
			sides += "\nAntithesis:\n" + quoteBlock(a)
		} else {
			sides += "\nChoose the strongest antithesis yourself."
		}
	}
	return userPrompt("Debate: thesis, antithesis, synthesis", fmt.Sprintf(`Debate this question on two branches of the reasoning graph, then reconcile them.

Question:
%s

%s

How to work (all with the "branch-thinking" tool):
1. Set the goal: {"command": {"type": "setGoal", "data": {"goal": <the question>}}}.
2. Thesis: 3 to 5 thoughts on branchId "thesis" (types hypothesis, analysis, example), each with a confidence.
3. Antithesis: 3 to 5 thoughts on branchId "antithesis" (types hypothesis, counterexample, critique). Where a thought answers a thesis thought, add crossRefs [{"toBranch": "thesis", "type": "contradictory", "reason": ..., "strength": ...}].
4. Check the debate: {"type": "findContradictions"} and {"type": "evaluate", "data": {"branchId": "thesis"}} and the same for "antithesis".
5. Synthesis: {"type": "synthesizeDialectical", "data": {"branches": ["thesis", "antithesis"]}}, then write your own synthesis thoughts (type synthesis) on branchId "synthesis" with crossRefs of type builds_upon to both branches, keeping what survived the critique on each side.
6. Answer the question from the synthesis, naming what each side contributed.
%s`, quoteBlock(question), sides, sessionClause(args))), nil
}

func (s *Server) promptReview(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	id, err := required(req, "session_id")
	if err != nil {
		return nil, err
	}
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenantOf(req.Extra)}
	var g *render.Graph
	var report bytes.Buffer
	err = s.renderLoader().Render(ctx, ref, true, func(rg *render.Graph) error {
		g = rg
		return render.Markdown(&report, g)
	})
	if err != nil {
		if te := thinkgraph.AsError(err); te.Code == thinkgraph.CodeSessionNotFound || te.Code == thinkgraph.CodeValidation {
			return nil, invalidPromptArg(req, "session %q not found", id)
		}
		return nil, err
	}
	unexplored := ""
	if s.hasToolset(req, "graph") {
		unexplored = ` and look at the unexplored alternatives ("get_unexplored_branches")`
	}
	text := fmt.Sprintf(`Review the reasoning recorded in session %s (%d thoughts, %d branches); its report is attached.

Look for, and cite by step number:
1. Contradictions: thoughts that cannot both be true. The report lists those the semantic engine found; also run "branch-thinking" {"command": {"type": "findContradictions"}, "session_id": %s} and judge each finding: real, or a false alarm?
2. Circular reasoning: a conclusion that restates its premise, or thoughts that depend on each other; run {"type": "detectCircular"}.
3. Gaps: open questions never answered, claims without support, steps with low confidence that later steps rely on; run {"type": "detectKnowledgeGaps"}%s.
4. The branches' evaluations: which line of thought is strongest and why.

Answer with a list of issues (most serious first), each with the steps involved and a concrete fix, then a one-paragraph verdict on whether the session's conclusion holds.`,
		strconv.Quote(id), len(g.Thoughts), len(g.Branches), strconv.Quote(id), unexplored)
	return userPrompt("Review a session for contradictions, circularity and gaps", text, &mcp.EmbeddedResource{
		Resource: &mcp.ResourceContents{URI: sessionURIPrefix + id + "/markdown", MIMEType: "text/markdown", Text: report.String()},
	}), nil
}
