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
var judgeVerdicts = []string{"contradiction", "compatible", "circular", "not_circular"}

var verdictLink = map[string]string{"contradiction": linkContradictory, "compatible": linkCompatible, "circular": linkCircular, "not_circular": linkNotCircular}

// maxCandidates bounds the candidates an analysis returns.
const maxCandidates = 5

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

// Candidate is a pair the offline judge could not decide, with the question
// that settles it and the call that answers it.
type Candidate struct {
	ThoughtA   analyze.ThoughtRef `json:"thoughtA"`
	ThoughtB   analyze.ThoughtRef `json:"thoughtB"`
	Similarity float64            `json:"similarity"`
	Why        string             `json:"why" jsonschema:"why the pair is likely enough to ask about"`
	Question   string             `json:"question"`
	Answer     map[string]any     `json:"answer" jsonschema:"the branch-thinking call that stores the verdict; pick one verdict"`
}

// score orders candidates: most likely first.
type scoredCandidate struct {
	Candidate
	score float64
}

// mostLikely returns the n candidates of highest score (then by ids). It
// keeps the n best in one pass: a large session holds tens of thousands of
// undecided pairs, and sorting them all on every call cost findContradictions
// about 100 ms at 10,000 thoughts.
func mostLikely(all []scoredCandidate, n int) []Candidate {
	better := func(x, y scoredCandidate) int {
		return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(x.ThoughtA.ID, y.ThoughtA.ID), strings.Compare(x.ThoughtB.ID, y.ThoughtB.ID))
	}
	if n <= 0 {
		return []Candidate{}
	}
	best := make([]scoredCandidate, 0, n+1)
	for _, c := range all {
		if len(best) == n && better(c, best[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(best, c, better)
		best = slices.Insert(best, i, c)
		if len(best) > n {
			best = best[:n]
		}
	}
	out := []Candidate{}
	for _, c := range best {
		out = append(out, c.Candidate)
	}
	return out
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
			"'verdict' on two thoughts must be one of %s (contradiction/compatible on whether both can hold, circular/not_circular on an argument); to answer a review group, give its key in 'group' with verdict consistent or contradiction", strings.Join(judgeVerdicts, ", "))
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

// Circular candidates: a thought that argues (has a connective) and rests
// on a premise it is very like (cosine ≥ circularCandidateSimilar, one of
// its three nearest ancestors or a thought it builds upon), which the
// offline detector did not report and no verdict settled: the argument may
// assume what it concludes.
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

// circularCandidates returns the arguments the detector could not decide
// that are likely enough to ask about, most similar first.
func (st *btState) circularCandidates(docs []analyze.Doc, byID map[string]int, found []analyze.CircularReasoning) []Candidate {
	inFinding := map[pairKey]bool{}
	for _, c := range found {
		for i := range c.Thoughts {
			for j := i + 1; j < len(c.Thoughts); j++ {
				inFinding[keyOf(c.Thoughts[i].ID, c.Thoughts[j].ID)] = true
			}
		}
	}
	var all []scoredCandidate
	seen := map[pairKey]bool{}
	for _, b := range docs {
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
			if !ok {
				continue
			}
			a := docs[i]
			k := keyOf(a.ID, b.ID)
			if seen[k] || inFinding[k] || a.ID == b.ID {
				continue
			}
			seen[k] = true
			if st.stated != nil {
				if _, stated := st.stated.circular[k]; stated {
					continue
				}
			}
			sim := semantic.Cosine(a.Vector, b.Vector)
			if sim < circularCandidateSimilar {
				continue
			}
			all = append(all, scoredCandidate{Candidate{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: round3(sim),
				Why: fmt.Sprintf("the second argues from the first (a connective, and it follows or builds upon it) and says much the same (similarity %.2f)", sim),
				Question: fmt.Sprintf("Does «%s» assume what it concludes, by resting on «%s», which says the same thing? Answer with verdict \"circular\" or \"not_circular\" (the pair is then not asked again).",
					reasoning.Clip(b.Content, 300), reasoning.Clip(a.Content, 300)),
				Answer: cmdCall("judge", map[string]any{"thoughtId": a.ID, "otherThoughtId": b.ID, "verdict": "circular | not_circular", "reason": "<why, in a sentence>"})}, sim})
		}
	}
	return mostLikely(all, maxCandidates)
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
