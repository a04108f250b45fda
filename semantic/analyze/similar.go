package analyze

import "github.com/thinkgraph/thinkgraph/semantic"

import "fmt"

// Similar returns the k thoughts of the index most similar to query by
// cosine, best first. It is Index.TopK without a filter.
func Similar(idx *semantic.Index, query semantic.Vector, k int) ([]semantic.Hit, error) {
	return idx.TopK(query, k, nil)
}

// Related returns the k thoughts most similar to the thought id, best first,
// excluding the thought itself and any ids in exclude. The thought's vector is
// read from the index; ErrNotFound is returned when it is not indexed.
func Related(idx *semantic.Index, id string, k int, exclude ...string) ([]semantic.Hit, error) {
	v, ok := idx.Vector(id)
	if !ok {
		return nil, fmt.Errorf("semantic: related to %q: %w", id, ErrNotFound)
	}
	return idx.TopK(v, k, semantic.ExcludeIDs(append(exclude, id)...))
}
