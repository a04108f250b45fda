package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// outputCheck validates tool results against the output schemas a client
// was listed, and records which of a tool's result types (the alternatives
// of its output schema, the error's last) each result was.
type outputCheck struct {
	t     *testing.T
	tools map[string]*toolOutput
}

type toolOutput struct {
	whole  *jsonschema.Resolved
	shapes []*jsonschema.Resolved
	seen   []bool
}

// newOutputCheck reads the output schemas of the tools cs is listed.
func newOutputCheck(t *testing.T, cs *mcp.ClientSession) *outputCheck {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &outputCheck{t: t, tools: map[string]*toolOutput{}}
	for _, tool := range list.Tools {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		resolve := func(s *jsonschema.Schema) *jsonschema.Resolved {
			rs, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s: output schema: %v", tool.Name, err)
			}
			return rs
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		o := &toolOutput{whole: resolve(&s)}
		for _, shape := range s.AnyOf {
			one := s
			one.AnyOf = []*jsonschema.Schema{shape}
			o.shapes = append(o.shapes, resolve(&one))
		}
		o.seen = make([]bool, len(o.shapes))
		c.tools[tool.Name] = o
	}
	return c
}

// result checks that the structured content of a result of tool (call
// names the call in messages) is one its output schema describes.
func (c *outputCheck) result(call, tool string, res *mcp.CallToolResult) {
	c.t.Helper()
	o := c.tools[tool]
	if o == nil {
		c.t.Errorf("%s: tool %s was not listed", call, tool)
		return
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		c.t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		c.t.Fatal(err)
	}
	if err := o.whole.Validate(v); err != nil {
		c.t.Errorf("%s: the result is not one the output schema describes: %v\n%.600s", call, err, b)
		return
	}
	for i, s := range o.shapes {
		if s.Validate(v) == nil {
			o.seen[i] = true
		}
	}
}

// allSeen checks that every result type of every tool (every alternative
// of its output schema) was checked on some result.
func (c *outputCheck) allSeen() {
	c.t.Helper()
	for name, o := range c.tools {
		for i, seen := range o.seen {
			if !seen {
				what := fmt.Sprintf("result type %d of %d", i+1, len(o.seen)-1)
				if i == len(o.seen)-1 {
					what = "error"
				}
				c.t.Errorf("%s: no result was its %s: check one", name, what)
			}
		}
	}
}

// Every tool's results, those of every branch-thinking command and a
// thought's included, are what its output schema describes, with the
// human feedback they carry; so are its errors. Every alternative of an
// output schema is met.
func TestResultsMatchOutputSchemas(t *testing.T) {
	fake := &fakeOpenAI{}
	e := newLuxEnv(t, fake)
	cs := e.connect()
	check := newOutputCheck(t, cs)

	_, pair := realisticSession(t, e, cs, "real20")
	doc := obj(btSession{t, cs, "real20"}.cmd("export", nil), "document")
	measure(t, cs, fake, budgetCalls("real20", "#1", "#20", pair, doc), doc, check)
	export, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "branch-thinking", Arguments: map[string]any{"session_id": "real20", "command": map[string]any{"type": "export"}}})
	if err != nil || export.IsError {
		t.Fatalf("export: %v %v", err, export)
	}
	check.result("branch-thinking export", "branch-thinking", export)

	// judge's answer on a review group of findContradictions.
	s := btSession{t, cs, "review"}
	dough := [2]string{"The bread dough needs to rest overnight in the fridge", "The bread dough must be baked right after kneading, without resting"}
	s.thought(dough[0], "analysis")
	s.thought(dough[1], "analysis")
	g := reviewGroup(t, s.cmd("findContradictions", map[string]any{"verbose": true}), dough[0], dough[1])
	judged, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "branch-thinking", Arguments: map[string]any{"session_id": "review",
		"command": map[string]any{"type": "judge", "data": map[string]any{"group": g["group"], "verdict": "consistent"}}}})
	if err != nil || judged.IsError {
		t.Fatalf("judge on a group: %v %v", err, judged)
	}
	check.result("branch-thinking judge on a group", "branch-thinking", judged)
	batch, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "branch-thinking", Arguments: map[string]any{"session_id": "review",
		"command": map[string]any{"type": "judge", "data": map[string]any{"verdicts": []any{map[string]any{"group": g["group"], "verdict": "consistent"}}}}}})
	if err != nil || batch.IsError {
		t.Fatalf("judge {verdicts}: %v %v", err, batch)
	}
	check.result("branch-thinking judge {verdicts}", "branch-thinking", batch)

	// An error of each tool.
	for name := range check.tools {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{"session_id": "not an id!"}})
		if err != nil || !res.IsError {
			t.Fatalf("%s with a bad session_id: %v %v", name, err, res)
		}
		check.result(name+" error", name, res)
	}
	check.allSeen()
}

// A tool whose handler returns a type its output schema does not describe
// fails with an internal error instead of sending it; one that returns a
// type it lists passes it on with the session it touched.
func TestResultOfAnUnlistedType(t *testing.T) {
	type listed struct{ A int }
	type other struct{ B int }
	ref := reasoning.SessionRef{ID: "s1"}
	for _, c := range []struct {
		out  any
		want bool
	}{{&listed{1}, true}, {&other{2}, false}} {
		in := typedOneOf(func(context.Context, *mcp.CallToolRequest, *sessionField) (any, reasoning.SessionRef, error) {
			return c.out, ref, nil
		}, reflect.TypeFor[*listed]())
		out, got, err := in.run(context.Background(), nil, nil, false)
		if ok := err == nil; ok != c.want || got != ref || ok && out != c.out {
			t.Errorf("%T: result %v, session %v, error %v", c.out, out, got, err)
		}
		if err != nil && thinkgraph.AsError(err).Code != thinkgraph.CodeInternal {
			t.Errorf("%T: %v, want an internal error", c.out, err)
		}
	}
}
