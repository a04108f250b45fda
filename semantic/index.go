package semantic

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic/internal/topk"
)

// ErrDimension is returned when a vector's length differs from the index's.
var ErrDimension = errors.New("semantic: vector dimension mismatch")

// Hit is one result of a similarity search.
type Hit struct {
	ID         string  `json:"id"`
	Similarity float64 `json:"similarity"` // cosine in [-1, 1]
}

// Index is an exact cosine-similarity index over the vectors of one session.
//
// Vectors are normalised on insertion and stored back to back in chunks of
// chunkRows rows, so a search is a linear scan of dot products with a
// bounded min-heap of the best k; large indexes are scanned by one goroutine
// per CPU. Adding a vector never copies more than one chunk: with one
// []float32 for all rows, each growth copied all of them (and touched as
// much fresh memory), stalling one Add for seconds at 100,000 vectors.
// It is safe for concurrent use: searches share a read lock, writes take the
// write lock.
type Index struct {
	mu  sync.RWMutex
	dim int
	// chunks hold the rows: row i is row i%chunkRows of chunks[i/chunkRows].
	// Every chunk before the one the next row goes to is full; that one
	// may be empty (left by Remove) or absent.
	chunks [][]float32
	ids    []string
	pos    map[string]int
	// sum is the sum of the rows, for TopKCentred.
	sum []float64
}

// chunkRows is the number of rows per chunk (2 MiB at 512 dimensions).
// The first chunk grows as rows are added, so a small index stays small;
// the next ones are allocated whole (memory the operating system hands out
// is touched only as rows fill it).
const chunkRows = 1024

// row returns row i. The caller holds the lock.
func (x *Index) row(i int) []float32 {
	off := (i % chunkRows) * x.dim
	return x.chunks[i/chunkRows][off : off+x.dim : off+x.dim]
}

// NewIndex returns an empty index for vectors of length dim. A dim of 0 lets
// the first added vector fix the dimension.
func NewIndex(dim int) *Index {
	return &Index{dim: dim, pos: make(map[string]int)}
}

// Dim returns the vector length of the index (0 while it is empty and was
// created without a dimension).
func (x *Index) Dim() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.dim
}

// Len returns the number of vectors in the index.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// Has reports whether id is in the index.
func (x *Index) Has(id string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.pos[id]
	return ok
}

// Vector returns a copy of the normalised vector stored for id.
func (x *Index) Vector(id string) (Vector, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	i, ok := x.pos[id]
	if !ok {
		return nil, false
	}
	return slices.Clone(Vector(x.row(i))), true
}

// IDs returns the ids in the index, in storage order.
func (x *Index) IDs() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return slices.Clone(x.ids)
}

// Add inserts the vector for id, or replaces it when id is already present.
// The vector is copied and normalised. An empty vector is rejected, as is one
// whose length differs from the index's dimension.
func (x *Index) Add(id string, v Vector) error {
	if len(v) == 0 {
		return fmt.Errorf("semantic: index add %q: empty vector", id)
	}
	n := Normalize(v)
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.dim == 0 {
		x.dim = len(v)
	}
	if len(v) != x.dim {
		return fmt.Errorf("semantic: index add %q: length %d, index has %d: %w", id, len(v), x.dim, ErrDimension)
	}
	if x.sum == nil {
		x.sum = make([]float64, x.dim)
	}
	for j, v := range n {
		x.sum[j] += float64(v)
	}
	if i, ok := x.pos[id]; ok {
		for j, v := range x.row(i) {
			x.sum[j] -= float64(v)
		}
		copy(x.row(i), n)
		return nil
	}
	full := chunkRows * x.dim
	ci := len(x.ids) / chunkRows
	if ci == len(x.chunks) {
		size := full
		if ci == 0 {
			size = x.dim // the first chunk grows as rows come
		}
		x.chunks = append(x.chunks, make([]float32, 0, size))
	}
	c := x.chunks[ci]
	if len(c) == cap(c) {
		// Only the first chunk fills up before it is whole: it doubles.
		c = append(make([]float32, 0, min(full, 2*cap(c))), c...)
	}
	x.chunks[ci] = append(c, n...)
	x.pos[id] = len(x.ids)
	x.ids = append(x.ids, id)
	return nil
}

// Update replaces the vector of id; it is Add under the name callers expect
// when a thought's text was edited or a re-embedding arrived.
func (x *Index) Update(id string, v Vector) error { return x.Add(id, v) }

// Remove deletes id from the index and reports whether it was present. The
// last row is moved into the freed slot, so removal is O(dim).
func (x *Index) Remove(id string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	i, ok := x.pos[id]
	if !ok {
		return false
	}
	for j, v := range x.row(i) {
		x.sum[j] -= float64(v)
	}
	last := len(x.ids) - 1
	if i != last {
		copy(x.row(i), x.row(last))
		x.ids[i] = x.ids[last]
		x.pos[x.ids[i]] = i
	}
	x.ids = x.ids[:last]
	ci := last / chunkRows
	x.chunks[ci] = x.chunks[ci][:len(x.chunks[ci])-x.dim]
	// A chunk emptied here stays, for the next Add; one emptied before
	// goes.
	x.chunks = x.chunks[:ci+1]
	delete(x.pos, id)
	return true
}

