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

// Stated verdicts. The offline judge decides what it can; the calling model
// (or, with THINKGRAPH_JUDGE=llm, a configured provider) decides the
// candidate pairs it could not, with the judge command. A verdict is a link
// between the two thoughts, so it lives in the graph, is exported and
// imported with it, and every analysis reads it from there:
//
//   - contradictory (a declared cross-reference, or verdict "contradiction"):
//     the pair is a contradiction in findContradictions, evaluate,
//     synthesizeDialectical, suggestTools, exports and the viewer;
//   - compatible: the pair is not a contradiction (also when the offline
//     judge says it is) and is not asked about again;
//   - circular / not_circular: the same for detectCircular.
//
// The latest verdict on a pair wins.

// Link types of stated verdicts (contradictory is also a cross-reference
// type, reasoning.CrossRefTypes).
const (
	linkContradictory = "contradictory"
	linkCompatible    = reasoning.LinkCompatible
	linkCircular      = reasoning.LinkCircular
	linkNotCircular   = reasoning.LinkNotCircular
)

// judgeVerdicts are the verdicts the judge command takes, with the link type
// each is stored as.
var judgeVerdicts = []string{"contradiction", "compatible", "consistent", "circular", "not_circular"}

// verdictLink maps a verdict to its link type; "consistent" and
// "compatible" say the same of two thoughts.
var verdictLink = map[string]string{"contradiction": linkContradictory, "compatible": linkCompatible, "consistent": linkCompatible, "circular": linkCircular, "not_circular": linkNotCircular}

// pairKey is an unordered pair of thought ids (smaller first).
type pairKey [2]string

func keyOf(a, b string) pairKey {
	if b < a {
		a, b = b, a
	}
	return pairKey{a, b}
}

// statedVerdicts are a session's stated verdicts on thought pairs.
type statedVerdicts struct {
	// links is the number of the session's links they were read from (links
	// are only ever added, so a different count means new verdicts).
	links int
	// contra holds the latest contradictory/compatible link per pair,
	// circular the latest circular/not_circular link.
	contra   map[pairKey]thinkgraph.Link
	circular map[pairKey]thinkgraph.Link
}

// statedOf reads the verdicts from links in creation order (the store's
// order), so that a later verdict on a pair replaces an earlier one.
func statedOf(links []thinkgraph.Link) *statedVerdicts {
	v := &statedVerdicts{links: len(links), contra: map[pairKey]thinkgraph.Link{}, circular: map[pairKey]thinkgraph.Link{}}
	for _, l := range links {
		if l.FromThought == "" || l.ToThought == "" || l.FromThought == l.ToThought {
			continue
		}
		k := keyOf(l.FromThought, l.ToThought)
		switch l.Type {
		case linkContradictory, linkCompatible:
			v.contra[k] = l
		case linkCircular, linkNotCircular:
			v.circular[k] = l
		}
	}
	return v
}

// contradicts returns the stated contradiction verdict on a pair: whether
// there is one, and whether it says contradictory.
func (v *statedVerdicts) contradicts(a, b string) (stated, contradictory bool, l thinkgraph.Link) {
	if v == nil {
		return false, false, l
	}
	l, ok := v.contra[keyOf(a, b)]
	return ok, ok && l.Type == linkContradictory, l
}

func declaredReason(l thinkgraph.Link) string {
	if r := strings.TrimSpace(l.Reason); r != "" {
		return "declared contradictory: " + r
	}
	return "declared contradictory"
}

// loadStated brings the state's stated verdicts up to the session's links;
// when they changed, the branch trackers and the contradiction search start
// afresh so that every figure counts them.
func (st *btState) loadStated(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) error {
	links, err := tx.Links(ctx, session)
	if err != nil {
		return err
	}
	if st.stated != nil && st.stated.links == len(links) {
		return nil
	}
	st.stated = statedOf(links)
	st.asserted = nil
	for _, b := range st.branches {
		b.tracker = nil
	}
	return nil
}

