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
	Reason           string  `json:"reason"`
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
func SemanticPath(docs []Doc, from, to string, minSim float64) (SemanticPathResult, error) {
	if minSim <= 0 || minSim > 1 {
		minSim = DefaultPathMinSimilarity
	}
	res := SemanticPathResult{MinSimilarity: minSim}
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
	for {
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
