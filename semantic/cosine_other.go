//go:build !amd64

package semantic

// dotF32 is the hot loop of every similarity computation. len(b) must be at
// least len(a).
func dotF32(a, b []float32) float32 { return dotGeneric(a, b) }

// DotBatch sets out[r] to the dot product of q with row r of the len(out)
// consecutive rows of len(q) values in rows (len(rows) ≥ len(out)·len(q)).
func DotBatch(q, rows []float32, out []float32) { dotBatchGeneric(q, rows, out) }
