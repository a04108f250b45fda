package analyze

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/internal/cputime"
	"github.com/thinkgraph/thinkgraph/semantic/internal/topk"
)

// tstNegators are the words the test judge treats as negation.
var tstNegators = map[string]bool{"not": true, "no": true, "never": true, "does": true, "doesn": true}

// tstJudge is a test-only contradiction judge: two texts contradict when,
// ignoring negation words, they use the same words (Jaccard ≥ 0.6) and
// exactly one of them is negated.
func tstJudge(a, b Doc) (bool, float64, string) {
	wa, na := tstWords(a.Content)
	wb, nb := tstWords(b.Content)
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	union := len(wa) + len(wb) - inter
	if union == 0 || float64(inter)/float64(union) < 0.6 || na == nb {
		return false, 0, ""
	}
	return true, 0.9, "one statement negates the other"
}

func tstWords(s string) (map[string]bool, bool) {
	set := map[string]bool{}
	neg := false
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if tstNegators[w] {
			neg = neg || w != "does"
			continue
		}
		set[strings.TrimSuffix(w, "s")] = true
	}
	return set, neg
}

// tstDocs builds docs from (id, branch, type, content) tuples with the test
// embedder, steps in order.
func tstDocs(rows ...[4]string) []Doc {
	var out []Doc
	for i, r := range rows {
		out = append(out, Doc{ID: r[0], SessionID: "s", Branch: r[1], Step: i + 1, Type: r[2], Content: r[3], Vector: tstEmbed(r[3])})
	}
	return out
}

func tstF(x float64) *float64 { return &x }

func tstIDs(refs []ThoughtRef) []string {
	var ids []string
	for _, r := range refs {
		ids = append(ids, r.ID)
	}
	return ids
}

// withClaims gives each doc one claim, its whole text (with a word more
// when it has one content word: a review claim needs two), with its vector.
func withClaims(docs []Doc) []Doc {
	for i := range docs {
		docs[i].Claims = []Claim{{Text: "stated " + docs[i].Content, Vector: docs[i].Vector}}
	}
	return docs
}

// The review groups what speaks of the same thing: the two claims about the
// cache are the riskiest pair (they are on two branches) and in one group.
func TestReviewGroupsPlanted(t *testing.T) {
	docs := withClaims(tstDocs(
		[4]string{"t1", "main", "analysis", "The cache improves read latency for hot keys"},
		[4]string{"t2", "main", "analysis", "We should shard the database by customer region"},
		[4]string{"t3", "alt", "observation", "The cache does not improve read latency for hot keys"},
		[4]string{"t4", "alt", "hypothesis", "Sharding by region keeps data near its users"},
	))
	g := NewGrouper(ReviewOptions{MaxGroup: 6})
	groups := g.Update(docs)
	pairs, claims := g.Pairs(), g.Claims()
	if len(pairs) == 0 || len(groups) == 0 {
		t.Fatalf("pairs %v, groups %v", pairs, groups)
	}
	top := pairs[0]
	if key := GroupKey(docs, []ClaimRef{claims[top.A], claims[top.B]}); key != "1.1-3.1" || top.Risk < float64(top.Similarity)+riskBranch {
		t.Fatalf("riskiest pair %s (risk %.2f), want the cache claims of two branches", key, top.Risk)
	}
	for i := 1; i < len(pairs); i++ {
		if pairs[i].Risk > pairs[i-1].Risk {
			t.Fatalf("pairs not riskiest first: %v", pairs)
		}
	}
	i := slices.IndexFunc(groups, func(gr ReviewGroup) bool { return slices.Contains(gr.Claims, ClaimRef{Doc: 0}) })
	if i < 0 || !slices.Contains(groups[i].Claims, ClaimRef{Doc: 2}) || groups[i].Risk != top.Risk {
		t.Fatalf("groups %v: the cache claims apart", groups)
	}
}

// tstClustered returns n unit vectors around `topics` random topic
// directions: topic + noise·g with g ~ N(0, I/dim), so two vectors of one
// topic have cosine ≈ 1/(1+noise²).
func tstClustered(n, dim, topics int, noise float64, seed uint64) []semantic.Vector {
	r := rand.New(rand.NewPCG(seed, 11))
	tv := tstRandUnit(topics, dim, seed+1)
	out := make([]semantic.Vector, n)
	sd := noise / math.Sqrt(float64(dim))
	for i := range out {
		t := tv[r.IntN(topics)]
		v := make(semantic.Vector, dim)
		for j := range v {
			v[j] = t[j] + float32(sd*r.NormFloat64())
		}
		out[i] = semantic.Normalize(v)
	}
	return out
}

// tstPlant returns docs over clustered vectors in which every 50th doc has a
// planted contradicting twin (vector cosine ≈ 0.95 with it), marked in the
// content; the twins are the only pairs tstTagJudge flags.
func tstPlant(n, dim int) (docs []Doc, planted map[[2]string]bool) {
	vs := tstClustered(n, dim, max(n/50, 2), 1.0, 5)
	planted = map[[2]string]bool{}
	r := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < n; i++ {
		d := Doc{ID: fmt.Sprintf("d%05d", i), Branch: fmt.Sprintf("b%d", i%50), Step: i + 1, Content: "plain", Vector: vs[i]}
		if i%50 == 1 {
			prev := docs[i-1]
			v := make(semantic.Vector, dim)
			for j := range v {
				v[j] = prev.Vector[j] + float32(0.33/math.Sqrt(float64(dim))*r.NormFloat64())
			}
			d.Vector = semantic.Normalize(v)
			d.Content = "twin of " + prev.ID
			planted[[2]string{prev.ID, d.ID}] = true
		}
		docs = append(docs, d)
	}
	return docs, planted
}

