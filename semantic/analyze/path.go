package analyze

import (
	"fmt"
	"math"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/internal/topk"
)

// PathStep is one thought on a semantic path.
type PathStep struct {
	Thought ThoughtRef `json:"thought"`
	// Similarity is the cosine to the previous step; nil for the first.
	Similarity *float64 `json:"similarity,omitempty"`
}

// SemanticPathResult is the answer of SemanticPath.
type SemanticPathResult struct {
	Found bool       `json:"found"`
	Steps []PathStep `json:"steps,omitempty"`
	Cost  float64    `json:"cost"` // Σ (1 − cosine) over the path's edges
	// MinSimilarity is the edge threshold asked for; 0 when none was: then
	// any two thoughts with a positive cosine are joined.
	MinSimilarity float64 `json:"minSimilarity"`
	// WeakestLink is the lowest similarity between consecutive steps: the
	// highest such bottleneck of any path between the two thoughts.
	WeakestLink *float64 `json:"weakestLink,omitempty"`
	// DirectSimilarity is the cosine of the two end points.
	DirectSimilarity float64 `json:"directSimilarity"`
	// Exact is false when the session was too large to consider every edge
	// (more than pathDenseMax thoughts with vectors): the graph then only has
	// edges from each thought to its pathNeighbors nearest thoughts above
	// the threshold (found approximately, see knnGraph), in both directions.
	// Connected then means connected in that graph.
	Exact  bool   `json:"exact"`
	Reason string `json:"reason"`
}

// pathDenseMax is the number of thoughts up to which SemanticPath considers
// every pair; pathNeighbors the nearest neighbours per thought above it.
const (
	pathDenseMax  = 2000
	pathNeighbors = 16
)

// pathGraph is the similarity graph SemanticPath searches: every two rows of
// m whose cosine is positive and ≥ th are joined, or, above pathDenseMax
// rows, only the symmetric nearest-neighbour graph (adj) of those edges.
type pathGraph struct {
	m   *matrix
	th  float32
	adj [][]neighbor // nil: dense (every pair)
	buf []float32    // the cosines of one row (dense)
}

func newPathGraph(m *matrix, th float32) *pathGraph {
	g := &pathGraph{m: m, th: th}
	if m.n > pathDenseMax {
		knn := knnGraph(m, pathNeighbors, th)
		g.adj = make([][]neighbor, m.n)
		for i, l := range knn {
			for _, nb := range l {
				if nb.s > 0 {
					g.adj[i] = append(g.adj[i], nb)
					g.adj[nb.j] = append(g.adj[nb.j], neighbor{j: int32(i), s: nb.s})
				}
			}
		}
	}
	return g
}

// edges calls f for every neighbour v of u not yet done, with the cosine.
func (g *pathGraph) edges(u int, done []bool, f func(v int, s float32)) {
	if g.adj != nil {
		for _, nb := range g.adj[u] {
			if !done[nb.j] {
				f(int(nb.j), nb.s)
			}
		}
		return
	}
	ru := g.m.row(u)
	n := g.m.n
	if len(g.buf) != n {
		g.buf = make([]float32, n)
	}
	sims := g.buf
	fill := func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if !done[v] {
				sims[v] = semantic.Dot(ru, g.m.row(v))
			}
		}
	}
	if n*g.m.dim >= topk.ParallelMinWork {
		parallelRows(n, fill)
	} else {
		fill(0, n)
	}
	for v, s := range sims {
		if !done[v] && v != u && s > 0 && s >= g.th {
			f(v, s)
		}
	}
}

// search is a best-first search from src until dst is settled: better(a,
// b) orders keys (the best is settled first), extend gives the key of a
// path through an edge of cosine s. It fills key, prev and edge (the cosine
// of prev[i] → i) and returns the number of settled rows and whether dst
// was reached.
func (g *pathGraph) search(src, dst int, start float64, better func(a, b float64) bool, extend func(k float64, s float32) float64,
	key []float64, prev []int32, edge []float32) (int, bool) {
	n := g.m.n
	done := make([]bool, n)
	seen := make([]bool, n)
	for i := range prev {
		prev[i] = -1
	}
	key[src], seen[src] = start, true
	var h []int // binary heap of rows on key, with stale entries skipped
	less := func(i, j int) bool { return better(key[h[i]], key[h[j]]) }
	push := func(v int) {
		h = append(h, v)
		for j := len(h) - 1; j > 0; {
			p := (j - 1) / 2
			if !less(j, p) {
				break
			}
			h[p], h[j] = h[j], h[p]
			j = p
		}
	}
	pop := func() int {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for j := 0; ; {
			l, r, k := 2*j+1, 2*j+2, j
			if l < len(h) && less(l, k) {
				k = l
			}
			if r < len(h) && less(r, k) {
				k = r
			}
			if k == j {
				break
			}
			h[j], h[k] = h[k], h[j]
			j = k
		}
		return top
	}
	push(src)
	settled := 0
	for len(h) > 0 {
		u := pop()
		if done[u] {
			continue
		}
		done[u] = true
		settled++
		if u == dst {
			return settled, true
		}
		g.edges(u, done, func(v int, s float32) {
			if k := extend(key[u], s); !seen[v] || better(k, key[v]) {
				key[v], prev[v], edge[v], seen[v] = k, int32(u), s, true
				push(v)
			}
		})
	}
	return settled, false
}

