package branching

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// The consistency review of findContradictions (analyze.PlanReview): the
// session's claims grouped by what they speak of, the groups most at risk
// first, within a budget, for the model to answer each group with one judge
// call. The offline judge asserts a contradiction only where it is certain
// (contradict.Certain) on two claims of one group; everything else is the
// model's to judge.

// Review is the review part of findContradictions' answer.
type Review struct {
	Groups []ReviewGroup `json:"groups" jsonschema:"groups of claims from different thoughts that speak of the same thing, most at risk first; answer each with one judge call"`
	// Open counts the groups not answered yet; Left those of them not shown
	// in this call; Settled those answered.
	Open    int    `json:"openGroups"`
	Left    int    `json:"left" jsonschema:"open groups not shown in this call; they come once these are answered"`
	Settled int    `json:"settledGroups"`
	Answer  string `json:"answer,omitempty" jsonschema:"how to answer a group"`
}

// ReviewGroup is one group of claims to judge.
type ReviewGroup struct {
	Group    string        `json:"group" jsonschema:"the group's key: its claims as step.claim, for judge"`
	Question string        `json:"question"`
	Claims   []ReviewClaim `json:"claims"`
}

// ReviewClaim is one claim of a group.
type ReviewClaim struct {
	ThoughtID string `json:"thoughtId"`
	Step      int    `json:"step"`
	Text      string `json:"text"`
}

// claimKey names a claim: its thought's id and its index there.
type claimKey struct {
	thought string
	k       int
}

// reviewOptions are the review's budget: claims per group and per call.
var reviewOptions = analyze.ReviewOptions{MaxGroup: 6, MaxClaims: 30}

// maxClaimText bounds a claim's quoted text (a claim is a sentence or a
// clause; the longer ones are clipped).
const maxClaimText = 120

// reviewAnswer tells the model how to answer a group.
const reviewAnswer = `judge {group, verdict: "consistent"} or {group, verdict: "contradiction", conflicts: [[step, step]]}`

// groupsOf returns the session's claim groups, recomputed when thoughts
// were added since the last call.
func (st *btState) groupsOf(bt *BranchThinking, docs []analyze.Doc) []analyze.ReviewGroup {
	last := 0
	if len(docs) > 0 {
		last = docs[len(docs)-1].Step
	}
	if st.groups == nil || st.groupsStep != last || st.groupsDocs != len(docs) {
		if st.grouper == nil {
			opts := reviewOptions
			opts.Tension = bt.svc.Semantic().Contradictor.Tension
			st.grouper = analyze.NewGrouper(opts)
		}
		st.groups = st.grouper.Update(docs)
		st.groupsStep, st.groupsDocs = last, len(docs)
		st.asserted = nil
	}
	return st.groups
}

// settledIn returns the settled test of PlanReview: two thoughts are
// settled when a verdict is stated on them.
func (st *btState) settledIn(docs []analyze.Doc) func(a, b int) bool {
	return func(a, b int) bool {
		stated, _, _ := st.stated.contradicts(docs[a].ID, docs[b].ID)
		return stated
	}
}

// assertedIn returns the contradictions the offline judge is certain of
// between two claims of one group, pairs with a stated verdict left out
// (the stated verdict is added by withStated).
func (st *btState) assertedIn(bt *BranchThinking, docs []analyze.Doc, groups []analyze.ReviewGroup) []analyze.Contradiction {
	if st.asserted != nil && st.assertedLinks == st.stated.links {
		return slices.Clone(st.asserted)
	}
	c := bt.svc.Semantic().Contradictor
	out := []analyze.Contradiction{}
	seen := map[pairKey]bool{}
	for _, g := range groups {
		for i, x := range g.Claims {
			for _, y := range g.Claims[i+1:] {
				a, b := docs[x.Doc], docs[y.Doc]
				k := keyOf(a.ID, b.ID)
				if seen[k] {
					continue
				}
				if stated, _, _ := st.stated.contradicts(a.ID, b.ID); stated {
					continue
				}
				ca, cb := a.Claims[x.K].Text, b.Claims[y.K].Text
				ck := [2]claimKey{{a.ID, x.K}, {b.ID, y.K}}
				v, ok := st.certain[ck]
				if !ok {
					v = c.Certain(ca, cb)
					if len(st.certain) >= maxVerdicts {
						clear(st.certain)
					}
					st.certain[ck] = v
				}
				if !v.Contradicts {
					continue
				}
				seen[k] = true
				if b.Step < a.Step {
					a, b = b, a
					ca, cb = cb, ca
				}
				out = append(out, analyze.Contradiction{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: round2(semantic.Cosine(a.Vector, b.Vector)),
					Confidence: round2(v.Confidence), Reason: v.Reason})
			}
		}
	}
	slices.SortFunc(out, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.ThoughtA.Step, y.ThoughtA.Step), cmp.Compare(x.ThoughtB.Step, y.ThoughtB.Step))
	})
	st.asserted, st.assertedLinks = out, st.stated.links
	return slices.Clone(out)
}

