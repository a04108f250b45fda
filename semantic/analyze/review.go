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
// calling model has it. So the review does not decide: it finds the claims
// of a session that speak of the same thing and puts them to the model in
// groups (reasoning/review plans which, and when). This file finds the
// candidate pairs and groups them.
//
// Candidate pairs. Every claim is compared with the claims of the
// Neighbors (k) other thoughts nearest to it, one claim of each (its most
// similar), by the cosine of the claims' vectors after the session's common
// direction is taken out (in a session about one topic, every claim shares
// the topic's words, and what tells two claims apart is what each says of
// it); a pair less alike than MinSimilarity is about different things and
// not a candidate.
//
// Risk. A pair's risk is its similarity, raised when its claims come from
// different branches (a line of thought that never met the other's) and by
// the signs of tension a conflict would leave (contradict.Tension: a rule
// firing, different figures or years, opposed words, one side negated, ...),
// none of them a verdict.
//
// Grouping (ClusterPairs). Pairs are merged into groups, riskiest first, as
// long as a group stays within MaxGroup claims and one claim per thought
// (agglomerative clustering with a size cap).

// ClaimRef names one claim: docs[Doc].Claims[K].
type ClaimRef struct{ Doc, K int }

// ReviewGroup is a group of claims, from different thoughts, that speak of
// the same thing.
type ReviewGroup struct {
	Claims []ClaimRef // in step order
	Risk   float64
	// Similarity is the cosine of the group's most similar pair.
	Similarity float64
	// Signs are the signs of tension found (numbers, negation, opposed
	// words, ...), for the question.
	Signs []string
}

// ReviewMinSimilarity is the default cosine two claims need to speak of the
// same thing.
const ReviewMinSimilarity = 0.05

// ReviewNeighbors is the default k of ReviewOptions.Neighbors.
const ReviewNeighbors = 8

// ReviewOptions tunes the Grouper; zero values mean the defaults.
type ReviewOptions struct {
	MaxGroup int // claims per group (default 6)
	// Neighbors is k: each claim is compared with the claims of the k
	// other thoughts nearest to it, one claim each, their most similar
	// (default ReviewNeighbors).
	Neighbors int
	// MinSimilarity is the cosine two claims need to speak of the same
	// thing (default ReviewMinSimilarity).
	MinSimilarity float64
	// Tension scores how much two claims look like they conflict, naming
	// the signs (contradict.Contradictor.Tension); nil: similarity and
	// branches alone order the pairs.
	Tension func(a, b string) (float64, []string)
}

func (o ReviewOptions) withDefaults() ReviewOptions {
	if o.MaxGroup <= 1 {
		o.MaxGroup = 6
	}
	if o.Neighbors <= 0 {
		o.Neighbors = ReviewNeighbors
	}
	if o.MinSimilarity <= 0 {
		o.MinSimilarity = ReviewMinSimilarity
	}
	return o
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
	// starts counts the times the grouper started over.
	starts int
	// edges are the candidate pairs with their risks, riskiest first;
	// seen their keys.
	edges []ReviewPair
	seen  map[[2]int32]bool
}

// ReviewPair is a candidate pair of claims of different thoughts (A < B,
// indexes into Grouper.Claims): one is among the other's nearest
// (ReviewOptions.Neighbors), with the pair's risk and its signs.
type ReviewPair struct {
	A, B       int32
	Similarity float32
	Risk       float64
	// Tension is the pair's tension (ReviewOptions.Tension), part of Risk.
	Tension float64
	Signs   []string
}

// Claims are the claims the grouper reads, as of the last Update.
func (g *Grouper) Claims() []ClaimRef { return g.refs }

// Epoch changes when the grouper starts over: until it does, an Update
// only appends claims (Claims keeps its order) and the pairs of the
// claims it appends.
func (g *Grouper) Epoch() int { return g.starts }

