// Package semantic holds thinkgraph's semantic engine: embedders that turn
// thought text into vectors, an exact in-memory similarity index, and the
// analyzers (contradictions, circular reasoning, drift, redundancy, knowledge
// gaps, branch profiles and evaluation) that the reasoning tools expose.
//
// Analyzers are pure functions of thoughts and vectors: they never touch a
// database. Callers load thoughts from the store, embed them (or read their
// persisted vectors) and hand both in.
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

// Doc is one thought as the analyzers see it.
type Doc struct {
	ID         string
	SessionID  string
	Branch     string   // branch id ("main" by default)
	ParentID   string   // parent thought id, "" for a root
	Step       int      // 1-based step number in the session
	Type       string   // thought type (analysis, hypothesis, ...), may be ""
	Content    string   // the thought text
	Confidence *float64 // nil when unknown
	KeyPoints  []string
	// DependsOn lists ids of thoughts this one explicitly builds upon
	// (cross-references, revisions); used by circular-reasoning detection.
	DependsOn []string
	Vector    Vector // may be nil until the embedder has filled it in
	// Refuted marks a thought a person refuted: StrongestPaths leaves out
	// every path through it.
	Refuted bool
}