// contradictions returns the session's contradictions: those the offline
// judge is certain of and every stated one. The review's groups are
// brought up to date on the way.
func (st *btState) contradictions(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) (analyze.ContradictionReport, error) {
	var rep analyze.ContradictionReport
	if err := st.loadStated(ctx, tx, session); err != nil {
		return rep, err
	}
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, byID map[string]int, _ *semantic.Index) error {
		groups := st.groupsOf(bt, docs)
		rep.Contradictions = st.withStated(st.assertedIn(bt, docs, groups), docs, byID, nil)
		for _, d := range docs {
			if d.Vector != nil {
				rep.Thoughts++
			}
		}
		return nil
	})
	return rep, err
}

// review plans the review of the session's open groups.
func (st *btState) review(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) (*Review, []analyze.ReviewGroup, error) {
	if err := st.loadStated(ctx, tx, session); err != nil {
		return nil, nil, err
	}
	var rv *Review
	var shown []analyze.ReviewGroup
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
		plan := analyze.PlanReview(docs, st.groupsOf(bt, docs), st.settledIn(docs), reviewOptions)
		rv = reviewOf(docs, plan)
		shown = plan.Groups
		return nil
	})
	return rv, shown, err
}

// reviewOf renders a plan.
func reviewOf(docs []analyze.Doc, plan analyze.ReviewPlan) *Review {
	rv := &Review{Groups: []ReviewGroup{}, Open: plan.Open, Left: plan.Open - len(plan.Groups), Settled: plan.Settled}
	for _, g := range plan.Groups {
		out := ReviewGroup{Group: analyze.GroupKey(docs, g.Claims), Question: groupQuestion(g)}
		for _, c := range g.Claims {
			d := docs[c.Doc]
			out.Claims = append(out.Claims, ReviewClaim{ThoughtID: d.ID, Step: d.Step, Text: reasoning.Clip(d.Claims[c.K].Text, maxClaimText)})
		}
		rv.Groups = append(rv.Groups, out)
	}
	if len(rv.Groups) > 0 {
		rv.Answer = reviewAnswer
	}
	return rv
}

// groupQuestion asks about a group, naming the signs of conflict found.
func groupQuestion(g analyze.ReviewGroup) string {
	q := "Can these all be true at once?"
	if len(g.Signs) > 0 {
		q += " (" + strings.Join(g.Signs, "; ") + ")"
	}
	return q
}

func round2(x float64) float64 { return float64(int64(x*100+0.5*sign(x))) / 100 }

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// certainMinCosine is the cosine below which two claims are not compared
// for a certain contradiction: a near-minimal pair (70% of each side's
// content words matched in the other) is far above it.
const certainMinCosine = 0.5

