package advice

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Counterfactual is a question about one load-bearing thought: what if it
// did not hold, and which later thoughts rest on it.
type Counterfactual struct {
	BasedOn    analyze.ThoughtRef `json:"basedOn"`
	Question   string             `json:"question" jsonschema:"the question to answer: what if the thought did not hold, and which later thoughts would change"`
	Confidence *float64           `json:"claimConfidence"`
	// Dependent, Supporting and Challenging are steps.
	Dependent   []int   `json:"dependentSteps" jsonschema:"later thoughts that follow from it (its descendants and the thoughts that build on it)"`
	Supporting  []int   `json:"supportingSteps" jsonschema:"validation, example or observation thoughts linked to it or saying much the same"`
	Challenging []int   `json:"challengingSteps" jsonschema:"counterexample or critique thoughts linked to it or saying much the same"`
	Fragility   float64 `json:"fragility" jsonschema:"0..1: high when much rests on the thought and little supports it"`
	// Answer is the call that records the answer: a thought on the branch
	// that says what changes.
	Answer map[string]any `json:"answer"`
}

// Counterfactuals picks the branch's load-bearing claims: those with
// later thoughts resting on them, most fragile first: fragility =
// confidence × dependents/(dependents+1) / (1 + support), a thought
// without confidence counting 0.5. Each comes as a question the model can
// answer in one call, never as a rewritten sentence.
func Counterfactuals(branch, all []analyze.Doc, count int) []Counterfactual {
	children := map[string][]int{}
	for i, d := range all {
		children[d.ParentID] = append(children[d.ParentID], i)
		for _, dep := range d.DependsOn {
			if dep != d.ParentID {
				children[dep] = append(children[dep], i)
			}
		}
	}
	var out []Counterfactual
	for _, c := range branch {
		if !thinkgraph.RoleOf(c.Type).States() || isQuestion(c) {
			continue
		}
		cf := Counterfactual{BasedOn: analyze.Ref(c), Confidence: c.Confidence, Supporting: []int{}, Challenging: []int{}, Dependent: []int{}}
		seen := map[int]bool{}
		queue := slices.Clone(children[c.ID])
		for len(queue) > 0 && len(cf.Dependent) < 20 {
			i := queue[0]
			queue = queue[1:]
			if seen[i] || all[i].Step <= c.Step {
				continue
			}
			seen[i] = true
			cf.Dependent = append(cf.Dependent, all[i].Step)
			queue = append(queue, children[all[i].ID]...)
		}
		if len(cf.Dependent) == 0 {
			continue
		}
		slices.Sort(cf.Dependent)
		for _, d := range all {
			if d.ID == c.ID {
				continue
			}
			linked := d.ParentID == c.ID || slices.Contains(d.DependsOn, c.ID)
			if !linked && semantic.Cosine(d.Vector, c.Vector) < 0.4 {
				continue
			}
			switch {
			case thinkgraph.RoleOf(d.Type).Evidence:
				cf.Supporting = append(cf.Supporting, d.Step)
			case thinkgraph.RoleOf(d.Type).Challenge:
				cf.Challenging = append(cf.Challenging, d.Step)
			}
		}
		conf := unknownConfidence
		if c.Confidence != nil {
			conf = *c.Confidence
		}
		dep, sup := float64(len(cf.Dependent)), float64(len(cf.Supporting))
		cf.Fragility = conf * dep / (dep + 1) / (1 + sup)
		cf.Question = fmt.Sprintf("What if #%d did not hold? Which of %s rest on it, and would they still stand?", c.Step, stepList(cf.Dependent, 6))
		cf.Answer = map[string]any{"content": fmt.Sprintf("<if #%d failed: what changes, and what evidence would show it>", c.Step), "type": "counterexample", "branchId": c.Branch}
		out = append(out, cf)
	}
	slices.SortStableFunc(out, func(a, b Counterfactual) int { return cmp.Compare(b.Fragility, a.Fragility) })
	return out[:min(count, len(out))]
}
