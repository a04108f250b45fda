// Package topk is the top-k selection of an exact similarity scan, shared
// by the index (package semantic) and the analyzers (semantic/analyze): a
// bounded heap of the best rows and the amount of work from which a scan is
// split over the CPUs.
package topk

// ParallelMinWork is the number of multiply-adds below which a search runs
// on one goroutine; under it the goroutine start-up costs more than it
// saves.
const ParallelMinWork = 1 << 20

// Scored is a row index with its similarity.
type Scored struct {
	I int     // the row
	S float32 // its similarity
}

// Heap keeps the K highest-scoring items seen: a min-heap on S, so the
// root is the item to evict. The zero value with K set is ready to use;
// Items is in heap order, not sorted.
type Heap struct {
	K     int
	Items []Scored
}

// Wants reports whether an item of similarity s would be kept.
func (h *Heap) Wants(s float32) bool { return len(h.Items) < h.K || s > h.Items[0].S }

// Push adds it, evicting the lowest-scoring item when the heap holds K.
func (h *Heap) Push(it Scored) {
	if len(h.Items) < h.K {
		h.Items = append(h.Items, it)
		j := len(h.Items) - 1
		for j > 0 {
			p := (j - 1) / 2
			if h.Items[p].S <= h.Items[j].S {
				break
			}
			h.Items[p], h.Items[j] = h.Items[j], h.Items[p]
			j = p
		}
		return
	}
	if it.S <= h.Items[0].S {
		return
	}
	h.Items[0] = it
	j, n := 0, len(h.Items)
	for {
		l := 2*j + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.Items[r].S < h.Items[l].S {
			m = r
		}
		if h.Items[j].S <= h.Items[m].S {
			break
		}
		h.Items[j], h.Items[m] = h.Items[m], h.Items[j]
		j = m
	}
}