// Filter decides whether a document may appear in search results. It is
// only called for documents that would enter the current top k, possibly from
// several goroutines at once, so it must be safe for concurrent use.
type Filter func(id string) bool

// ExcludeIDs returns a Filter that rejects the given ids.
func ExcludeIDs(ids ...string) Filter {
	set := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		set[id] = struct{}{}
	}
	return func(id string) bool { _, ok := set[id]; return !ok }
}

// TopK returns the k documents most similar to query by cosine, best first,
// that pass filter (nil accepts all). Equal similarities are ordered by id.
// The query need not be normalised. It returns ErrDimension when the query's
// length differs from the index's dimension.
func (x *Index) TopK(query Vector, k int, filter Filter) ([]Hit, error) {
	return x.topK(query, k, filter, false)
}

// TopKCentred is TopK after removing what the index's vectors have in
// common: the similarity is the cosine of the query and each vector, both
// minus the mean c of the index's vectors shrunk by (n-1)/n for n vectors
// (so an index of one vector is searched by plain cosine). Thoughts of one
// session share its topic, and with it much of their vectors; ranked
// without it, the thought that matches the query on what sets it apart
// from the others comes first (on the reasoning dev set's retrieval
// sessions: top-1 0.45 → 0.52). A similarity of 0 means "as related as the
// session's average thought", and it can be negative.
func (x *Index) TopKCentred(query Vector, k int, filter Filter) ([]Hit, error) {
	return x.topK(query, k, filter, true)
}

// centre is the query-time part of a centred search: the common component
// c, the query minus it (qc) and what the score of a row needs of them.
type centre struct {
	c      []float32
	cc     float32 // c·c
	cq     float32 // c·qc
	qcNorm float32 // |qc|
}

func (x *Index) topK(query Vector, k int, filter Filter, centred bool) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := len(x.ids)
	if n == 0 {
		return nil, nil
	}
	if len(query) != x.dim {
		return nil, fmt.Errorf("semantic: query length %d, index has %d: %w", len(query), x.dim, ErrDimension)
	}
	q := AsUnit(query)
	var cen *centre
	if centred && n > 1 {
		f := float64(n-1) / float64(n) / float64(n)
		cen = &centre{c: make([]float32, x.dim)}
		qc := make([]float32, x.dim)
		for j, s := range x.sum {
			cen.c[j] = float32(s * f)
			qc[j] = q[j] - cen.c[j]
		}
		cen.cc = dotF32(cen.c, cen.c)
		cen.cq = dotF32(cen.c, qc)
		cen.qcNorm = float32(math.Sqrt(float64(dotF32(qc, qc))))
		if cen.qcNorm == 0 {
			// The query is the common component itself: every thought is
			// as related to it as any other; plain cosine orders them.
			cen = nil
		} else {
			q = qc
		}
	}
	workers := 1
	if n*x.dim >= topk.ParallelMinWork {
		workers = min(runtime.GOMAXPROCS(0), n/1024+1)
	}
	var heaps []topk.Heap
	if workers == 1 {
		heaps = []topk.Heap{x.scan(q, cen, k, filter, 0, n)}
	} else {
		heaps = make([]topk.Heap, workers)
		var wg sync.WaitGroup
		chunk := (n + workers - 1) / workers
		for w := range workers {
			lo, hi := w*chunk, min((w+1)*chunk, n)
			wg.Go(func() { heaps[w] = x.scan(q, cen, k, filter, lo, hi) })
		}
		wg.Wait()
	}
	var all []topk.Scored
	for _, h := range heaps {
		all = append(all, h.Items...)
	}
	slices.SortFunc(all, func(a, b topk.Scored) int {
		if a.S != b.S {
			if a.S > b.S {
				return -1
			}
			return 1
		}
		return strings.Compare(x.ids[a.I], x.ids[b.I])
	})
	if len(all) > k {
		all = all[:k]
	}
	out := make([]Hit, len(all))
	for i, s := range all {
		out[i] = Hit{ID: x.ids[s.I], Similarity: float64(s.S)}
	}
	return out, nil
}

// scan computes the top k of rows [lo, hi), by plain cosine with the unit
// query q, or, when cen is not nil, by the cosine of the row minus cen.c
// and q (then the query minus cen.c). The caller holds the read lock.
func (x *Index) scan(q []float32, cen *centre, k int, filter Filter, lo, hi int) topk.Heap {
	h := topk.Heap{K: k}
	d := x.dim
	for i := lo; i < hi; {
		c := i / chunkRows
		data, end := x.chunks[c], min(hi, (c+1)*chunkRows)
		for off := (i - c*chunkRows) * d; i < end; i, off = i+1, off+d {
			s := dotF32(q, data[off:off+d])
			if cen != nil {
				// (v-c)·qc / (|v-c| |qc|), with |v-c|² = 1 - 2v·c + c·c.
				vc := dotF32(cen.c, data[off:off+d])
				n2 := 1 - 2*vc + cen.cc
				if n2 <= 1e-12 {
					s = 0 // the row is the common component itself
				} else {
					s = (s - cen.cq) / (float32(math.Sqrt(float64(n2))) * cen.qcNorm)
				}
			}
			if !h.Wants(s) {
				continue
			}
			if filter != nil && !filter(x.ids[i]) {
				continue
			}
			h.Push(topk.Scored{I: i, S: s})
		}
	}
	return h
}
