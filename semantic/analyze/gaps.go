package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
)

// GapOptions tunes DetectKnowledgeGaps; zero values mean the defaults.
type GapOptions struct {
	// AnswerSimilarity is the cosine a later thought needs to count as
	// answering a question (default 0.4).
	AnswerSimilarity float64
	// ValidationSimilarity is the cosine a later validation needs to count as
	// testing a hypothesis (default 0.4).
	ValidationSimilarity float64
	// SupportSimilarity is the cosine evidence needs to count as supporting a
	// claim (default 0.4).
	SupportSimilarity float64
	// LowConfidence is the confidence below which a claim needs support
	// (default 0.5).
	LowConfidence float64
	// Neighbors is how many nearest thoughts of each thought are examined
	// (default 16).
	Neighbors int
	// Closed are branches closed by their own reasoning (see Closures):
	// what they leave open is no gap.
	Closed map[string]bool
}

func (o GapOptions) withDefaults() GapOptions {
	if o.AnswerSimilarity <= 0 {
		o.AnswerSimilarity = 0.4
	}
	if o.ValidationSimilarity <= 0 {
		o.ValidationSimilarity = 0.4
	}
	if o.SupportSimilarity <= 0 {
		o.SupportSimilarity = 0.4
	}
	if o.LowConfidence <= 0 {
		o.LowConfidence = 0.5
	}
	if o.Neighbors <= 0 {
		o.Neighbors = 16
	}
	return o
}

// Kinds of knowledge gaps.
const (
	GapOpenQuestion          = "open_question"
	GapUnvalidatedHypothesis = "unvalidated_hypothesis"
	GapUnsupportedClaim      = "unsupported_claim"
	GapUnexploredAlternative = "unexplored_alternative"
)

// KnowledgeGap is one thing the reasoning left open.
type KnowledgeGap struct {
	Kind    string     `json:"kind"`
	Thought ThoughtRef `json:"thought"`
	Reason  string     `json:"reason"`
}

// Thought types by role (thinkgraph.ThoughtRoles): validating types test a
// hypothesis; examining types, following a hypothesis on its line of
// reasoning, bring evidence for or against it; asserting types claim
// something on the strength of reasoning (evidence is evidence itself);
// supporting types are evidence for a claim.
func validating(t string) bool { return thinkgraph.RoleOf(t).Tests }
func examining(t string) bool {
	r := thinkgraph.RoleOf(t)
	return r.Evidence || r.Challenge
}
func asserting(t string) bool  { return thinkgraph.RoleOf(t).Asserts }
func supporting(t string) bool { return thinkgraph.RoleOf(t).Evidence }

