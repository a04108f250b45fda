package review

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// tstPlanInput is a session of n thoughts of 1–3 claims and random
// candidate pairs of claims of different thoughts, riskiest first.
func tstPlanInput(n int, seed uint64) PlanInput {
	r := rand.New(rand.NewPCG(seed, 3))
	in := PlanInput{Settled: func(int, int) bool { return false }}
	for i := range n {
		d := analyze.Doc{ID: fmt.Sprintf("t%d", i), Step: i + 1}
		for k := range 1 + r.IntN(3) {
			d.Claims = append(d.Claims, analyze.Claim{Text: fmt.Sprintf("claim %d of %d", k, i)})
			in.Claims = append(in.Claims, analyze.ClaimRef{Doc: i, K: k})
		}
		in.Docs = append(in.Docs, d)
	}
	seen := map[[2]int32]bool{}
	for a := range in.Claims {
		for range 4 {
			b := r.IntN(len(in.Claims))
			k := [2]int32{int32(min(a, b)), int32(max(a, b))}
			if in.Claims[a].Doc == in.Claims[b].Doc || seen[k] {
				continue
			}
			seen[k] = true
			in.Pairs = append(in.Pairs, analyze.ReviewPair{A: k[0], B: k[1], Risk: r.Float64()})
		}
	}
	slices.SortFunc(in.Pairs, func(x, y analyze.ReviewPair) int { return cmp.Compare(y.Risk, x.Risk) })
	return in
}

// together reports whether a group of gs holds thoughts a and b.
func together(gs []analyze.ReviewGroup, a, b int) bool {
	return slices.ContainsFunc(gs, func(g analyze.ReviewGroup) bool {
		has := func(d int) bool {
			return slices.ContainsFunc(g.Claims, func(c analyze.ClaimRef) bool { return c.Doc == d })
		}
		return has(a) && has(b)
	})
}

// checkCover checks that the cover puts every open pair's thoughts in one
// group, within the size cap, one claim per thought.
func checkCover(t *testing.T, in PlanInput, cv *Cover) {
	t.Helper()
	for _, g := range cv.Groups {
		if len(g.Claims) < 2 || len(g.Claims) > Options.MaxGroup {
			t.Fatalf("group of %d claims", len(g.Claims))
		}
		for i, c := range g.Claims {
			for _, o := range g.Claims[:i] {
				if o.Doc == c.Doc {
					t.Fatalf("group %v holds two claims of one thought", g.Claims)
				}
			}
		}
	}
	for _, e := range in.Pairs {
		a, b := in.Claims[e.A].Doc, in.Claims[e.B].Doc
		open := !in.Settled(a, b) && (in.Skip == nil || !in.Skip(e))
		if open && !together(cv.Groups, a, b) {
			t.Fatalf("open pair #%d/#%d in no group of the cover", a+1, b+1)
		}
	}
}

// The loop with a judge that answers every group it is shown: each call
// within its budget (30 claims quoted, each once), the first one the
// riskiest pair's group, and the review finished when every candidate
// pair's thoughts have a verdict.
func TestCoverLoop(t *testing.T) {
	in := tstPlanInput(40, 1)
	verdict := map[uint64]bool{}
	in.Settled = func(a, b int) bool { return verdict[DocPair(a, b)] }
	skipped := in.Pairs[3]
	in.Skip = func(p analyze.ReviewPair) bool { return p.A == skipped.A && p.B == skipped.B }
	quoted := map[analyze.ClaimRef]bool{}
	budget := Budget{Claims: 30, Groups: 40}
	calls := 0
	for ; calls < 20; calls++ {
		cv := CoverOf(in)
		checkCover(t, in, cv)
		plan := cv.Select(func(c analyze.ClaimRef) bool { return quoted[c] }, nil, budget)
		if len(cv.Groups) == 0 {
			if plan.Open != 0 || len(plan.Groups) != 0 {
				t.Fatalf("nothing open, plan %+v", plan)
			}
			break
		}
		if calls == 0 {
			top := in.Pairs[0]
			if len(plan.Groups) == 0 || !together(plan.Groups[:1], in.Claims[top.A].Doc, in.Claims[top.B].Doc) {
				t.Fatalf("the first group does not hold the riskiest pair: %v", plan.Groups)
			}
		}
		fresh := map[analyze.ClaimRef]bool{} // claims the call quotes
		for _, g := range plan.Groups {
			for _, c := range g.Claims {
				if !quoted[c] {
					fresh[c] = true
				}
			}
		}
		listed := len(fresh)
		if listed > budget.Claims || len(plan.Groups) > budget.Groups || len(plan.Groups) == 0 || plan.Open != len(cv.Groups) {
			t.Fatalf("call %d lists %d new claims in %d groups of %d open", calls, listed, len(plan.Groups), plan.Open)
		}
		for _, g := range plan.Groups {
			for i, c := range g.Claims {
				quoted[c] = true
				for _, o := range g.Claims[:i] {
					verdict[DocPair(o.Doc, c.Doc)] = true
				}
			}
		}
	}
	if calls < 2 || calls == 20 {
		t.Fatalf("%d calls", calls)
	}
	for _, e := range in.Pairs {
		a, b := in.Claims[e.A].Doc, in.Claims[e.B].Doc
		if (e.A != skipped.A || e.B != skipped.B) && !verdict[DocPair(a, b)] {
			t.Fatalf("#%d/#%d never compared", a+1, b+1)
		}
	}
}

