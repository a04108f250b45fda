package thinkgraph

import "strings"

// A Role is what a thought of a type does in the reasoning. Analyses,
// advice, knowledge gaps and synthesis read it here, from one table
// (ThoughtRoles), instead of lists of their own.
type Role struct {
	// Type is the thought type, as branch-thinking takes it.
	Type string
	// Asserts: the thought claims something on the strength of reasoning
	// (evidence is evidence itself). An untyped thought asserts.
	Asserts bool
	// Evidence: the thought is evidence for what it examines (a
	// validation, an example, an observation).
	Evidence bool
	// Challenge: the thought speaks against what it examines (a
	// counterexample, a critique).
	Challenge bool
	// Tests: the thought tests a hypothesis (a validation, a
	// counterexample).
	Tests bool
	// Concludes: the thought states a result (a synthesis, an answer).
	Concludes bool
	// Position: the thought states a side's position (a hypothesis, a
	// synthesis).
	Position bool
	// Asks: the thought is a question.
	Asks bool
	// Proposes: the thought is a hypothesis, a claim waiting for evidence.
	Proposes bool
	// Instance: the thought is a case, not a claim (an example, a
	// counterexample).
	Instance bool
}

// States reports whether a thought of the role states a claim a side of
// the reasoning can hold: anything but a question or a case.
func (r Role) States() bool { return !r.Asks && !r.Instance }

// Settles reports whether a thought of the role can settle a conflict
// before it: a conclusion, or a challenge in words (a critique).
func (r Role) Settles() bool { return r.Concludes || (r.Challenge && !r.Instance) }

// ThoughtRoles are the thought types of branch-thinking, in its order, and
// what each does; "conclusion", which other tools write, concludes.
var ThoughtRoles = []Role{
	{Type: "analysis", Asserts: true},
	{Type: "hypothesis", Position: true, Proposes: true},
	{Type: "validation", Evidence: true, Tests: true},
	{Type: "synthesis", Asserts: true, Concludes: true, Position: true},
	{Type: "observation", Evidence: true},
	{Type: "question", Asks: true},
	{Type: "answer", Asserts: true, Concludes: true},
	{Type: "example", Evidence: true, Instance: true},
	{Type: "counterexample", Challenge: true, Tests: true, Instance: true},
	{Type: "critique", Asserts: true, Challenge: true},
}

// roleOf holds ThoughtRoles by type, with the types other tools write.
var roleOf = func() map[string]Role {
	m := map[string]Role{"": {Asserts: true}, "conclusion": {Type: "conclusion", Asserts: true, Concludes: true}}
	for _, r := range ThoughtRoles {
		m[r.Type] = r
	}
	return m
}()

// RoleOf returns the role of a thought type (case does not matter); an
// untyped thought asserts, a type no table lists does nothing special.
func RoleOf(typ string) Role {
	if r, ok := roleOf[typ]; ok {
		return r
	}
	r := roleOf[strings.ToLower(strings.TrimSpace(typ))]
	r.Type = typ
	return r
}

// ThoughtTypes are the names of ThoughtRoles, in order.
func ThoughtTypes() []string {
	out := make([]string, len(ThoughtRoles))
	for i, r := range ThoughtRoles {
		out[i] = r.Type
	}
	return out
}
