package analyze

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// The consistency review. Whether two claims can both be true rests on
// knowledge of the world and of paraphrase that no rule list holds; the
// calling model has it. So the review does not decide: it groups the
// claims of a session that speak of the same thing, at most MaxGroup to a
// group and each from a different thought, orders the groups most at risk
// first, and hands the model as many as fit in MaxClaims claims, for it to
// answer each group in one call. A group whose every pair of thoughts has a
// verdict is settled and not asked again until a new claim joins it.
//
// Grouping. Every claim is compared with its nearest claims (cosine of the
// claims' vectors after the session's common direction is taken out: in a
// session about one topic, every claim shares the topic's words, and what
// tells two claims apart is what each says of it). Pairs of claims from
// different thoughts at or above MinSimilarity are merged into groups,
// most similar first, as long as a group stays within MaxGroup claims and
// one claim per thought (agglomerative clustering with a size cap).
//
// Risk. A group's risk is its most similar pair's similarity, raised when
// its claims come from different branches (a line of thought that never
// met the other's), when they state different numbers, and when one is
// negated and the other not: the signs a conflict would leave, none of
// them a verdict.

// ClaimRef names one claim: docs[Doc].Claims[K].
type ClaimRef struct{ Doc, K int }

// ReviewGroup is a group of claims, from different thoughts, that speak of
// the same thing.
type ReviewGroup struct {
	Claims []ClaimRef // in step order
	Risk   float64
	// Similarity is the cosine of the group's most similar pair.
	Similarity float64
	// Signs are the signs of a possible conflict found (different
	// branches, numbers, negation), for the question.
	Signs []string
}

// ReviewMinSimilarity is the default cosine two claims need to speak of the
// same thing.
const ReviewMinSimilarity = 0.05

// ReviewOptions tunes GroupClaims and PlanReview; zero values mean the defaults.
type ReviewOptions struct {
	MaxGroup  int // claims per group (default 6)
	MaxClaims int // claims shown per call (default 30)
	Neighbors int // nearest claims compared per claim (default 8)
	// MinSimilarity is the cosine two claims need to speak of the same
	// thing (default ReviewMinSimilarity).
	MinSimilarity float64
	// Tension scores how much two claims look like they conflict, naming
	// the signs (contradict.Contradictor.Tension); nil: similarity and
	// branches alone order the groups.
	Tension func(a, b string) (float64, []string)
}

func (o ReviewOptions) withDefaults() ReviewOptions {
	if o.MaxGroup <= 1 {
		o.MaxGroup = 6
	}
	if o.MaxClaims <= 0 {
		o.MaxClaims = 30
	}
	if o.Neighbors <= 0 {
		o.Neighbors = 8
	}
	if o.MinSimilarity <= 0 {
		o.MinSimilarity = ReviewMinSimilarity
	}
	return o
}

// ReviewPlan is the answer of PlanReview.
type ReviewPlan struct {
	// Groups are the open groups that fit in the call, most at risk first.
	Groups []ReviewGroup
	// Open counts every open group, OpenClaims their claims; Settled the
	// groups whose every pair of thoughts has a verdict.
	Open, OpenClaims, Settled int
}

// GroupKey names a group by its claims, as "step.k" joined by "-" in step
// order ("7.1-13.2"): the same claims always give the same key, and the
// key tells which claims the answer is about even after the grouping
// changed.
func GroupKey(docs []Doc, g []ClaimRef) string {
	parts := make([]string, len(g))
	for i, c := range g {
		parts[i] = strconv.Itoa(docs[c.Doc].Step) + "." + strconv.Itoa(c.K+1)
	}
	return strings.Join(parts, "-")
}

// GroupClaims groups the claims of docs (see the top of this file). It is
// NewGrouper(opts).Update(docs): use a Grouper to keep grouping a growing
// session.
func GroupClaims(docs []Doc, opts ReviewOptions) []ReviewGroup {
	return NewGrouper(opts).Update(docs)
}