// claimPairJudge is the offline judge on two thoughts as analyses that
// compare thoughts (evaluation, synthesis) use it: a stated verdict
// decides; else the two are a contradiction when the certain judge fires on
// a claim of one and its most similar claim of the other.
func (st *btState) claimPairJudge(bt *BranchThinking) analyze.PairJudge {
	c := bt.svc.Semantic().Contradictor
	return func(a, b analyze.Doc) (bool, float64, string) {
		if stated, contra, l := st.stated.contradicts(a.ID, b.ID); stated {
			if contra {
				return true, 1, declaredReason(l)
			}
			return false, 0, ""
		}
		k := [2]string{a.ID, b.ID}
		if k[1] < k[0] {
			k[0], k[1] = k[1], k[0]
		}
		st.vmu.Lock()
		v, ok := st.verdicts[k]
		st.vmu.Unlock()
		if ok {
			return v.Contradicts, v.Confidence, v.Reason
		}
		// Each claim of a against its most similar claim of b: a certain
		// contradiction is a near-minimal pair, so the two are each
		// other's closest (cosine ≥ certainMinCosine). Linear in the
		// claims checked, whatever the thoughts' length.
		units := make([]semantic.Vector, len(b.Claims))
		for j, y := range b.Claims {
			units[j] = semantic.AsUnit(y.Vector)
		}
		for _, x := range a.Claims {
			best, bs := -1, float32(certainMinCosine)
			ux := semantic.AsUnit(x.Vector)
			for j, uy := range units {
				if len(ux) == len(uy) && len(ux) > 0 {
					if s := semantic.Dot(ux, uy); s >= bs {
						best, bs = j, s
					}
				}
			}
			if best < 0 {
				continue
			}
			if w := c.Certain(x.Text, b.Claims[best].Text); w.Contradicts && w.Confidence > v.Confidence {
				v = w
			}
		}
		st.vmu.Lock()
		if len(st.verdicts) > maxVerdicts {
			clear(st.verdicts)
		}
		st.verdicts[k] = v
		st.vmu.Unlock()
		return v.Contradicts, v.Confidence, v.Reason
	}
}

// ErrGroup is the error of a judge call whose group key does not name
// claims of the session.
func groupError(key, why string) error {
	return thinkgraph.Invalid("group", "a group key from findContradictions' review, such as \"7.1-13.2\" (step.claim of each claim)", reasoning.Clip(key, 80),
		"'group' %s; call findContradictions and copy a group's key", why)
}

// groupMembers resolves a group key against the session's docs: the
// thought of each claim, in the key's order.
func groupMembers(docs []analyze.Doc, key string) ([]analyze.Doc, error) {
	parts := strings.Split(strings.TrimSpace(key), "-")
	if len(parts) < 2 {
		return nil, groupError(key, "must name at least two claims")
	}
	byStep := map[int]int{}
	for i, d := range docs {
		byStep[d.Step] = i
	}
	var out []analyze.Doc
	seen := map[int]bool{}
	for _, p := range parts {
		var step, k int
		if _, err := fmt.Sscanf(p, "%d.%d", &step, &k); err != nil || fmt.Sprintf("%d.%d", step, k) != p {
			return nil, groupError(key, fmt.Sprintf("has %q where a claim step.claim (e.g. 7.1) belongs", reasoning.Clip(p, 20)))
		}
		i, ok := byStep[step]
		if !ok {
			return nil, groupError(key, fmt.Sprintf("names step %d, which is not a thought of this session", step))
		}
		if k < 1 || k > max(1, len(docs[i].Claims)) {
			return nil, groupError(key, fmt.Sprintf("names claim %d of step %d, which has %d", k, step, len(docs[i].Claims)))
		}
		if seen[step] {
			return nil, groupError(key, fmt.Sprintf("names step %d twice", step))
		}
		seen[step] = true
		out = append(out, docs[i])
	}
	return out, nil
}

// GroupJudgeResult is the answer of judge on a review group.
type GroupJudgeResult struct {
	Header
	Group   string   `json:"group"`
	Verdict string   `json:"verdict"`
	Stored  []string `json:"stored" jsonschema:"the verdicts stored, one per pair of the group's thoughts: #a/#b contradiction or compatible"`
	Message string   `json:"message"`
}

// groupVerdicts are the verdicts judge takes on a group: consistent or
// contradiction on a group of findContradictions' review, circular or
// not_circular on one of detectCircular's.
var groupVerdicts = []string{"consistent", "contradiction", "circular", "not_circular"}

