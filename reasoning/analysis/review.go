package analysis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// The consistency review of findContradictions (analyze.PlanReview): the
// session's claims grouped by what they speak of, the groups most at risk
// first, within a budget, for the model to answer each group with one judge
// call. The offline judge asserts a contradiction only where it is certain
// (contradict.Certain) on two claims of one group; everything else is the
// model's to judge. A contradictory cross-reference that names a branch but
// no thought is a question too: which of the branch's claims does the new
// thought contradict? (declaredGroups).

// groupsOf returns the session's claim groups, recomputed when thoughts
// were added since the last call.
func (st *State) groupsOf(docs []analyze.Doc) []analyze.ReviewGroup {
	last := 0
	if len(docs) > 0 {
		last = docs[len(docs)-1].Step
	}
	if st.groups == nil || st.groupsStep != last || st.groupsDocs != len(docs) {
		if st.grouper == nil {
			opts := review.Options
			opts.Tension = st.svc().Semantic().Contradictor.Tension
			st.grouper = analyze.NewGrouper(opts)
		}
		st.groups = st.grouper.Update(docs)
		st.groupsStep, st.groupsDocs = last, len(docs)
		st.asserted = nil
	}
	return st.groups
}

// declaredMax is how many claims of the named branch a declared
// contradiction's question shows (with the claim of the thought that
// declares it, a group of review.Options.MaxGroup).
const declaredMax = 5

// declaredRisk orders the questions of declared contradictions before
// every group the grouping found: the model itself said there is a
// conflict.
const declaredRisk = 10

// declaredGroups are the questions the session's declared contradictions
// without a thought raise: the declaring thought's claim closest to the
// branch it names, with the claims of that branch's thoughts written before
// it that are closest to that claim (at most declaredMax, one per thought).
func (st *State) declaredGroups(docs []analyze.Doc, byID map[string]int) []analyze.ReviewGroup {
	var out []analyze.ReviewGroup
	for _, l := range st.declared {
		i, ok := byID[l.FromThought]
		if !ok {
			continue
		}
		from := docs[i]
		type cand struct {
			doc, k int
			sim    float64
		}
		best := func(d analyze.Doc, v semantic.Vector) (int, float64) {
			k, s := 0, math.Inf(-1)
			for j, c := range d.Claims {
				if x := semantic.Cosine(c.Vector, v); x > s {
					k, s = j, x
				}
			}
			return k, s
		}
		var cands []cand
		for j, d := range docs {
			if d.Branch != l.ToBranch || d.Step >= from.Step || d.ID == from.ID || len(d.Claims) == 0 {
				continue
			}
			k, s := best(d, from.Vector)
			cands = append(cands, cand{j, k, s})
		}
		if len(cands) == 0 || len(from.Claims) == 0 {
			continue
		}
		slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.sim, a.sim) })
		cands = cands[:min(declaredMax, len(cands))]
		// The declaring thought's claim closest to the branch's nearest.
		fk, _ := best(from, docs[cands[0].doc].Claims[cands[0].k].Vector)
		g := analyze.ReviewGroup{Claims: []analyze.ClaimRef{{Doc: i, K: fk}}, Risk: declaredRisk,
			Signs: []string{fmt.Sprintf("#%d declares it contradicts branch %s (a cross-reference): which claim does it contradict?", from.Step, l.ToBranch)}}
		for _, c := range cands {
			g.Claims = append(g.Claims, analyze.ClaimRef{Doc: c.doc, K: c.k})
		}
		slices.SortFunc(g.Claims, func(a, b analyze.ClaimRef) int { return cmp.Compare(docs[a.Doc].Step, docs[b.Doc].Step) })
		out = append(out, g)
	}
	return out
}

// ContradictionReport is what findContradictions lists: the
// contradictions the offline judge is certain of and every stated one, and
// how many thoughts with vectors were checked.
type ContradictionReport = analyze.ContradictionReport

// Contradictions returns the session's contradictions: those the offline
// judge is certain of and every stated one. The review's groups are
// brought up to date on the way.
func (st *State) Contradictions(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) (ContradictionReport, error) {
	var rep ContradictionReport
	if err := st.Sync(ctx, tx, sess); err != nil {
		return rep, err
	}
	err := st.svc().DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, byID map[string]int, _ *semantic.Index) error {
		groups := st.groupsOf(docs)
		if st.asserted == nil || st.assertedLinks != st.stated.Links() {
			st.asserted, st.assertedLinks = st.stated.Asserted(docs, groups, st.svc().Semantic().Contradictor, st.memo), st.stated.Links()
		}
		rep.Contradictions = st.stated.With(slices.Clone(st.asserted), docs, byID, nil)
		for _, d := range docs {
			if d.Vector != nil {
				rep.Thoughts++
			}
		}
		return nil
	})
	return rep, err
}