func tstTagJudge(a, b Doc) (bool, float64, string) {
	if b.Content == "twin of "+a.ID || a.Content == "twin of "+b.ID {
		return true, 0.8, "planted"
	}
	return false, 0, ""
}

// TestReviewGroupsApproximate plants pairs of near twins in a session too
// large for exact neighbours: every twin is grouped with its pair, and a
// grouper fed the session in two parts groups it as one fed it whole.
func TestReviewGroupsApproximate(t *testing.T) {
	docs, planted := tstPlant(3000, 128)
	docs = withClaims(docs)
	opts := ReviewOptions{MaxGroup: 6}
	together := func(groups []ReviewGroup) int {
		in := map[string]int{}
		for n, g := range groups {
			for _, c := range g.Claims {
				in[docs[c.Doc].ID] = n + 1
			}
		}
		found := 0
		for p := range planted {
			if in[p[0]] != 0 && in[p[0]] == in[p[1]] {
				found++
			}
		}
		return found
	}
	if got := together(GroupClaims(docs, opts)); got != len(planted) {
		t.Errorf("%d of %d planted twins grouped together", got, len(planted))
	}
	gr := NewGrouper(opts)
	gr.Update(docs[:2900])
	if got := together(gr.Update(docs)); got < len(planted)-2 {
		t.Errorf("incrementally: %d of %d planted twins grouped together", got, len(planted))
	}
}

// TestKNNApproximateAgainstExact compares the approximate neighbour lists
// with exact ones on clustered data: most true nearest neighbours are found.
func TestKNNApproximateAgainstExact(t *testing.T) {
	vs := tstClustered(2000, 256, 40, 1.0, 3)
	m := newMatrix(vs, 256)
	g := knnGraph(m, 10, 0.3)
	hit, total := 0, 0
	for i := 0; i < m.n; i += 20 {
		h := topk.Heap{K: 10}
		for j := 0; j < m.n; j++ {
			if j != i {
				if s := semantic.Dot(m.row(i), m.row(j)); s >= 0.3 && h.Wants(s) {
					h.Push(topk.Scored{I: j, S: s})
				}
			}
		}
		for _, it := range h.Items {
			total++
			if slices.ContainsFunc(g[i], func(nb neighbor) bool { return int(nb.j) == it.I }) {
				hit++
			}
		}
	}
	recall := float64(hit) / float64(total)
	t.Logf("approximate 10-NN recall on clustered data: %.3f (%d/%d)", recall, hit, total)
	if recall < 0.9 {
		t.Fatalf("recall %.3f < 0.9", recall)
	}
}

// TestKNNRecallPlanted measures the approximate neighbour lists against
// exact ones on planted data of 32,000 thoughts (512 dimensions, so the
// sketches are used):
// the share of the exact 10 nearest neighbours (cosine ≥ 0.3) of 200 sampled
// rows that are found, and the share of planted twins (cosine ≈ 0.95) that
// list each other. The floors are the figures measured when the test was
// written, rounded down; a search that degrades fails here.
func TestKNNRecallPlanted(t *testing.T) {
	docs, _ := tstPlant(32_000, 512)
	vd := vectorsOf(docs, nil)
	g := knnGraph(vd.m, 10, 0.3)
	recall := tstKNNRecall(vd.m, g, 10, 0.3, 200)
	twins, found := 0, 0
	for i := 1; i < vd.m.n; i += 50 {
		twins++
		if slices.ContainsFunc(g[i], func(nb neighbor) bool { return int(nb.j) == i-1 }) ||
			slices.ContainsFunc(g[i-1], func(nb neighbor) bool { return int(nb.j) == i }) {
			found++
		}
	}
	t.Logf("10-NN recall %.3f; planted twins found %d of %d", recall, found, twins)
	if recall < tstRecallFloor {
		t.Errorf("10-NN recall %.3f < %.3f", recall, tstRecallFloor)
	}
	if float64(found) < tstTwinFloor*float64(twins) {
		t.Errorf("planted twins found %d of %d < %.2f", found, twins, tstTwinFloor)
	}
}

const tstRecallFloor, tstTwinFloor = 0.66, 0.95

func TestSemanticPath(t *testing.T) {
	deg := func(a float64) semantic.Vector {
		r := a * math.Pi / 180
		return semantic.Vector{float32(math.Cos(r)), float32(math.Sin(r)), 0}
	}
	docs := []Doc{
		{ID: "a", Branch: "main", Step: 1, Vector: deg(0)},
		{ID: "b", Branch: "main", Step: 2, Vector: deg(30)},
		{ID: "c", Branch: "main", Step: 3, Vector: deg(60)},
		{ID: "d", Branch: "main", Step: 4, Vector: deg(90)},
		{ID: "e", Branch: "main", Step: 5, Vector: semantic.Vector{0, 0, 1}},
		{ID: "f", Branch: "main", Step: 6},
	}
	res, err := SemanticPath(docs, "a", "d", 0.4)
	if err != nil {
		t.Fatal(err)
	}
	steps := []string{}
	for _, s := range res.Steps {
		steps = append(steps, s.Thought.ID)
	}
	// a–c (cos 0.5, cost 0.5) and a–b–c (2·(1−cos 30°) = 0.268) both exist:
	// the shortest path takes the small steps.
	want := 3 * (1 - math.Cos(math.Pi/6))
	if !res.Found || strings.Join(steps, ",") != "a,b,c,d" || math.Abs(res.Cost-want) > 1e-5 || math.Abs(*res.WeakestLink-math.Cos(math.Pi/6)) > 1e-5 {
		t.Fatalf("path = %v, cost %v (want %v), %+v", steps, res.Cost, want, res)
	}
	if res.Steps[0].Similarity != nil || res.Steps[1].Similarity == nil {
		t.Fatal("first step must have no similarity, the others one")
	}
	res, err = SemanticPath(docs, "a", "e", 0.4)
	if err != nil || res.Found || !strings.Contains(res.Reason, "no path") || !strings.Contains(res.Reason, "4 of 5") {
		t.Fatalf("unreachable: %+v, %v", res, err)
	}
	if _, err := SemanticPath(docs, "a", "zz", 0.4); err == nil {
		t.Fatal("unknown id: no error")
	}
	if _, err := SemanticPath(docs, "a", "f", 0.4); err == nil {
		t.Fatal("no vector: no error")
	}
}

