package mcpserver

import "testing"

// The exported session is lossless: its numbers are kept as they are.
func TestLosslessResultKept(t *testing.T) {
	type export struct {
		losslessResult
		Score float64 `json:"score"`
	}
	got, err := encodeResult(export{Score: 0.123456})
	if err != nil || string(got) != `{"score":0.123456}` {
		t.Errorf("lossless result: %s %v", got, err)
	}
	// Another result is read rounded.
	if got, err := encodeResult(struct {
		Score float64 `json:"score"`
	}{0.123456}); err != nil || string(got) != `{"score":0.12}` {
		t.Errorf("result: %s %v", got, err)
	}
}

type losslessResult struct{}

func (losslessResult) Lossless() {}
