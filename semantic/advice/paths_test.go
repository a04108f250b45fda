package advice

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

func pathIDs(ps []StrongPath) string {
	var out []string
	for _, p := range ps {
		out = append(out, strings.Join(tstIDs(p.Thoughts), ","))
	}
	return strings.Join(out, " ")
}

func TestStrongestPaths(t *testing.T) {
	docs := []analyze.Doc{
		{ID: "r", Step: 1, Confidence: tstF(0.8), Vector: semantic.Vector{1, 0}},
		{ID: "a", Step: 2, ParentID: "r", Confidence: tstF(0.6), Vector: semantic.Vector{1, 0}},
		{ID: "b", Step: 3, ParentID: "r", Confidence: tstF(1.0), Vector: semantic.Vector{0, 1}},
		{ID: "c", Step: 4, ParentID: "b", Vector: semantic.Vector{0, 1}},
		{ID: "x", Step: 5, ParentID: "y"}, // parent unknown: root and leaf
	}
	got := RankPaths(docs, 10, PathOptions{})
	// r→a: mean confidence 0.7 × coherence 1 = 0.7; x: 0.5 (no
	// confidence) × 1 (no link); r→b→c: (0.8 + 1 + 0.5)/3 × coherence
	// (0 + 1)/2 = 0.383.
	if pathIDs(got) != "r,a x r,b,c" || math.Abs(got[0].Score-0.7) > 1e-9 || math.Abs(got[1].Score-0.5) > 1e-9 ||
		math.Abs(got[2].Score-2.3/3*0.5) > 1e-9 || got[1].Coherence != nil || !strings.Contains(got[1].Basis, "without a confidence count 0.5") {
		t.Fatalf("paths = %+v", got)
	}
}

// The tiers: the sound path to the conclusion first, then open paths by
// score, then drifting ones, closed ones last whatever their score.
func TestRankPathsTiers(t *testing.T) {
	docs := []analyze.Doc{
		{ID: "r", Step: 1, Branch: "main", Confidence: tstF(0.8), Vector: semantic.Vector{1, 0}},
		{ID: "hi", Step: 2, Branch: "best", ParentID: "r", Confidence: tstF(0.9), Vector: semantic.Vector{1, 0}},
		{ID: "no", Step: 3, Branch: "dead", ParentID: "r", Confidence: tstF(1), Vector: semantic.Vector{1, 0}},
		{ID: "dr", Step: 4, Branch: "wander", ParentID: "r", Confidence: tstF(1), Vector: semantic.Vector{1, 0}},
		{ID: "end", Step: 5, Branch: "main", ParentID: "r", Type: "synthesis", Confidence: tstF(0.7), Vector: semantic.Vector{1, 0}},
	}
	opts := PathOptions{Closed: map[string]Closure{"dead": {By: "words", Step: 3}}, Drifting: map[string]bool{"wander": true}, Conclusion: "end"}
	got := RankPaths(docs, 10, opts)
	if pathIDs(got) != "r,end r,hi r,dr r,no" || !got[0].Concludes || got[3].Closed == nil || !got[2].Drifting {
		t.Fatalf("ranked = %+v", got)
	}
	// A conclusion resting on low confidence is not sound: it takes its
	// place by score.
	docs[4].Confidence, docs[0].Confidence = tstF(0.1), tstF(0.1)
	if got := RankPaths(docs, 2, opts); pathIDs(got) != "r,hi r,end" {
		t.Fatalf("unsound conclusion: %s", pathIDs(got))
	}
	// Without options nothing is closed or drifting: by score alone.
	if got := RankPaths(docs, 1, PathOptions{}); pathIDs(got) != "r,no" {
		t.Fatalf("no options: %s", pathIDs(got))
	}
}