func TestSimilarAndRelated(t *testing.T) {
	docs := tstDocs(
		[4]string{"t1", "main", "", "caching strategies improve performance"},
		[4]string{"t2", "main", "", "performance optimization with caching"},
		[4]string{"t3", "main", "", "the weather is nice today"},
	)
	idx := semantic.NewIndex(tstDim)
	for _, d := range docs {
		idx.Add(d.ID, d.Vector)
	}
	hits, err := Similar(idx, tstEmbed("performance optimization"), 2)
	if err != nil || len(hits) != 2 || hits[0].ID != "t2" {
		t.Fatalf("Similar = %+v, %v", hits, err)
	}
	rel, err := Related(idx, "t1", 5)
	if err != nil || len(rel) != 2 || rel[0].ID != "t2" || rel[1].ID != "t3" {
		t.Fatalf("Related = %+v, %v", rel, err)
	}
	if _, err := Related(idx, "nope", 1); err == nil {
		t.Fatal("Related unknown id: no error")
	}
}

func TestDetectCircular(t *testing.T) {
	docs := tstDocs(
		[4]string{"p1", "main", "analysis", "JWT tokens scale horizontally because servers keep no session state"},
		[4]string{"a", "main", "analysis", "Rate limits protect the login endpoint"},
		[4]string{"b", "main", "analysis", "Brute force attacks are slowed by rate limits"},
		[4]string{"c", "main", "analysis", "Login stays available under attack"},
		[4]string{"s", "main", "synthesis", "JWT tokens scale horizontally because servers keep no session state"},
	)
	docs[1].DependsOn = []string{"c"}
	docs[2].DependsOn = []string{"a"}
	docs[3].DependsOn = []string{"b"}
	docs[4].DependsOn = []string{"p1"}
	got := DetectCircular(docs, CircularOptions{})
	if len(got) != 2 {
		t.Fatalf("got %d findings: %+v", len(got), got)
	}
	cyc, rest := got[0], got[1]
	if cyc.Kind != CircularDependencyCycle || strings.Join(tstIDs(cyc.Thoughts), ",") != "a,c,b" ||
		!strings.Contains(cyc.Reason, "#2 builds on #4, #4 builds on #3, #3 builds on #2") {
		t.Fatalf("cycle = %+v", cyc)
	}
	if rest.Kind != CircularSupport || strings.Join(tstIDs(rest.Thoughts), ",") != "p1,s" {
		t.Fatalf("restatement = %+v", rest)
	}

	// Clean: a chain with a synthesis that says something new.
	clean := tstDocs(
		[4]string{"p1", "main", "analysis", "JWT tokens scale horizontally because servers keep no session state"},
		[4]string{"p2", "main", "validation", "Load tests show linear throughput up to eight nodes"},
		[4]string{"s", "main", "synthesis", "Choose JWT: measured scaling matches the stateless design"},
	)
	clean[1].ParentID = "p1"
	clean[2].ParentID = "p2"
	clean[2].DependsOn = []string{"p1", "p2"}
	if got := DetectCircular(clean, CircularOptions{}); len(got) != 0 {
		t.Fatalf("clean input: %+v", got)
	}
	// A thought that is its own parent is a cycle of one.
	self := []Doc{{ID: "x", ParentID: "x", Content: "x"}}
	if got := DetectCircular(self, CircularOptions{}); len(got) != 1 || got[0].Kind != CircularDependencyCycle {
		t.Fatalf("self loop: %+v", got)
	}
}

func TestFindRedundancy(t *testing.T) {
	docs := tstDocs(
		[4]string{"1", "main", "", "Redis sessions are simple to scale"},
		[4]string{"2", "main", "", "JWT avoids server side state"},
		[4]string{"3", "main", "", "Redis sessions are simple to scale!"},
		[4]string{"4", "alt", "", "Redis sessions are simple to scale"},
	)
	got := FindRedundancy(docs, 0)
	if len(got) != 1 || got[0].ThoughtA.ID != "1" || got[0].ThoughtB.ID != "3" || got[0].Branch != "main" || math.Abs(got[0].Similarity-1) > 1e-5 {
		t.Fatalf("redundancy = %+v", got)
	}
	if got := FindRedundancy(docs[:2], 0); len(got) != 0 {
		t.Fatalf("clean: %+v", got)
	}
}

