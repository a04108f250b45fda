//go:build !amd64

package semantic

// dotF32 is the hot loop of every similarity computation. len(b) must be at
// least len(a).
func dotF32(a, b []float32) float32 { return dotGeneric(a, b) }
