package advice

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// driftSession is three branches of four thoughts on the goal {1, 0}:
// "a" and "b" stay near it, "off" starts on it and ends on {0, 1}.
func driftSession() []analyze.Doc {
	at := func(deg float64) semantic.Vector {
		r := deg * math.Pi / 180
		return semantic.Vector{float32(math.Cos(r)), float32(math.Sin(r))}
	}
	var docs []analyze.Doc
	add := func(branch string, degs ...float64) {
		for _, d := range degs {
			docs = append(docs, analyze.Doc{ID: fmt.Sprint(len(docs) + 1), Step: len(docs) + 1, Branch: branch, Content: branch, Vector: at(d)})
		}
	}
	add("a", 0, 10, 5, 15)
	add("b", 5, 0, 12, 8)
	add("off", 5, 20, 85, 90)
	return docs
}

func TestDetectDrift(t *testing.T) {
	docs := driftSession()
	got := DetectDrift(docs, semantic.Vector{1, 0}, DriftOptions{})
	if len(got) != 3 || got[0].Branch != "off" || !got[0].Drifting || got[1].Drifting || got[2].Drifting {
		t.Fatalf("drift = %+v", got)
	}
	off := got[0]
	if *off.End > -DefaultDriftThreshold || *off.Start <= *off.End || !slices.Equal(off.Furthest, []int{12, 11}) {
		t.Fatalf("off = %+v (start %v end %v)", off, *off.Start, *off.End)
	}
	if !strings.Contains(off.Reason, "sd less related") {
		t.Fatalf("reason %q", off.Reason)
	}
	// Without a goal the session context alone still finds it.
	if got := DetectDrift(docs, nil, DriftOptions{}); !got[0].Drifting || got[0].Branch != "off" {
		t.Fatalf("no goal: %+v", got[0])
	}
	// A higher threshold asks for more.
	if got := DetectDrift(docs, semantic.Vector{1, 0}, DriftOptions{Threshold: -*off.End + 0.01}); got[0].Drifting {
		t.Fatalf("threshold above the branch's figure: %+v", got[0])
	}
	// A branch of 3 thoughts that starts on the goal is no trend; a session
	// of 7 thoughts is too small to standardize against.
	short := slices.Delete(slices.Clone(docs), 9, 10)
	for _, c := range []struct {
		docs []analyze.Doc
		want string
	}{{short, "too short: 3 of the 4"}, {docs[:7], "the session has 7 thought(s)"}} {
		for _, b := range DetectDrift(c.docs, semantic.Vector{1, 0}, DriftOptions{}) {
			if b.Drifting || (b.Branch == "off" || c.want != "too short: 3 of the 4") && !strings.Contains(b.Reason, c.want) {
				t.Fatalf("%s: %+v", c.want, b)
			}
		}
	}
}

// A branch too short for a trend is off the goal when each of its 3 or
// more thoughts sits far below the session's others; two such thoughts, or
// three of which one is on the goal, give no verdict.
func TestDetectDriftOffGoal(t *testing.T) {
	docs := driftSession()
	off := slices.Delete(slices.Clone(docs), 8, 9) // "off": 20°, 85°, 90°
	got := DetectDrift(off, semantic.Vector{1, 0}, DriftOptions{})
	if got[0].Branch != "off" || !got[0].Drifting || !got[0].OffGoal || !strings.Contains(got[0].Reason, "each of its 3 thoughts") {
		t.Fatalf("3 thoughts all off the goal: %+v", got[0])
	}
	for _, b := range got[1:] {
		if b.Drifting || b.OffGoal {
			t.Fatalf("a focused branch flagged: %+v", b)
		}
	}
	two := slices.Delete(slices.Clone(off), 8, 9) // "off": 85°, 90°
	for _, b := range DetectDrift(two, semantic.Vector{1, 0}, DriftOptions{}) {
		if b.Drifting {
			t.Fatalf("2 thoughts flagged: %+v", b)
		}
	}
	// Four thoughts all off the goal: off it from the first, not drifting.
	far := slices.Clone(docs)
	for i := 8; i < 12; i++ {
		far[i].Vector = semantic.Vector{0, 1}
	}
	far[8].Vector = semantic.Vector{0.1, 1}
	got = DetectDrift(far, semantic.Vector{1, 0}, DriftOptions{})
	if got[0].Branch != "off" || !got[0].Drifting || !got[0].OffGoal {
		t.Fatalf("4 thoughts all off the goal: %+v", got[0])
	}
	if d := DetectDrift(docs, semantic.Vector{1, 0}, DriftOptions{}); !d[0].Drifting || d[0].OffGoal {
		t.Fatalf("a branch that starts on the goal and wanders is drifting, not off the goal: %+v", d[0])
	}
}

// The text measure counts beside the vectors: with every vector equal,
// only the words tell the drifting branch apart.
func TestDetectDriftText(t *testing.T) {
	docs := driftSession()
	extra := []string{"rows", "policy", "schema", "pool"}
	for i := range docs {
		docs[i].Vector = semantic.Vector{1, 0}
		docs[i].Content = "tenant isolation " + extra[i%4]
	}
	docs[10].Content, docs[11].Content = "watercolour paper", "watercolour brushes"
	// Jaccard overlap of the words.
	same := func(a, b string) float64 {
		wa, wb := strings.Fields(a), strings.Fields(b)
		n := 0
		for _, w := range wa {
			if slices.Contains(wb, w) {
				n++
			}
		}
		return float64(n) / float64(len(wa)+len(wb)-n)
	}
	if got := DetectDrift(docs, semantic.Vector{1, 0}, DriftOptions{}); got[0].Drifting || got[1].Drifting {
		t.Fatalf("vectors alone cannot tell: %+v", got)
	}
	got := DetectDrift(docs, semantic.Vector{1, 0}, DriftOptions{TextSimilarity: same, GoalText: "tenant isolation"})
	var off BranchDrift
	for _, b := range got {
		if b.Branch == "off" {
			off = b
		} else if b.Drifting {
			t.Fatalf("focused branch flagged: %+v", b)
		}
	}
	if !off.Drifting {
		t.Fatalf("off = %+v", off)
	}
}

func BenchmarkDetectDrift(b *testing.B) {
	for _, n := range []int{20, 2000, 10_000} {
		docs := tstSession(n)
		goal := tstRandUnit(1, 512, 3)[0]
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				DetectDrift(docs, goal, DriftOptions{})
			}
		})
	}
}
