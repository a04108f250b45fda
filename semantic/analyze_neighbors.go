package semantic

import (
	"math"
	"runtime"
	"slices"
	"sync"
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
//     its nearest centroid (above knnTreeMin documents: C = n/64 centroids,
//     found through a two-level tree, see quantizer);
//  3. each document is compared with the members of its knnProbe nearest
//     centroids' lists, using int8 copies of the full vectors (one scale per
//     vector, cosine error about 2e-3 at 512 dimensions) laid out cluster
//     by cluster; the best k+4 above the threshold minus a margin are
//     re-scored with exact float32 cosines and the best k above the
//     threshold kept.
//
// The cost is about n·(C + probe·n/C) sketch and int8 dot products plus
// n·(k+4) exact ones instead of n²/2 exact ones. A pair that lands in
// clusters that neither document probes is missed. Measured on the planted
// test data (tstPlant, 512 dimensions): 84% of the exact 10 nearest
// neighbours are found at 32,000 documents and 62% at 100,000, where 94% of
// the planted near-duplicate pairs are found (TestKNNRecallPlanted,
// BenchmarkKNNGraph100k, BenchmarkFindContradictions100k). The losses come
// from the clustering: the two-level tree does not always lead a document
// to the centroid nearest to it, and topics that no seed falls in are
// spread over other clusters.

// knnExactMax is the number of documents up to which neighbours are exact.
const knnExactMax = 320

// knnSketchDim is the length of the count sketches used above knnExactMax.
const knnSketchDim = 128 // fold128 relies on it

// knnTreeMin is the number of documents above which clusters are found
// through a two-level tree of centroids, knnClusterSize their mean size then.
const (
	knnTreeMin     = 30000
	knnClusterSize = 64
)

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
func newMatrix(vs []Vector, dim int) *matrix {
	m := &matrix{n: len(vs), dim: dim, rows: make([][]float32, len(vs))}
	for i, v := range vs {
		m.rows[i] = asUnit(v)
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
	out := make([][]neighbor, m.n)
	if m.n < 2 || k <= 0 {
		return out
	}
	if m.n <= knnExactMax {
		parallelRows(m.n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				h := topHeap{k: k}
				ri := m.row(i)
				for j := 0; j < m.n; j++ {
					if j == i {
						continue
					}
					if s := dotF32(ri, m.row(j)); s >= minSim && h.wants(s) {
						h.push(scored{i: j, s: s})
					}
				}
				out[i] = heapToNeighbors(h)
			}
		})
		return out
	}

	sk := sketchMatrix(m)
	// √(2n) clusters balance the cost of finding a document's clusters
	// (one comparison per centroid) with that of scanning them. Above
	// knnTreeMin documents the clusters are found through a two-level tree
	// instead, which makes ~64-document clusters affordable.
	nc := int(math.Ceil(math.Sqrt(2 * float64(m.n))))
	nearest := func(x, cent *matrix, p int) []int32 { return nearestCentroids(x, cent, p) }
	if m.n > knnTreeMin {
		nc = (m.n + knnClusterSize - 1) / knnClusterSize
		nearest = func(x, cent *matrix, p int) []int32 { return newQuantizer(cent).assign(x, p) }
	}
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
	cent = recomputeCentroids(sample, cent, nearest(sample, cent, 1))
	probe := min(knnProbe, nc)
	near := nearest(sk, cent, probe)
	lists := make([][]int32, nc)
	for i := 0; i < m.n; i++ {
		c := near[i*probe]
		lists[c] = append(lists[c], int32(i))
	}
	// Visit the documents cluster by cluster, so that the rows a document
	// compares with are mostly still in the CPU cache from its predecessor.
	// The rows are copied in that order as int8 vectors, so that scanning a
	// cluster reads a quarter of the memory, consecutively.
	order := make([]int32, 0, m.n)
	start := make([]int, nc+1)
	for c, l := range lists {
		start[c] = len(order)
		order = append(order, l...)
	}
	start[nc] = m.n
	pos := make([]int32, m.n)
	for p, i := range order {
		pos[i] = int32(p)
	}
	qv := &i8Rows{n: m.n, dim: m.dim, data: make([]int8, m.n*m.dim), scale: make([]float32, m.n), sum: make([]int32, m.n)}
	parallelRows(m.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			p := int(pos[i])
			qv.scale[p] = quantizeRow(qv.row(p), m.row(i))
			qv.sum[p] = sumI8(qv.row(p))
		}
	})
	// Every member of the probed clusters is scored with the int8 vectors;
	// the best k+rescoreSlack above minSim-i8Margin are then rescored
	// exactly, and the best k of those above minSim kept.
	const rescoreSlack, i8Margin = 4, 0.02
	parallelRows(m.n, func(lo, hi int) {
		h := topHeap{k: k + rescoreSlack, items: make([]scored, 0, k+rescoreSlack)}
		ex := topHeap{k: k, items: make([]scored, 0, k)}
		var dots []int32
		qi := make([]uint8, qv.dim)
		for p := lo; p < hi; p++ {
			i := int(order[p])
			h.items, ex.items = h.items[:0], ex.items[:0]
			offsetI8(qi, qv.row(p))
			si := qv.scale[p]
			for _, c := range near[i*probe : (i+1)*probe] {
				lo, hi := start[c], start[c+1]
				dots = slices.Grow(dots[:0], hi-lo)[:hi-lo]
				dotU8I8Batch(qi, qv.data[lo*qv.dim:hi*qv.dim], dots)
				for x, d := range dots {
					if lo+x == p {
						continue
					}
					d -= i8Off * qv.sum[lo+x]
					if s := float32(d) * si * qv.scale[lo+x]; s >= minSim-i8Margin && h.wants(s) {
						h.push(scored{i: int(order[lo+x]), s: s})
					}
				}
			}
			ri := m.row(i)
			for _, it := range h.items {
				if s := dotF32(ri, m.row(it.i)); s >= minSim && ex.wants(s) {
					ex.push(scored{i: it.i, s: s})
				}
			}
			out[i] = heapToNeighbors(ex)
		}
	})
	return out
}