// PlanReview plans the review of groups (GroupClaims of docs): the open
// ones, most at risk first, as many as fit in opts.MaxClaims. settled
// reports whether two thoughts (indexes into docs) have a verdict; a group
// is settled when every two of its thoughts are.
func PlanReview(docs []Doc, groups []ReviewGroup, settled func(a, b int) bool, opts ReviewOptions) ReviewPlan {
	opts = opts.withDefaults()
	var plan ReviewPlan
	var open []ReviewGroup
	for _, g := range groups {
		if groupSettled(g.Claims, settled) {
			plan.Settled++
			continue
		}
		open = append(open, g)
		plan.OpenClaims += len(g.Claims)
	}
	plan.Open = len(open)
	slices.SortStableFunc(open, func(a, b ReviewGroup) int {
		return cmp.Or(cmp.Compare(b.Risk, a.Risk), cmp.Compare(a.Claims[0].Doc, b.Claims[0].Doc), cmp.Compare(a.Claims[0].K, b.Claims[0].K))
	})
	shown := 0
	for _, g := range open {
		if shown+len(g.Claims) > opts.MaxClaims {
			continue
		}
		plan.Groups = append(plan.Groups, g)
		shown += len(g.Claims)
	}
	return plan
}

// reviewClaims lists the claims that can be reviewed: those with a vector
// that assert something (not a question, two content words at least).
func reviewClaims(docs []Doc, offset int) ([]ClaimRef, []semantic.Vector) {
	var refs []ClaimRef
	var vecs []semantic.Vector
	dim := 0
	for i, d := range docs {
		for k, c := range d.Claims {
			if len(c.Vector) == 0 || strings.HasSuffix(strings.TrimSpace(c.Text), "?") || !asserts(c.Text) {
				continue
			}
			if dim == 0 {
				dim = len(c.Vector)
			}
			if len(c.Vector) != dim {
				continue
			}
			refs = append(refs, ClaimRef{offset + i, k})
			vecs = append(vecs, c.Vector)
		}
	}
	return refs, vecs
}

// asserts reports whether a claim has two content words.
func asserts(text string) bool {
	n := 0
	for _, t := range semantic.Tokenize(text) {
		if !semantic.IsStopWord(t) {
			if n++; n == 2 {
				return true
			}
		}
	}
	return false
}

func groupSettled(g []ClaimRef, settled func(a, b int) bool) bool {
	for i := range g {
		for j := i + 1; j < len(g); j++ {
			if !settled(g[i].Doc, g[j].Doc) {
				return false
			}
		}
	}
	return true
}

// Weights of the signs in a pair's risk (see the top of this file).
const (
	riskTension = 1.0
	riskBranch  = 0.15
)

// A Grouper groups the claims of one session and keeps what it computed
// (the claims' centred vectors, the candidate pairs and their risks) so
// that a session that grew costs in proportion to what was added: a new
// claim is compared with every claim (one exact scan) and only its pairs
// get a risk. The session's mean direction is fixed when the grouper
// starts over, which it does when the session has grown by a quarter since
// (or when docs are not the ones it saw, followed by more). Not safe for
// concurrent use.
type Grouper struct {
	opts ReviewOptions
	// docs is how many docs were read; ids their ids, to check that the
	// next docs extend them.
	docs int
	ids  []string
	// refs and cv are the claims and their centred unit vectors; mean the
	// sum of the unit vectors the centring took out and base the number of
	// claims it was computed from.
	refs []ClaimRef
	cv   []semantic.Vector
	mean []float64
	base int
	// edges are the candidate pairs with their risks; seen their keys.
	edges []edge
	seen  map[[2]int32]bool
}

// edge is a candidate pair of claims (indexes into Grouper.refs, a < b).
type edge struct {
	a, b  int32
	s     float32
	risk  float64
	signs []string
}

// NewGrouper returns an empty grouper.
func NewGrouper(opts ReviewOptions) *Grouper {
	return &Grouper{opts: opts.withDefaults()}
}

