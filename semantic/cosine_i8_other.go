//go:build !amd64

package semantic

// dotI8Batch sets out[r] to the dot product of q (int8 values widened to
// int16) with row r of the len(out) consecutive rows of len(q) values in
// rows.
func dotI8Batch(q []int16, rows []int8, out []int32) { dotI8BatchGeneric(q, rows, out) }

// quantizeRow writes round(x·127/max|x|) into dst and returns max|x|/127.
func quantizeRow(dst []int8, x []float32) float32 { return quantizeRowGeneric(dst, x) }
