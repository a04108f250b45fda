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
	// ids number the claims of the groups; idx are each group's.
	ids map[analyze.ClaimRef]int32
	idx [][]int32
	// byDoc lists the groups that hold each thought (index into docs).
	byDoc [][]int32
	// Claims is how many of the input's claims the cover has read.
	Claims int
}

// CoverOf covers the open pairs of in.
func CoverOf(in PlanInput) *Cover {
	cv := &Cover{}
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
	groups, layers, idx := make([]analyze.ReviewGroup, len(order)), make([]int, len(order)), make([][]int32, len(order))
	for n, i := range order {
		groups[n], layers[n], idx[n] = cv.Groups[i], cv.layer[i], cv.idx[i]
	}
	cv.Groups, cv.layer, cv.idx = groups, layers, idx
	for d := range cv.byDoc {
		cv.byDoc[d] = cv.byDoc[d][:0]
	}
	for n, g := range cv.Groups {
		for _, c := range g.Claims {
			cv.holds(c.Doc, int32(n))
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
	if cv.ids == nil {
		cv.ids = map[analyze.ClaimRef]int32{}
	}
	idx := make([]int32, len(g.Claims))
	for i, c := range g.Claims {
		cv.holds(c.Doc, n)
		id, ok := cv.ids[c]
		if !ok {
			id = int32(len(cv.ids))
			cv.ids[c] = id
		}
		idx[i] = id
	}
	cv.idx = append(cv.idx, idx)
}

// holds notes that group n holds thought d.
func (cv *Cover) holds(d int, n int32) {
	if d >= len(cv.byDoc) {
		cv.byDoc = append(cv.byDoc, make([][]int32, d+1-len(cv.byDoc))...)
	}
	cv.byDoc[d] = append(cv.byDoc[d], n)
}

// covers reports whether a group of the cover holds thoughts a and b.
func (cv *Cover) covers(a, b int) bool {
	if a >= len(cv.byDoc) || b >= len(cv.byDoc) {
		return false
	}
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
	// Whether an earlier call quoted a claim (by id: 0 not asked yet, 1
	// quoted, 2 not), and whether this call quotes it.
	before, now := make([]int8, len(cv.ids)), make([]bool, len(cv.ids))
	fresh := func(n int, id int32) bool {
		if quoted == nil {
			return true
		}
		if before[id] == 0 {
			before[id] = 2
			if quoted(cv.Groups[n].Claims[slices.Index(cv.idx[n], id)]) {
				before[id] = 1
			}
		}
		return before[id] == 2
	}
	for n, g := range cv.Groups {
		if len(plan.Groups) == b.Groups {
			break
		}
		cost := 0
		for _, id := range cv.idx[n] {
			if !now[id] && fresh(n, id) {
				cost++
			}
		}
		if listed+cost > b.Claims {
			continue
		}
		if shown != nil && shown(g) {
			if cost = len(g.Claims); listed+cost > b.Claims {
				continue
			}
		}
		listed += cost
		for _, id := range cv.idx[n] {
			now[id] = true
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
	// Each pending pair's claims, with their partners and the pair's risk
	// (adjacency lists in one array, by claim in order of appearance).
	slot := map[int32]int32{} // claim → its place in claims
	var claims []int32
	var deg []int32
	for _, i := range pend {
		for _, c := range [2]int32{in.Pairs[i].A, in.Pairs[i].B} {
			k, ok := slot[c]
			if !ok {
				k = int32(len(claims))
				slot[c] = k
				claims, deg = append(claims, c), append(deg, 0)
			}
			deg[k]++
		}
	}
	off := make([]int32, len(claims)+1)
	for k, d := range deg {
		off[k+1] = off[k] + d
	}
	partner, risk := make([]int32, off[len(claims)]), make([]float64, off[len(claims)])
	fill := slices.Clone(off[:len(claims)])
	for _, i := range pend {
		e := in.Pairs[i]
		ka, kb := slot[e.A], slot[e.B]
		partner[fill[ka]], risk[fill[ka]] = kb, e.Risk
		partner[fill[kb]], risk[fill[kb]] = ka, e.Risk
		fill[ka]++
		fill[kb]++
	}
	member := make([]int32, len(claims)) // place → group, -1: none
	for k := range member {
		member[k] = -1
	}
	sets := make([][]int32, len(groups)) // group → places
	for g, grp := range groups {
		for _, c := range grp.Claims {
			if k, ok := slot[index[c]]; ok {
				member[k] = int32(g)
				sets[g] = append(sets[g], k)
			}
		}
	}
	fits := func(k int32, g int32) bool {
		return len(sets[g]) < maxGroup && !slices.ContainsFunc(sets[g], func(x int32) bool { return in.Claims[claims[x]].Doc == in.Claims[claims[k]].Doc })
	}
	order := make([]int32, len(claims))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(x, y int32) int { return cmp.Compare(claims[x], claims[y]) })
	var near []int32
	var stake []float64
	for range 4 {
		moved := false
		for _, k := range order {
			cur := member[k]
			if cur >= 0 && len(sets[cur]) <= 2 {
				continue
			}
			// The groups of its partners and its stake in each.
			near, stake = near[:0], stake[:0]
			for a := off[k]; a < off[k+1]; a++ {
				if g := member[partner[a]]; g >= 0 {
					n := slices.Index(near, g)
					if n < 0 {
						n = len(near)
						near, stake = append(near, g), append(stake, 0)
					}
					stake[n] += risk[a]
				}
			}
			best, most := int32(-1), 0.0
			if n := slices.Index(near, cur); cur >= 0 && n >= 0 {
				most = stake[n]
			}
			for n, g := range near {
				if g != cur && (stake[n] > most+1e-9 || best >= 0 && stake[n] > most-1e-9 && g < best) && fits(k, g) {
					best, most = g, stake[n]
				}
			}
			if best < 0 {
				continue
			}
			if cur >= 0 {
				sets[cur] = slices.DeleteFunc(sets[cur], func(x int32) bool { return x == k })
			}
			sets[best] = append(sets[best], k)
			member[k] = best
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
		ga, gb := member[slot[in.Pairs[i].A]], member[slot[in.Pairs[i].B]]
		if ga >= 0 && ga == gb && (best[ga] < 0 || i < best[ga]) {
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
		for _, k := range set {
			grp.Claims = append(grp.Claims, in.Claims[claims[k]])
		}
		slices.SortFunc(grp.Claims, func(x, y analyze.ClaimRef) int {
			return cmp.Or(cmp.Compare(in.Docs[x.Doc].Step, in.Docs[y.Doc].Step), cmp.Compare(x.K, y.K))
		})
		out = append(out, grp)
	}
	return out
}