// judgeGroup stores the model's answer on a review group: a contradictory
// link for each conflicting pair, a compatible link for every other pair of
// the group's thoughts. A pair whose latest verdict already says the same
// is not stored again.
func (bt *BranchThinking) judgeGroup(ctx context.Context, in CommandInput) (*GroupJudgeResult, error) {
	if in.Verdict == "compatible" {
		in.Verdict = "consistent"
	}
	if !slices.Contains(groupVerdicts, in.Verdict) {
		received := reasoning.Clip(in.Verdict, 40)
		if in.Verdict == "" {
			received = "none"
		}
		return nil, thinkgraph.Invalid("verdict", "one of: "+strings.Join(groupVerdicts, ", "), received,
			"'verdict' on a group must be \"consistent\" (all its claims can hold together) or \"contradiction\" (with 'conflicts' naming the pairs that cannot) for findContradictions' review, \"circular\" or \"not_circular\" for detectCircular's")
	}
	if in.Verdict == "contradiction" && len(in.Conflicts) == 0 {
		return nil, thinkgraph.Invalid("conflicts", "a list of pairs of the group's steps, e.g. [[7, 13]]", "none",
			"'conflicts' must name which claims of the group conflict, as pairs of their steps, e.g. [[7, 13]]")
	}
	if in.Verdict != "contradiction" && len(in.Conflicts) > 0 {
		return nil, thinkgraph.Invalid("conflicts", "no conflicts with verdict "+in.Verdict, fmt.Sprint(len(in.Conflicts)),
			"'conflicts' goes with verdict \"contradiction\" only")
	}
	if len([]rune(in.Reason)) > maxReason {
		return nil, thinkgraph.Invalid("reason", fmt.Sprintf("at most %d characters", maxReason), fmt.Sprint(len([]rune(in.Reason))), "'reason' is longer than %d characters", maxReason)
	}
	res := &GroupJudgeResult{Header: Header{Command: "judge"}, Group: strings.TrimSpace(in.Group), Verdict: in.Verdict, Stored: []string{}}
	err := bt.write(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *btState) error {
		var members []analyze.Doc
		err := bt.svc.DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
			var err error
			members, err = groupMembers(docs, res.Group)
			return err
		})
		if err != nil {
			return err
		}
		conflicts, err := conflictPairs(members, in.Conflicts)
		if err != nil {
			return err
		}
		res.SessionID = sess.ID
		if in.Verdict == "circular" || in.Verdict == "not_circular" {
			res.Stored, err = storeCircularVerdict(ctx, tx, sess, members, verdictLink[in.Verdict], strings.TrimSpace(in.Reason), bt.svc.Now())
			return err
		}
		res.Stored, err = storeGroupVerdict(ctx, tx, sess, members, conflicts, strings.TrimSpace(in.Reason), bt.svc.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	switch {
	case len(res.Stored) == 0:
		res.Message = "Nothing new: every pair of the group already had this verdict."
	case in.Verdict == "consistent":
		res.Message = "Stored: the group's claims are consistent. It is not asked again until a new claim joins it."
	case in.Verdict == "circular":
		res.Message = "Stored: the argument is circular. detectCircular reports it from now on."
	case in.Verdict == "not_circular":
		res.Message = "Stored: the argument is not circular. detectCircular no longer asks about it."
	default:
		res.Message = "Stored: the conflicting pairs are contradictions in findContradictions, evaluate, synthesizeDialectical, suggestTools and exports; the group's other pairs are compatible."
	}
	return res, nil
}

// conflictPairs resolves the conflicts of a group judge call (each a pair
// of the group's steps, "#7" or 7, or thought ids) to indexes of members.
func conflictPairs(members []analyze.Doc, conflicts [][]string) ([][2]int, error) {
	find := func(ref string) int {
		ref = strings.TrimPrefix(strings.TrimSpace(ref), "#")
		for i, d := range members {
			if d.ID == ref || fmt.Sprint(d.Step) == ref {
				return i
			}
		}
		return -1
	}
	var steps []string
	for _, d := range members {
		steps = append(steps, fmt.Sprint(d.Step))
	}
	var out [][2]int
	for n, c := range conflicts {
		field := fmt.Sprintf("conflicts[%d]", n)
		if len(c) != 2 {
			return nil, thinkgraph.Invalid(field, "a pair of the group's steps, e.g. [7, 13]", fmt.Sprint(len(c))+" entries",
				"'%s' must be a pair of two of the group's steps (%s)", field, strings.Join(steps, ", "))
		}
		i, j := find(c[0]), find(c[1])
		if i < 0 || j < 0 || i == j {
			return nil, thinkgraph.Invalid(field, "two different steps of the group: "+strings.Join(steps, ", "), reasoning.Clip(strings.Join(c, ", "), 80),
				"'%s' must name two different claims of the group by their steps (%s)", field, strings.Join(steps, ", "))
		}
		out = append(out, [2]int{i, j})
	}
	return out, nil
}