// Which review showed a pair of thoughts (State.askedPairs).
const (
	askedByContradictions = 1 << iota
	askedByCircular
)

// plan plans a call of the review of the session's open pairs (declared
// questions first) within b (review.Cover.Select), or, when all is set,
// the first groups of the whole cover as b allows.
//
// A premise and an argument that says much the same (review.CircularPairs)
// are detectCircular's question too: this review asks about them after
// every other pair, and, unless their claims show a sign of tension (a
// restatement that negates its premise is a contradiction), not at all
// once detectCircular has answered them or shown them first.
func (st *State) plan(docs []analyze.Doc, byID map[string]int, b review.Budget, all bool) review.Plan {
	st.groupsOf(docs)
	in := review.PlanInput{Docs: docs, Claims: st.grouper.Claims(), Pairs: st.grouper.Pairs(), Settled: st.stated.Settled(docs)}
	circular := func(from int) {
		for _, c := range review.CircularPairs(docs, byID, from) {
			st.circular[review.DocPair(c.A, c.B)] = true
		}
		st.circularDocs = len(docs)
	}
	restates := func(p analyze.ReviewPair) bool {
		return st.circular[review.DocPair(in.Claims[p.A].Doc, in.Claims[p.B].Doc)]
	}
	in.Later = restates
	in.Skip = func(p analyze.ReviewPair) bool {
		if p.Tension != 0 || !restates(p) {
			return false
		}
		a, b := docs[in.Claims[p.A].Doc].ID, docs[in.Claims[p.B].Doc].ID
		_, stated := st.stated.Circular(a, b)
		return stated || st.askedPairs[review.KeyOf(a, b)] == askedByCircular
	}
	switch {
	case st.cover != nil && st.coverLinks == st.stated.Links() && st.coverEpoch == st.grouper.Epoch() && st.coverCircular == st.circularAsked:
		if st.cover.Claims < len(in.Claims) {
			circular(st.circularDocs)
			st.cover.Extend(in)
		}
	default:
		st.circular = map[uint64]bool{}
		circular(0)
		in.Fixed = st.declaredGroups(docs, byID)
		st.cover = review.CoverOf(in)
		st.coverLinks, st.coverEpoch, st.coverCircular = st.stated.Links(), st.grouper.Epoch(), st.circularAsked
	}
	if all {
		return st.cover.Select(nil, nil, b)
	}
	var quoted func(c analyze.ClaimRef) bool // nil: no claim quoted yet
	if len(st.asked) > 0 {
		quoted = func(c analyze.ClaimRef) bool { return st.asked[review.QuotedKey(docs[c.Doc], c.K)] }
	}
	// A group asked before: every two of its thoughts were in a group shown.
	shown := func(g analyze.ReviewGroup) bool {
		for i, c := range g.Claims {
			for _, o := range g.Claims[:i] {
				if !st.shown[review.KeyOf(docs[c.Doc].ID, docs[o.Doc].ID)] {
					return false
				}
			}
		}
		return true
	}
	return st.cover.Select(quoted, shown, b)
}

// markAsked marks the pairs of thoughts of shown groups that the other
// review may ask as asked by which and reports whether one was new.
func (st *State) markAsked(docs []analyze.Doc, groups [][]int, which uint8) bool {
	st.askedPairs = bounded(st.askedPairs)
	changed := false
	for _, g := range groups {
		for i, a := range g {
			for _, b := range g[:i] {
				if !st.circular[review.DocPair(a, b)] {
					continue
				}
				k := review.KeyOf(docs[a].ID, docs[b].ID)
				changed = changed || st.askedPairs[k]&which == 0
				st.askedPairs[k] |= which
			}
		}
	}
	return changed
}

// Reviewed is a group shown in a review: its key and its claims' texts and
// thoughts, in the key's order.
type Reviewed struct {
	Key    string
	Docs   []analyze.Doc
	Claims []string
}

