package reasoningeval

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/advice"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// calibSessions embeds the retrieval sessions of the dev set: per session
// its docs' and its queries' vectors and each query's answer.
type calibSession struct {
	docs, queries []semantic.Vector
	answers       []int
	// texts and qtexts are the docs' and the queries' texts.
	texts, qtexts []string
}

// readDev reads the dev set in testdata.
func readDev(t testing.TB) []Item {
	f, err := os.Open("testdata/dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func calibData(t testing.TB, emb semantic.Embedder) []calibSession {
	ctx := context.Background()
	var out []calibSession
	var err error
	for _, it := range readDev(t) {
		if it.Kind != "retrieval" {
			continue
		}
		var s calibSession
		s.texts = it.Docs
		if s.docs, err = emb.Embed(ctx, it.Docs); err != nil {
			t.Fatal(err)
		}
		var qs []string
		for _, q := range it.Queries {
			qs = append(qs, q.Q)
			s.answers = append(s.answers, q.Answer)
			s.qtexts = append(s.qtexts, q.Q)
		}
		if s.queries, err = emb.Embed(ctx, qs); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// dist is a measured distribution of cosines.
type dist struct {
	name string
	v    []float64
}

func (d dist) mean() float64 {
	s := 0.0
	for _, x := range d.v {
		s += x
	}
	return s / float64(len(d.v))
}

func (d dist) String() string {
	v := slices.Sorted(slices.Values(d.v))
	p := func(q float64) float64 { return v[int(q*float64(len(v)-1)+0.5)] }
	return fmt.Sprintf("%-34s n=%5d mean %.3f  p10 %.3f p25 %.3f p50 %.3f p75 %.3f p90 %.3f", d.name, len(v), d.mean(), p(.1), p(.25), p(.5), p(.75), p(.9))
}

func calibDists(ss []calibSession) (same, cross, qa, qon, qoff dist) {
	same.name, cross.name = "thoughts of one session", "thoughts of two sessions"
	qa.name, qon.name, qoff.name = "query vs its paraphrase answer", "query vs other thoughts of its session", "query vs thoughts of other sessions"
	for s := range ss {
		for i, a := range ss[s].docs {
			for _, b := range ss[s].docs[i+1:] {
				same.v = append(same.v, semantic.Cosine(a, b))
			}
			for _, o := range ss[s+1:] {
				for _, b := range o.docs {
					cross.v = append(cross.v, semantic.Cosine(a, b))
				}
			}
		}
		for k, q := range ss[s].queries {
			for s2, o := range ss {
				for j, d := range o.docs {
					c := semantic.Cosine(q, d)
					switch {
					case s2 != s:
						qoff.v = append(qoff.v, c)
					case j == ss[s].answers[k]:
						qa.v = append(qa.v, c)
					default:
						qon.v = append(qon.v, c)
					}
				}
			}
		}
	}
	return
}

func branchDocs(name string, vs []semantic.Vector, texts ...string) []analyze.Doc {
	var docs []analyze.Doc
	for i, v := range vs {
		content := name
		if i < len(texts) {
			content = texts[i]
		}
		docs = append(docs, analyze.Doc{ID: fmt.Sprintf("%s-%d", name, i), Branch: name, Step: i + 1, Content: content, Vector: v})
	}
	return docs
}

// TestEmbedderCalibration measures, for the default offline embedder, the
// cosine distributions the calibration rests on, checks that the stored
// constants (analyze.CalibrationFor) are the measured ones, and measures
// the verdicts they give on branches made of the dev sessions' thoughts:
// focused branches (6 thoughts of one session, the goal a query of that
// session that none of them answers), drifting ones (3 thoughts of one
// session then 3 of another, the goal a query of the first) and off-topic
// ones (6 thoughts of another session than the goal's). Run it with -v to
// see the figures:
//
//	go test ./reasoningeval/ -run TestEmbedderCalibration -v
func TestEmbedderCalibration(t *testing.T) {
	emb, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ss := calibData(t, emb)
	same, cross, qa, qon, qoff := calibDists(ss)
	for _, d := range []dist{same, cross, qa, qon, qoff} {
		t.Log(d)
	}
	cal := analyze.CalibrationFor(emb.Model())
	if !cal.Calibrated() {
		t.Fatalf("the default embedder %s has no calibration: add the measured means (thoughts of one session %.3f, of two sessions %.3f) to semantic's calibrations", emb.Model(), same.mean(), cross.mean())
	}
	if d := cal.Related - same.mean(); d > 0.005 || d < -0.005 {
		t.Errorf("calibration Related %.3f, measured mean cosine of thoughts of one session %.3f: re-measure", cal.Related, same.mean())
	}
	if d := cal.Unrelated - cross.mean(); d > 0.005 || d < -0.005 {
		t.Errorf("calibration Unrelated %.3f, measured mean cosine of thoughts of two sessions %.3f: re-measure", cal.Unrelated, cross.mean())
	}

	// Branch-level verdicts.
	type kind struct {
		name                  string
		n, drifting, weakGoal int
		goal                  []float64
		pivot                 int
	}
	kinds := []*kind{{name: "focused"}, {name: "drifting"}, {name: "off-topic"}}
	th := analyze.Thresholds{Calibration: cal}
	for a := range ss {
		b := (a + 1) % len(ss)
		for w := 0; w+6 <= 16; w += 5 {
			// A query of session a that answers none of the window's docs.
			gi := -1
			for k, ans := range ss[a].answers {
				if ans < w || ans >= w+6 {
					gi = k
					break
				}
			}
			goal := ss[a].queries[gi]
			branches := [][]semantic.Vector{
				ss[a].docs[w : w+6],
				append(slices.Clone(ss[a].docs[w:w+3]), ss[b].docs[w+3:w+6]...),
				ss[b].docs[w : w+6],
			}
			texts := [][]string{
				ss[a].texts[w : w+6],
				append(slices.Clone(ss[a].texts[w:w+3]), ss[b].texts[w+3:w+6]...),
				ss[b].texts[w : w+6],
			}
			lx := emb.Lexicon()
			opts := advice.DriftOptions{GoalText: ss[a].qtexts[gi], TextSimilarity: func(x, y string) float64 { return semantic.WordAlignment(lx, x, y) }}
			// Drift is measured against the session: the drifting and the
			// off-topic branch are each in a session with the focused one
			// (whose verdict comes from the first).
			drifting := map[string]bool{}
			for _, other := range []int{1, 2} {
				session := append(branchDocs(kinds[0].name, branches[0], texts[0]...), branchDocs(kinds[other].name, branches[other], texts[other]...)...)
				for _, d := range advice.DetectDrift(session, goal, opts) {
					if d.Branch != kinds[0].name || other == 1 {
						drifting[d.Branch] = d.Drifting
					}
				}
			}
			for i, vs := range branches {
				k := kinds[i]
				docs := branchDocs(k.name, vs)
				k.n++
				if drifting[k.name] {
					k.drifting++
				}
				ev := analyze.EvaluateBranch(docs, goal, nil, th)
				k.goal = append(k.goal, *ev.GoalAlignment)
				if slices.ContainsFunc(ev.Issues, func(s string) bool { return strings.Contains(s, "goal alignment") }) {
					k.weakGoal++
				}
				if ev.ShouldPivot {
					k.pivot++
				}
			}
		}
	}
	for _, k := range kinds {
		t.Logf("%-9s branches %d: drifting %d, weak goal alignment %d, shouldPivot %d; %v", k.name, k.n, k.drifting, k.weakGoal, k.pivot, dist{name: "goal alignment", v: k.goal})
	}
	// Floors. Drift is no longer a calibrated cosine: each branch is
	// standardized against the rest of its session (advice.DetectDrift),
	// so here each synthetic branch shares a session with the focused one.
	// Measured: focused 0 of 24 flagged, drifting 7 of 24, off-topic 7 of
	// 24 (three thoughts of another topic among twelve are a weak trend;
	// the old calibrated measure flagged 18 drifting and 5 focused ones).
	// The scenario sets measure drift on realistic sessions
	// (TestScenarioFloors); a change that flags a focused branch here or
	// fewer drifting ones fails.
	if f, d := kinds[0].drifting, kinds[1].drifting; f > 0 || d < 7 {
		t.Errorf("drift verdicts: %d of %d focused branches flagged (at most 0), %d of %d drifting ones (at least 7)", f, kinds[0].n, d, kinds[1].n)
	}
}
