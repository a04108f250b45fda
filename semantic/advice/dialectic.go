package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// A dialectical synthesis sets branches side by side: what each claims,
// what is settled between them and what remains open. It claims no
// semantic verdict of its own: its tensions come from the consistency
// checks (what the offline judge is certain of, the verdicts stated, the
// groups of claims still to judge) and its agreements from verdicts stated
// compatible. Two thoughts that merely say similar things are neither.

// Tension statuses.
const (
	// TensionAsserted: the offline judge is certain the claims conflict.
	TensionAsserted = "asserted"
	// TensionStated: a judge verdict or a contradictory cross-reference
	// says they conflict.
	TensionStated = "stated"
	// TensionOpen: claims of both sides speak of the same thing and no
	// verdict is stated yet: the model judges them.
	TensionOpen = "open"
)

// Tension is a point where the sides may conflict.
type Tension struct {
	Status string `json:"status"`
	// Steps name its thoughts (Dialectic.Thoughts quotes them).
	Steps  []int  `json:"steps"`
	Reason string `json:"reason,omitempty"`
	// Signs and Group, for an open tension: the signs of conflict the
	// offline judge found, and the review group's key for the judge call.
	Signs string `json:"signs,omitempty"`
	Group string `json:"group,omitempty"`
	// Thoughts are its thoughts.
	Thoughts []analyze.ThoughtRef `json:"-"`
}

// Side is the thesis or an antithesis.
type Side struct {
	BranchID string `json:"branchId"`
	// Claim is the side's position: its most confident hypothesis or
	// synthesis, else its most confident claim.
	Claim          *analyze.ThoughtRef `json:"claim,omitempty"`
	KeyPoints      []string            `json:"keyPoints,omitempty"`
	MeanConfidence *float64            `json:"meanConfidence"`
	// Evidence are the steps of its validation, example and observation
	// thoughts; Challenges those of its own counterexamples and of
	// critiques and counterexamples of other branches aimed at its claim
	// (cosine ≥ 0.4).
	Evidence   []int `json:"evidenceSteps"`
	Challenges []int `json:"challengeSteps"`
	Thoughts   int   `json:"thoughtCount"`
}

// Dialectic is a synthesis of branches.
type Dialectic struct {
	Thesis     Side      `json:"thesis"`
	Antitheses []Side    `json:"antitheses"`
	Tensions   []Tension `json:"tensions"`
	// Thoughts quotes, once, the thoughts the tensions name that are not
	// a side's claim.
	Thoughts     []analyze.ThoughtRef `json:"thoughts"`
	CommonGround struct {
		SharedKeyPoints []string              `json:"sharedKeyPoints"`
		Agreements      []analyze.ThoughtPair `json:"agreements" jsonschema:"pairs across the sides stated compatible (judge)"`
	} `json:"commonGround"`
	Synthesis struct {
		Statement string `json:"statement"`
		Stronger  string `json:"strongerSide"`
		// Keep are the sides' claims no tension touches, by step.
		Keep          []int    `json:"keepSteps"`
		OpenQuestions []string `json:"openQuestions"`
	} `json:"synthesis"`
}

// SideOf reads one side: branch is its thoughts, all the session's.
func SideOf(id string, branch, all []analyze.Doc) Side {
	s := Side{BranchID: id, Evidence: []int{}, Challenges: []int{}, Thoughts: len(branch)}
	var best *analyze.Doc
	rank := func(d *analyze.Doc) float64 {
		c := unknownConfidence
		if d.Confidence != nil {
			c = *d.Confidence
		}
		if thinkgraph.RoleOf(d.Type).Position {
			c += 0.25
		}
		return c
	}
	var cs float64
	var cn int
	seen := map[string]bool{}
	for i := range branch {
		d := &branch[i]
		if d.Confidence != nil {
			cs += *d.Confidence
			cn++
		}
		for _, k := range d.KeyPoints {
			if lk := strings.ToLower(strings.TrimSpace(k)); !seen[lk] {
				seen[lk] = true
				s.KeyPoints = append(s.KeyPoints, k)
			}
		}
		switch {
		case thinkgraph.RoleOf(d.Type).Evidence:
			s.Evidence = append(s.Evidence, d.Step)
		case thinkgraph.RoleOf(d.Type).Challenge && thinkgraph.RoleOf(d.Type).Instance:
			s.Challenges = append(s.Challenges, d.Step)
		}
		if thinkgraph.RoleOf(d.Type).States() && !isQuestion(*d) && (best == nil || rank(d) > rank(best)) {
			best = d
		}
	}
	if best == nil && len(branch) > 0 {
		best = &branch[0]
	}
	if best != nil {
		r := analyze.Ref(*best)
		s.Claim = &r
		for _, d := range all {
			if d.Branch != id && thinkgraph.RoleOf(d.Type).Challenge && semantic.Cosine(d.Vector, best.Vector) >= 0.4 {
				s.Challenges = append(s.Challenges, d.Step)
			}
		}
	}
	if cn > 0 {
		m := round2(cs / float64(cn))
		s.MeanConfidence = &m
	}
	return s
}

