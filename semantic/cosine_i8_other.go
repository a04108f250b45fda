//go:build !amd64

package semantic

// dotU8I8Batch sets out[r] to the dot product of q with row r of the
// len(out) consecutive rows of len(q) values in rows.
func dotU8I8Batch(q []uint8, rows []int8, out []int32) { dotU8I8BatchGeneric(q, rows, out) }

// quantizeRow writes round(x·i8Max/max|x|) into dst and returns
// max|x|/i8Max.
func quantizeRow(dst []int8, x []float32) float32 { return quantizeRowGeneric(dst, x) }