// SemanticPath finds the chain of thoughts from one thought to another
// whose weakest link is strongest: a widest path of the similarity graph.
//
// Two thoughts with vectors are joined when their cosine is positive (and
// ≥ minSim when minSim is in (0, 1]; minSim ≤ 0 means no further
// threshold). The answer is found whenever the two thoughts are connected
// in that graph; Found is false only when they are not. First a
// best-first search for the maximum bottleneck (the modified Dijkstra of
// the widest-path problem) gives the highest weakest link any path can
// have; then, among the paths whose every link is at least that strong,
// Dijkstra picks the one of least total distance Σ (1 − cosine), so that a
// few close steps beat one distant jump. WeakestLink is that bottleneck.
// Edges are computed as rows are settled: O(n²·dim) in the worst case,
// without building the graph.
//
// Above pathDenseMax (2000) thoughts with vectors, the graph is the
// symmetric nearest-neighbour graph instead (each thought joined to its 16
// nearest with a positive cosine above the threshold, found approximately),
// connected means connected in it, and Exact is false.
func SemanticPath(docs []Doc, from, to string, minSim float64) (SemanticPathResult, error) {
	if minSim < 0 || minSim > 1 {
		minSim = 0
	}
	res := SemanticPathResult{MinSimilarity: minSim, Exact: true}
	fi, ti := -1, -1
	for i, d := range docs {
		if d.ID == from && fi < 0 {
			fi = i
		}
		if d.ID == to && ti < 0 {
			ti = i
		}
	}
	if fi < 0 {
		return res, fmt.Errorf("semantic: path from %q: %w", from, ErrNotFound)
	}
	if ti < 0 {
		return res, fmt.Errorf("semantic: path to %q: %w", to, ErrNotFound)
	}
	vd := vectorsOf(docs, nil)
	src, ok1 := vd.row[fi]
	dst, ok2 := vd.row[ti]
	if !ok1 {
		return res, fmt.Errorf("semantic: path from %q: %w", from, ErrNoVector)
	}
	if !ok2 {
		return res, fmt.Errorf("semantic: path to %q: %w", to, ErrNoVector)
	}
	m := vd.m
	res.DirectSimilarity = float64(semantic.Dot(m.row(src), m.row(dst)))
	if src == dst {
		res.Found = true
		res.Steps = []PathStep{{Thought: Ref(docs[fi])}}
		res.Reason = "the two thoughts are the same"
		return res, nil
	}
	n := m.n
	g := newPathGraph(m, float32(minSim))
	res.Exact = g.adj == nil
	graph := "thoughts joined when their cosine is positive"
	if minSim > 0 {
		graph += fmt.Sprintf(" and ≥ %.2f", minSim)
	}
	if !res.Exact {
		graph += fmt.Sprintf(", each to its %d nearest", pathNeighbors)
	}
	key := make([]float64, n)
	prev := make([]int32, n)
	edge := make([]float32, n)
	// The widest path's bottleneck.
	settled, ok := g.search(src, dst, math.Inf(1), func(a, b float64) bool { return a > b },
		func(k float64, s float32) float64 { return min(k, float64(s)) }, key, prev, edge)
	if !ok {
		res.Reason = fmt.Sprintf("no path: %q is not connected to %q (graph: %s; %d of %d thoughts with vectors are reachable; the direct similarity is %.2f)",
			to, from, graph, settled, n, res.DirectSimilarity)
		return res, nil
	}
	width := float32(key[dst])
	// The shortest path over links at least as strong as the bottleneck.
	bottleneck := &pathGraph{m: m, th: max(g.th, width), adj: g.adj}
	if bottleneck.adj != nil {
		bottleneck.adj = make([][]neighbor, n)
		for i, l := range g.adj {
			for _, nb := range l {
				if nb.s >= width {
					bottleneck.adj[i] = append(bottleneck.adj[i], nb)
				}
			}
		}
	}
	if _, ok := bottleneck.search(src, dst, 0, func(a, b float64) bool { return a < b },
		func(k float64, s float32) float64 { return k + float64(1-s) }, key, prev, edge); !ok {
		return res, fmt.Errorf("semantic: path from %q to %q: the widest path's links vanished", from, to)
	}
	var rev []int
	for v := dst; v >= 0; v = int(prev[v]) {
		rev = append(rev, v)
	}
	weakest := math.Inf(1)
	for k := len(rev) - 1; k >= 0; k-- {
		v := rev[k]
		st := PathStep{Thought: Ref(docs[vd.rows[v]])}
		if k < len(rev)-1 {
			s := float64(edge[v])
			st.Similarity = &s
			weakest = min(weakest, s)
		}
		res.Steps = append(res.Steps, st)
	}
	res.Found = true
	res.Cost = key[dst]
	res.WeakestLink = &weakest
	res.Reason = fmt.Sprintf("widest path (graph: %s): %d steps whose weakest link %.2f is the strongest any path has; among such paths the shortest, total distance %.3f (Σ 1 − cosine)",
		graph, len(res.Steps)-1, weakest, res.Cost)
	return res, nil
}
