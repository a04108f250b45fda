package semantic

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph/semantic/internal/cputime"
)

// tstRandUnit returns n random unit vectors of length dim.
func tstRandUnit(n, dim int, seed uint64) []Vector {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]Vector, n)
	for i := range out {
		v := make(Vector, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = Normalize(v)
	}
	return out
}

func tstNear(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

func TestCosineAndDot(t *testing.T) {
	a := Vector{1, 0, 0}
	b := Vector{1, 1, 0}
	if got := Cosine(a, b); !tstNear(got, 1/math.Sqrt2) {
		t.Errorf("Cosine = %v, want %v", got, 1/math.Sqrt2)
	}
	if got := Cosine(a, Vector{0, 0, 0}); got != 0 {
		t.Errorf("Cosine with zero vector = %v, want 0", got)
	}
	if got := Cosine(a, Vector{1, 0}); got != 0 {
		t.Errorf("Cosine of different lengths = %v, want 0", got)
	}
	x := Vector{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if got := Dot(x, x); got != 506 {
		t.Errorf("Dot = %v, want 506", got)
	}
	c := Centroid([]Vector{{1, 0}, {0, 1}, nil})
	if !tstNear(float64(c[0]), 1/math.Sqrt2) || !tstNear(float64(c[1]), 1/math.Sqrt2) {
		t.Errorf("Centroid = %v", c)
	}
}

func TestIndexAddUpdateRemoveTopK(t *testing.T) {
	x := NewIndex(0)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(x.Add("a", Vector{1, 0, 0}))
	must(x.Add("b", Vector{2, 2, 0})) // normalised on insert
	must(x.Add("c", Vector{0, 0, 5}))
	if err := x.Add("d", Vector{1, 0}); !errors.Is(err, ErrDimension) {
		t.Fatalf("Add wrong dim: err = %v, want ErrDimension", err)
	}
	hits, err := x.TopK(Vector{1, 0, 0}, 2, nil)
	must(err)
	if len(hits) != 2 || hits[0].ID != "a" || hits[1].ID != "b" || !tstNear(hits[0].Similarity, 1) || !tstNear(hits[1].Similarity, 1/math.Sqrt2) {
		t.Fatalf("TopK = %+v", hits)
	}
	hits, _ = x.TopK(Vector{1, 0, 0}, 5, ExcludeIDs("a"))
	if len(hits) != 2 || hits[0].ID != "b" || hits[1].ID != "c" || !tstNear(hits[1].Similarity, 0) {
		t.Fatalf("TopK filtered = %+v", hits)
	}
	must(x.Update("c", Vector{1, 0, 0.0001}))
	hits, _ = x.TopK(Vector{1, 0, 0}, 1, ExcludeIDs("a"))
	if hits[0].ID != "c" {
		t.Fatalf("after Update TopK = %+v", hits)
	}
	if !x.Remove("a") || x.Remove("a") {
		t.Fatal("Remove twice should be true then false")
	}
	if x.Len() != 2 || x.Has("a") {
		t.Fatalf("Len = %d, Has(a) = %v", x.Len(), x.Has("a"))
	}
	hits, _ = x.TopK(Vector{0, 1, 0}, 3, nil)
	if len(hits) != 2 || hits[0].ID != "b" || !tstNear(hits[0].Similarity, 1/math.Sqrt2) {
		t.Fatalf("after Remove TopK = %+v", hits)
	}
	if _, err := x.TopK(Vector{1}, 1, nil); !errors.Is(err, ErrDimension) {
		t.Fatalf("TopK wrong dim: %v", err)
	}
}

// TestIndexTopKMatchesBruteForce checks the parallel scan against a sort.
func TestIndexTopKMatchesBruteForce(t *testing.T) {
	vs := tstRandUnit(5000, 64, 1)
	x := NewIndex(64)
	for i, v := range vs {
		if err := x.Add(fmt.Sprint(i), v); err != nil {
			t.Fatal(err)
		}
	}
	q := tstRandUnit(1, 64, 2)[0]
	hits, err := x.TopK(q, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := -2.0
	bestID := ""
	for i, v := range vs {
		if s := Cosine(q, v); s > best {
			best, bestID = s, fmt.Sprint(i)
		}
	}
	if hits[0].ID != bestID || math.Abs(hits[0].Similarity-best) > 1e-4 {
		t.Fatalf("top hit %+v, brute force %s %v", hits[0], bestID, best)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Similarity > hits[i-1].Similarity {
			t.Fatalf("hits not sorted: %+v", hits)
		}
	}

	// Large enough to be scanned in parallel (the workers' ranges start and
	// end inside chunks): the top 20 are the brute force's top 20.
	big := tstRandUnit(3000, 512, 3)
	y := NewIndex(512)
	for i, v := range big {
		if err := y.Add(fmt.Sprint(i), v); err != nil {
			t.Fatal(err)
		}
	}
	q = tstRandUnit(1, 512, 4)[0]
	type sim struct {
		id string
		s  float64
	}
	var all []sim
	for i, v := range big {
		all = append(all, sim{fmt.Sprint(i), Cosine(q, v)})
	}
	slices.SortFunc(all, func(a, b sim) int { return cmp.Compare(b.s, a.s) })
	hits, err = y.TopK(q, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hits {
		if h.ID != all[i].id || math.Abs(h.Similarity-all[i].s) > 1e-4 {
			t.Fatalf("hit %d: %+v, brute force %+v", i, h, all[i])
		}
	}
}

// TestIndexChunksAgreeWithModel: random adds, updates and removes across
// several chunks (rows move between chunks on removal, the last chunk
// empties and fills again) leave the index holding exactly the vectors a
// map holds, and TopK ranks them as a sort of the map does.
func TestIndexChunksAgreeWithModel(t *testing.T) {
	const dim = 8
	vs := tstRandUnit(4000, dim, 7)
	rng := rand.New(rand.NewPCG(3, 4))
	x := NewIndex(dim)
	model := map[string]Vector{}
	check := func(step int) {
		t.Helper()
		if x.Len() != len(model) {
			t.Fatalf("step %d: Len %d, want %d", step, x.Len(), len(model))
		}
		for id, want := range model {
			got, ok := x.Vector(id)
			if !ok || !slices.Equal(got, Normalize(want)) {
				t.Fatalf("step %d: vector of %s is %v (%v), want %v", step, id, got, ok, Normalize(want))
			}
		}
		q := vs[rng.IntN(len(vs))]
		hits, err := x.TopK(q, len(model)+1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != len(model) {
			t.Fatalf("step %d: TopK returned %d of %d", step, len(hits), len(model))
		}
		for i, h := range hits {
			if want := float64(dotF32(AsUnit(q), Normalize(model[h.ID]))); math.Abs(h.Similarity-want) > 1e-5 {
				t.Fatalf("step %d: hit %d %s similarity %v, want %v", step, i, h.ID, h.Similarity, want)
			}
			if i > 0 && h.Similarity > hits[i-1].Similarity {
				t.Fatalf("step %d: hits not sorted at %d", step, i)
			}
		}
	}
	next := 0
	for step := range 12_000 {
		switch r := rng.IntN(10); {
		case r < 6 || len(model) == 0: // add (more adds than removes at first, then the other way)
			if step > 8000 && r < 4 {
				break
			}
			id := fmt.Sprint("v", next)
			next++
			v := vs[rng.IntN(len(vs))]
			if err := x.Add(id, v); err != nil {
				t.Fatal(err)
			}
			model[id] = v
		case r < 7: // update
			for id := range model {
				v := vs[rng.IntN(len(vs))]
				if err := x.Update(id, v); err != nil {
					t.Fatal(err)
				}
				model[id] = v
				break
			}
		default: // remove
			for id := range model {
				if !x.Remove(id) {
					t.Fatalf("Remove(%s) = false", id)
				}
				delete(model, id)
				break
			}
		}
		if step%1500 == 0 || step == 11_999 {
			check(step)
		}
	}
	if n, rows := len(x.chunks), len(model); n < (rows+chunkRows-1)/chunkRows || n > rows/chunkRows+1 {
		t.Fatalf("%d chunks for %d rows", n, rows)
	}

	// Adding and removing at a chunk boundary reuses the emptied chunk.
	y := NewIndex(dim)
	for i := range chunkRows + 1 {
		if err := y.Add(fmt.Sprint(i), vs[i]); err != nil {
			t.Fatal(err)
		}
	}
	second := &y.chunks[1][0]
	for i := range 3 {
		y.Remove(fmt.Sprint(chunkRows + i))
		if err := y.Add(fmt.Sprint(chunkRows+i+1), vs[i]); err != nil {
			t.Fatal(err)
		}
		if len(y.chunks) != 2 || &y.chunks[1][0] != second {
			t.Fatalf("round %d: %d chunks, the second one reallocated: %v", i, len(y.chunks), &y.chunks[1][0] != second)
		}
	}
}

func TestIndexConcurrentReadersAndWriter(t *testing.T) {
	vs := tstRandUnit(2000, 32, 3)
	x := NewIndex(32)
	for i, v := range vs[:1000] {
		x.Add(fmt.Sprint(i), v)
	}
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for i := range 200 {
				if _, err := x.TopK(vs[(r*200+i)%2000], 5, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := 1000; i < 2000; i++ {
			x.Add(fmt.Sprint(i), vs[i])
			x.Remove(fmt.Sprint(i - 1000))
		}
	})
	wg.Wait()
	if x.Len() != 1000 {
		t.Fatalf("Len = %d, want 1000", x.Len())
	}
}

func tstBenchIndex(b *testing.B, n int) { tstBenchSearch(b, n, (*Index).TopK) }

func tstBenchSearch(b *testing.B, n int, search func(*Index, Vector, int, Filter) ([]Hit, error)) {
	vs := tstRandUnit(n, 512, 42)
	x := NewIndex(512)
	for i, v := range vs {
		x.Add(fmt.Sprint(i), v)
	}
	q := tstRandUnit(1, 512, 43)[0]
	cputime.Loop(b, func() {
		if _, err := search(x, q, 10, nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkIndexTopKCentred10k is findSimilar's search at 10,000 thoughts.
func BenchmarkIndexTopKCentred10k(b *testing.B) { tstBenchSearch(b, 10_000, (*Index).TopKCentred) }

func BenchmarkIndexTopK10k(b *testing.B)  { tstBenchIndex(b, 10_000) }
func BenchmarkIndexTopK100k(b *testing.B) { tstBenchIndex(b, 100_000) }

// BenchmarkIndexAdd100k builds an index of 100,000 vectors of 512
// dimensions (as a session's index is built, or brought up to date, one
// vector at a time): ns/op is per vector; max-add-ms is the slowest single
// Add of each build (the worst a call that syncs the index waits for one
// vector), reported as the largest over the builds.
func BenchmarkIndexAdd100k(b *testing.B) {
	const n = 100_000
	vs := tstRandUnit(1000, 512, 42)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	var worst time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += n {
		x := NewIndex(512)
		for i := range min(n, b.N-done) {
			t0 := time.Now()
			if err := x.Add(ids[i], vs[i%len(vs)]); err != nil {
				b.Fatal(err)
			}
			worst = max(worst, time.Since(t0))
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-add-ms")
}

// TestIndexTopKCentredMatchesBruteForce: after adds, a replacement and
// removals (which the running sum must follow), large enough to be scanned
// in parallel, TopKCentred ranks as the cosine of vectors minus the
// shrunk mean does, computed from scratch; one vector is plain cosine.
func TestIndexTopKCentredMatchesBruteForce(t *testing.T) {
	const dim = 512
	// Vectors sharing a strong common component, as a session's do.
	common := tstRandUnit(1, dim, 9)[0]
	vs := tstRandUnit(3000, dim, 10)
	for i, v := range vs {
		w := make(Vector, dim)
		for j := range w {
			w[j] = 2*common[j] + v[j]
		}
		vs[i] = w
	}
	x := NewIndex(dim)
	for i, v := range vs {
		if err := x.Add(fmt.Sprint(i), v); err != nil {
			t.Fatal(err)
		}
	}
	x.Add("5", vs[6]) // a replacement
	vs[5] = vs[6]
	for _, id := range []string{"7", "2999"} {
		x.Remove(id)
	}
	live := map[string]Vector{}
	for i, v := range vs {
		if i != 7 && i != 2999 {
			live[fmt.Sprint(i)] = Normalize(v)
		}
	}
	n := float64(len(live))
	c := make([]float64, dim)
	for _, v := range live {
		for j, a := range v {
			c[j] += float64(a) / n * (n - 1) / n
		}
	}
	minus := func(v Vector) Vector {
		out := make(Vector, dim)
		for j := range v {
			out[j] = v[j] - float32(c[j])
		}
		return out
	}
	q := Normalize(tstRandUnit(1, dim, 11)[0])
	for j := range q {
		q[j] += common[j]
	}
	q = Normalize(q)
	type sim struct {
		id string
		s  float64
	}
	var all []sim
	for id, v := range live {
		all = append(all, sim{id, Cosine(minus(q), minus(v))})
	}
	slices.SortFunc(all, func(a, b sim) int { return cmp.Compare(b.s, a.s) })
	hits, err := x.TopKCentred(q, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hits {
		if h.ID != all[i].id || math.Abs(h.Similarity-all[i].s) > 1e-3 {
			t.Fatalf("hit %d: %+v, brute force %+v", i, h, all[i])
		}
	}
	// Plain cosine ranks by the common component's noise; centred
	// similarities are lower.
	plain, _ := x.TopK(q, 1, nil)
	if plain[0].Similarity < hits[0].Similarity {
		t.Errorf("plain top %.3f below centred top %.3f", plain[0].Similarity, hits[0].Similarity)
	}

	one := NewIndex(dim)
	one.Add("a", vs[0])
	h1, _ := one.TopKCentred(q, 1, nil)
	h2, _ := one.TopK(q, 1, nil)
	if len(h1) != 1 || h1[0] != h2[0] {
		t.Errorf("one vector: centred %+v, plain %+v", h1, h2)
	}
}
