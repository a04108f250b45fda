package analyze

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/internal/topk"
)

// This file builds the k-nearest-neighbour lists that the analyzers use to
// pick candidate pairs (contradictions, redundancy, gaps, information gain)
// without comparing all pairs.
//
// Up to knnExactMax documents every pair is compared exactly. Above it the
// lists are approximate, in the manner of an inverted-file (IVF) index:
//
//  1. each vector is compressed to a 128-value count sketch (coordinate t
//     is added, with a pseudo-random sign, to bucket t mod 128 when the
//     dimension is a multiple of 128, hash(t) mod 128 otherwise; the
//     sketch preserves dot products in expectation);
//  2. C = ⌈√(2n)⌉ centroids are seeded with evenly spaced documents, refined
//     by one k-means step on a sample of the sketches, and each document is filed under
//     its nearest centroid;
//  3. each document is compared, by exact cosine, with the members of its
//     knnProbe nearest centroids' lists, the vectors copied cluster by
//     cluster so that a cluster is one consecutive block; the best k above
//     the threshold are kept.
//
// The cost is about n·C sketch and n·probe·n/C full dot products instead of
// n²/2 full ones. A pair that lands in
// clusters that neither document probes is missed. Measured on the planted
// test data (tstPlant, 512 dimensions): 68% of the exact 10 nearest
// neighbours are found at 32,000 documents and 51% at 100,000, where 95% of
// the planted contradicting pairs are still grouped with their pair
// (TestKNNRecallPlanted, BenchmarkKNNGraph100k, BenchmarkGroupClaims100k:
// 1,911 of 2,000). The losses come
// from the clustering: topics that no seed falls in are spread over other
// clusters.

// knnExactMax is the number of documents up to which neighbours are exact.
const knnExactMax = 320

// knnSketchDim is the length of the count sketches used above knnExactMax.
const knnSketchDim = 128 // fold128 relies on it

// knnProbe is the number of nearest clusters each document searches.
const knnProbe = 3

// neighbor is one entry of a neighbour list: a row index and its cosine.
type neighbor struct {
	j int32
	s float32
}

// matrix is a set of n unit vectors of length dim.
type matrix struct {
	n, dim int
	rows   [][]float32
	data   []float32 // the rows, consecutive, when they share one allocation
}

func (m *matrix) row(i int) []float32 { return m.rows[i] }

// newMatrix wraps the vectors without copying them, except those that are not
// unit length, which are replaced by normalised copies. All vectors must have
// length dim.
func newMatrix(vs []semantic.Vector, dim int) *matrix {
	m := &matrix{n: len(vs), dim: dim, rows: make([][]float32, len(vs))}
	for i, v := range vs {
		m.rows[i] = semantic.AsUnit(v)
	}
	return m
}

// newBlock returns a zero matrix whose rows share one allocation.
func newBlock(n, dim int) *matrix {
	data := make([]float32, n*dim)
	m := &matrix{n: n, dim: dim, rows: make([][]float32, n), data: data}
	for i := range m.rows {
		m.rows[i] = data[i*dim : (i+1)*dim : (i+1)*dim]
	}
	return m
}

// parallelRows runs f over [0, n) split into one contiguous chunk per CPU.
func parallelRows(n int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n/64+1)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + w - 1) / w
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// knnGraph returns, for every row i, up to k other rows j with cosine ≥
// minSim, most similar first (exact up to knnExactMax rows, approximate
// above; see the file comment).
func knnGraph(m *matrix, k int, minSim float32) [][]neighbor {
	return knnGraphOf(m, k, minSim, nil)
}

// knnGraphOf is knnGraph for the rows i with want[i] (every row when want
// is nil); the other rows' lists are nil. A row's list does not depend on
// which other rows are wanted.
func knnGraphOf(m *matrix, k int, minSim float32, want []bool) [][]neighbor {
	out := make([][]neighbor, m.n)
	if m.n < 2 || k <= 0 {
		return out
	}
	if m.n <= knnExactMax {
		parallelRows(m.n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if want != nil && !want[i] {
					continue
				}
				h := topk.Heap{K: k}
				ri := m.row(i)
				for j := 0; j < m.n; j++ {
					if j == i {
						continue
					}
					if s := semantic.Dot(ri, m.row(j)); s >= minSim && h.Wants(s) {
						h.Push(topk.Scored{I: j, S: s})
					}
				}
				out[i] = heapToNeighbors(h)
			}
		})
		return out
	}

	sk := sketchMatrix(m)
	// √(2n) clusters balance the cost of finding a document's clusters
	// (one comparison per centroid) with that of scanning them.
	nc := int(math.Ceil(math.Sqrt(2 * float64(m.n))))
	cent := seedCentroids(sk, nc)
	// The k-means step uses a sample of about 16 documents per centroid.
	sample := sk
	if stride := m.n / (16 * nc); stride > 1 {
		sample = &matrix{dim: sk.dim}
		for i := 0; i < m.n; i += stride {
			sample.rows = append(sample.rows, sk.row(i))
		}
		sample.n = len(sample.rows)
	}
	cent = recomputeCentroids(sample, cent, nearestCentroids(sample, cent, 1))
	probe := min(knnProbe, nc)
	near := nearestCentroids(sk, cent, probe)
	lists := make([][]int32, nc)
	for i := 0; i < m.n; i++ {
		c := near[i*probe]
		lists[c] = append(lists[c], int32(i))
	}
	// Visit the documents cluster by cluster, so that the rows a document
	// compares with are mostly still in the CPU cache from its predecessor.
	// The rows are copied in that order, so that a cluster is scanned
	// consecutively.
	order := make([]int32, 0, m.n)
	start := make([]int, nc+1)
	for c, l := range lists {
		start[c] = len(order)
		order = append(order, l...)
	}
	start[nc] = m.n
	rows := newBlock(m.n, m.dim)
	parallelRows(m.n, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			copy(rows.row(p), m.row(int(order[p])))
		}
	})
	parallelRows(m.n, func(lo, hi int) {
		h := topk.Heap{K: k, Items: make([]topk.Scored, 0, k)}
		var sims []float32
		for p := lo; p < hi; p++ {
			i := int(order[p])
			if want != nil && !want[i] {
				continue
			}
			h.Items = h.Items[:0]
			for _, c := range near[i*probe : (i+1)*probe] {
				lo, hi := start[c], start[c+1]
				sims = slices.Grow(sims[:0], hi-lo)[:hi-lo]
				semantic.DotBatch(rows.row(p), rows.data[lo*m.dim:hi*m.dim], sims)
				for x, s := range sims {
					if lo+x != p && s >= minSim && h.Wants(s) {
						h.Push(topk.Scored{I: int(order[lo+x]), S: s})
					}
				}
			}
			out[i] = heapToNeighbors(h)
		}
	})
	return out
}