// Review plans the review of the session's open groups, within the
// budget, and marks the claims it quotes as asked (a claim an earlier call
// quoted is named by its group's key only, unless verbose).
func (st *State) Review(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, verbose bool) (*review.Review, []Reviewed, error) {
	if err := st.Sync(ctx, tx, sess); err != nil {
		return nil, nil, err
	}
	var rv *review.Review
	var shown []Reviewed
	err := st.svc().DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, byID map[string]int, _ *semantic.Index) error {
		st.asked = bounded(st.asked)
		plan := st.plan(docs, byID, review.CallBudget, false)
		rv = review.Render(docs, plan)
		var keys []review.ClaimKey
		var thoughts [][]int
		for _, g := range plan.Groups {
			var ds []int
			for _, c := range g.Claims {
				ds = append(ds, c.Doc)
			}
			thoughts = append(thoughts, ds)
			r := Reviewed{Key: analyze.GroupKey(docs, g.Claims)}
			for _, c := range g.Claims {
				r.Docs = append(r.Docs, docs[c.Doc])
				r.Claims = append(r.Claims, docs[c.Doc].Claims[c.K].Text)
				keys = append(keys, review.QuotedKey(docs[c.Doc], c.K))
			}
			shown = append(shown, r)
		}
		rv.Quoted(keys, st.asked, verbose)
		if rv.Instructed(st.told&askedByContradictions != 0, verbose) {
			st.told |= askedByContradictions
		}
		st.markAsked(docs, thoughts, askedByContradictions)
		st.shown = bounded(st.shown)
		for _, g := range thoughts {
			for i, a := range g {
				for _, b := range g[:i] {
					st.shown[review.KeyOf(docs[a].ID, docs[b].ID)] = true
				}
			}
		}
		return nil
	})
	return rv, shown, err
}

// OpenGroup is an open review group as the viewer and the reports show it.
type OpenGroup struct {
	Key    string         `json:"group"`
	Signs  string         `json:"signs,omitempty"`
	Claims []review.Claim `json:"claims"`
}

// maxOpenGroups bounds the open groups an export or the viewer lists.
const maxOpenGroups = 50

// openGroups are the session's open review groups, riskiest first, at most
// maxOpenGroups, each claim clipped as the review clips it; and how many
// are open in all.
func (st *State) openGroups(docs []analyze.Doc, byID map[string]int) ([]OpenGroup, int) {
	plan := st.plan(docs, byID, review.Budget{Claims: 1 << 30, Groups: maxOpenGroups}, true)
	rv := review.Render(docs, plan)
	out := make([]OpenGroup, 0, len(rv.Groups))
	for _, g := range rv.Groups {
		out = append(out, OpenGroup{Key: g.Group, Signs: g.Signs, Claims: g.Claims})
	}
	return out, plan.Open
}

// RiskiestBranchPair returns the two branches of the riskiest open review
// group that spans two branches (in the order of their first claims), or
// two empty names.
func (st *State) RiskiestBranchPair(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) ([2]string, error) {
	var pair [2]string
	if err := st.Sync(ctx, tx, sess); err != nil {
		return pair, err
	}
	err := st.svc().DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, byID map[string]int, _ *semantic.Index) error {
		plan := st.plan(docs, byID, review.Budget{Claims: 1 << 30, Groups: 1 << 30}, true)
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

// CircularFindings are the session's circular arguments (found and stated)
// and the review of detectCircular: the arguments the detector could not
// decide, whose claims an earlier call quoted named by key only unless
// verbose.
func (st *State) CircularFindings(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, verbose bool) ([]analyze.CircularReasoning, *review.Review, error) {
	a, err := st.Assess(ctx, tx, sess)
	if err != nil {
		return nil, nil, err
	}
	circ := a.Circular()
	// A pair findContradictions' review showed first, or answered, is not
	// asked here.
	asked := func(x, y int) bool {
		stated, _, _ := st.stated.Contradicts(a.Docs[x].ID, a.Docs[y].ID)
		return stated || st.askedPairs[review.KeyOf(a.Docs[x].ID, a.Docs[y].ID)] == askedByContradictions
	}
	rv, pairs, keys := st.stated.CircularReview(a.Docs, a.byID, circ, asked)
	st.askedCircular = bounded(st.askedCircular)
	rv.Quoted(keys, st.askedCircular, verbose)
	if rv.Instructed(st.told&askedByCircular != 0, verbose) {
		st.told |= askedByCircular
	}
	var shown [][]int
	for _, p := range pairs {
		shown = append(shown, []int{p.A, p.B})
	}
	if st.circular == nil {
		st.circular = map[uint64]bool{}
	}
	for _, p := range pairs {
		st.circular[review.DocPair(p.A, p.B)] = true
	}
	if st.markAsked(a.Docs, shown, askedByCircular) {
		st.circularAsked++
	}
	return circ, rv, nil
}

// MemberDocs resolves a review group's key against the session's thoughts
// (review.Members).
func (st *State) MemberDocs(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, key string) ([]analyze.Doc, error) {
	var members []analyze.Doc
	err := st.svc().DocsView(ctx, tx, sess.Key, func(docs []analyze.Doc, _ map[string]int, _ *semantic.Index) error {
		var err error
		members, err = review.Members(docs, key)
		return err
	})
	return members, err
}
