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

// GroupClaims groups the claims of docs (see the top of this file).
func GroupClaims(docs []Doc, opts ReviewOptions) []ReviewGroup {
	opts = opts.withDefaults()
	refs, vecs := reviewClaims(docs)
	if len(refs) < 2 {
		return []ReviewGroup{}
	}
	return groupClaims(docs, refs, vecs, opts)
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
func reviewClaims(docs []Doc) ([]ClaimRef, []semantic.Vector) {
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
			refs = append(refs, ClaimRef{i, k})
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

// centred returns unit copies of vs with a share of their mean direction
// taken out: none for two claims, most of it for many (share 1 − 2/n).
func centred(vs []semantic.Vector) []semantic.Vector {
	n := len(vs)
	dim := len(vs[0])
	mean := make([]float64, dim)
	for _, v := range vs {
		u := semantic.AsUnit(v)
		for i, x := range u {
			mean[i] += float64(x)
		}
	}
	share := 1 - 2/float64(n)
	out := make([]semantic.Vector, n)
	for r, v := range vs {
		u := semantic.AsUnit(v)
		c := make(semantic.Vector, dim)
		for i, x := range u {
			c[i] = x - float32(share*mean[i]/float64(n))
		}
		normalizeInPlace(c)
		out[r] = c
	}
	return out
}

// Weights of the signs in a pair's risk (see the top of this file).
const (
	riskTension = 1.0
	riskBranch  = 0.15
)

// groupClaims clusters the claims (see the top of this file).
func groupClaims(docs []Doc, refs []ClaimRef, vecs []semantic.Vector, opts ReviewOptions) []ReviewGroup {
	cv := centred(vecs)
	m := newMatrix(cv, len(cv[0]))
	g := knnGraph(m, opts.Neighbors+2, float32(opts.MinSimilarity))
	type edge struct {
		a, b  int32
		s     float32
		risk  float64
		signs []string
	}
	cand := map[[2]int32]bool{}
	for i, nbs := range g {
		for _, nb := range nbs {
			a, b := int32(i), nb.j
			cand[[2]int32{min(a, b), max(a, b)}] = true
		}
	}
	var edges []edge
	for p := range cand {
		a, b := p[0], p[1]
		if refs[a].Doc == refs[b].Doc {
			continue
		}
		{
			sim := float64(semantic.Dot(cv[a], cv[b]))
			if sim < opts.MinSimilarity {
				continue
			}
			e := edge{a: a, b: b, s: float32(sim), risk: sim}
			da, db := docs[refs[a].Doc], docs[refs[b].Doc]
			if da.Branch != db.Branch {
				e.risk += riskBranch
				e.signs = append(e.signs, "different branches")
			}
			if opts.Tension != nil {
				t, signs := opts.Tension(da.Claims[refs[a].K].Text, db.Claims[refs[b].K].Text)
				e.risk += riskTension * t
				e.signs = append(e.signs, signs...)
			}
			edges = append(edges, e)
		}
	}
	slices.SortFunc(edges, func(x, y edge) int {
		return cmp.Or(cmp.Compare(y.risk, x.risk), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	// Union of clusters with a size cap and one claim per thought.
	cluster := make([]int, len(refs)) // claim → cluster id
	members := make([][]int, len(refs))
	for i := range refs {
		cluster[i] = i
		members[i] = []int{i}
	}
	top := make([]int, len(refs)) // cluster → index of its riskiest edge + 1
	for n, e := range edges {
		ca, cb := cluster[e.a], cluster[e.b]
		if ca == cb || len(members[ca])+len(members[cb]) > opts.MaxGroup {
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
		// Edges come riskiest first: a cluster's first edge is its riskiest.
		if top[ca] == 0 {
			top[ca] = n + 1
		}
		if top[cb] != 0 && top[cb] < top[ca] {
			top[ca] = top[cb]
		}
	}
	best := make([]int, len(refs)) // cluster → its riskiest inner edge + 1
	for n, e := range edges {
		c := cluster[e.a]
		if c == cluster[e.b] && (best[c] == 0 || e.risk > edges[best[c]-1].risk) {
			best[c] = n + 1
		}
	}
	var out []ReviewGroup
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
