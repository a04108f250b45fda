package mcpserver

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The output schemas are derived from the types of the tools' results
// (toolDef.input), as the server starts (New), and added to the tools as
// they are listed (listed): the SDK is given the tools without them.

// outputSchemas are the output schemas of the tools whose result types
// are results, by tool name.
func outputSchemas(results map[string][]reflect.Type) map[string]*jsonschema.Schema {
	out := make(map[string]*jsonschema.Schema, len(results))
	for name, r := range results {
		s, ok := derivedOutputs.Load(name)
		if !ok {
			s, _ = derivedOutputs.LoadOrStore(name, outputSchema(r))
		}
		out[name] = s.(*jsonschema.Schema)
	}
	return out
}

// derivedOutputs are the output schemas derived in this process, by tool
// name (a tool's result types are those of its code), shared by the
// servers of every tenant (ForTenant).
var derivedOutputs sync.Map

// listed is the tool t as it is listed, with its output schema.
func (s *Server) listed(t *mcp.Tool) *mcp.Tool {
	c := *t
	if o := s.outputs()[t.Name]; o != nil {
		c.OutputSchema = o
	}
	return &c
}

// outputSchema derives the output schema of a tool from the types of its
// result: an object of one of those types with the feedback fields
// (delivered), or a tool error (errorBody). A tool with several result
// types (branch-thinking: a thought's and each command's) describes once,
// under $defs, what they share: the feedback fields and every struct type
// that occurs more than once (thought references, pages, ...), and refers
// to it ($ref) where it occurs.
func outputSchema(results []reflect.Type) *jsonschema.Schema {
	out := &jsonschema.Schema{Type: "object"}
	// Stored JSON (a thought's metadata) is any JSON value, said with the
	// types listed: the schema true, which says the same, is one some
	// clients do not take (the MCP Inspector's --strict calls it an error).
	refs := map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {Types: []string{"object", "array", "string", "number", "boolean", "null"}}}
	feedback := maps.Clone(feedbackSchema().Properties)
	if len(results) > 1 {
		out.Defs = map[string]*jsonschema.Schema{}
		shared := sharedTypes(results)
		for _, t := range shared {
			// The referring schema says "object", or also null for a
			// pointer; the definition leaves the type to it.
			refs[t] = &jsonschema.Schema{Type: "object", Ref: "#/$defs/" + defName(t)}
		}
		for _, t := range shared {
			own := maps.Clone(refs)
			delete(own, t)
			def := derivedSchema(t, own)
			def.Type = ""
			out.Defs[defName(t)] = def
		}
		for name, p := range feedback {
			out.Defs[name] = p
			feedback[name] = &jsonschema.Schema{Ref: "#/$defs/" + name}
		}
	}
	for _, r := range results {
		if r.Kind() == reflect.Pointer {
			r = r.Elem() // a result is never null
		}
		s := derivedSchema(r, refs)
		// A result may carry human feedback (withFeedback).
		maps.Copy(s.Properties, feedback)
		out.AnyOf = append(out.AnyOf, s)
	}
	// A tool error carries structured content too (errorBody), and
	// clients such as the TypeScript SDK validate structured content
	// against the output schema even when isError is set: the schema
	// admits either shape.
	out.AnyOf = append(out.AnyOf, errorSchema())
	return out
}

// derivedSchema is the schema of the type t, with the schemas of the types
// in known as given.
func derivedSchema(t reflect.Type, known map[reflect.Type]*jsonschema.Schema) *jsonschema.Schema {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: known})
	if err != nil {
		panic(err) // a programming error: the output type has no schema
	}
	return s
}

// defName names the type t under $defs: its package and name
// (analyze.ThoughtRef).
func defName(t reflect.Type) string { return t.String() }

// sharedTypes are the named struct types that occur more than once in
// the schemas of the types roots, as jsonschema.ForType writes them out
// (a field's type, an item's), sorted by name. A root is not one of them,
// nor a type that is embedded somewhere (its fields are the embedding
// struct's own), nor one that encodes itself (time.Time is a string).
func sharedTypes(roots []reflect.Type) []reflect.Type {
	count := map[reflect.Type]int{}
	embedded := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		t = deref(t)
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = deref(t.Elem())
		}
		if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(marshalerType) {
			return
		}
		count[t]++
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous {
				embedded[deref(f.Type)] = true
			} else if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "-" {
				walk(f.Type)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	var shared []reflect.Type
	for t, n := range count {
		if n > 1 && t.Name() != "" && !embedded[t] && !slices.Contains(roots, t) && !slices.Contains(roots, reflect.PointerTo(t)) {
			shared = append(shared, t)
		}
	}
	slices.SortFunc(shared, func(a, b reflect.Type) int { return strings.Compare(defName(a), defName(b)) })
	for i := 1; i < len(shared); i++ {
		if defName(shared[i]) == defName(shared[i-1]) {
			panic("two output types named " + defName(shared[i])) // a programming error
		}
	}
	return shared
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// marshalerType is json.Marshaler.
var marshalerType = reflect.TypeFor[json.Marshaler]()
