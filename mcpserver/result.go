package mcpserver

import (
	"encoding/json"

	"github.com/thinkgraph/thinkgraph/mcpserver/readable"
)

// What a tool returns lands in a model's context, so a result is made
// readable before it is encoded (package readable: numbers with at most 2
// decimals, a thought's text quoted once), except a result that is
// lossless, the exported session (import restores it).

// encodeResult is the JSON of a tool's result as a model reads it.
func encodeResult(out any) ([]byte, error) {
	if _, exact := out.(lossless); !exact {
		out = readable.Copy(out)
	}
	return json.Marshal(out)
}

// lossless is a result whose numbers are kept exactly as they are
// (branch-thinking's export).
type lossless interface{ Lossless() }