func TestDetectKnowledgeGaps(t *testing.T) {
	docs := tstDocs(
		[4]string{"q1", "main", "question", "Which cache eviction policy fits hot keys?"},
		[4]string{"q2", "main", "analysis", "How do we rotate signing keys?"},
		[4]string{"h1", "main", "hypothesis", "LRU eviction policy fits hot keys best"},
		[4]string{"h2", "main", "hypothesis", "Sharding by tenant halves tail latency"},
		[4]string{"a1", "main", "answer", "The LRU cache eviction policy fits hot keys"},
		[4]string{"v1", "main", "validation", "Benchmark: LRU eviction policy fits hot keys, hit rate 97%"},
		[4]string{"c1", "main", "analysis", "Users probably prefer passwordless login"},
		[4]string{"c2", "main", "analysis", "Costs will likely double next year"},
		[4]string{"e1", "main", "example", "Survey: users prefer passwordless login links"},
	)
	docs[6].Confidence = tstF(0.3)
	docs[7].Confidence = tstF(0.2)
	docs[7].DependsOn = nil
	got := DetectKnowledgeGaps(docs, GapOptions{})
	var kinds []string
	for _, g := range got {
		kinds = append(kinds, g.Kind+":"+g.Thought.ID)
	}
	want := "open_question:q2,unvalidated_hypothesis:h2,unsupported_claim:c2"
	if strings.Join(kinds, ",") != want {
		t.Fatalf("gaps = %v, want %s", kinds, want)
	}
	for _, g := range got {
		if g.Reason == "" {
			t.Fatalf("gap without reason: %+v", g)
		}
	}
	// Closing the gaps: an answer, a validation and a dependency.
	docs = append(docs, tstDocs(
		[4]string{"a2", "alt", "analysis", "Rotate signing keys monthly with overlap"},
		[4]string{"v2", "alt", "validation", "Sharding by tenant halves tail latency in the load test"},
	)...)
	docs[9].Step, docs[10].Step = 20, 21
	docs[9].ParentID = "q2"
	docs[7].DependsOn = []string{"e1"}
	if got := DetectKnowledgeGaps(docs, GapOptions{}); len(got) != 0 {
		t.Fatalf("closed gaps still reported: %+v", got)
	}
}

func TestProfilesCompareAndMerge(t *testing.T) {
	docs := tstDocs(
		[4]string{"1", "oauth", "hypothesis", "OAuth2 with JWT tokens for stateless auth"},
		[4]string{"2", "oauth", "validation", "JWT tokens enable horizontal scaling"},
		[4]string{"3", "jwt", "analysis", "JWT tokens enable stateless horizontal scaling"},
		[4]string{"4", "session", "hypothesis", "Session-based auth with Redis"},
	)
	docs[0].Confidence, docs[1].Confidence = tstF(0.8), tstF(0.9)
	docs[0].KeyPoints = []string{"stateless"}
	ps := Profiles(docs)
	if len(ps) != 3 || ps[0].Branch != "oauth" || ps[0].Size != 2 || math.Abs(*ps[0].MeanConfidence-0.85) > 1e-9 || ps[2].MeanConfidence != nil {
		t.Fatalf("profiles = %+v", ps)
	}
	if !slices.Contains(ps[0].KeyTerms, "stateless") || !slices.Contains(ps[2].KeyTerms, "redis") {
		t.Fatalf("key terms: %v / %v", ps[0].KeyTerms, ps[2].KeyTerms)
	}
	cmp := CompareProfiles(ps)
	if len(cmp) != 3 {
		t.Fatalf("comparisons = %+v", cmp)
	}
	want := semantic.Cosine(semantic.Centroid([]semantic.Vector{docs[0].Vector, docs[1].Vector}), docs[2].Vector)
	if cmp[0].BranchA != "oauth" || cmp[0].BranchB != "jwt" || math.Abs(cmp[0].Similarity-want) > 1e-5 {
		t.Fatalf("best comparison = %+v, want oauth/jwt %.4f", cmp[0], want)
	}
	merges := MergeCandidates(ps, 0.7)
	if len(merges) != 1 || merges[0].BranchB != "jwt" || len(merges[0].Evidence) != 2 || merges[0].Evidence[0].ThoughtA.ID != "2" {
		t.Fatalf("merges (centroid sim %.3f) = %+v", want, merges)
	}
}

