package branching

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Counterfactuals and dialectical synthesis are computed offline, from the
// branches' own thoughts, vectors and the contradiction decider. The method
// field of their results says so ("offline"); an LLM-backed variant plugs in
// through Generator.

// Generator writes counterfactuals or a dialectical synthesis with a
// language model (see BranchThinking.SetGenerator). None is wired in yet (a
// later issue); the offline results are its input and its fallback. An
// implementation sets Method to name what it used (e.g. "llm:anthropic").
type Generator interface {
	Counterfactuals(ctx context.Context, branch []analyze.Doc, offline *CounterfactualsResult) (*CounterfactualsResult, error)
	Dialectical(ctx context.Context, offline *DialecticalResult) (*DialecticalResult, error)
}

// claimTypes are the thought types that assert something.
var claimTypes = map[string]bool{"analysis": true, "hypothesis": true, "validation": true, "synthesis": true, "observation": true, "answer": true, "critique": true, "": true}

// evidenceTypes are the thought types that support or test a claim.
var evidenceFor = map[string]bool{"validation": true, "example": true, "observation": true}
var evidenceAgainst = map[string]bool{"counterexample": true, "critique": true}

// firstSentence returns the first sentence of a text, without its final
// punctuation.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?' || r == ';' || r == '\n') && i > 0 {
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimRight(s, ".!?; ")
}

var auxiliaries = map[string]bool{"is": true, "are": true, "was": true, "were": true, "will": true, "can": true, "should": true,
	"must": true, "does": true, "do": true, "did": true, "has": true, "have": true, "had": true, "would": true, "could": true,
	"may": true, "might": true, "shall": true}

// negate returns the negation of a claim: an existing negation is removed
// ("X is not Y" → "X is Y"), else "not" follows the first auxiliary verb
// ("X is Y" → "X is not Y"), else the claim is wrapped ("it is not the case
// that …"). It is a rewrite of the words, not an understanding of them.
func negate(claim string) string {
	words := strings.Fields(claim)
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, ",:"))
		switch {
		case lw == "not" || lw == "never":
			return strings.Join(slices.Delete(slices.Clone(words), i, i+1), " ")
		case strings.HasSuffix(lw, "n't"):
			out := slices.Clone(words)
			base := strings.TrimSuffix(w, "n't")
			switch strings.ToLower(base) {
			case "wo":
				base = base[:1] + "ill"
			case "ca":
				base += "n"
			case "sha":
				base += "ll"
			}
			out[i] = base
			return strings.Join(out, " ")
		case lw == "no":
			out := slices.Clone(words)
			out[i] = matchCase(w, "some")
			return strings.Join(out, " ")
		}
	}
	for i, w := range words {
		if auxiliaries[strings.ToLower(w)] {
			out := append(slices.Clone(words[:i+1]), append([]string{"not"}, words[i+1:]...)...)
			return strings.Join(out, " ")
		}
	}
	if claim == "" {
		return claim
	}
	return "it is not the case that " + lowerFirst(claim)
}