func heapToNeighbors(h topk.Heap) []neighbor {
	if len(h.Items) == 0 {
		return nil
	}
	nb := make([]neighbor, len(h.Items))
	for i, it := range h.Items {
		nb[i] = neighbor{j: int32(it.I), s: it.S}
	}
	slices.SortFunc(nb, func(a, b neighbor) int {
		if a.s != b.s {
			if a.s > b.s {
				return -1
			}
			return 1
		}
		return int(a.j - b.j)
	})
	return nb
}

// sketchMatrix returns the normalised count sketches of m's rows, or m itself
// when its vectors are already short.
func sketchMatrix(m *matrix) *matrix {
	if m.dim <= 2*knnSketchDim {
		return m
	}
	bucket := make([]int, m.dim)
	sign := make([]float32, m.dim)
	for t := range m.dim {
		h := splitmix64(uint64(t) + 0x9e3779b97f4a7c15)
		bucket[t] = int(h % knnSketchDim)
		sign[t] = 1
		if h&(1<<40) != 0 {
			sign[t] = -1
		}
	}
	sk := newBlock(m.n, knnSketchDim)
	if m.dim%knnSketchDim == 0 {
		// Buckets t mod knnSketchDim (the signs alone are random): the
		// sketch is a signed sum of consecutive slices, with no scattered
		// writes.
		parallelRows(m.n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				dst := sk.row(i)
				fold128(dst, m.row(i), sign)
				normalizeInPlace(dst)
			}
		})
		return sk
	}
	parallelRows(m.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src, dst := m.row(i), sk.row(i)
			for t, x := range src {
				dst[bucket[t]] += sign[t] * x
			}
			normalizeInPlace(dst)
		}
	})
	return sk
}

func splitmix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func normalizeInPlace(v []float32) {
	var ss float32
	for _, x := range v {
		ss += x * x
	}
	if ss == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(float64(ss)))
	for i := range v {
		v[i] *= inv
	}
}

// dotAll sets sims[r] to the dot product of q with row r, for every row.
func (m *matrix) dotAll(q []float32, sims []float32) {
	if m.data != nil {
		semantic.DotBatch(q, m.data, sims[:m.n])
		return
	}
	for r := range m.n {
		sims[r] = semantic.Dot(q, m.row(r))
	}
}

// seedCentroids picks nc evenly spaced rows as initial centroids.
func seedCentroids(sk *matrix, nc int) *matrix {
	c := newBlock(nc, sk.dim)
	for k := range nc {
		copy(c.row(k), sk.row(k*sk.n/nc))
	}
	return c
}

// nearestCentroids returns, for every row, the indexes of its p most similar
// centroids, nearest first, as a flat n·p slice.
func nearestCentroids(sk, cent *matrix, p int) []int32 {
	out := make([]int32, sk.n*p)
	parallelRows(sk.n, func(lo, hi int) {
		sims := make([]float32, cent.n)
		for i := lo; i < hi; i++ {
			h := topk.Heap{K: p}
			cent.dotAll(sk.row(i), sims)
			for c, s := range sims {
				if h.Wants(s) {
					h.Push(topk.Scored{I: c, S: s})
				}
			}
			nb := heapToNeighbors(h)
			for k := range p {
				out[i*p+k] = nb[k].j
			}
		}
	})
	return out
}

// recomputeCentroids is one k-means update: each centroid becomes the
// normalised mean of its members; an empty one keeps its previous value.
func recomputeCentroids(sk, cent *matrix, assign []int32) *matrix {
	nc := newBlock(cent.n, cent.dim)
	count := make([]int, cent.n)
	for i, c := range assign {
		count[c]++
		dst := nc.row(int(c))
		for t, x := range sk.row(i) {
			dst[t] += x
		}
	}
	for c := range cent.n {
		if count[c] == 0 {
			copy(nc.row(c), cent.row(c))
		}
		normalizeInPlace(nc.row(c))
	}
	return nc
}

// fold128 sets dst (128 values) to the signed sum of the consecutive
// 128-value slices of x; len(x) = len(sign) is a multiple of 128.
func fold128(dst, x, sign []float32) {
	clear(dst)
	for b := 0; b+len(dst) <= len(x); b += len(dst) {
		xs := x[b : b+len(dst)]
		ss := sign[b : b+len(dst)]
		for u := range dst {
			dst[u] += ss[u] * xs[u]
		}
	}
}