// statedContradictions are the stated contradictions between thoughts in
// docs for which keep is true (nil: all), earlier thought first.
func (st *btState) statedContradictions(docs []analyze.Doc, byID map[string]int, keep func(a, b analyze.Doc) bool) []analyze.Contradiction {
	if st.stated == nil {
		return nil
	}
	var out []analyze.Contradiction
	for k, l := range st.stated.contra {
		if l.Type != linkContradictory {
			continue
		}
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if !okA || !okB {
			continue
		}
		a, b := docs[i], docs[j]
		if b.Step < a.Step {
			a, b = b, a
		}
		if keep != nil && !keep(a, b) {
			continue
		}
		out = append(out, analyze.Contradiction{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: round3(semantic.Cosine(a.Vector, b.Vector)),
			Confidence: 1, Reason: declaredReason(l), Source: "declared"})
	}
	slices.SortFunc(out, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(x.ThoughtA.Step, y.ThoughtA.Step), cmp.Compare(x.ThoughtB.Step, y.ThoughtB.Step))
	})
	return out
}

// withStated returns cs with every stated contradiction among docs that
// keep accepts: those cs holds are marked declared, the others appended.
func (st *btState) withStated(cs []analyze.Contradiction, docs []analyze.Doc, byID map[string]int, keep func(a, b analyze.Doc) bool) []analyze.Contradiction {
	stated := st.statedContradictions(docs, byID, keep)
	if len(stated) == 0 {
		return cs
	}
	at := map[pairKey]int{}
	for i, c := range cs {
		at[keyOf(c.ThoughtA.ID, c.ThoughtB.ID)] = i
	}
	for _, s := range stated {
		if i, ok := at[keyOf(s.ThoughtA.ID, s.ThoughtB.ID)]; ok {
			cs[i].Source, cs[i].Confidence, cs[i].Reason = "declared", 1, s.Reason
			continue
		}
		cs = append(cs, s)
	}
	slices.SortStableFunc(cs, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(y.Similarity, x.Similarity))
	})
	return cs
}

// JudgeResult is the answer of judge.
type JudgeResult struct {
	Header
	Verdict  string             `json:"verdict"`
	LinkType string             `json:"linkType"`
	ThoughtA analyze.ThoughtRef `json:"thoughtA"`
	ThoughtB analyze.ThoughtRef `json:"thoughtB"`
	Reason   string             `json:"reason,omitempty"`
	Previous string             `json:"previousVerdict,omitempty" jsonschema:"the verdict this one replaces, if any"`
	Message  string             `json:"message"`
}

// maxReason bounds a verdict's reason.
const maxReason = 1000

// judgeAny is the judge command: on a review group when group is given,
// else on two thoughts.
func (bt *BranchThinking) judgeAny(ctx context.Context, in CommandInput) (any, error) {
	if strings.TrimSpace(in.Group) != "" {
		return bt.judgeGroup(ctx, in)
	}
	if len(in.Conflicts) > 0 {
		return nil, thinkgraph.Invalid("group", "the key of the review group the conflicts are in", "none",
			"'conflicts' answers a review group: give its key in 'group' (from findContradictions' review)")
	}
	return bt.judgeCmd(ctx, in)
}

