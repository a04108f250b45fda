package mcpserver

import (
	"testing"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// BenchmarkNew is building the server with every tool, resource and prompt,
// part of every cold start: with the generated schemas (as it runs) and
// deriving them from the definitions (as before schemas.json).
func BenchmarkNew(b *testing.B) {
	svc := reasoning.New(nil, reasoning.Config{})
	for _, c := range []struct {
		name string
		opts Options
	}{{"generated", Options{}}, {"derived", Options{deriveSchemas: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(svc, c.opts)
			}
		})
	}
}