// storeGroupVerdict writes the verdicts on a group's pairs of thoughts in
// tx (see judgeGroup) and names the ones stored ("#7/#13 contradiction").
func storeGroupVerdict(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, members []analyze.Doc, conflicts [][2]int, reason string, now time.Time) ([]string, error) {
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	prev := statedOf(links)
	conflict := map[[2]int]bool{}
	for _, c := range conflicts {
		conflict[[2]int{min(c[0], c[1]), max(c[0], c[1])}] = true
	}
	stored := []string{}
	for i := range members {
		for j := i + 1; j < len(members); j++ {
			a, b := members[i], members[j]
			if b.Step < a.Step {
				a, b = b, a
			}
			typ := linkCompatible
			if conflict[[2]int{i, j}] {
				typ = linkContradictory
			}
			if l, ok := prev.contra[keyOf(a.ID, b.ID)]; ok && l.Type == typ {
				continue
			}
			l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.Branch, ToBranch: a.Branch, FromThought: b.ID, ToThought: a.ID,
				Type: typ, Reason: reason, Strength: 1, CreatedAt: now}
			if err := tx.AddLink(ctx, l); err != nil {
				return nil, err
			}
			verdict := "compatible"
			if typ == linkContradictory {
				verdict = "contradiction"
			}
			stored = append(stored, fmt.Sprintf("#%d/#%d %s", a.Step, b.Step, verdict))
		}
	}
	return stored, nil
}

// riskiestBranchPair returns the two branches of the riskiest open review
// group that spans two branches (in the order of their first claims), or
// two empty names.
func (st *btState) riskiestBranchPair(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, session thinkgraph.SessionKey) ([2]string, error) {
	var pair [2]string
	if err := st.loadStated(ctx, tx, session); err != nil {
		return pair, err
	}
	err := bt.svc.DocsView(ctx, tx, session, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
		plan := analyze.PlanReview(docs, st.groupsOf(bt, docs), st.settledIn(docs), analyze.ReviewOptions{MaxGroup: reviewOptions.MaxGroup, MaxClaims: 1 << 30})
		for _, g := range plan.Groups {
			for _, c := range g.Claims[1:] {
				if b := docs[c.Doc].Branch; b != docs[g.Claims[0].Doc].Branch {
					pair = [2]string{docs[g.Claims[0].Doc].Branch, b}
					return nil
				}
			}
		}
		return nil
	})
	return pair, err
}

// storeCircularVerdict writes a circular or not_circular link on every two
// thoughts of a group, but where the latest such verdict says the same.
func storeCircularVerdict(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, members []analyze.Doc, typ, reason string, now time.Time) ([]string, error) {
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	prev := statedOf(links)
	stored := []string{}
	for i := range members {
		for j := i + 1; j < len(members); j++ {
			a, b := members[i], members[j]
			if b.Step < a.Step {
				a, b = b, a
			}
			if l, ok := prev.circular[keyOf(a.ID, b.ID)]; ok && l.Type == typ {
				continue
			}
			l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.Branch, ToBranch: a.Branch, FromThought: b.ID, ToThought: a.ID,
				Type: typ, Reason: reason, Strength: 1, CreatedAt: now}
			if err := tx.AddLink(ctx, l); err != nil {
				return nil, err
			}
			stored = append(stored, fmt.Sprintf("#%d/#%d %s", a.Step, b.Step, typ))
		}
	}
	return stored, nil
}
