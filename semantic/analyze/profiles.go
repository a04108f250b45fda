package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// BranchProfile summarises what a branch is about.
type BranchProfile struct {
	Branch string `json:"branchId"`
	Size   int    `json:"size"`
	// Centroid is the normalised mean of the branch's thought vectors (nil
	// when none has a vector).
	Centroid semantic.Vector `json:"-"`
	// Cohesion is the mean cosine of the branch's thoughts with its centroid
	// (nil without vectors).
	Cohesion *float64 `json:"cohesion,omitempty"`
	// KeyTerms are the words most typical of this branch (see Profiles).
	KeyTerms []string `json:"keyTerms"`
	// MeanConfidence is the mean of the known confidences (nil when none).
	MeanConfidence *float64 `json:"meanConfidence"`
	// WithConfidence is the number of thoughts with a confidence.
	WithConfidence int `json:"withConfidence"`
	docs           []Doc
	terms          map[string]float64
}

// profileKeyTerms is the number of key terms kept per branch.
const profileKeyTerms = 8

// Profiles builds one profile per branch, in order of the branch's first
// step.
//
// Key terms: the content and key points of the branch are tokenised
// (Tokenize), stop words, numbers and words under 3 letters dropped; each key
// point also counts as a whole (lower-cased) phrase. A term's weight is its
// count in the branch (key points count twice) × log(1 + B/b), where B is the
// number of branches and b the number of branches using the term, so terms
// shared by every branch rank below distinctive ones. The 8 heaviest are kept.
func Profiles(docs []Doc) []BranchProfile {
	brs := GroupBranches(docs)
	out := make([]BranchProfile, 0, len(brs))
	df := map[string]int{}
	for _, br := range brs {
		p := BranchProfile{Branch: br.ID, Size: len(br.Docs), docs: br.Docs, terms: map[string]float64{}}
		var vs []semantic.Vector
		var confSum float64
		for _, d := range br.Docs {
			if d.Vector != nil {
				vs = append(vs, d.Vector)
			}
			if d.Confidence != nil {
				confSum += *d.Confidence
				p.WithConfidence++
			}
			for _, t := range profileTokens(d.Content) {
				p.terms[t]++
			}
			for _, kp := range d.KeyPoints {
				if ph := strings.ToLower(strings.TrimSpace(kp)); ph != "" {
					p.terms[ph] += 2
				}
				for _, t := range profileTokens(kp) {
					if t != strings.ToLower(strings.TrimSpace(kp)) {
						p.terms[t] += 2
					}
				}
			}
		}
		if p.WithConfidence > 0 {
			m := math.Round(confSum/float64(p.WithConfidence)*100) / 100
			p.MeanConfidence = &m
		}
		p.Centroid = semantic.Centroid(vs)
		if p.Centroid != nil {
			var sum float64
			var n int
			for _, v := range vs {
				if len(v) == len(p.Centroid) {
					sum += semantic.Cosine(v, p.Centroid)
					n++
				}
			}
			c := sum / float64(n)
			p.Cohesion = &c
		}
		for t := range p.terms {
			df[t]++
		}
		out = append(out, p)
	}
	nb := float64(len(out))
	for i := range out {
		type tw struct {
			t string
			w float64
		}
		var ws []tw
		for t, c := range out[i].terms {
			ws = append(ws, tw{t, c * math.Log(1+nb/float64(df[t]))})
		}
		slices.SortFunc(ws, func(a, b tw) int {
			if c := cmp.Compare(b.w, a.w); c != 0 {
				return c
			}
			return strings.Compare(a.t, b.t)
		})
		for _, w := range ws[:min(profileKeyTerms, len(ws))] {
			out[i].KeyTerms = append(out[i].KeyTerms, w.t)
		}
	}
	return out
}