// Update brings the grouper up to docs (the session's thoughts in step
// order, as before plus any added since) and returns the groups.
func (g *Grouper) Update(docs []Doc) []ReviewGroup {
	extends := len(docs) >= g.docs
	for i := 0; extends && i < g.docs; i++ {
		extends = docs[i].ID == g.ids[i]
	}
	refs, vecs := reviewClaims(docs[min(g.docs, len(docs)):], min(g.docs, len(docs)))
	if !extends || g.base == 0 || len(g.refs)+len(refs) > g.base+g.base/4+8 {
		all, allVecs := reviewClaims(docs, 0)
		g.start(docs, all, allVecs)
	} else {
		g.add(docs, refs, vecs)
	}
	g.docs = len(docs)
	g.ids = g.ids[:0]
	for _, d := range docs {
		g.ids = append(g.ids, d.ID)
	}
	return g.cluster(docs)
}

// start groups from scratch: the mean of every claim's unit vector, the
// centred vectors, each claim's nearest claims.
func (g *Grouper) start(docs []Doc, refs []ClaimRef, vecs []semantic.Vector) {
	g.refs, g.cv, g.edges, g.seen, g.base = refs, nil, nil, map[[2]int32]bool{}, len(refs)
	if len(refs) == 0 {
		g.mean = nil
		return
	}
	dim := len(vecs[0])
	g.mean = make([]float64, dim)
	for _, v := range vecs {
		for i, x := range semantic.AsUnit(v) {
			g.mean[i] += float64(x)
		}
	}
	g.cv = make([]semantic.Vector, len(vecs))
	for i, v := range vecs {
		g.cv[i] = g.centre(v)
	}
	if len(refs) < 2 {
		return
	}
	m := newMatrix(g.cv, dim)
	nbs := knnGraph(m, g.opts.Neighbors+2, g.minSim(len(refs)))
	var pairs [][2]int32
	var sims []float32
	for i, row := range nbs {
		for _, nb := range row {
			a, b := int32(i), nb.j
			k := [2]int32{min(a, b), max(a, b)}
			if refs[a].Doc == refs[b].Doc || g.seen[k] {
				continue
			}
			g.seen[k] = true
			pairs = append(pairs, k)
			sims = append(sims, nb.s)
		}
	}
	g.edges = g.risks(docs, pairs, sims)
}

// minSim is the cosine a pair of n claims needs to be a candidate:
// MinSimilarity, or only a positive one when every claim of the session
// fits in one call (MaxClaims): then every claim is shown anyway, and what
// is more alike than the session's average is grouped together.
func (g *Grouper) minSim(n int) float32 {
	if n <= g.opts.MaxClaims {
		return 0
	}
	return float32(g.opts.MinSimilarity)
}

// centre returns the unit vector of v with share 1 − 2/base of the mean
// direction taken out.
func (g *Grouper) centre(v semantic.Vector) semantic.Vector {
	u := semantic.AsUnit(v)
	c := make(semantic.Vector, len(u))
	share := 1 - 2/float64(g.base)
	for i, x := range u {
		c[i] = x - float32(share*g.mean[i]/float64(g.base))
	}
	normalizeInPlace(c)
	return c
}

// add takes in the claims of docs added since the last update: each is
// compared with every claim, old and new, and its nearest get a risk.
func (g *Grouper) add(docs []Doc, refs []ClaimRef, vecs []semantic.Vector) {
	if len(refs) > 0 && len(g.cv) > 0 && len(vecs[0]) != len(g.cv[0]) {
		all, allVecs := reviewClaims(docs, 0)
		g.start(docs, all, allVecs)
		return
	}
	first := len(g.refs)
	for i, r := range refs {
		g.refs = append(g.refs, r)
		g.cv = append(g.cv, g.centre(vecs[i]))
	}
	var pairs [][2]int32
	var sims []float32
	k := g.opts.Neighbors + 2
	for i := first; i < len(g.refs); i++ {
		h := make([]neighbor, 0, k+1)
		for j := range g.refs {
			if j == i || g.refs[j].Doc == g.refs[i].Doc {
				continue
			}
			s := semantic.Dot(g.cv[i], g.cv[j])
			if s < g.minSim(len(g.refs)) {
				continue
			}
			h = insertTop(h, neighbor{int32(j), s}, k)
		}
		for _, nb := range h {
			key := [2]int32{min(int32(i), nb.j), max(int32(i), nb.j)}
			if !g.seen[key] {
				g.seen[key] = true
				pairs = append(pairs, key)
				sims = append(sims, nb.s)
			}
		}
	}
	g.edges = append(g.edges, g.risks(docs, pairs, sims)...)
}