func TestEvaluateBranchExactValues(t *testing.T) {
	docs := []Doc{
		{ID: "t1", Step: 1, Confidence: tstF(0.5), Vector: semantic.Vector{1, 0}, Content: "x"},
		{ID: "t2", Step: 2, Confidence: tstF(0.7), Vector: semantic.Vector{1, 0}, Content: "x"},
		{ID: "t3", Step: 3, Confidence: tstF(0.9), Vector: semantic.Vector{0, 1}, Content: "y"},
	}
	ev := EvaluateBranch(docs, semantic.Vector{1, 0}, nil, Thresholds{})
	check := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 1e-6 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("coherence", ev.CoherenceScore, 0.5)        // (1 + 0)/2
	check("informationGain", ev.InformationGain, 0.5) // ((1−1) + (1−0))/2
	check("redundancy", ev.RedundancyScore, 0.5)      // t2 repeats t1: 1 of 2
	check("goalAlignment", ev.GoalAlignment, 2.0/3)   // (1 + 1 + 0)/3
	check("confidenceGradient", ev.ConfidenceGradient, 0.7)
	// (0.25·0.5 + 0.2·0.5 + 0.2·2/3 + 0.05·0.7 + 0.1·0.5) / 0.8
	check("overall", ev.OverallScore, (0.125+0.1+0.2*2/3+0.035+0.05)/0.8)
	if ev.ContradictionScore != nil || ev.Unavailable["contradictionScore"] == "" {
		t.Errorf("contradiction without judge: %v %v", ev.ContradictionScore, ev.Unavailable)
	}
	if ev.Quality != "Moderate" || ev.ShouldPivot {
		t.Errorf("quality %s pivot %v", ev.Quality, ev.ShouldPivot)
	}
	if !slices.ContainsFunc(ev.Issues, func(s string) bool { return strings.Contains(s, "50% of the thoughts are near-duplicates") }) {
		t.Errorf("issues = %v", ev.Issues)
	}

	// A judge that flags t1/t2: the only candidate pair (t1·t3 = t2·t3 = 0).
	judge := func(a, b Doc) (bool, float64, string) { return a.Content == b.Content, 1, "test" }
	ev = EvaluateBranch(docs, semantic.Vector{1, 0}, judge, Thresholds{})
	check("contradiction", ev.ContradictionScore, 1)
	check("overall with judge", ev.OverallScore, 0.125+0.1+0.2*2/3+0.035+0.05)
	if ev.Quality != "Poor" || len(ev.Contradictions) != 1 || !strings.Contains(ev.Issues[0], "1 contradiction(s) between thoughts #1 and #2") {
		t.Errorf("quality %s, contradictions %+v, issues %v", ev.Quality, ev.Contradictions, ev.Issues)
	}

	// No goal: goalAlignment is null with a reason, not a number.
	ev = EvaluateBranch(docs, nil, nil, Thresholds{})
	b, _ := json.Marshal(ev)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"coherenceScore", "contradictionScore", "informationGain", "goalAlignment", "overallScore", "quality", "issues", "suggestions", "confidenceGradient", "redundancyScore", "shouldPivot"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
	if m["goalAlignment"] != nil || ev.Unavailable["goalAlignment"] != "no goal set for the session" {
		t.Errorf("goalAlignment without goal = %v (%v)", m["goalAlignment"], ev.Unavailable)
	}
	check("overall without goal", ev.OverallScore, (0.125+0.1+0.035+0.05)/0.6)
}

func TestEvaluateBranchPivot(t *testing.T) {
	docs := []Doc{
		{ID: "t1", Step: 1, Vector: semantic.Vector{1, 0}},
		{ID: "t2", Step: 2, Vector: semantic.Vector{-1, 0}},
		{ID: "t3", Step: 3, Vector: semantic.Vector{1, 0}},
		{ID: "t4", Step: 4, Vector: semantic.Vector{-1, 0}},
	}
	ev := EvaluateBranch(docs, semantic.Vector{0, 1}, nil, Thresholds{})
	// coherence 0, information gain (1 + 0 + 0)/3, redundancy 2/3, goal 0:
	// (0.2·1/3 + 0.1·1/3) / 0.75 = 0.4/3.
	if ev.OverallScore == nil || math.Abs(*ev.OverallScore-0.4/3) > 1e-9 || ev.Quality != "Poor" || !ev.ShouldPivot || !strings.Contains(ev.PivotReason, "below the pivot threshold 0.40") {
		t.Fatalf("evaluation = %+v", ev)
	}
	// Three thoughts score as low (0.2) but are no trend: no pivot, and
	// the reason says so.
	three := EvaluateBranch(docs[:3], semantic.Vector{0, 1}, nil, Thresholds{})
	if three.OverallScore == nil || math.Abs(*three.OverallScore-0.2) > 1e-9 || three.ShouldPivot || !strings.Contains(three.PivotReason, "no pivot verdict") {
		t.Fatalf("three thoughts: %+v", three)
	}
	if ev.ConfidenceGradient != nil || ev.Unavailable["confidenceGradient"] == "" {
		t.Fatalf("confidence gradient without confidences: %v", ev.ConfidenceGradient)
	}
	auto := ev.Auto()
	if auto.Score != ev.OverallScore || !auto.ShouldPivot || auto.Metrics.CoherenceScore == nil {
		t.Fatalf("auto = %+v", auto)
	}
	// A custom pivot threshold below the score: no pivot.
	ev = EvaluateBranch(docs, semantic.Vector{0, 1}, nil, Thresholds{Pivot: 0.1})
	if ev.ShouldPivot {
		t.Fatal("pivot despite threshold 0.1")
	}
	// Empty branch: nothing is made up.
	ev = EvaluateBranch(nil, nil, nil, Thresholds{})
	if ev.OverallScore != nil || ev.Quality != "Unrated" {
		t.Fatalf("empty = %+v", ev)
	}
}

func tstCheapJudge(a, b Doc) (bool, float64, string) {
	if len(a.Content)+len(b.Content) == 0 {
		return true, 1, "empty"
	}
	return false, 0, ""
}

// BenchmarkGroupClaims10k and 100k group the claims of a whole session
// (one claim a thought, no tension: the neighbour search and the
// clustering); "grouped" counts the planted twins grouped with their pair.
func BenchmarkGroupClaims10k(b *testing.B)  { benchGroup(b, 10_000) }
func BenchmarkGroupClaims100k(b *testing.B) { benchGroup(b, 100_000) }

func benchGroup(b *testing.B, n int) {
	docs, planted := tstPlant(n, 512)
	docs = withClaims(docs)
	var groups []ReviewGroup
	cputime.Loop(b, func() { groups = GroupClaims(docs, ReviewOptions{}) })
	b.StopTimer()
	in := map[string]int{}
	for n, g := range groups {
		for _, c := range g.Claims {
			in[docs[c.Doc].ID] = n + 1
		}
	}
	found := 0
	for p := range planted {
		if in[p[0]] != 0 && in[p[0]] == in[p[1]] {
			found++
		}
	}
	b.ReportMetric(float64(found), "grouped")
	b.ReportMetric(float64(len(planted)), "planted")
}