// A cover extended with the claims of new thoughts covers their pairs as
// well; fixed questions come first while open.
func TestCoverExtendAndFixed(t *testing.T) {
	in := tstPlanInput(30, 2)
	cut := len(in.Claims) - 6
	early := in
	early.Claims = in.Claims[:cut]
	early.Pairs = slices.DeleteFunc(slices.Clone(in.Pairs), func(p analyze.ReviewPair) bool { return int(p.B) >= cut })
	fixed := analyze.ReviewGroup{Claims: []analyze.ClaimRef{in.Claims[0], in.Claims[len(in.Claims)-1]}, Risk: 10}
	early.Fixed = []analyze.ReviewGroup{fixed}
	cv := CoverOf(early)
	checkCover(t, early, cv)
	cv.Extend(in)
	checkCover(t, in, cv)
	if cv.Claims != len(in.Claims) || !slices.Equal(cv.Groups[0].Claims, fixed.Claims) {
		t.Fatalf("extended cover: %d claims, first group %v", cv.Claims, cv.Groups[0].Claims)
	}
	answered := in
	answered.Fixed = early.Fixed
	answered.Settled = func(a, b int) bool {
		return a == fixed.Claims[0].Doc && b == fixed.Claims[1].Doc || b == fixed.Claims[0].Doc && a == fixed.Claims[1].Doc
	}
	if cv := CoverOf(answered); slices.EqualFunc(cv.Groups[:1], answered.Fixed, func(x, y analyze.ReviewGroup) bool { return slices.Equal(x.Claims, y.Claims) }) {
		t.Fatal("an answered fixed question is asked again")
	}
}

// refine moves a claim to the group it has the most at stake with.
func TestRefine(t *testing.T) {
	in := tstPlanInput(4, 3)
	in.Claims = []analyze.ClaimRef{{Doc: 0}, {Doc: 1}, {Doc: 2}, {Doc: 3}, {Doc: 0, K: 1}}
	// 0–1 and 2–3 are grouped first; 4 (thought 0) belongs with 2 and 3.
	in.Pairs = []analyze.ReviewPair{{A: 0, B: 1, Risk: 0.9}, {A: 2, B: 3, Risk: 0.8}, {A: 1, B: 4, Risk: 0.5}, {A: 2, B: 4, Risk: 0.4}, {A: 3, B: 4, Risk: 0.4}}
	groups := []analyze.ReviewGroup{{Claims: []analyze.ClaimRef{{Doc: 0}, {Doc: 1}}}, {Claims: []analyze.ClaimRef{{Doc: 2}, {Doc: 3}}}}
	index := map[analyze.ClaimRef]int32{}
	for i, c := range in.Claims {
		index[c] = int32(i)
	}
	out := refine(in, index, []int32{0, 1, 2, 3, 4}, groups, 6)
	if len(out) != 2 || !slices.Contains(out[1].Claims, analyze.ClaimRef{Doc: 0, K: 1}) || out[1].Risk != 0.8 {
		t.Fatalf("%+v", out)
	}
}

// A call quotes each claim once against its budget, a claim quoted before
// costs nothing, and a group shown before and still open takes room for
// all its claims.
func TestSelectBudget(t *testing.T) {
	g := func(docs ...int) analyze.ReviewGroup {
		var out analyze.ReviewGroup
		for _, d := range docs {
			out.Claims = append(out.Claims, analyze.ClaimRef{Doc: d})
		}
		return out
	}
	cv := &Cover{}
	for _, x := range []analyze.ReviewGroup{g(0, 1, 2), g(0, 3), g(4, 5, 6), g(7, 8)} {
		cv.add(x, 1)
	}
	keys := func(p Plan) []int {
		var out []int
		for _, x := range p.Groups {
			out = append(out, x.Claims[0].Doc*10+x.Claims[1].Doc)
		}
		return out
	}
	// 0 costs once: 0,1,2 + 3 = 4 claims; 4,5,6 would make 7, 7,8 make 6.
	if p := cv.Select(nil, nil, Budget{Claims: 6, Groups: 10}); !slices.Equal(keys(p), []int{1, 3, 78}) || p.Open != 4 {
		t.Fatalf("fresh call: %v (open %d)", keys(p), p.Open)
	}
	quoted := func(c analyze.ClaimRef) bool { return c.Doc <= 6 }
	if p := cv.Select(quoted, nil, Budget{Claims: 2, Groups: 10}); !slices.Equal(keys(p), []int{1, 3, 45, 78}) {
		t.Fatalf("claims quoted before: %v", keys(p))
	}
	shown := func(x analyze.ReviewGroup) bool { return x.Claims[0].Doc == 0 && len(x.Claims) == 3 }
	if p := cv.Select(quoted, shown, Budget{Claims: 2, Groups: 10}); !slices.Equal(keys(p), []int{3, 45, 78}) {
		t.Fatalf("an open group shown before: %v", keys(p))
	}
	if p := cv.Select(quoted, nil, Budget{Claims: 30, Groups: 2}); len(p.Groups) != 2 {
		t.Fatalf("group budget: %v", keys(p))
	}
}