// insertTop keeps the k most similar neighbours, most similar first.
func insertTop(h []neighbor, nb neighbor, k int) []neighbor {
	if len(h) == k && nb.s <= h[k-1].s {
		return h
	}
	i, _ := slices.BinarySearchFunc(h, nb, func(x, y neighbor) int { return cmp.Compare(y.s, x.s) })
	h = slices.Insert(h, i, nb)
	if len(h) > k {
		h = h[:k]
	}
	return h
}

// risks scores candidate pairs (see the top of this file), the tension of
// their texts computed on every CPU.
func (g *Grouper) risks(docs []Doc, pairs [][2]int32, sims []float32) []edge {
	out := make([]edge, len(pairs))
	parallelRows(len(pairs), func(lo, hi int) {
		for n := lo; n < hi; n++ {
			a, b := pairs[n][0], pairs[n][1]
			e := edge{a: a, b: b, s: sims[n], risk: float64(sims[n])}
			da, db := docs[g.refs[a].Doc], docs[g.refs[b].Doc]
			if da.Branch != db.Branch {
				e.risk += riskBranch
				e.signs = append(e.signs, "different branches")
			}
			if g.opts.Tension != nil {
				t, signs := g.opts.Tension(da.Claims[g.refs[a].K].Text, db.Claims[g.refs[b].K].Text)
				e.risk += riskTension * t
				e.signs = append(e.signs, signs...)
			}
			out[n] = e
		}
	})
	return out
}

// cluster merges the candidate pairs into groups, riskiest first, within
// the size cap and one claim per thought.
func (g *Grouper) cluster(docs []Doc) []ReviewGroup {
	edges := slices.Clone(g.edges)
	slices.SortFunc(edges, func(x, y edge) int {
		return cmp.Or(cmp.Compare(y.risk, x.risk), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	refs := g.refs
	cluster := make([]int, len(refs)) // claim → cluster id
	members := make([][]int, len(refs))
	for i := range refs {
		cluster[i] = i
		members[i] = []int{i}
	}
	for _, e := range edges {
		ca, cb := cluster[e.a], cluster[e.b]
		if ca == cb || len(members[ca])+len(members[cb]) > g.opts.MaxGroup {
			continue
		}
		clash := false
		for _, x := range members[ca] {
			for _, y := range members[cb] {
				clash = clash || refs[x].Doc == refs[y].Doc
			}
		}
		if clash {
			continue
		}
		if len(members[cb]) > len(members[ca]) {
			ca, cb = cb, ca
		}
		for _, y := range members[cb] {
			cluster[y] = ca
		}
		members[ca] = append(members[ca], members[cb]...)
		members[cb] = nil
	}
	// A group's risk is that of its riskiest inner pair (edges come
	// riskiest first).
	best := make([]int, len(refs))
	for n, e := range edges {
		if c := cluster[e.a]; c == cluster[e.b] && best[c] == 0 {
			best[c] = n + 1
		}
	}
	out := []ReviewGroup{}
	for c, ms := range members {
		if len(ms) < 2 {
			continue
		}
		e := edges[best[c]-1]
		grp := ReviewGroup{Similarity: float64(e.s), Risk: e.risk, Signs: e.signs}
		for _, x := range ms {
			grp.Claims = append(grp.Claims, refs[x])
		}
		slices.SortFunc(grp.Claims, func(x, y ClaimRef) int {
			return cmp.Or(cmp.Compare(docs[x.Doc].Step, docs[y.Doc].Step), cmp.Compare(x.K, y.K))
		})
		out = append(out, grp)
	}
	return out
}
