package mcpserver

import (
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// BenchmarkNew is building the server with every tool, resource and prompt,
// part of every cold start (the tools' schemas derived from their
// definitions included).
func BenchmarkNew(b *testing.B) {
	svc := reasoning.New(nil, reasoning.Config{})
	b.ReportAllocs()
	for b.Loop() {
		New(svc, Options{})
	}
}