func matchCase(model, w string) string {
	if model != "" && strings.ToUpper(model[:1]) == model[:1] {
		return strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}

// lowerFirst lower-cases the first letter of a sentence unless its first
// word is a name or acronym (has a capital after its first letter).
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	first, _, _ := strings.Cut(s, " ")
	if len(first) > 1 && strings.ToLower(first[1:]) != first[1:] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// Counterfactual is one "what if the opposite were true" scenario.
type Counterfactual struct {
	BasedOn        analyze.ThoughtRef   `json:"basedOn"`
	Claim          string               `json:"claim"`
	Counterfactual string               `json:"counterfactual"`
	Question       string               `json:"question"`
	NegatedPoints  []string             `json:"negatedKeyPoints,omitempty"`
	Confidence     *float64             `json:"claimConfidence"`
	Supporting     []analyze.ThoughtRef `json:"supportingEvidence"`
	Challenging    []analyze.ThoughtRef `json:"challengingEvidence"`
	Dependent      []analyze.ThoughtRef `json:"dependentThoughts" jsonschema:"later thoughts of the branch that follow from the claim and would need revisiting"`
	Fragility      float64              `json:"fragility" jsonschema:"0..1: high when the claim is confident yet little supports it and much depends on it"`
	Test           string               `json:"test"`
}

// CounterfactualsResult is the answer of generateCounterfactuals.
type CounterfactualsResult struct {
	Header
	BranchID        string           `json:"branchId"`
	Counterfactuals []Counterfactual `json:"counterfactuals"`
	Method          string           `json:"method"`
	How             string           `json:"how"`
	Note            string           `json:"note,omitempty"`
	Omitted         map[string]int   `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

func (bt *BranchThinking) counterfactuals(ctx context.Context, in CommandInput) (*CounterfactualsResult, error) {
	count, err := intOr(in.Count, 3, 1, 20, "count")
	if err != nil {
		return nil, err
	}
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return nil, err
		}
	}
	res := &CounterfactualsResult{Header: Header{Command: "generateCounterfactuals"}, Counterfactuals: []Counterfactual{}, Method: "offline",
		How: "the branch's most confident claims (by confidence, then key points) are negated by rewriting their first sentence; " +
			"supporting evidence = validation/example/observation thoughts with cosine ≥ 0.4 or linked to the claim, challenging = counterexample/critique thoughts likewise; " +
			"dependent = later thoughts of the branch descending from the claim; fragility = confidence × (1 − support/(support+1)) × (dependents/(dependents+2)) normalised"}
	var branchDocs []analyze.Doc
	err = bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
		id := in.BranchID
		if id == "" {
			id = activeOf(sess)
		} else if _, err := branchOf(ctx, tx, sess, "branchId", id); err != nil {
			return err
		}
		docs, _, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		res.SessionID, res.BranchID = sess.ID, id
		var branch []analyze.Doc
		for _, d := range docs {
			if d.Branch == id {
				branch = append(branch, d)
			}
		}
		res.Counterfactuals = counterfactualsOf(branch, docs, count)
		for i := range res.Counterfactuals {
			cf := &res.Counterfactuals[i]
			path := fmt.Sprintf("counterfactuals[%d].", i)
			cf.Supporting = head(&res.Omitted, path+"supportingEvidence", cf.Supporting, fewRefs)
			cf.Challenging = head(&res.Omitted, path+"challengingEvidence", cf.Challenging, fewRefs)
			cf.Dependent = head(&res.Omitted, path+"dependentThoughts", cf.Dependent, fewRefs)
		}
		branchDocs = branch
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bt.gen != nil {
		out, err := bt.gen.Counterfactuals(ctx, branchDocs, res)
		if err == nil && out != nil {
			return out, nil
		}
		res.Note = fmt.Sprintf("the language model failed (%v); these are the offline counterfactuals", err)
	}
	return res, nil
}

func counterfactualsOf(branch, all []analyze.Doc, count int) []Counterfactual {
	var claims []analyze.Doc
	for _, d := range branch {
		if claimTypes[d.Type] && !strings.HasSuffix(strings.TrimSpace(d.Content), "?") {
			claims = append(claims, d)
		}
	}
	conf := func(d analyze.Doc) float64 {
		if d.Confidence == nil {
			return 0.5
		}
		return *d.Confidence
	}
	slices.SortStableFunc(claims, func(a, b analyze.Doc) int {
		if c := cmp.Compare(conf(b), conf(a)); c != 0 {
			return c
		}
		return cmp.Compare(len(b.KeyPoints), len(a.KeyPoints))
	})
	children := map[string][]int{}
	for i, d := range branch {
		children[d.ParentID] = append(children[d.ParentID], i)
	}
	out := []Counterfactual{}
	for _, c := range claims {
		if len(out) == count {
			break
		}
		claim := firstSentence(c.Content)
		cf := Counterfactual{BasedOn: analyze.Ref(c), Claim: claim, Counterfactual: negate(claim), Confidence: c.Confidence,
			Supporting: []analyze.ThoughtRef{}, Challenging: []analyze.ThoughtRef{}, Dependent: []analyze.ThoughtRef{}}
		cf.Question = "What if " + lowerFirst(cf.Counterfactual) + "?"
		for _, k := range c.KeyPoints {
			cf.NegatedPoints = append(cf.NegatedPoints, "without "+k)
		}
		for _, d := range all {
			if d.ID == c.ID {
				continue
			}
			linked := d.ParentID == c.ID || slices.Contains(d.DependsOn, c.ID)
			near := linked || semantic.Cosine(d.Vector, c.Vector) >= 0.4
			if !near {
				continue
			}
			switch {
			case evidenceFor[d.Type]:
				cf.Supporting = append(cf.Supporting, analyze.Ref(d))
			case evidenceAgainst[d.Type]:
				cf.Challenging = append(cf.Challenging, analyze.Ref(d))
			}
		}
		// Descendants within the branch.
		queue := slices.Clone(children[c.ID])
		for len(queue) > 0 && len(cf.Dependent) < 20 {
			i := queue[0]
			queue = queue[1:]
			cf.Dependent = append(cf.Dependent, analyze.Ref(branch[i]))
			queue = append(queue, children[branch[i].ID]...)
		}
		sup, dep := float64(len(cf.Supporting)), float64(len(cf.Dependent))
		cf.Fragility = round3(conf(c) * (1 - sup/(sup+1)*0.8) * (0.5 + 0.5*dep/(dep+2)))
		switch {
		case len(cf.Challenging) > 0:
			cf.Test = fmt.Sprintf("%d thought(s) already challenge this claim: resolve them before building on it", len(cf.Challenging))
		case len(cf.Supporting) == 0:
			cf.Test = "nothing validates this claim yet: add a validation or example thought that would fail if the counterfactual were true"
		default:
			cf.Test = fmt.Sprintf("%d thought(s) support the claim: check whether they would also hold under the counterfactual", len(cf.Supporting))
		}
		out = append(out, cf)
	}
	return out
}

// DialecticSide is the thesis or an antithesis of a synthesis.
type DialecticSide struct {
	BranchID       string               `json:"branchId"`
	Claim          string               `json:"claim"`
	ClaimThought   *analyze.ThoughtRef  `json:"claimThought,omitempty"`
	KeyPoints      []string             `json:"keyPoints"`
	MeanConfidence *float64             `json:"meanConfidence"`
	Evidence       []analyze.ThoughtRef `json:"evidence"`
	Challenges     []analyze.ThoughtRef `json:"challenges"`
	Thoughts       int                  `json:"thoughtCount"`
}

// DialecticalResult is the answer of synthesizeDialectical.
type DialecticalResult struct {
	Header
	Thesis       DialecticSide           `json:"thesis"`
	Antitheses   []DialecticSide         `json:"antitheses"`
	Tensions     []analyze.Contradiction `json:"tensions"`
	CommonGround struct {
		SharedKeyPoints []string              `json:"sharedKeyPoints"`
		Agreements      []analyze.ThoughtPair `json:"agreements"`
	} `json:"commonGround"`
	Synthesis struct {
		Statement     string   `json:"statement"`
		Stronger      string   `json:"strongerSide"`
		KeepFromEach  []string `json:"keep"`
		OpenQuestions []string `json:"openQuestions"`
	} `json:"synthesis"`
	Method  string         `json:"method"`
	How     string         `json:"how"`
	Note    string         `json:"note,omitempty"`
	Omitted map[string]int `json:"omitted,omitempty" jsonschema:"how many items of each shortened list were left out"`
}

// bound keeps a few thoughts of each list of a synthesis.
func (res *DialecticalResult) bound() {
	sides := []*DialecticSide{&res.Thesis}
	for i := range res.Antitheses {
		sides = append(sides, &res.Antitheses[i])
	}
	for i, s := range sides {
		path := "thesis."
		if i > 0 {
			path = fmt.Sprintf("antitheses[%d].", i-1)
		}
		s.KeyPoints = head(&res.Omitted, path+"keyPoints", s.KeyPoints, 8)
		s.Evidence = head(&res.Omitted, path+"evidence", s.Evidence, fewRefs)
		s.Challenges = head(&res.Omitted, path+"challenges", s.Challenges, fewRefs)
	}
	res.Tensions = head(&res.Omitted, "tensions", res.Tensions, 5)
	res.CommonGround.SharedKeyPoints = head(&res.Omitted, "commonGround.sharedKeyPoints", res.CommonGround.SharedKeyPoints, 8)
	res.Synthesis.KeepFromEach = head(&res.Omitted, "synthesis.keep", res.Synthesis.KeepFromEach, 5)
	res.Synthesis.OpenQuestions = head(&res.Omitted, "synthesis.openQuestions", res.Synthesis.OpenQuestions, 5)
}

func sideOf(id string, branch, all []analyze.Doc) DialecticSide {
	s := DialecticSide{BranchID: id, KeyPoints: []string{}, Evidence: []analyze.ThoughtRef{}, Challenges: []analyze.ThoughtRef{}, Thoughts: len(branch)}
	var best *analyze.Doc
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
		// A branch's own critiques argue its position against others; its own
		// counterexamples challenge it.
		switch {
		case evidenceFor[d.Type]:
			s.Evidence = append(s.Evidence, analyze.Ref(*d))
		case d.Type == "counterexample":
			s.Challenges = append(s.Challenges, analyze.Ref(*d))
		}
		if claimTypes[d.Type] && !strings.HasSuffix(strings.TrimSpace(d.Content), "?") {
			c := 0.5
			if d.Confidence != nil {
				c = *d.Confidence
			}
			bc := -1.0
			if best != nil {
				bc = 0.5
				if best.Confidence != nil {
					bc = *best.Confidence
				}
			}
			// Prefer hypotheses and syntheses as the side's position.
			if d.Type == "hypothesis" || d.Type == "synthesis" {
				c += 0.25
			}
			if best != nil && (best.Type == "hypothesis" || best.Type == "synthesis") {
				bc += 0.25
			}
			if c > bc {
				best = d
			}
		}
	}
	if best == nil && len(branch) > 0 {
		best = &branch[0]
	}
	if best != nil {
		r := analyze.Ref(*best)
		s.Claim, s.ClaimThought = firstSentence(best.Content), &r
	}
	if cn > 0 {
		m := round3(cs / float64(cn))
		s.MeanConfidence = &m
	}
	// Challenges from other branches that target this side.
	for _, d := range all {
		if d.Branch != id && evidenceAgainst[d.Type] && best != nil && semantic.Cosine(d.Vector, best.Vector) >= 0.4 {
			s.Challenges = append(s.Challenges, analyze.Ref(d))
		}
	}
	return s
}

func (s DialecticSide) strength() float64 {
	c := 0.5
	if s.MeanConfidence != nil {
		c = *s.MeanConfidence
	}
	return c + 0.15*float64(len(s.Evidence)) - 0.15*float64(len(s.Challenges))
}

func (bt *BranchThinking) dialectical(ctx context.Context, in CommandInput) (*DialecticalResult, error) {
	for i, b := range in.Branches {
		if err := reasoning.ValidateBranchID(fmt.Sprintf("branches[%d]", i), b); err != nil {
			return nil, err
		}
	}
	if len(in.Branches) == 1 || len(in.Branches) > 8 {
		return nil, thinkgraph.Invalid("branches", "2 to 8 branch ids: the thesis first, then the antitheses", fmt.Sprint(len(in.Branches)),
			"'branches' needs 2 to 8 branch ids (thesis first), got %d", len(in.Branches))
	}
	res := &DialecticalResult{Header: Header{Command: "synthesizeDialectical"}, Method: "offline",
		How: "thesis/antitheses: each branch's position is its most confident hypothesis or synthesis (else claim), with its key points, " +
			"evidence (its validation/example/observation thoughts) and challenges (counterexample/critique thoughts aimed at it); tensions = cross-branch thought pairs " +
			"with cosine ≥ 0.3 that the contradiction decider flags, and every stated contradiction between them (a contradictory cross-reference or a judge verdict); agreements = cross-branch pairs with cosine ≥ 0.6; the stronger side is the one with higher " +
			"mean confidence + 0.15 × evidence − 0.15 × challenges"}
	err := bt.read(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
		ids := slices.Clone(in.Branches)
		for i, id := range ids {
			if _, err := branchOf(ctx, tx, sess, fmt.Sprintf("branches[%d]", i), id); err != nil {
				return err
			}
		}
		docs, _, err := bt.docs(ctx, tx, sess, st)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			if ids, err = bt.defaultDialectic(ctx, tx, sess, st); err != nil {
				return err
			}
		}
		res.SessionID = sess.ID
		byBranch := map[string][]analyze.Doc{}
		for _, d := range docs {
			byBranch[d.Branch] = append(byBranch[d.Branch], d)
		}
		res.Thesis = sideOf(ids[0], byBranch[ids[0]], docs)
		res.Antitheses = []DialecticSide{}
		for _, id := range ids[1:] {
			res.Antitheses = append(res.Antitheses, sideOf(id, byBranch[id], docs))
		}
		judge := bt.judge(st)
		res.Tensions = []analyze.Contradiction{}
		res.CommonGround.Agreements = []analyze.ThoughtPair{}
		thesis := byBranch[ids[0]]
		for _, id := range ids[1:] {
			type pair struct {
				a, b analyze.Doc
				sim  float64
			}
			var pairs []pair
			for _, a := range thesis {
				for _, b := range byBranch[id] {
					if s := semantic.Cosine(a.Vector, b.Vector); s >= 0.3 {
						pairs = append(pairs, pair{a, b, s})
					}
				}
			}
			slices.SortFunc(pairs, func(x, y pair) int { return cmp.Compare(y.sim, x.sim) })
			if len(pairs) > 400 {
				pairs = pairs[:400]
			}
			for _, p := range pairs {
				if ok, conf, reason := judge(p.a, p.b); ok {
					res.Tensions = append(res.Tensions, analyze.Contradiction{ThoughtA: analyze.Ref(p.a), ThoughtB: analyze.Ref(p.b), Similarity: round3(p.sim), Confidence: conf, Reason: reason})
				} else if p.sim >= 0.6 && len(res.CommonGround.Agreements) < 5 {
					res.CommonGround.Agreements = append(res.CommonGround.Agreements, analyze.ThoughtPair{ThoughtA: analyze.Ref(p.a), ThoughtB: analyze.Ref(p.b), Similarity: round3(p.sim)})
				}
			}
		}
		// A stated contradiction between the thesis and an antithesis is a
		// tension whatever the similarity of its two thoughts.
		byID := make(map[string]int, len(docs))
		for i, d := range docs {
			byID[d.ID] = i
		}
		res.Tensions = st.withStated(res.Tensions, docs, byID, func(a, b analyze.Doc) bool {
			return (a.Branch == ids[0] && slices.Contains(ids[1:], b.Branch)) || (b.Branch == ids[0] && slices.Contains(ids[1:], a.Branch))
		})
		// Shared key points (case-insensitive) between the thesis and any antithesis.
		tk := map[string]string{}
		for _, k := range res.Thesis.KeyPoints {
			tk[strings.ToLower(k)] = k
		}
		res.CommonGround.SharedKeyPoints = []string{}
		for _, a := range res.Antitheses {
			for _, k := range a.KeyPoints {
				if v, ok := tk[strings.ToLower(k)]; ok && !slices.Contains(res.CommonGround.SharedKeyPoints, v) {
					res.CommonGround.SharedKeyPoints = append(res.CommonGround.SharedKeyPoints, v)
				}
			}
		}
		composeSynthesis(res)
		res.bound()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bt.gen != nil {
		out, err := bt.gen.Dialectical(ctx, res)
		if err == nil && out != nil {
			return out, nil
		}
		res.Note = fmt.Sprintf("the language model failed (%v); this is the offline synthesis", err)
	}
	return res, nil
}

// defaultDialectic picks the two branches to synthesise when none are
// named: the ends of the strongest contradictory cross-reference, else the
// pair of branches with the most contradictions between their thoughts.
func (bt *BranchThinking) defaultDialectic(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) ([]string, error) {
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	var best *thinkgraph.Link
	for i, l := range links {
		if l.Type == "contradictory" && l.FromBranch != l.ToBranch && (best == nil || l.Strength > best.Strength) {
			best = &links[i]
		}
	}
	if best != nil {
		return []string{best.ToBranch, best.FromBranch}, nil
	}
	rep, err := st.contradictions(ctx, bt, tx, sess.Key)
	if err != nil {
		return nil, err
	}
	count := map[[2]string]int{}
	var top [2]string
	for _, c := range rep.Contradictions {
		if c.ThoughtA.Branch == c.ThoughtB.Branch {
			continue
		}
		k := [2]string{c.ThoughtA.Branch, c.ThoughtB.Branch}
		count[k]++
		if count[k] > count[top] {
			top = k
		}
	}
	if top[0] != "" {
		return top[:], nil
	}
	if pair, err := st.riskiestBranchPair(ctx, bt, tx, sess.Key); err != nil || pair[0] != "" {
		return pair[:], err
	}
	return nil, thinkgraph.Invalid("branches", "2 to 8 branch ids: the thesis first, then the antitheses", "none",
		"'synthesizeDialectical' needs 'branches' in command.data: no contradiction and no open review group across two branches says which branches oppose each other")
}

func composeSynthesis(res *DialecticalResult) {
	sides := append([]DialecticSide{res.Thesis}, res.Antitheses...)
	strongest := sides[0]
	for _, s := range sides[1:] {
		if s.strength() > strongest.strength() {
			strongest = s
		}
	}
	res.Synthesis.Stronger = strongest.BranchID
	var b strings.Builder
	names := make([]string, len(sides))
	for i, s := range sides {
		names[i] = fmt.Sprintf("%q (%s)", s.Claim, s.BranchID)
	}
	fmt.Fprintf(&b, "Thesis %s meets %s.", names[0], strings.Join(names[1:], " and "))
	if len(res.CommonGround.SharedKeyPoints) > 0 {
		fmt.Fprintf(&b, " Both sides agree that %s matter.", strings.Join(res.CommonGround.SharedKeyPoints, ", "))
	}
	if len(res.Tensions) > 0 {
		fmt.Fprintf(&b, " They conflict in %d place(s);", len(res.Tensions))
	} else {
		b.WriteString(" No direct contradiction was found between their thoughts;")
	}
	fmt.Fprintf(&b, " the better supported position is %s's (%d evidence, %d challenges), so a synthesis keeps it as the default", strongest.BranchID, len(strongest.Evidence), len(strongest.Challenges))
	var qualifiers []string
	for _, s := range sides {
		if s.BranchID == strongest.BranchID {
			continue
		}
		var own []string
		for _, k := range s.KeyPoints {
			if !slices.ContainsFunc(res.CommonGround.SharedKeyPoints, func(x string) bool { return strings.EqualFold(x, k) }) {
				own = append(own, k)
			}
		}
		if len(own) > 0 {
			qualifiers = append(qualifiers, fmt.Sprintf("%s's %s", s.BranchID, strings.Join(own, ", ")))
		}
		res.Synthesis.KeepFromEach = append(res.Synthesis.KeepFromEach, fmt.Sprintf("from %s: %s", s.BranchID, s.Claim))
	}
	res.Synthesis.KeepFromEach = append([]string{fmt.Sprintf("from %s: %s", strongest.BranchID, strongest.Claim)}, res.Synthesis.KeepFromEach...)
	if len(qualifiers) > 0 {
		fmt.Fprintf(&b, ", qualified by %s.", strings.Join(qualifiers, "; "))
	} else {
		b.WriteString(".")
	}
	res.Synthesis.Statement = b.String()
	res.Synthesis.OpenQuestions = []string{}
	for _, t := range res.Tensions {
		if len(res.Synthesis.OpenQuestions) == 5 {
			break
		}
		res.Synthesis.OpenQuestions = append(res.Synthesis.OpenQuestions,
			fmt.Sprintf("Which holds: %q (%s) or %q (%s)?", firstSentence(t.ThoughtA.Text()), t.ThoughtA.Branch, firstSentence(t.ThoughtB.Text()), t.ThoughtB.Branch))
	}
	for _, s := range sides {
		if len(s.Evidence) == 0 {
			res.Synthesis.OpenQuestions = append(res.Synthesis.OpenQuestions, fmt.Sprintf("What evidence supports %s's position %q?", s.BranchID, s.Claim))
		}
	}
}
