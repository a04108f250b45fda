package sqlstore

import (
	"bytes"
	"testing"
)

func TestVectorEncoding(t *testing.T) {
	// float32 little-endian: 1.0 is 0x3f800000, -2.5 is 0xc0200000.
	got := encodeVector([]float32{1, -2.5})
	want := []byte{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0}
	if !bytes.Equal(got, want) {
		t.Fatalf("encodeVector = % x, want % x", got, want)
	}
	back, err := decodeVector(got, 2)
	if err != nil || len(back) != 2 || back[0] != 1 || back[1] != -2.5 {
		t.Fatalf("decodeVector = %v, %v", back, err)
	}
	if _, err := decodeVector(got, 3); err == nil {
		t.Error("decodeVector with the wrong dim: no error")
	}
}
