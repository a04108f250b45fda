package review

import (
	"cmp"
	"slices"

	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// The review's plan. Every claim is to be weighed against the claims of
// the k thoughts nearest to it (analyze.ReviewOptions.Neighbors): the
// grouper's candidate pairs. A pair is compared once its two thoughts have
// a verdict (an answered group held them both, or a verdict was stated on
// them). Cover covers the pairs not compared yet with groups, in layers:
// the first layer clusters them (analyze.ClusterPairs: riskiest pair
// first, at most MaxGroup claims to a group, one per thought), the next
// clusters those the layers before it left apart, and so on until every
// pair is in a group; after each layer, a claim moves to another group of
// it when it has more at stake there (refine). Select then fills a call:
// the groups riskiest first, layer by layer, as long as the call lists at
// most Budget.Claims claims that no earlier call quoted (a claim an earlier
// call quoted is named by step and costs nothing, but a group an earlier
// call showed and that is still open takes room for all its claims) and
// shows at most Budget.Groups groups; the rest are left for the next call. So the first call asks the riskiest questions, and
// the review is finished when every candidate pair is compared.

// PlanInput is what a cover reads.
type PlanInput struct {
	Docs []analyze.Doc
	// Claims and Pairs are the grouper's (analyze.Grouper.Claims, Pairs):
	// the candidate pairs, riskiest first.
	Claims []analyze.ClaimRef
	Pairs  []analyze.ReviewPair
	// Fixed are questions asked before any pair (declared contradictions),
	// in order; one is open while two of its thoughts have no verdict.
	Fixed []analyze.ReviewGroup
	// Settled reports whether two thoughts (indexes into Docs) have a
	// verdict.
	Settled func(a, b int) bool
	// Skip leaves a pair out of the review (nil: none): a pair another
	// question asks. Later marks pairs asked only once every other pair is
	// in a group (nil: none).
	Skip, Later func(p analyze.ReviewPair) bool
	// MaxGroup bounds a group's claims (default Options.MaxGroup).
	MaxGroup int
}

// Cover is the groups that compare every candidate pair not compared yet:
// the open fixed questions (layer 0), then the layers, each riskiest
// first.
type Cover struct {
	Groups []analyze.ReviewGroup
	layer  []int // of each group
	// byDoc lists the groups that hold each thought (index into docs).
	byDoc map[int][]int32
	// Claims is how many of the input's claims the cover has read.
	Claims int
}

// CoverOf covers the open pairs of in.
func CoverOf(in PlanInput) *Cover {
	cv := &Cover{byDoc: map[int][]int32{}}
	for _, g := range in.Fixed {
		if !answered(g.Claims, in.Settled) {
			cv.add(g, 0)
		}
	}
	cv.extend(in, 0)
	return cv
}

// Extend covers the pairs of the claims in.Claims holds beyond those the
// cover read (the grouper appended them, pairs included, and no verdict
// was stated since the cover was built).
func (cv *Cover) Extend(in PlanInput) { cv.extend(in, cv.Claims) }

func (cv *Cover) extend(in PlanInput, from int) {
	maxGroup := in.MaxGroup
	if maxGroup <= 1 {
		maxGroup = Options.MaxGroup
	}
	var pend, later []int32
	for i, e := range in.Pairs {
		if int(e.B) < from {
			continue // a < b: a pair of claims read before
		}
		a, b := in.Claims[e.A].Doc, in.Claims[e.B].Doc
		if in.Settled(a, b) || in.Skip != nil && in.Skip(e) || cv.covers(a, b) {
			continue
		}
		if in.Later != nil && in.Later(e) {
			later = append(later, int32(i))
		} else {
			pend = append(pend, int32(i))
		}
	}
	index := make(map[analyze.ClaimRef]int32, len(in.Claims))
	for i, c := range in.Claims {
		index[c] = int32(i)
	}
	cv.layers(in, index, pend, 1, maxGroup)
	cv.layers(in, index, later, laterLayers, maxGroup)
	cv.Claims = len(in.Claims)
	// Layer by layer, riskiest first.
	order := make([]int, len(cv.Groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return cmp.Or(cmp.Compare(cv.layer[x], cv.layer[y]), cmp.Compare(cv.Groups[y].Risk, cv.Groups[x].Risk))
	})
	groups, layers := make([]analyze.ReviewGroup, len(order)), make([]int, len(order))
	for n, i := range order {
		groups[n], layers[n] = cv.Groups[i], cv.layer[i]
	}
	cv.Groups, cv.layer = groups, layers
	clear(cv.byDoc)
	for n, g := range cv.Groups {
		for _, c := range g.Claims {
			cv.byDoc[c.Doc] = append(cv.byDoc[c.Doc], int32(n))
		}
	}
}

// laterLayers numbers the layers of the pairs asked later.
const laterLayers = 1 << 20

// layers covers the pending pairs pend with layers of groups, numbered
// from first.
func (cv *Cover) layers(in PlanInput, index map[analyze.ClaimRef]int32, pend []int32, first, maxGroup int) {
	for layer := first; len(pend) > 0; layer++ {
		pend = slices.DeleteFunc(pend, func(i int32) bool {
			e := in.Pairs[i]
			return cv.covers(in.Claims[e.A].Doc, in.Claims[e.B].Doc)
		})
		if len(pend) == 0 {
			return
		}
		groups := analyze.ClusterPairs(in.Docs, in.Claims, in.Pairs, pend, maxGroup)
		for _, g := range refine(in, index, pend, groups, maxGroup) {
			cv.add(g, layer)
		}
	}
}

// add appends a group of a layer.
func (cv *Cover) add(g analyze.ReviewGroup, layer int) {
	n := int32(len(cv.Groups))
	cv.Groups = append(cv.Groups, g)
	cv.layer = append(cv.layer, layer)
	for _, c := range g.Claims {
		cv.byDoc[c.Doc] = append(cv.byDoc[c.Doc], n)
	}
}

// covers reports whether a group of the cover holds thoughts a and b.
func (cv *Cover) covers(a, b int) bool {
	ga, gb := cv.byDoc[a], cv.byDoc[b]
	if len(gb) < len(ga) {
		ga, a, b = gb, b, a
	}
	for _, n := range ga {
		if slices.ContainsFunc(cv.Groups[n].Claims, func(c analyze.ClaimRef) bool { return c.Doc == b }) {
			return true
		}
	}
	return false
}

// answered reports whether every two claims of g are of thoughts with a
// verdict.
func answered(g []analyze.ClaimRef, settled func(a, b int) bool) bool {
	for i := range g {
		for j := i + 1; j < len(g); j++ {
			if !settled(g[i].Doc, g[j].Doc) {
				return false
			}
		}
	}
	return true
}

// Budget bounds a call of the review: the claims it lists that no earlier
// call quoted (each time it lists one) and the groups it shows.
type Budget struct{ Claims, Groups int }

// CallBudget is a findContradictions call's budget.
var CallBudget = Budget{Claims: 30, Groups: 40}

// Plan is a call of the review: the groups it shows, in order, and how
// many groups are open in all (shown or left for later calls).
type Plan struct {
	Groups []analyze.ReviewGroup
	Open   int
}

// Select fills a call from the cover (see the top of this file): quoted
// reports whether an earlier call quoted a claim, shown whether an earlier
// call showed a group (nil: none). A group an earlier call showed that is
// still open takes room for all its claims: the questions not answered yet
// come before new ones.
func (cv *Cover) Select(quoted func(c analyze.ClaimRef) bool, shown func(g analyze.ReviewGroup) bool, b Budget) Plan {
	plan := Plan{Open: len(cv.Groups)}
	listed := 0
	now := map[analyze.ClaimRef]bool{}
	for _, g := range cv.Groups {
		if len(plan.Groups) == b.Groups {
			break
		}
		n := 0
		again := shown != nil && shown(g)
		for _, c := range g.Claims {
			if again || !now[c] && (quoted == nil || !quoted(c)) {
				n++
			}
		}
		if listed+n > b.Claims {
			continue
		}
		listed += n
		for _, c := range g.Claims {
			now[c] = true
		}
		plan.Groups = append(plan.Groups, g)
	}
	return plan
}

// refine moves claims between the groups of a layer while one has more at
// stake with the claims of another group than with those of its own: the
// sum of the risks of its pending pairs with them (a local search after
// the clustering, which merges along the riskiest pair first and so can
// leave a claim beside a weaker partner). A claim moves only to a group
// with room and without a claim of its thought, and leaves no group of
// one behind; a few rounds over the claims settle it.
func refine(in PlanInput, index map[analyze.ClaimRef]int32, pend []int32, groups []analyze.ReviewGroup, maxGroup int) []analyze.ReviewGroup {
	type link struct {
		o int32
		r float64
	}
	adj := map[int32][]link{}
	var claims []int32
	for _, i := range pend {
		e := in.Pairs[i]
		for _, c := range [2]int32{e.A, e.B} {
			if _, ok := adj[c]; !ok {
				claims = append(claims, c)
			}
		}
		adj[e.A] = append(adj[e.A], link{e.B, e.Risk})
		adj[e.B] = append(adj[e.B], link{e.A, e.Risk})
	}
	slices.Sort(claims)
	member := map[int32]int{}
	sets := make([][]int32, len(groups))
	for g, grp := range groups {
		for _, c := range grp.Claims {
			member[index[c]] = g
			sets[g] = append(sets[g], index[c])
		}
	}
	fits := func(c int32, g int) bool {
		return len(sets[g]) < maxGroup && !slices.ContainsFunc(sets[g], func(x int32) bool { return in.Claims[x].Doc == in.Claims[c].Doc })
	}
	for range 4 {
		moved := false
		for _, c := range claims {
			cur, grouped := member[c]
			if grouped && len(sets[cur]) <= 2 {
				continue
			}
			// The groups of its partners and its stake in each.
			var near []int
			var stake []float64
			for _, l := range adj[c] {
				if g, ok := member[l.o]; ok {
					k := slices.Index(near, g)
					if k < 0 {
						k = len(near)
						near, stake = append(near, g), append(stake, 0)
					}
					stake[k] += l.r
				}
			}
			best, most := -1, 0.0
			if k := slices.Index(near, cur); grouped && k >= 0 {
				most = stake[k]
			}
			for k, g := range near {
				if g != cur && (stake[k] > most+1e-9 || best >= 0 && stake[k] > most-1e-9 && g < best) && fits(c, g) {
					best, most = g, stake[k]
				}
			}
			if best < 0 {
				continue
			}
			if grouped {
				sets[cur] = slices.DeleteFunc(sets[cur], func(x int32) bool { return x == c })
			}
			sets[best] = append(sets[best], c)
			member[c] = best
			moved = true
		}
		if !moved {
			break
		}
	}
	// Each group's riskiest inner pair gives its risk and signs.
	best := make([]int32, len(sets))
	for g := range best {
		best[g] = -1
	}
	for _, i := range pend {
		e := in.Pairs[i]
		ga, okA := member[e.A]
		gb, okB := member[e.B]
		if okA && okB && ga == gb && (best[ga] < 0 || i < best[ga]) {
			best[ga] = i
		}
	}
	out := groups[:0]
	for g, set := range sets {
		if len(set) < 2 || best[g] < 0 {
			continue
		}
		e := in.Pairs[best[g]]
		grp := analyze.ReviewGroup{Risk: e.Risk, Similarity: float64(e.Similarity), Signs: e.Signs}
		for _, x := range set {
			grp.Claims = append(grp.Claims, in.Claims[x])
		}
		slices.SortFunc(grp.Claims, func(x, y analyze.ClaimRef) int {
			return cmp.Or(cmp.Compare(in.Docs[x.Doc].Step, in.Docs[y.Doc].Step), cmp.Compare(x.K, y.K))
		})
		out = append(out, grp)
	}
	return out
}