// profileTokens returns the content words of s used for key terms.
func profileTokens(s string) []string {
	var out []string
	for _, t := range semantic.Tokenize(s) {
		if len(t) < 3 || semantic.IsStopWord(t) || semantic.IsNumber(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// ProfileComparison is the similarity of two branches.
type ProfileComparison struct {
	BranchA    string   `json:"branchA"`
	BranchB    string   `json:"branchB"`
	Similarity float64  `json:"similarity"` // cosine of the centroids
	SharedKeys []string `json:"sharedKeyTerms"`
}

// CompareProfiles returns every pair of profiles that both have centroids,
// with the cosine of their centroids and the key terms they share, most
// similar first.
func CompareProfiles(ps []BranchProfile) []ProfileComparison {
	var out []ProfileComparison
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if ps[i].Centroid == nil || ps[j].Centroid == nil || len(ps[i].Centroid) != len(ps[j].Centroid) {
				continue
			}
			c := ProfileComparison{BranchA: ps[i].Branch, BranchB: ps[j].Branch, Similarity: semantic.Cosine(ps[i].Centroid, ps[j].Centroid), SharedKeys: []string{}}
			for _, t := range ps[i].KeyTerms {
				if slices.Contains(ps[j].KeyTerms, t) {
					c.SharedKeys = append(c.SharedKeys, t)
				}
			}
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b ProfileComparison) int { return cmp.Compare(b.Similarity, a.Similarity) })
	return out
}

// MergeCandidate is a pair of branches that cover the same ground.
type MergeCandidate struct {
	BranchA    string   `json:"branchA"`
	BranchB    string   `json:"branchB"`
	Similarity float64  `json:"similarity"` // cosine of the centroids
	SharedKeys []string `json:"sharedKeyTerms"`
	// Evidence are the most similar pairs of thoughts across the two
	// branches (up to 3).
	Evidence []ThoughtPair `json:"evidence"`
	Reason   string        `json:"reason"`
}

// ThoughtPair is two thoughts with their cosine.
type ThoughtPair struct {
	ThoughtA   ThoughtRef `json:"thoughtA"`
	ThoughtB   ThoughtRef `json:"thoughtB"`
	Similarity float64    `json:"similarity"`
}

// DefaultMergeSimilarity is the centroid cosine from which MergeCandidates
// proposes a merge.
const DefaultMergeSimilarity = 0.8

// MergeCandidates proposes merging branches whose centroids have cosine ≥
// minSim (values outside (0, 1] mean DefaultMergeSimilarity). The evidence
// are the three most similar cross-branch thought pairs, searched among the
// 64 thoughts of each branch closest to the other branch's centroid. Most
// similar first.
func MergeCandidates(ps []BranchProfile, minSim float64) []MergeCandidate {
	if minSim <= 0 || minSim > 1 {
		minSim = DefaultMergeSimilarity
	}
	byID := map[string]BranchProfile{}
	for _, p := range ps {
		byID[p.Branch] = p
	}
	var out []MergeCandidate
	for _, c := range CompareProfiles(ps) {
		if c.Similarity < minSim {
			continue
		}
		a, b := byID[c.BranchA], byID[c.BranchB]
		h := []ThoughtPair{}
		xs, ys := closestTo(a.docs, b.Centroid, mergeEvidencePool), closestTo(b.docs, a.Centroid, mergeEvidencePool)
		for _, x := range xs {
			for _, y := range ys {
				if len(x.Vector) == 0 || len(x.Vector) != len(y.Vector) {
					continue
				}
				h = append(h, ThoughtPair{ThoughtA: Ref(x), ThoughtB: Ref(y), Similarity: float64(semantic.Dot(semantic.AsUnit(x.Vector), semantic.AsUnit(y.Vector)))})
			}
		}
		slices.SortStableFunc(h, func(p, q ThoughtPair) int { return cmp.Compare(q.Similarity, p.Similarity) })
		h = h[:min(3, len(h))]
		reason := fmt.Sprintf("branches %s and %s have centroid similarity %.2f ≥ %.2f", c.BranchA, c.BranchB, c.Similarity, minSim)
		if len(c.SharedKeys) > 0 {
			reason += "; shared key terms: " + strings.Join(c.SharedKeys, ", ")
		}
		out = append(out, MergeCandidate{BranchA: c.BranchA, BranchB: c.BranchB, Similarity: c.Similarity, SharedKeys: c.SharedKeys, Evidence: h, Reason: reason})
	}
	return out
}

// mergeEvidencePool is how many thoughts per branch MergeCandidates pairs up.
const mergeEvidencePool = 64

// closestTo returns up to k docs with vectors, most similar to c first.
func closestTo(docs []Doc, c semantic.Vector, k int) []Doc {
	type ds struct {
		d Doc
		s float64
	}
	var all []ds
	for _, d := range docs {
		if len(d.Vector) != 0 && len(d.Vector) == len(c) {
			all = append(all, ds{d, float64(semantic.Dot(semantic.AsUnit(d.Vector), c))})
		}
	}
	slices.SortStableFunc(all, func(x, y ds) int { return cmp.Compare(y.s, x.s) })
	out := make([]Doc, 0, min(k, len(all)))
	for _, x := range all[:min(k, len(all))] {
		out = append(out, x.d)
	}
	return out
}

// BranchCentroids returns the centroid (normalised mean vector) of each
// branch's thoughts that have vectors; "" counts as "main".
func BranchCentroids(docs []Doc) map[string]semantic.Vector {
	out := map[string]semantic.Vector{}
	for _, br := range GroupBranches(docs) {
		var vs []semantic.Vector
		for _, d := range br.Docs {
			if d.Vector != nil {
				vs = append(vs, d.Vector)
			}
		}
		if c := semantic.Centroid(vs); c != nil {
			out[br.ID] = c
		}
	}
	return out
}

// OverlapWarning says that a thought fits another branch better than its own.
type OverlapWarning struct {
	SuggestedBranch     string  `json:"suggestedBranch"`
	CurrentSimilarity   float64 `json:"currentSimilarity"`
	SuggestedSimilarity float64 `json:"suggestedSimilarity"`
}

// DefaultOverlapMargin is the similarity by which another branch must fit
// better before BranchOverlap warns.
const DefaultOverlapMargin = 0.1

// BranchOverlap compares a thought's vector v with the centroid of its own
// branch and of every other branch (centroids as from BranchCentroids,
// computed before the thought was added). It returns a warning naming the
// most similar other branch when that branch's cosine exceeds the own
// branch's by at least margin (values ≤ 0 mean DefaultOverlapMargin), and nil
// otherwise, or when the own branch has no centroid yet (nothing to compare
// with).
func BranchOverlap(centroids map[string]semantic.Vector, branch string, v semantic.Vector, margin float64) *OverlapWarning {
	if margin <= 0 {
		margin = DefaultOverlapMargin
	}
	if branch == "" {
		branch = "main"
	}
	own, ok := centroids[branch]
	if !ok || len(own) != len(v) {
		return nil
	}
	cur := semantic.Cosine(v, own)
	best, bestSim := "", cur+margin
	ids := make([]string, 0, len(centroids))
	for id := range centroids {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := centroids[id]
		if id == branch || len(c) != len(v) {
			continue
		}
		if s := semantic.Cosine(v, c); s >= bestSim {
			best, bestSim = id, s
		}
	}
	if best == "" {
		return nil
	}
	return &OverlapWarning{SuggestedBranch: best, CurrentSimilarity: cur, SuggestedSimilarity: bestSim}
}

// BranchDocs is the thoughts of one branch in step order.
type BranchDocs struct {
	ID   string
	Docs []Doc
}

// GroupBranches splits docs by branch ("" counts as "main"), each in step
// order, branches in order of their first step.
func GroupBranches(docs []Doc) []BranchDocs {
	var out []BranchDocs
	at := map[string]int{}
	for _, d := range byStep(docs) {
		b := d.Branch
		if b == "" {
			b = "main"
		}
		i, ok := at[b]
		if !ok {
			i = len(out)
			at[b] = i
			out = append(out, BranchDocs{ID: b})
		}
		out[i].Docs = append(out[i].Docs, d)
	}
	return out
}