// BenchmarkKNNGraph100k is the neighbour search of BenchmarkGroupClaims100k
// alone; "recall" is the share
// of the exact 10 nearest neighbours (cosine ≥ 0.3) of 500 sampled rows that
// it finds.
func BenchmarkKNNGraph100k(b *testing.B) {
	docs, _ := tstPlant(100_000, 512)
	vd := vectorsOf(docs, nil)
	var g [][]neighbor
	cputime.Loop(b, func() { g = knnGraph(vd.m, 10, 0.3) })
	b.StopTimer()
	b.ReportMetric(tstKNNRecall(vd.m, g, 10, 0.3, 500), "recall")
}

// tstKNNRecall returns the share of the exact k nearest neighbours with
// cosine ≥ minSim of `queries` evenly spaced rows of m that g lists.
func tstKNNRecall(m *matrix, g [][]neighbor, k int, minSim float32, queries int) float64 {
	hit, total := 0, 0
	step := max(m.n/queries, 1)
	for i := 0; i < m.n; i += step {
		h := topk.Heap{K: k}
		for j := 0; j < m.n; j++ {
			if j != i {
				if s := semantic.Dot(m.row(i), m.row(j)); s >= minSim && h.Wants(s) {
					h.Push(topk.Scored{I: j, S: s})
				}
			}
		}
		for _, it := range h.Items {
			total++
			if slices.ContainsFunc(g[i], func(nb neighbor) bool { return int(nb.j) == it.I }) {
				hit++
			}
		}
	}
	if total == 0 {
		return 1
	}
	return float64(hit) / float64(total)
}

func tstBenchEvaluate(b *testing.B, n int) {
	docs, _ := tstPlant(n, 512)
	goal := tstRandUnit(1, 512, 77)[0]
	for i := range docs {
		docs[i].Branch = "main"
		docs[i].Confidence = tstF(float64(i%10) / 10)
	}
	cputime.Loop(b, func() {
		ev := EvaluateBranch(docs, goal, tstCheapJudge, Thresholds{})
		if ev.OverallScore == nil {
			b.Fatal("no score")
		}
	})
}

func BenchmarkEvaluateBranch1k(b *testing.B)  { tstBenchEvaluate(b, 1_000) }
func BenchmarkEvaluateBranch10k(b *testing.B) { tstBenchEvaluate(b, 10_000) }

// tstBranch returns n docs of one branch with word-bag vectors over a small
// vocabulary (so that some pairs overlap, some repeat and some are negated)
// and confidences.
func tstBranch(n int, seed uint64) []Doc {
	words := []string{"cache", "latency", "shard", "region", "token", "session", "scale", "cost", "replica", "index"}
	r := rand.New(rand.NewPCG(seed, 1))
	var docs []Doc
	for i := range n {
		var ws []string
		for range 3 + r.IntN(3) {
			ws = append(ws, words[r.IntN(len(words))])
		}
		if r.IntN(4) == 0 {
			ws = append(ws, "not")
		}
		text := strings.Join(ws, " ")
		d := Doc{ID: fmt.Sprintf("t%03d", i), Branch: "main", Step: i + 1, Content: text, Vector: tstEmbed(text)}
		if r.IntN(3) > 0 {
			d.Confidence = tstF(float64(r.IntN(11)) / 10)
		}
		docs = append(docs, d)
	}
	return docs
}

// TestBranchTrackerMatchesBatch checks that adding thoughts one by one gives
// the same evaluation as evaluating the whole branch at once.
func TestBranchTrackerMatchesBatch(t *testing.T) {
	docs := tstBranch(80, 4)
	goal := tstEmbed("cache latency region")
	want := EvaluateBranch(docs, goal, tstJudge, Thresholds{})
	tr := NewBranchTracker(docs[:30], goal, tstJudge, Thresholds{})
	var got Evaluation
	for _, d := range docs[30:] {
		got = tr.Add(d)
	}
	same := func(name string, a, b *float64) {
		t.Helper()
		if (a == nil) != (b == nil) || (a != nil && math.Abs(*a-*b) > 1e-6) {
			t.Errorf("%s: incremental %v, batch %v", name, a, b)
		}
	}
	same("coherence", got.CoherenceScore, want.CoherenceScore)
	same("contradiction", got.ContradictionScore, want.ContradictionScore)
	same("informationGain", got.InformationGain, want.InformationGain)
	same("goalAlignment", got.GoalAlignment, want.GoalAlignment)
	same("confidenceGradient", got.ConfidenceGradient, want.ConfidenceGradient)
	same("redundancy", got.RedundancyScore, want.RedundancyScore)
	same("overall", got.OverallScore, want.OverallScore)
	if len(got.Contradictions) != len(want.Contradictions) || len(want.Contradictions) == 0 || got.Quality != want.Quality {
		t.Errorf("contradictions %d vs %d, quality %s vs %s", len(got.Contradictions), len(want.Contradictions), got.Quality, want.Quality)
	}
	// An out-of-order thought re-evaluates the branch in step order.
	late := docs[5]
	late.ID, late.Step = "late", 0
	got = tr.Add(late)
	want = EvaluateBranch(append(slices.Clone(docs), late), goal, tstJudge, Thresholds{})
	same("overall after out-of-order add", got.OverallScore, want.OverallScore)
	tr.SetGoal(nil)
	if ev := tr.Evaluation(); ev.GoalAlignment != nil {
		t.Error("goal alignment after SetGoal(nil)")
	}
}