// Pairs are the candidate pairs of the last Update, riskiest first. They
// belong to the grouper: read them before the next Update.
func (g *Grouper) Pairs() []ReviewPair { return g.edges }

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
	slices.SortFunc(g.edges, func(x, y ReviewPair) int {
		return cmp.Or(cmp.Compare(y.Risk, x.Risk), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
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
	g.starts++
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
	nbs := knnGraph(m, g.listed(), g.minSim(len(g.refs)))
	var pairs [][2]int32
	var sims []float32
	for i, row := range nbs {
		pairs, sims = g.nearest(int32(i), row, pairs, sims)
	}
	g.edges = g.risks(docs, pairs, sims)
}

// listed is how many nearest claims are listed for a claim to find the
// claims of its Neighbors nearest other thoughts (a thought's other claims
// and several claims of one thought come in the list too).
func (g *Grouper) listed() int { return 2 * g.opts.Neighbors }

// nearest appends to pairs (and their cosines to sims) the pairs of claim
// i with the first claim of each of the first Neighbors other thoughts in
// row (its nearest claims, most similar first) that are not pairs yet.
func (g *Grouper) nearest(i int32, row []neighbor, pairs [][2]int32, sims []float32) ([][2]int32, []float32) {
	var docs []int
	for _, nb := range row {
		d := g.refs[nb.j].Doc
		if d == g.refs[i].Doc || slices.Contains(docs, d) {
			continue
		}
		docs = append(docs, d)
		k := [2]int32{min(i, nb.j), max(i, nb.j)}
		if !g.seen[k] {
			g.seen[k] = true
			pairs = append(pairs, k)
			sims = append(sims, nb.s)
		}
		if len(docs) == g.opts.Neighbors {
			break
		}
	}
	return pairs, sims
}

// minSim is the cosine a pair needs to be a candidate in a session of n
// claims: MinSimilarity, or only a positive one in a session of at most
// fewClaims claims, whose cosines after centring on so few claims swing
// widely: there what is more alike than the session's average is compared.
func (g *Grouper) minSim(n int) float32 {
	if n <= fewClaims {
		return 0
	}
	return float32(g.opts.MinSimilarity)
}

// fewClaims is the number of claims up to which a session's claims are few
// (minSim): as many as one review call quotes.
const fewClaims = 30

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
	k := g.listed()
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
		pairs, sims = g.nearest(int32(i), h, pairs, sims)
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
func (g *Grouper) risks(docs []Doc, pairs [][2]int32, sims []float32) []ReviewPair {
	out := make([]ReviewPair, len(pairs))
	parallelRows(len(pairs), func(lo, hi int) {
		for n := lo; n < hi; n++ {
			a, b := pairs[n][0], pairs[n][1]
			e := ReviewPair{A: a, B: b, Similarity: sims[n], Risk: float64(sims[n])}
			da, db := docs[g.refs[a].Doc], docs[g.refs[b].Doc]
			if da.Branch != db.Branch {
				e.Risk += riskBranch // not a sign of tension: not named
			}
			ta, tb := da.Claims[g.refs[a].K].Text, db.Claims[g.refs[b].K].Text
			if g.opts.Tension != nil {
				t, signs := g.opts.Tension(ta, tb)
				e.Tension = t
				e.Risk += riskTension * t
				e.Signs = append(e.Signs, signs...)
			}
			out[n] = e
		}
	})
	return out
}

// cluster merges the candidate pairs into groups (ClusterPairs).
func (g *Grouper) cluster(docs []Doc) []ReviewGroup {
	return ClusterPairs(docs, g.refs, g.edges, nil, g.opts.MaxGroup)
}

// ClusterPairs merges pairs of claims (riskiest first; those order lists,
// by index in that order, or all when order is nil) into groups, riskiest pair first, as
// long as a group stays within maxGroup claims and one claim per thought
// (agglomerative clustering with a size cap). A group's risk, similarity
// and signs are its riskiest pair's; its claims are in step order.
func ClusterPairs(docs []Doc, claims []ClaimRef, pairs []ReviewPair, order []int32, maxGroup int) []ReviewGroup {
	cluster := make([]int32, len(claims)) // claim → cluster id
	for i := range cluster {
		cluster[i] = int32(i)
	}
	members := map[int32][]int32{} // a cluster of more than one claim
	of := func(c int32) []int32 {
		if m, ok := members[c]; ok {
			return m
		}
		return []int32{c}
	}
	best := map[int32]int{} // cluster → its riskiest pair
	count := len(pairs)
	if order != nil {
		count = len(order)
	}
	for x := range count {
		n := x
		if order != nil {
			n = int(order[x])
		}
		e := pairs[n]
		ca, cb := cluster[e.A], cluster[e.B]
		if ca == cb {
			continue
		}
		ma, mb := of(ca), of(cb)
		if len(ma)+len(mb) > maxGroup || slices.ContainsFunc(ma, func(x int32) bool {
			return slices.ContainsFunc(mb, func(y int32) bool { return claims[x].Doc == claims[y].Doc })
		}) {
			continue
		}
		if len(mb) > len(ma) {
			ca, cb, ma, mb = cb, ca, mb, ma
		}
		for _, y := range mb {
			cluster[y] = ca
		}
		members[ca] = append(ma, mb...)
		delete(members, cb)
		if b, ok := best[ca]; !ok || n < b {
			best[ca] = n
		}
		if b, ok := best[cb]; ok {
			best[ca] = min(best[ca], b)
			delete(best, cb)
		}
	}
	ids := make([]int32, 0, len(members))
	for c := range members {
		ids = append(ids, c)
	}
	slices.Sort(ids)
	out := []ReviewGroup{}
	for _, c := range ids {
		e := pairs[best[c]]
		grp := ReviewGroup{Similarity: float64(e.Similarity), Risk: e.Risk, Signs: e.Signs}
		for _, x := range members[c] {
			grp.Claims = append(grp.Claims, claims[x])
		}
		slices.SortFunc(grp.Claims, func(x, y ClaimRef) int {
			return cmp.Or(cmp.Compare(docs[x.Doc].Step, docs[y.Doc].Step), cmp.Compare(x.K, y.K))
		})
		out = append(out, grp)
	}
	return out
}
