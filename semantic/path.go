package semantic

import (
	"fmt"
	"math"
)

// DefaultPathMinSimilarity is the edge threshold SemanticPath uses when given
// one outside (0, 1].
const DefaultPathMinSimilarity = 0.3

// PathStep is one thought on a semantic path.
type PathStep struct {
	Thought ThoughtRef `json:"thought"`
	// Similarity is the cosine to the previous step; nil for the first.
	Similarity *float64 `json:"similarity,omitempty"`
}

// SemanticPathResult is the answer of SemanticPath.
type SemanticPathResult struct {
	Found         bool       `json:"found"`
	Steps         []PathStep `json:"steps,omitempty"`
	Cost          float64    `json:"cost"`          // Σ (1 − cosine) over the path's edges
	MinSimilarity float64    `json:"minSimilarity"` // the edge threshold used
	// WeakestLink is the lowest similarity between consecutive steps.
	WeakestLink *float64 `json:"weakestLink,omitempty"`
	// DirectSimilarity is the cosine of the two end points.
	DirectSimilarity float64 `json:"directSimilarity"`
	// Exact is false when the session was too large to consider every edge
	// (more than pathDenseMax thoughts with vectors): the graph then only has
	// edges from each thought to its pathNeighbors nearest thoughts above
	// the threshold (found approximately, see knnGraph), in both directions.
	Exact  bool   `json:"exact"`
	Reason string `json:"reason"`
}

// pathDenseMax is the number of thoughts up to which SemanticPath considers
// every pair; pathNeighbors the nearest neighbours per thought above it.
const (
	pathDenseMax  = 2000
	pathNeighbors = 16
)

// sparseDijkstra runs Dijkstra's algorithm with a binary heap over the
// symmetric nearest-neighbour graph of m, filling dist, prev, edge and done,
// and returns the number of settled nodes.
func sparseDijkstra(m *matrix, th float32, src, dst int, dist []float64, prev []int32, edge []float32, done []bool) int {
	g := knnGraph(m, pathNeighbors, th)
	adj := make([][]neighbor, m.n)
	for i, l := range g {
		for _, nb := range l {
			adj[i] = append(adj[i], nb)
			adj[nb.j] = append(adj[nb.j], neighbor{j: int32(i), s: nb.s})
		}
	}
	type item struct {
		d float64
		v int
	}
	var h []item // binary min-heap on d, with stale entries skipped
	push := func(it item) {
		h = append(h, it)
		for j := len(h) - 1; j > 0; {
			p := (j - 1) / 2
			if h[p].d <= h[j].d {
				break
			}
			h[p], h[j] = h[j], h[p]
			j = p
		}
	}
	pop := func() item {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for j := 0; ; {
			l, r, k := 2*j+1, 2*j+2, j
			if l < len(h) && h[l].d < h[k].d {
				k = l
			}
			if r < len(h) && h[r].d < h[k].d {
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
	push(item{0, src})
	settled := 0
	for len(h) > 0 {
		it := pop()
		if done[it.v] || it.d > dist[it.v] {
			continue
		}
		done[it.v] = true
		settled++
		if it.v == dst {
			break
		}
		for _, nb := range adj[it.v] {
			v := int(nb.j)
			if done[v] {
				continue
			}
			if nd := it.d + float64(1-nb.s); nd < dist[v] {
				dist[v], prev[v], edge[v] = nd, int32(it.v), nb.s
				push(item{nd, v})
			}
		}
	}
	return settled
}

// SemanticPath finds the chain of thoughts leading from one thought to
// another in the smallest semantic steps.
//
// It runs Dijkstra's algorithm on the similarity graph of docs: every two
// thoughts with vectors whose cosine is ≥ minSim are joined by an edge of
// weight 1 − cosine, and the path of least total weight is returned (so a few
// close steps beat one distant jump). Edges are computed as nodes are
// settled, and the search stops when the target is settled: O(n²·dim) in the
// worst case, without building the graph. When the target cannot be reached
// through edges above the threshold, Found is false and Reason says how far
// the search got. minSim outside (0, 1] means DefaultPathMinSimilarity.
//
// Above pathDenseMax (2000) thoughts with vectors the O(n²) search is
// replaced by Dijkstra with a heap over the nearest-neighbour graph (each
// thought joined to its 16 nearest above the threshold), and Exact is false.
func SemanticPath(docs []Doc, from, to string, minSim float64) (SemanticPathResult, error) {
	if minSim <= 0 || minSim > 1 {
		minSim = DefaultPathMinSimilarity
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
	res.DirectSimilarity = float64(dotF32(m.row(src), m.row(dst)))
	if src == dst {
		res.Found = true
		res.Steps = []PathStep{{Thought: Ref(docs[fi])}}
		res.Reason = "the two thoughts are the same"
		return res, nil
	}

	n := m.n
	dist := make([]float64, n)
	prev := make([]int32, n)
	edge := make([]float32, n) // similarity of the edge prev[i] -> i
	done := make([]bool, n)
	for i := range dist {
		dist[i] = math.Inf(1)
		prev[i] = -1
	}
	dist[src] = 0
	th := float32(minSim)
	settled := 0
	if n > pathDenseMax {
		res.Exact = false
		settled = sparseDijkstra(m, th, src, dst, dist, prev, edge, done)
	}
	for res.Exact {
		u := -1
		best := math.Inf(1)
		for i, d := range dist {
			if !done[i] && d < best {
				u, best = i, d
			}
		}
		if u < 0 {
			break
		}
		done[u] = true
		settled++
		if u == dst {
			break
		}
		ru := m.row(u)
		relax := func(lo, hi int) {
			for v := lo; v < hi; v++ {
				if done[v] {
					continue
				}
				s := dotF32(ru, m.row(v))
				if s < th {
					continue
				}
				if nd := best + float64(1-s); nd < dist[v] {
					dist[v], prev[v], edge[v] = nd, int32(u), s
				}
			}
		}
		if n*m.dim >= parallelMinWork {
			parallelRows(n, relax)
		} else {
			relax(0, n)
		}
	}
	if !done[dst] {
		res.Reason = fmt.Sprintf("no path: %q cannot be reached from %q through thoughts whose consecutive similarity is at least %.2f (%d of %d thoughts with vectors are reachable; the direct similarity is %.2f)",
			to, from, minSim, settled, n, res.DirectSimilarity)
		return res, nil
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
	res.Cost = dist[dst]
	res.WeakestLink = &weakest
	res.Reason = fmt.Sprintf("shortest path over edges with similarity ≥ %.2f: %d steps, total distance %.3f (Σ 1 − cosine), weakest link %.2f",
		minSim, len(res.Steps)-1, res.Cost, weakest)
	return res, nil
}