func BenchmarkBranchTrackerAdd10k(b *testing.B) {
	docs, _ := tstPlant(10_000, 512)
	extra, _ := tstPlant(2_000, 512)
	goal := tstRandUnit(1, 512, 77)[0]
	tr := NewBranchTracker(docs, goal, tstCheapJudge, Thresholds{})
	i := 0
	cputime.Loop(b, func() {
		d := extra[i%len(extra)]
		d.ID, d.Step = fmt.Sprintf("x%d", i), 20_000+i
		i++
		if ev := tr.Add(d); ev.OverallScore == nil {
			b.Fatal("no score")
		}
	})
}

// TestBranchTrackerParallelScan checks the parallel scan of a long branch
// against brute force.
func TestBranchTrackerParallelScan(t *testing.T) {
	vs := tstClustered(3000, 512, 30, 1.0, 8)
	var docs []Doc
	for i, v := range vs {
		docs = append(docs, Doc{ID: fmt.Sprint(i), Step: i + 1, Vector: v})
	}
	tr := NewBranchTracker(docs, nil, nil, Thresholds{})
	q := vs[123]
	best, nbs := tr.scanEarlier(q, len(vs))
	var all []float64
	for _, v := range vs {
		all = append(all, float64(semantic.Dot(q, v)))
	}
	slices.Sort(all)
	slices.Reverse(all)
	if math.Abs(float64(best)-all[0]) > 1e-6 || len(nbs) != 10 || math.Abs(float64(nbs[9].s)-all[9]) > 1e-6 {
		t.Fatalf("best %v (want %v), 10th %v (want %v)", best, all[0], nbs[len(nbs)-1].s, all[9])
	}
}

// tstStones returns n random background docs of dimension dim plus a chain
// s0…s10 turning from e1 to e2 in 9° steps.
func tstStones(n, dim int) []Doc {
	var docs []Doc
	for i, v := range tstClustered(n, dim, 20, 1.0, 21) {
		docs = append(docs, Doc{ID: fmt.Sprintf("bg%d", i), Step: i + 1, Vector: v})
	}
	for k := 0; k <= 10; k++ {
		v := make(semantic.Vector, dim)
		a := float64(k) * 9 * math.Pi / 180
		v[0], v[1] = float32(math.Cos(a)), float32(math.Sin(a))
		docs = append(docs, Doc{ID: fmt.Sprintf("s%d", k), Step: n + k + 1, Vector: v})
	}
	return docs
}