// DetectKnowledgeGaps finds what the reasoning left open, across all docs
// (an answer may come in another branch), leaving out the branches in
// opts.Closed (what a ruled-out option leaves open needs no answer):
//
//   - open question: a thought of type question, or whose text ends with '?',
//     with no later thought (higher step) that is not itself a question and
//     has cosine ≥ AnswerSimilarity with it, and no later thought of type
//     answer linked to it (ParentID or DependsOn);
//   - unexplored alternative: the only thought of a branch that does not
//     hold the session's first thought: an option opened and never followed;
//   - unvalidated hypothesis: a thought of type hypothesis that no later
//     evidence examines: no validation or counterexample linked to it or
//     with cosine ≥ ValidationSimilarity, and no validation,
//     counterexample, observation, example or critique among the thoughts
//     that follow from it (its descendants by ParentID);
//   - unsupported claim: a claim of reasoning (analysis, synthesis, answer,
//     critique) with confidence < LowConfidence that builds on no thought
//     (DependsOn) and that no validation, example or observation supports,
//     i.e. is linked to it or has cosine ≥ SupportSimilarity with it.
//
// Similar thoughts are looked up among each thought's Neighbors nearest
// (exact for small sessions, approximate above a few hundred thoughts).
// Thoughts without vectors are judged on explicit links only. Gaps are
// returned in step order.
func DetectKnowledgeGaps(docs []Doc, opts GapOptions) []KnowledgeGap {
	opts = opts.withDefaults()
	docs = byStep(docs)
	pos := make(map[string]int, len(docs))
	for i, d := range docs {
		pos[d.ID] = i
	}
	// linked[i] lists the thoughts that point at thought i (children and
	// dependants).
	linked := make([][]int, len(docs))
	for i, d := range docs {
		if p, ok := pos[d.ParentID]; ok && d.ParentID != "" && p != i {
			linked[p] = append(linked[p], i)
		}
		for _, id := range d.DependsOn {
			if p, ok := pos[id]; ok && p != i && !slices.Contains(linked[p], i) {
				linked[p] = append(linked[p], i)
			}
		}
	}
	typ := func(d Doc) string { return strings.ToLower(d.Type) }
	minSim := min(opts.AnswerSimilarity, opts.ValidationSimilarity, opts.SupportSimilarity)
	vd := vectorsOf(docs, nil)
	// Only questions, hypotheses and low-confidence claims of open
	// branches look for similar thoughts: their neighbours alone are found.
	want := make([]bool, vd.m.n)
	for r, i := range vd.rows {
		d := docs[i]
		want[r] = !opts.Closed[d.Branch] && (isQuestion(d) || thinkgraph.RoleOf(typ(d)).Proposes ||
			(asserting(typ(d)) && d.Confidence != nil && *d.Confidence < opts.LowConfidence))
	}
	g := knnGraphOf(vd.m, opts.Neighbors, float32(minSim), want)
	// similar returns the positions of the thoughts similar to thought i at
	// or above th, most similar first.
	similar := func(i int, th float64) []int {
		r, ok := vd.row[i]
		if !ok {
			return nil
		}
		var out []int
		for _, nb := range g[r] {
			if float64(nb.s) >= th {
				out = append(out, vd.rows[nb.j])
			}
		}
		return out
	}

	// examined[i]: a descendant of thought i (by ParentID) brings evidence.
	examined := make([]bool, len(docs))
	for i := len(docs) - 1; i >= 0; i-- {
		if p, ok := pos[docs[i].ParentID]; ok && p != i && docs[i].Step > docs[p].Step {
			examined[p] = examined[p] || examined[i] || examining(typ(docs[i]))
		}
	}
	count := map[string]int{}
	for _, d := range docs {
		count[d.Branch]++
	}
	rootBranch := ""
	if len(docs) > 0 {
		rootBranch = docs[0].Branch
	}

	var out []KnowledgeGap
	for i, d := range docs {
		if opts.Closed[d.Branch] {
			continue
		}
		switch {
		case isQuestion(d):
			answered := false
			for _, j := range linked[i] {
				answered = answered || (docs[j].Step > d.Step && typ(docs[j]) == "answer")
			}
			for _, j := range similar(i, opts.AnswerSimilarity) {
				if answered {
					break
				}
				answered = docs[j].Step > d.Step && !isQuestion(docs[j])
			}
			if !answered {
				out = append(out, KnowledgeGap{Kind: GapOpenQuestion, Thought: Ref(d),
					Reason: fmt.Sprintf("question #%d has no later answer (no later non-question thought with similarity ≥ %.2f, no linked answer)", d.Step, opts.AnswerSimilarity)})
			}
		case count[d.Branch] == 1 && d.Branch != rootBranch:
			out = append(out, KnowledgeGap{Kind: GapUnexploredAlternative, Thought: Ref(d),
				Reason: fmt.Sprintf("branch %s was opened with #%d and never followed: explore it or close it (prune with branchId and a reason)", d.Branch, d.Step)})
		case thinkgraph.RoleOf(typ(d)).Proposes:
			validated := examined[i]
			for _, j := range linked[i] {
				validated = validated || (docs[j].Step > d.Step && validating(typ(docs[j])))
			}
			for _, j := range similar(i, opts.ValidationSimilarity) {
				if validated {
					break
				}
				validated = docs[j].Step > d.Step && validating(typ(docs[j]))
			}
			if !validated {
				out = append(out, KnowledgeGap{Kind: GapUnvalidatedHypothesis, Thought: Ref(d),
					Reason: fmt.Sprintf("hypothesis #%d is never examined: no evidence (validation, observation, example, counterexample, critique) follows from it, and no later validation or counterexample says much the same (similarity ≥ %.2f)", d.Step, opts.ValidationSimilarity)})
			}
		case asserting(typ(d)) && d.Confidence != nil && *d.Confidence < opts.LowConfidence:
			supported := false
			for _, id := range d.DependsOn {
				_, ok := pos[id]
				supported = supported || (ok && id != d.ID)
			}
			for _, j := range linked[i] {
				supported = supported || supporting(typ(docs[j]))
			}
			for _, j := range similar(i, opts.SupportSimilarity) {
				if supported {
					break
				}
				supported = supporting(typ(docs[j]))
			}
			if !supported {
				out = append(out, KnowledgeGap{Kind: GapUnsupportedClaim, Thought: Ref(d),
					Reason: fmt.Sprintf("claim #%d has low confidence (%.2f < %.2f) and no evidence backs it: no validation, example or observation is linked to it or says much the same, and it builds on no thought by cross-reference", d.Step, *d.Confidence, opts.LowConfidence)})
			}
		}
	}
	return out
}
