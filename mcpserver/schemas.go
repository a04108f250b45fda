package mcpserver

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// The tools' JSON schemas are derived from their definitions (the input
// schemas from each tool's argument struct, input.go; the output schemas
// from the result types) and committed, generated, in schemas.json. Deriving and
// marshalling them was most of building the server, which every cold start
// pays, and the SDK marshals a tool's schemas again for every tools/list;
// raw JSON costs neither.
//
// TestToolSchemasGenerated fails when schemas.json differs from what the
// definitions derive; after changing a tool's arguments or result type,
// rewrite it with
//
//	go test ./mcpserver -run TestToolSchemasGenerated -update
//
// A tool missing from the file has its schemas derived at start, and so do
// the input schemas when the maximum thought length is not the default
// (think's maxLength).

//go:embed schemas.json
var schemasJSON []byte

// toolSchemas are one tool's generated schemas.
type toolSchemas struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output,omitempty"`
}

// generatedSchemas returns schemas.json by tool name.
var generatedSchemas = sync.OnceValue(func() map[string]toolSchemas {
	var m map[string]toolSchemas
	if err := json.Unmarshal(schemasJSON, &m); err != nil {
		// schemas.json is generated and embedded: a broken one is a
		// build error, caught by TestToolSchemasGenerated.
		panic("mcpserver: schemas.json: " + err.Error())
	}
	return m
})
