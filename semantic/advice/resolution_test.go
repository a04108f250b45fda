package advice

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// TestNearnessDecidesAsCosine: Nearness.AtLeast answers as semantic.Cosine
// ≥ th, for unit and non-unit vectors, cosines on either side of th and
// within float32 rounding of it, empty and zero vectors.
func TestNearnessDecidesAsCosine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const dim, th = 512, ResolvedMinSimilarity
	randVec := func() semantic.Vector {
		v := make(semantic.Vector, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	// mix returns a vector whose cosine with the unit vector u is about c:
	// c·u plus √(1-c²) of a vector orthogonal to u.
	mix := func(u semantic.Vector, c float64) semantic.Vector {
		w := semantic.Normalize(randVec())
		d := float64(semantic.Dot(w, u))
		out := make(semantic.Vector, dim)
		var ss float64
		for i := range w {
			x := float64(w[i]) - d*float64(u[i])
			out[i] = float32(x)
			ss += x * x
		}
		s := math.Sqrt(1-c*c) / math.Sqrt(ss)
		for i := range out {
			out[i] = float32(c*float64(u[i]) + s*float64(out[i]))
		}
		return out
	}
	var docs []analyze.Doc
	for range 400 {
		u := semantic.Normalize(randVec())
		c := th + (r.Float64()-0.5)*[]float64{1e-6, 1e-4, 1e-3, 1e-2, 0.5}[r.IntN(5)]
		v := mix(u, c)
		// Not unit length: far from it, or close enough that AsUnit
		// keeps it as it is.
		scale := float32([]float64{1, 3.5, 1 + 4e-5, 1 - 4e-5}[r.IntN(4)])
		for i := range v {
			v[i] *= scale
		}
		docs = append(docs, analyze.Doc{Vector: u}, analyze.Doc{Vector: v})
	}
	docs = append(docs, analyze.Doc{}, analyze.Doc{Vector: make(semantic.Vector, dim)}, analyze.Doc{Vector: randVec()[:7]})
	near := NewNearness(docs)
	above, below := 0, 0
	for i := range docs {
		for j := range docs {
			want := semantic.Cosine(docs[i].Vector, docs[j].Vector) >= th
			if got := near.AtLeast(i, j, th); got != want {
				t.Fatalf("docs %d, %d: atLeast = %v, Cosine %v >= %v is %v", i, j, got, semantic.Cosine(docs[i].Vector, docs[j].Vector), th, want)
			}
			if want {
				above++
			} else {
				below++
			}
		}
	}
	if above < 100 || below < 100 {
		t.Fatalf("the pairs should fall on both sides of %v: %d above, %d below", th, above, below)
	}
}

// TestResolvedReadsClosers: Resolved, reading only the synthesis, answer
// and critique thoughts after a contradiction, answers as a scan of every
// later thought does (steps out of order included).
func TestResolvedReadsClosers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	types := []string{"analysis", "synthesis", "answer", "critique", "hypothesis"}
	axes := []semantic.Vector{{1, 0, 0}, {0.8, 0.6, 0}, {0.6, 0, 0.8}, {0, 1, 0}}
	var docs []analyze.Doc
	byID := map[string]int{}
	for i := range 300 {
		id := string(rune('a'+i%26)) + string(rune('a'+i/26))
		docs = append(docs, analyze.Doc{ID: id, Step: i + 1 + r.IntN(21) - 10, Type: types[r.IntN(len(types))], Vector: axes[r.IntN(len(axes))]})
		byID[id] = i
	}
	scan := func(a, b int) bool {
		after := max(docs[a].Step, docs[b].Step)
		for i := max(a, b) + 1; i < len(docs); i++ {
			d := docs[i]
			if d.Step > after && (d.Type == "synthesis" || d.Type == "answer" || d.Type == "critique") &&
				semantic.Cosine(d.Vector, docs[a].Vector) >= ResolvedMinSimilarity && semantic.Cosine(d.Vector, docs[b].Vector) >= ResolvedMinSimilarity {
				return true
			}
		}
		return false
	}
	near, closing := NewNearness(docs), Closers(docs)
	yes, no := 0, 0
	for range 2000 {
		a, b := r.IntN(len(docs)), r.IntN(len(docs))
		c := analyze.Contradiction{ThoughtA: analyze.Ref(docs[a]), ThoughtB: analyze.Ref(docs[b])}
		got := Resolved(c, docs, byID, closing, near)
		if got != scan(a, b) {
			t.Fatalf("#%d and #%d: resolved %v, the scan %v", a, b, got, !got)
		}
		if got {
			yes++
		} else {
			no++
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("resolved %d, unresolved %d: both should occur", yes, no)
	}
}