func heapToNeighbors(h topHeap) []neighbor {
	if len(h.items) == 0 {
		return nil
	}
	nb := make([]neighbor, len(h.items))
	for i, it := range h.items {
		nb[i] = neighbor{j: int32(it.i), s: it.s}
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
		dotBatch(q, m.data, sims[:m.n])
		return
	}
	for r := range m.n {
		sims[r] = dotF32(q, m.row(r))
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
			h := topHeap{k: p}
			cent.dotAll(sk.row(i), sims)
			for c, s := range sims {
				if h.wants(s) {
					h.push(scored{i: c, s: s})
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

// quantizer finds the nearest of many centroids through a two-level tree:
// ⌈√C⌉ top centroids, each owning the group of leaf centroids nearest to it.
// A vector is compared with every top and with the leaves of its
// quantizerTopProbe nearest tops, so the cost per vector is O(√C) instead of
// O(C).
type quantizer struct {
	leaves, tops *matrix
	groups       [][]int32
	groupRows    []*matrix // the leaves of each group, copied consecutively
}

func newQuantizer(leaves *matrix) *quantizer {
	q := &quantizer{leaves: leaves}
	nt := int(math.Ceil(math.Sqrt(float64(leaves.n))))
	q.tops = seedCentroids(leaves, nt)
	q.tops = recomputeCentroids(leaves, q.tops, nearestCentroids(leaves, q.tops, 1))
	q.groups = make([][]int32, nt)
	for l, t := range nearestCentroids(leaves, q.tops, 1) {
		q.groups[t] = append(q.groups[t], int32(l))
	}
	q.groupRows = make([]*matrix, nt)
	for t, g := range q.groups {
		q.groupRows[t] = newBlock(len(g), leaves.dim)
		for x, l := range g {
			copy(q.groupRows[t].row(x), leaves.row(int(l)))
		}
	}
	return q
}

// assign returns, for every row of sk, its p nearest leaves (nearest first)
// as a flat n·p slice; a row with fewer candidates repeats its nearest.
func (q *quantizer) assign(sk *matrix, p int) []int32 {
	out := make([]int32, sk.n*p)
	tp := min(quantizerTopProbe, q.tops.n)
	parallelRows(sk.n, func(lo, hi int) {
		th := topHeap{k: tp, items: make([]scored, 0, tp)}
		lh := topHeap{k: p, items: make([]scored, 0, p)}
		sims := make([]float32, q.tops.n)
		for i := lo; i < hi; i++ {
			th.items, lh.items = th.items[:0], lh.items[:0]
			ri := sk.row(i)
			q.tops.dotAll(ri, sims)
			for t, s := range sims {
				if th.wants(s) {
					th.push(scored{i: t, s: s})
				}
			}
			for _, t := range th.items {
				g := q.groups[t.i]
				sims = slices.Grow(sims[:0], len(g))[:len(g)]
				q.groupRows[t.i].dotAll(ri, sims)
				for x, s := range sims {
					if lh.wants(s) {
						lh.push(scored{i: int(g[x]), s: s})
					}
				}
			}
			sims = slices.Grow(sims[:0], q.tops.n)[:q.tops.n]
			nb := heapToNeighbors(lh)
			for k := range p {
				out[i*p+k] = nb[min(k, len(nb)-1)].j
			}
		}
	})
	return out
}

// quantizerTopProbe is the number of top centroids whose leaves are searched.
const quantizerTopProbe = 8