// Circular support counts against a path: its thoughts add no confidence.
func TestRankPathsCircular(t *testing.T) {
	docs := []analyze.Doc{
		{ID: "r", Step: 1, Confidence: tstF(0.8), Vector: semantic.Vector{1, 0}},
		{ID: "c1", Step: 2, ParentID: "r", Confidence: tstF(0.9), Vector: semantic.Vector{1, 0}},
		{ID: "c2", Step: 3, ParentID: "c1", Confidence: tstF(0.9), Vector: semantic.Vector{1, 0}},
		{ID: "s", Step: 4, ParentID: "r", Confidence: tstF(0.7), Vector: semantic.Vector{1, 0}},
	}
	circ := []analyze.CircularReasoning{{Kind: analyze.CircularSupport, Thoughts: []analyze.ThoughtRef{analyze.Ref(docs[1]), analyze.Ref(docs[2])}}}
	got := RankPaths(docs, 2, PathOptions{Circular: circ})
	// r→c1→c2: (0.8 + 0 + 0)/3 = 0.267, coherence of the link r→c1 only
	// (the link c1→c2 counts 0): 1/2; r→s: 0.75.
	if pathIDs(got) != "r,s r,c1,c2" || math.Abs(got[1].Score-0.8/3*0.5) > 1e-9 || strings.Join(got[1].Circular, ",") != "c1,c2" {
		t.Fatalf("circular: %+v", got)
	}
}

// TestStrongestPathsRefuted: a refuted thought and what follows it are on
// no path; its parent ends a path when no other child goes on.
func TestStrongestPathsRefuted(t *testing.T) {
	docs := []analyze.Doc{
		{ID: "r", Step: 1, Confidence: tstF(0.8), Vector: semantic.Vector{1, 0}},
		{ID: "a", Step: 2, ParentID: "r", Confidence: tstF(0.6), Vector: semantic.Vector{1, 0}},
		{ID: "b", Step: 3, ParentID: "r", Confidence: tstF(1.0), Vector: semantic.Vector{0, 1}},
		{ID: "c", Step: 4, ParentID: "b", Vector: semantic.Vector{0, 1}},
		{ID: "d", Step: 5, ParentID: "a", Confidence: tstF(0.9), Vector: semantic.Vector{1, 0}, Refuted: true},
	}
	// Without the refutation r→a→d (0.767) is the strongest path.
	docs[4].Refuted = false
	if got := RankPaths(docs, 1, PathOptions{}); strings.Join(tstIDs(got[0].Thoughts), ",") != "r,a,d" {
		t.Fatalf("without refutation: %+v", got)
	}
	docs[4].Refuted = true
	var paths []string
	for _, p := range RankPaths(docs, 10, PathOptions{}) {
		paths = append(paths, strings.Join(tstIDs(p.Thoughts), ","))
	}
	if strings.Join(paths, " ") != "r,a r,b,c" {
		t.Errorf("with d refuted: %v, want r,a then r,b,c", paths)
	}
	docs[1].Refuted = true // a refuted too: only r→b→c is left
	if got := RankPaths(docs, 10, PathOptions{}); len(got) != 1 || strings.Join(tstIDs(got[0].Thoughts), ",") != "r,b,c" {
		t.Errorf("with a and d refuted: %+v", got)
	}
}

// A circular argument found by detectCircular earns no coherence on the
// strongest path and is named there; a chain with independent support keeps
// its coherence.
func TestRankPathsCircularArgument(t *testing.T) {
	emb, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chain := func(texts ...string) []analyze.Doc {
		vs, err := emb.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		docs := make([]analyze.Doc, len(texts))
		for i, c := range texts {
			docs[i] = analyze.Doc{ID: fmt.Sprintf("t%d", i), Branch: "main", Step: i + 1, Type: "analysis", Content: c, Vector: vs[i]}
			if i > 0 {
				docs[i].ParentID = docs[i-1].ID
			}
		}
		return docs
	}
	rank := func(docs []analyze.Doc) StrongPath {
		return RankPaths(docs, 1, PathOptions{Circular: analyze.DetectCircular(docs, analyze.CircularOptions{})})[0]
	}
	circ := rank(chain("The defendant is guilty of the theft.", "He took the car because he is guilty.", "We know he is guilty since he took the car."))
	if strings.Join(circ.Circular, ",") != "t0,t1,t2" || circ.Coherence == nil || *circ.Coherence != 0 || circ.Score != 0 ||
		!strings.Contains(circ.Basis, "circular argument") {
		t.Fatalf("strongest path of a circular argument: %+v", circ)
	}
	sound := rank(chain("The defendant is guilty of the theft.", "Cameras recorded him taking the car.", "His fingerprints were on the steering wheel."))
	if len(sound.Circular) != 0 || sound.Coherence == nil || *sound.Coherence <= 0 || sound.Score <= 0 {
		t.Fatalf("independent support: %+v", sound)
	}
}