func (bt *BranchThinking) judgeCmd(ctx context.Context, in CommandInput) (*JudgeResult, error) {
	for _, f := range []struct{ name, v string }{{"thoughtId", in.ThoughtID}, {"otherThoughtId", in.OtherThoughtID}} {
		if f.v == "" {
			return nil, thinkgraph.Invalid(f.name, "the id of a thought in this session", "none",
				"'judge' needs 'group' (a review group of findContradictions) or '%s' in command.data: the two thoughts the verdict is on", f.name)
		}
	}
	if in.ThoughtID == in.OtherThoughtID {
		return nil, thinkgraph.Invalid("otherThoughtId", "a thought other than thoughtId", reasoning.Clip(in.OtherThoughtID, 64), "'otherThoughtId' must name another thought than 'thoughtId'")
	}
	link, ok := verdictLink[in.Verdict]
	if !ok {
		received := reasoning.Clip(in.Verdict, 40)
		if in.Verdict == "" {
			received = "none"
		}
		return nil, thinkgraph.Invalid("verdict", "one of: "+strings.Join(judgeVerdicts, ", "), received,
			"'verdict' must be one of %s (contradiction, or consistent/compatible, on whether two claims can both hold; circular/not_circular on an argument); a review group's key goes in 'group'", strings.Join(judgeVerdicts, ", "))
	}
	if len([]rune(in.Reason)) > maxReason {
		return nil, thinkgraph.Invalid("reason", fmt.Sprintf("at most %d characters", maxReason), fmt.Sprint(len([]rune(in.Reason))), "'reason' is longer than %d characters", maxReason)
	}
	res := &JudgeResult{Header: Header{Command: "judge"}, Verdict: in.Verdict, LinkType: link, Reason: strings.TrimSpace(in.Reason)}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
		var ths [2]*thinkgraph.Thought
		for i, f := range []struct{ name, v string }{{"thoughtId", in.ThoughtID}, {"otherThoughtId", in.OtherThoughtID}} {
			th, err := bt.svc.Thought(ctx, tx, sess, f.name, f.v)
			if err != nil {
				return err
			}
			ths[i] = th
		}
		a, b := ths[0], ths[1]
		if b.Step < a.Step {
			a, b = b, a
		}
		links, err := tx.Links(ctx, sess.Key)
		if err != nil {
			return err
		}
		prev := statedOf(links)
		family := prev.contra
		if link == linkCircular || link == linkNotCircular {
			family = prev.circular
		}
		if l, ok := family[keyOf(a.ID, b.ID)]; ok {
			res.Previous = l.Type
			if l.Type == link {
				res.SessionID, res.ThoughtA, res.ThoughtB = sess.ID, analyze.Ref(reasoning.ToDoc(a)), analyze.Ref(reasoning.ToDoc(b))
				res.Message = "Nothing new: the pair already has this verdict."
				return nil
			}
		}
		l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.BranchID, ToBranch: a.BranchID, FromThought: b.ID, ToThought: a.ID,
			Type: link, Reason: res.Reason, Strength: 1, CreatedAt: bt.svc.Now()}
		if err := tx.AddLink(ctx, l); err != nil {
			return err
		}
		res.SessionID, res.ThoughtA, res.ThoughtB = sess.ID, analyze.Ref(reasoning.ToDoc(a)), analyze.Ref(reasoning.ToDoc(b))
		switch link {
		case linkContradictory:
			res.Message = "Stored: the two thoughts contradict each other. findContradictions, evaluate, synthesizeDialectical, suggestTools and exports count the pair from now on."
		case linkCompatible:
			res.Message = "Stored: the two thoughts are compatible. The pair is no longer a contradiction or a candidate in any analysis."
		case linkCircular:
			res.Message = "Stored: the argument is circular. detectCircular reports it from now on."
		default:
			res.Message = "Stored: the argument is not circular. detectCircular no longer reports or asks about the pair."
		}
		if res.Previous != "" && res.Previous != link {
			res.Message += fmt.Sprintf(" It replaces the earlier verdict %q.", res.Previous)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// LLMJudgeReport says what the server's language-model judge did in one
// analysis.
type LLMJudgeReport struct {
	Asked   int    `json:"asked" jsonschema:"candidates put to the model (cached verdicts included)"`
	Settled int    `json:"settled"`
	Cached  int    `json:"cached" jsonschema:"verdicts reused from an earlier call on the same two texts"`
	Failed  int    `json:"failed"`
	Error   string `json:"error,omitempty" jsonschema:"why a call failed or the judge could not run; the offline verdicts stand"`
}

// connectives mark a thought that draws a conclusion from, or gives a
// reason for, what it follows.
var connectives = map[string]bool{"so": true, "therefore": true, "thus": true, "hence": true, "because": true, "since": true,
	"consequently": true, "follows": true, "proves": true, "shows": true}

// circularCandidateSimilar is the cosine from which a claim of an arguing
// thought and a claim of a premise it rests on are put to the model as a
// possible circular argument (circularReview).
const circularCandidateSimilar = 0.6

func arguing(text string) bool {
	for _, t := range semantic.Tokenize(text) {
		if connectives[t] {
			return true
		}
	}
	return false
}

// circularWithStated applies the stated circularity verdicts: a
// not_circular verdict on a pair drops the findings of exactly that pair, a
// circular verdict adds the pair when nothing reports it yet.
func (st *btState) circularWithStated(found []analyze.CircularReasoning, docs []analyze.Doc, byID map[string]int) []analyze.CircularReasoning {
	if st.stated == nil || len(st.stated.circular) == 0 {
		return found
	}
	pairOf := func(c analyze.CircularReasoning) (pairKey, bool) {
		if len(c.Thoughts) != 2 {
			return pairKey{}, false
		}
		return keyOf(c.Thoughts[0].ID, c.Thoughts[1].ID), true
	}
	out := found[:0:0]
	reported := map[pairKey]bool{}
	for _, c := range found {
		k, ok := pairOf(c)
		if ok {
			if l, stated := st.stated.circular[k]; stated && l.Type == linkNotCircular {
				continue
			}
			reported[k] = true
		}
		out = append(out, c)
	}
	var keys []pairKey
	for k, l := range st.stated.circular {
		if l.Type == linkCircular && !reported[k] {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y pairKey) int { return cmp.Or(strings.Compare(x[0], y[0]), strings.Compare(x[1], y[1])) })
	for _, k := range keys {
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if !okA || !okB {
			continue
		}
		a, b := docs[i], docs[j]
		if b.Step > a.Step {
			a, b = b, a // the later thought first
		}
		l := st.stated.circular[k]
		reason := "declared circular"
		if r := strings.TrimSpace(l.Reason); r != "" {
			reason += ": " + r
		}
		out = append(out, analyze.CircularReasoning{Kind: "declared", Thoughts: []analyze.ThoughtRef{analyze.Ref(a), analyze.Ref(b)}, Reason: reason})
	}
	return out
}

// circularReview puts to the model the arguments the detector could not
// decide: a thought that argues (a connective) and has a claim very like
// (cosine ≥ circularCandidateSimilar) a claim of a premise it rests on (one
// of its three nearest ancestors, or a thought it builds upon), which no
// finding and no stated verdict covers. Each is a group of those two claims,
// the most alike first, at most 30 claims.
func (st *btState) circularReview(docs []analyze.Doc, byID map[string]int, found []analyze.CircularReasoning) *Review {
	inFinding := map[pairKey]bool{}
	for _, c := range found {
		for i := range c.Thoughts {
			for j := i + 1; j < len(c.Thoughts); j++ {
				inFinding[keyOf(c.Thoughts[i].ID, c.Thoughts[j].ID)] = true
			}
		}
	}
	type candidate struct {
		a, b   int // docs
		ka, kb int // claims
		sim    float32
	}
	var all []candidate
	settled := 0
	seen := map[pairKey]bool{}
	for j, b := range docs {
		if b.Vector == nil || !arguing(b.Content) {
			continue
		}
		premises := slices.Clone(b.DependsOn)
		for p, n := b.ParentID, 0; p != "" && n < 3; n++ {
			premises = append(premises, p)
			i, ok := byID[p]
			if !ok {
				break
			}
			p = docs[i].ParentID
		}
		for _, pid := range premises {
			i, ok := byID[pid]
			if !ok || i == j {
				continue
			}
			k := keyOf(docs[i].ID, b.ID)
			if seen[k] || inFinding[k] {
				continue
			}
			seen[k] = true
			c := candidate{a: i, b: j, sim: -2}
			for x, cx := range docs[i].Claims {
				for y, cy := range b.Claims {
					if len(cx.Vector) > 0 && len(cx.Vector) == len(cy.Vector) {
						if s := semantic.Dot(semantic.AsUnit(cx.Vector), semantic.AsUnit(cy.Vector)); s > c.sim {
							c.ka, c.kb, c.sim = x, y, s
						}
					}
				}
			}
			if c.sim < circularCandidateSimilar {
				continue
			}
			if st.stated != nil {
				if _, stated := st.stated.circular[k]; stated {
					settled++
					continue
				}
			}
			all = append(all, c)
		}
	}
	slices.SortStableFunc(all, func(x, y candidate) int { return cmp.Compare(y.sim, x.sim) })
	rv := &Review{Groups: []ReviewGroup{}, Open: len(all), Settled: settled}
	for _, c := range all {
		if 2*(len(rv.Groups)+1) > reviewOptions.MaxClaims {
			break
		}
		a, b := docs[c.a], docs[c.b]
		rv.Groups = append(rv.Groups, ReviewGroup{
			Group:    analyze.GroupKey(docs, []analyze.ClaimRef{{Doc: c.a, K: c.ka}, {Doc: c.b, K: c.kb}}),
			Question: fmt.Sprintf("Does #%d's argument assume what it concludes, resting on #%d, which says much the same?", b.Step, a.Step),
			Claims: []ReviewClaim{{ThoughtID: a.ID, Step: a.Step, Text: reasoning.Clip(a.Claims[c.ka].Text, maxClaimText)},
				{ThoughtID: b.ID, Step: b.Step, Text: reasoning.Clip(b.Claims[c.kb].Text, maxClaimText)}},
		})
	}
	rv.Left = rv.Open - len(rv.Groups)
	if len(rv.Groups) > 0 {
		rv.Answer = `judge {group, verdict: "circular"} or {group, verdict: "not_circular"}`
	}
	return rv
}

// SessionAnalysis is what the analyses find in a session, computed as the
// branch-thinking commands compute it: the contradictions of
// findContradictions, the findings of detectCircular and, per branch, the
// evaluation of evaluate (the session's goal and thresholds, the same judge,
// stated verdicts counted). Exports and the viewer show it, so their figures
// agree with the commands'.
type SessionAnalysis struct {
	Contradictions []analyze.Contradiction
	// Checked is the number of thoughts with vectors searched.
	Checked  int
	Circular []analyze.CircularReasoning
	// Evaluations are per branch, in the order of the branches' first
	// thoughts; nil unless asked for.
	Evaluations []BranchEvaluation
}

// BranchEvaluation is the evaluation of one branch.
type BranchEvaluation struct {
	Branch string `json:"branch"`
	analyze.Evaluation
}

// Analyze runs the analyses of one session of s in tx (see
// SessionAnalysis); evaluate adds the branch evaluations. It keeps no state
// between calls.
func Analyze(ctx context.Context, s *reasoning.Service, tx thinkgraph.Tx, sess *thinkgraph.Session, evaluate bool) (*SessionAnalysis, error) {
	if s.Semantic() == nil {
		return nil, reasoning.ErrNoSemantic
	}
	bt := NewBranchThinking(s)
	st := bt.stateOf(reasoning.SessionRef{ID: sess.ID, Explicit: true, Tenant: sess.Tenant})
	rep, err := st.contradictions(ctx, bt, tx, sess.Key)
	if err != nil {
		return nil, err
	}
	docs, _, err := bt.docs(ctx, tx, sess, st)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(docs))
	var order []string
	for i, d := range docs {
		byID[d.ID] = i
		if !slices.Contains(order, d.Branch) {
			order = append(order, d.Branch)
		}
	}
	a := &SessionAnalysis{Contradictions: rep.Contradictions, Checked: rep.Thoughts,
		Circular: st.circularWithStated(analyze.DetectCircular(docs, analyze.CircularOptions{}), docs, byID)}
	if a.Contradictions == nil {
		a.Contradictions = []analyze.Contradiction{}
	}
	if a.Circular == nil {
		a.Circular = []analyze.CircularReasoning{}
	}
	for _, b := range order {
		if !evaluate {
			break
		}
		ev, err := bt.branchEvaluation(ctx, tx, sess, st, b)
		if err != nil {
			return nil, err
		}
		a.Evaluations = append(a.Evaluations, BranchEvaluation{Branch: b, Evaluation: ev})
	}
	return a, nil
}