func TestSemanticPathSparse(t *testing.T) {
	docs := tstStones(3000, 128)
	res, err := SemanticPath(docs, "s0", "s10", 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := 10 * (1 - math.Cos(9*math.Pi/180))
	if res.Exact || !res.Found || len(res.Steps) != 11 || math.Abs(res.Cost-want) > 1e-5 || res.Steps[5].Thought.ID != "s5" {
		t.Fatalf("sparse path: exact %v found %v steps %d cost %v (want %v)", res.Exact, res.Found, len(res.Steps), res.Cost, want)
	}
	res, err = SemanticPath(docs, "s0", "bg7", 0.5)
	if err != nil || res.Found {
		t.Fatalf("unreachable background doc: %+v %v", res.Reason, err)
	}
}

func BenchmarkSemanticPath10k(b *testing.B) {
	docs := tstStones(10_000, 512)
	cputime.Loop(b, func() {
		if res, err := SemanticPath(docs, "s0", "s10", 0.5); err != nil || !res.Found {
			b.Fatal(err, res.Reason)
		}
	})
}

// tstSession returns n thoughts over 50 branches: within a branch each
// thought's parent is the previous one, every 7th also depends on the
// thought 5 steps back, types cycle through the seed's ten types.
func tstSession(n int) []Doc {
	docs, _ := tstPlant(n, 512)
	types := []string{"analysis", "hypothesis", "validation", "synthesis", "observation", "question", "answer", "example", "counterexample", "critique"}
	last := map[string]int{}
	for i := range docs {
		d := &docs[i]
		d.Type = types[i%len(types)]
		d.Confidence = tstF(float64(i%10) / 10)
		d.Content = fmt.Sprintf("thought %d about topic%d and topic%d", i, i%97, i%13)
		if p, ok := last[d.Branch]; ok {
			d.ParentID = docs[p].ID
		}
		if i%7 == 0 && i >= 5*50 {
			d.DependsOn = []string{docs[i-5*50].ID}
		}
		last[d.Branch] = i
	}
	return docs
}

func BenchmarkAnalyzers10k(b *testing.B) {
	docs := tstSession(10_000)
	b.Run("DetectCircular", func(b *testing.B) { cputime.Loop(b, func() { DetectCircular(docs, CircularOptions{}) }) })
	b.Run("FindRedundancy", func(b *testing.B) { cputime.Loop(b, func() { FindRedundancy(docs, 0) }) })
	b.Run("DetectKnowledgeGaps", func(b *testing.B) { cputime.Loop(b, func() { DetectKnowledgeGaps(docs, GapOptions{}) }) })
	b.Run("ProfilesAndMerges", func(b *testing.B) {
		cputime.Loop(b, func() { MergeCandidates(Profiles(docs), 0.5) })
	})
}

func TestBranchOverlap(t *testing.T) {
	docs := []Doc{
		{ID: "1", Branch: "a", Vector: semantic.Vector{1, 0}},
		{ID: "2", Branch: "b", Vector: semantic.Vector{0, 1}},
		{ID: "3", Branch: "b", Vector: semantic.Vector{0, 1}},
	}
	cs := BranchCentroids(docs)
	w := BranchOverlap(cs, "a", semantic.Vector{0.6, 0.8}, 0)
	if w == nil || w.SuggestedBranch != "b" || math.Abs(w.CurrentSimilarity-0.6) > 1e-6 || math.Abs(w.SuggestedSimilarity-0.8) > 1e-6 {
		t.Fatalf("warning = %+v", w)
	}
	if w := BranchOverlap(cs, "a", semantic.Vector{0.8, 0.6}, 0); w != nil {
		t.Fatalf("fits its own branch, warning %+v", w)
	}
	if w := BranchOverlap(cs, "a", semantic.Vector{0.68, 0.733}, 0.1); w != nil {
		t.Fatalf("within the margin, warning %+v", w)
	}
	if w := BranchOverlap(cs, "new", semantic.Vector{0, 1}, 0); w != nil {
		t.Fatalf("new branch, warning %+v", w)
	}
}

func TestSemanticPathWidest(t *testing.T) {
	deg := func(a float64) semantic.Vector {
		r := a * math.Pi / 180
		return semantic.Vector{float32(math.Cos(r)), float32(math.Sin(r)), 0}
	}
	// a to d directly is at 80° (cos 0.17); through b and c every link is
	// 40° or less, through x one link is 60°: the widest path goes a–b–c–d
	// although one long jump is shorter in total distance.
	docs := []Doc{
		{ID: "a", Step: 1, Vector: deg(0)},
		{ID: "x", Step: 2, Vector: deg(20)},
		{ID: "b", Step: 3, Vector: deg(-30)},
		{ID: "c", Step: 4, Vector: semantic.Vector{0.2, -0.2, 0.96}},
		{ID: "d", Step: 5, Vector: deg(80)},
		{ID: "far", Step: 6, Vector: semantic.Vector{-0.5, 0, 0.3}},
	}
	for i := range docs {
		docs[i].Vector = semantic.Normalize(docs[i].Vector)
	}
	res, err := SemanticPath(docs, "a", "d", 0)
	if err != nil || !res.Found || res.MinSimilarity != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	// The weakest link of the answer is the best bottleneck of any path:
	// check it against every simple path by brute force.
	vd := vectorsOf(docs, nil)
	best := -1.0
	var walk func(u int, seen map[int]bool, w float64)
	walk = func(u int, seen map[int]bool, w float64) {
		if docs[u].ID == "d" {
			best = max(best, w)
			return
		}
		for v := range docs {
			if s, _ := vd.sim(u, v); !seen[v] && s > 0 {
				seen[v] = true
				walk(v, seen, min(w, s))
				delete(seen, v)
			}
		}
	}
	walk(0, map[int]bool{0: true}, math.Inf(1))
	if math.Abs(*res.WeakestLink-best) > 1e-6 || *res.WeakestLink <= res.DirectSimilarity {
		t.Fatalf("weakest link %v, best bottleneck %v, direct %v: %+v", *res.WeakestLink, best, res.DirectSimilarity, res.Steps)
	}
	// A weakly related thought is still reachable: only cosine ≤ 0 cuts.
	res, err = SemanticPath(docs, "a", "far", 0)
	if err != nil || !res.Found {
		t.Fatalf("far: %+v %v", res, err)
	}
	// Not connected: no positive cosine to anything.
	lone := append(slices.Clone(docs[:1]), Doc{ID: "z", Step: 9, Vector: semantic.Vector{0, 0, -1}})
	res, err = SemanticPath(lone, "a", "z", 0)
	if err != nil || res.Found || !strings.Contains(res.Reason, "not connected") {
		t.Fatalf("lone: %+v %v", res, err)
	}
}

// A conflict is corrected when the later thought continues the earlier
// one's line and it, or a thought between them, takes a step back; a
// retraction on another line, or before the earlier thought, corrects
// nothing.
func TestCorrected(t *testing.T) {
	docs := tstChain(
		"The batch holds 120 files.",
		"We made an error in the count, the log lists more.",
		"The batch holds 140 files.",
		"The batch holds 150 files.",
	)
	side := Doc{ID: "s", Branch: "other", Step: 5, ParentID: "t0", Content: "The batch holds 160 files."}
	retractOther := Doc{ID: "r", Branch: "other", Step: 6, ParentID: "s", Content: "My mistake, I misread the log."}
	late := Doc{ID: "l", Branch: "other", Step: 7, ParentID: "r", Content: "The batch holds 170 files."}
	docs = append(docs, side, retractOther, late)
	for _, tc := range []struct {
		a, b int
		want bool
	}{
		{0, 2, true},  // the retraction is between them
		{2, 0, true},  // either order
		{2, 3, false}, // the retraction came before both
		{0, 1, true},  // the later thought retracts itself
		{0, 4, false}, // another branch, no retraction on its path
		{4, 6, true},  // a retraction on that branch
		{2, 6, false}, // a retraction on another line than the earlier thought's
	} {
		if got := Corrected(docs, tc.a, tc.b); got != tc.want {
			t.Errorf("Corrected(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	// A retraction more than correctionWindow thoughts before the later
	// one is not read.
	texts := []string{"The batch holds 120 files.", "We made an error in the count."}
	for len(texts) < correctionWindow+2 {
		texts = append(texts, "The loader reads the files in order.")
	}
	far := tstChain(append(texts, "The batch holds 140 files.")...)
	if Corrected(far, 0, len(far)-1) || !Corrected(far[:3], 0, 2) {
		t.Errorf("the window: %v far, %v near", Corrected(far, 0, len(far)-1), Corrected(far[:3], 0, 2))
	}
}