func (s Side) strength() float64 {
	c := unknownConfidence
	if s.MeanConfidence != nil {
		c = *s.MeanConfidence
	}
	return c + 0.15*float64(len(s.Evidence)) - 0.15*float64(len(s.Challenges))
}

// Compose fills the synthesis of d from its sides, tensions and
// agreements: the shared key points, the stronger side (mean confidence +
// 0.15 × evidence − 0.15 × challenges), the claims to keep (those no
// tension touches), the open questions (what supports each side without
// evidence; an open tension carries its own question) and a statement in prose of what each side
// claims, what is settled and what remains open.
func (d *Dialectic) Compose() {
	sides := append([]Side{d.Thesis}, d.Antitheses...)
	tk := map[string]string{}
	for _, k := range d.Thesis.KeyPoints {
		tk[strings.ToLower(k)] = k
	}
	d.CommonGround.SharedKeyPoints = []string{}
	for _, a := range d.Antitheses {
		for _, k := range a.KeyPoints {
			if v, ok := tk[strings.ToLower(k)]; ok && !slices.Contains(d.CommonGround.SharedKeyPoints, v) {
				d.CommonGround.SharedKeyPoints = append(d.CommonGround.SharedKeyPoints, v)
			}
		}
	}
	strongest := sides[0]
	for _, s := range sides[1:] {
		if s.strength() > strongest.strength() {
			strongest = s
		}
	}
	d.Synthesis.Stronger = strongest.BranchID
	inTension := map[string]bool{}
	count := map[string]int{}
	claims := map[string]bool{}
	for _, s := range sides {
		if s.Claim != nil {
			claims[s.Claim.ID] = true
		}
	}
	d.Thoughts = []analyze.ThoughtRef{}
	for i := range d.Tensions {
		t := &d.Tensions[i]
		count[t.Status]++
		t.Steps = t.Steps[:0]
		for _, r := range t.Thoughts {
			t.Steps = append(t.Steps, r.Step)
			if !inTension[r.ID] && !claims[r.ID] {
				d.Thoughts = append(d.Thoughts, r)
			}
			inTension[r.ID] = true
		}
	}
	slices.SortFunc(d.Thoughts, func(a, b analyze.ThoughtRef) int { return a.Step - b.Step })
	d.Synthesis.Keep = []int{}
	d.Synthesis.OpenQuestions = []string{}
	var b strings.Builder
	for i, s := range sides {
		role := "The thesis, " + s.BranchID + ","
		if i > 0 {
			role = "The antithesis " + s.BranchID
		}
		if s.Claim == nil {
			fmt.Fprintf(&b, "%s has no thoughts. ", role)
			continue
		}
		fmt.Fprintf(&b, "%s holds #%d (%s, %s). ", role, s.Claim.Step, pieces(len(s.Evidence), "piece of evidence", "pieces of evidence"), pieces(len(s.Challenges), "challenge", "challenges"))
		if !inTension[s.Claim.ID] {
			d.Synthesis.Keep = append(d.Synthesis.Keep, s.Claim.Step)
		}
	}
	var settled []string
	for _, t := range d.Tensions {
		if t.Status != TensionOpen {
			settled = append(settled, fmt.Sprintf("%s conflict (%s)", StepsOf(t.Thoughts), t.Status))
		}
	}
	for _, a := range d.CommonGround.Agreements {
		settled = append(settled, fmt.Sprintf("#%d and #%d agree (stated)", a.ThoughtA.Step, a.ThoughtB.Step))
	}
	if len(settled) > 0 {
		fmt.Fprintf(&b, "Settled: %s. ", strings.Join(settled[:min(4, len(settled))], "; "))
		if len(settled) > 4 {
			fmt.Fprintf(&b, "(%d more.) ", len(settled)-4)
		}
	} else {
		b.WriteString("Nothing is settled between them yet. ")
	}
	if n := count[TensionOpen]; n > 0 {
		fmt.Fprintf(&b, "Open: %s where both sides speak of the same thing; judge them before choosing. ", pieces(n, "group of claims", "groups of claims"))
	} else {
		b.WriteString("Nothing is open between them. ")
	}
	fmt.Fprintf(&b, "Better supported so far: %s.", strongest.BranchID)
	d.Synthesis.Statement = b.String()
	for _, s := range sides {
		if len(s.Evidence) == 0 && s.Claim != nil {
			d.Synthesis.OpenQuestions = append(d.Synthesis.OpenQuestions, fmt.Sprintf("What evidence supports %s's position #%d?", s.BranchID, s.Claim.Step))
		}
	}
}

func pieces(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// StepsOf names thoughts as "#3 and #9" or "#3, #5 and #9".
func StepsOf(refs []analyze.ThoughtRef) string {
	var steps []int
	for _, r := range refs {
		steps = append(steps, r.Step)
	}
	return stepList(steps, len(steps))
}

// stepList names steps as "#3, #5 and #7", at most max of them.
func stepList(steps []int, max int) string {
	var names []string
	for _, s := range steps[:min(max, len(steps))] {
		names = append(names, fmt.Sprintf("#%d", s))
	}
	if len(steps) > max {
		return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", len(steps)-max)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
