// Package semantic is the core of thinkgraph's semantic engine: text
// normalisation (tokens, stems, sentences, stop words and negators), vectors
// and their similarity, the Embedder interface with the offline lexical
// embedder (over the embedded WordNet lexicon and word vectors) and an
// OpenAI-compatible one, the exact in-memory similarity index and the
// reranker of its hits.
//
// The contradiction judge is in semantic/contradict, the analyzers of a
// session in semantic/analyze and the SICK evaluation in semantic/sick; all
// of them build on this package, and none knows thinkgraph's domain types.
package semantic

import "context"

// Vector is an embedding. Vectors produced by an Embedder are L2-normalised,
// so the cosine of two vectors is their dot product.
type Vector []float32

// Embedder turns texts into vectors of a fixed dimension.
type Embedder interface {
	// Model names the embedding model; it is persisted next to each vector so
	// that switching models re-indexes.
	Model() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([]Vector, error)
}
