package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
)

// The Branch Thinking tool, branch-thinking (docs/branch-thinking.md).

const branchDescription = `Multi-path reasoning on the session graph: named branches of typed thoughts with cross-references, and checks of the reasoning (similarity, contradictions, circular reasoning, drift, knowledge gaps, evaluation, strongest paths, counterfactuals, dialectical synthesis).
Send EITHER a thought (content, type, ...; returns thoughtId, branchId, the branch's state and, when on, an evaluation) OR a command {"command": {"type": ..., "data": {...}}} (its data fields are listed under command.data). Errors carry code, details {field, expected, received} and suggestions.`

// commandData describes each command's data fields (command.data), from
// branching.BranchCommands.
func commandData() string {
	parts := make([]string, len(branching.BranchCommands))
	for i, c := range branching.BranchCommands {
		parts[i] = c.Name
		if c.Document != "" {
			parts[i] += " {data = " + c.Document + "}"
		} else if len(c.Fields) > 0 {
			parts[i] += " {" + strings.Join(c.Fields, ", ") + "}"
		}
		if c.Note != "" {
			parts[i] += " (" + c.Note + ")"
		}
	}
	return "The command's fields (they may also sit directly in command): " + strings.Join(parts, "; ") + "."
}

// commandsTaking lists the commands that take the data field name.
func commandsTaking(name string) string {
	var names []string
	for _, c := range branching.BranchCommands {
		if slices.Contains(c.FieldNames(), name) {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// thoughtFields are the fields of the thought form.
var thoughtFields = []string{"content", "type", "branchId", "confidence", "keyPoints", "parentBranchId", "crossRefs"}

func branchInputSchema() *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	unit := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(1.0), Description: desc}
	}
	types := make([]any, len(branching.ThoughtTypes))
	for i, t := range branching.ThoughtTypes {
		types[i] = t
	}
	refTypes := make([]any, len(reasoning.CrossRefTypes))
	for i, t := range reasoning.CrossRefTypes {
		refTypes[i] = t
	}
	cmds := make([]any, len(branching.BranchCommands))
	for i, c := range branching.BranchCommands {
		cmds[i] = c.Name
	}
	return &jsonschema.Schema{
		Type:        "object",
		Description: "Either a thought (content, type, ...) or a command; not both.",
		Properties: map[string]*jsonschema.Schema{
			"content":        {Type: "string", Description: "Thought form: the thought (at most 10,000 characters).", MaxLength: jsonschema.Ptr(10000)},
			"type":           {Type: "string", Enum: types, Description: "Thought form: the thought type."},
			"branchId":       str("Thought form: the branch to add to (default: the active branch); a new id creates the branch."),
			"confidence":     unit("Thought form: confidence 0..1."),
			"keyPoints":      {Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "Thought form: key points / concepts."},
			"parentBranchId": str("Thought form: the branch a new branch forks from, at its latest thought (default: the session root)."),
			"crossRefs": {Type: "array", Description: "Thought form: cross-references to other branches.", Items: &jsonschema.Schema{
				Type: "object", Required: []string{"toBranch", "type"},
				Properties: map[string]*jsonschema.Schema{
					"toBranch": str("Target branch id."),
					"type":     {Type: "string", Enum: refTypes},
					"reason":   str("Why the branches relate."),
					"strength": unit("Connection strength 0..1 (default 0.5)."),
				}}},
			"command": {Type: "object", Description: "Command form: {type, data?}; command-level fields such as branchId and goal may sit here or in data.",
				Required: []string{"type"},
				Properties: map[string]*jsonschema.Schema{
					"type":     {Type: "string", Enum: cmds},
					"data":     {Description: commandData()},
					"branchId": str("Branch for " + commandsTaking("branchId") + "."),
					"goal":     str("Goal for " + commandsTaking("goal") + "."),
				}},
			"session_id": sessionIDProp,
		},
	}
}

func (s *Server) addBranchThinkingTool() {
	bt := branching.NewBranchThinking(s.svc)
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "branch-thinking",
			Title:       "Branch thinking",
			Description: branchDescription,
			InputSchema: branchInputSchema(),
			Annotations: &mcp.ToolAnnotations{Title: "Branch thinking", ReadOnlyHint: false, IdempotentHint: false,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)},
		},
		errorStatus: "failed",
		handle: func(ctx context.Context, req *mcp.CallToolRequest, a *args) (any, error) {
			ref, err := s.sessionRef(req, a)
			if err != nil {
				return nil, err
			}
			if _, ok := a.get("command"); ok {
				in, err := parseCommand(a)
				if err != nil {
					return nil, err
				}
				in.Session = ref
				out, err := bt.Command(ctx, *in)
				if imp, ok := out.(*branching.ImportResult); ok && err == nil && !ref.Explicit {
					// As Branch Thinking's import replaces the graph,
					// the connection goes on with the imported session.
					s.moveConnSession(req.Session, imp.SessionID)
					imp.Message += " This connection's calls without session_id now go to it."
				}
				return out, err
			}
			in, err := parseBranchThought(a)
			if err != nil {
				return nil, err
			}
			in.Session = ref
			return bt.AddThought(ctx, *in)
		},
	})
}

// branchIDArg reads a branch name. Given, it must not be blank, as in
// Branch Thinking ("Branch ID cannot be empty"): an empty one is an error,
// not the active branch.
func branchIDArg(a *args, name string) (string, error) {
	v, given, err := a.str(name)
	if err != nil {
		return "", err
	}
	if given && strings.TrimSpace(v) == "" {
		return "", thinkgraph.Invalid(name, "a branch name", fmt.Sprintf("%q", v),
			"'%s' cannot be empty: name a branch, or omit '%s' to use the active branch", name, name)
	}
	return v, nil
}

func parseBranchThought(a *args) (*branching.BranchThoughtInput, error) {
	if _, ok := a.get("content"); !ok {
		if _, hasType := a.get("type"); !hasType {
			return nil, thinkgraph.Invalid("content", "a thought (content, type, ...) or a command {type, data}", "neither",
				"give either a thought ('content' and 'type') or a 'command' ({\"command\": {\"type\": \"list\"}})")
		}
	}
	in := &branching.BranchThoughtInput{}
	var err error
	if in.Content, _, err = a.str("content"); err != nil {
		return nil, err
	}
	if in.Type, _, err = a.str("type"); err != nil {
		return nil, err
	}
	if in.BranchID, err = branchIDArg(a, "branchId"); err != nil {
		return nil, err
	}
	if in.ParentBranchID, err = branchIDArg(a, "parentBranchId"); err != nil {
		return nil, err
	}
	if in.Confidence, err = a.number("confidence"); err != nil {
		return nil, err
	}
	if in.KeyPoints, err = stringList(a, "keyPoints"); err != nil {
		return nil, err
	}
	var refs []json.RawMessage
	if _, err := a.decode("crossRefs", "an array of {toBranch, type, reason, strength} objects", &refs); err != nil {
		return nil, err
	}
	if len(refs) > branching.MaxCrossRefs {
		return nil, thinkgraph.Invalid("crossRefs", fmt.Sprintf("at most %d cross-references", branching.MaxCrossRefs), fmt.Sprint(len(refs)),
			"'crossRefs' has %d entries; at most %d are allowed", len(refs), branching.MaxCrossRefs)
	}
	for i, r := range refs {
		prefix := fmt.Sprintf("crossRefs[%d]", i)
		ra, err := parseArgs(r, []string{"reason", "strength", "toBranch", "type"})
		if err != nil {
			return nil, prefixed(prefix, err)
		}
		var c branching.CrossRef
		if c.ToBranch, _, err = ra.str("toBranch"); err != nil {
			return nil, prefixed(prefix, err)
		}
		if c.Type, _, err = ra.str("type"); err != nil {
			return nil, prefixed(prefix, err)
		}
		var given bool
		if c.Reason, given, err = ra.str("reason"); err != nil {
			return nil, prefixed(prefix, err)
		} else if given && strings.TrimSpace(c.Reason) == "" {
			// As in Branch Thinking: omit the reason rather than send an empty one.
			return nil, thinkgraph.Invalid(prefix+".reason", "a non-empty reason, or no 'reason'", fmt.Sprintf("%q", c.Reason),
				"'%s.reason' is empty: say why the branches relate, or omit 'reason'", prefix)
		}
		if c.Strength, err = ra.number("strength"); err != nil {
			return nil, prefixed(prefix, err)
		}
		in.CrossRefs = append(in.CrossRefs, c)
	}
	return in, nil
}

// stringList reads an array of strings, or a single string as a list of one.
func stringList(a *args, name string) ([]string, error) {
	raw, ok := a.get(name)
	if !ok {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	return nil, thinkgraph.Invalid(name, "an array of strings", typeOf(raw), "'%s' must be an array of strings, got %s", name, typeOf(raw))
}

// parseCommand reads the command form: command {type, data?, fields...}.
// Fields given directly in command and in data are merged; a field given in
// both with different values is an error.
func parseCommand(a *args) (*branching.CommandInput, error) {
	for _, f := range thoughtFields {
		if f == "branchId" {
			continue
		}
		if _, ok := a.get(f); ok {
			return nil, thinkgraph.Invalid(f, "either a thought or a command, not both", f,
				"'%s' belongs to the thought form but a 'command' was given too: send either a thought or a command", f)
		}
	}
	raw, _ := a.get("command")
	var cmd map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cmd); err != nil || cmd == nil {
		return nil, thinkgraph.Invalid("command", "an object {type, data?}", typeOf(raw), "'command' must be an object {\"type\": ..., \"data\": {...}}, got %s", typeOf(raw))
	}
	ca := &args{raw: cmd}
	typ, _, err := ca.str("type")
	if err != nil {
		return nil, prefixed("command", err)
	}
	c, known := branching.FindBranchCommand(typ)
	if !known {
		return nil, branching.UnknownCommand(typ)
	}
	fields := c.FieldNames()
	in := &branching.CommandInput{Type: typ}
	dataRaw, hasData := ca.get("data")
	if c.Document != "" {
		if !hasData {
			return nil, thinkgraph.Invalid("data", "the document returned by export", "none", "'%s' needs the exported document as command.data", typ)
		}
		var str string
		if json.Unmarshal(dataRaw, &str) == nil {
			dataRaw = json.RawMessage(str) // a document sent as a JSON string
		}
		var wrapped struct {
			Document json.RawMessage `json:"document"`
			Format   *string         `json:"format"`
		}
		if json.Unmarshal(dataRaw, &wrapped) == nil && wrapped.Format == nil && len(wrapped.Document) > 0 {
			dataRaw = wrapped.Document // the whole export result was passed
		}
		in.Document = dataRaw
		return in, nil
	}
	merged := map[string]json.RawMessage{}
	if hasData {
		var data map[string]json.RawMessage
		if err := json.Unmarshal(dataRaw, &data); err != nil {
			return nil, thinkgraph.Invalid("command.data", "an object", typeOf(dataRaw), "'command.data' must be an object, got %s", typeOf(dataRaw))
		}
		for k, v := range data {
			merged[k] = v
		}
	}
	for k, v := range cmd {
		if k == "type" || k == "data" {
			continue
		}
		if prev, ok := merged[k]; ok && !bytes.Equal(compactJSON(prev), compactJSON(v)) {
			return nil, thinkgraph.Invalid(k, "one value", "different values in command and command.data", "'%s' is given in command and in command.data with different values", k)
		}
		merged[k] = v
	}
	if v, ok := a.get("branchId"); ok && slices.Contains(fields, "branchId") {
		if prev, ok := merged["branchId"]; ok && !bytes.Equal(compactJSON(prev), compactJSON(v)) {
			return nil, thinkgraph.Invalid("branchId", "one value", "different values at the top level and in command", "'branchId' is given at the top level and in command with different values")
		}
		merged["branchId"] = v
	} else if ok {
		return nil, thinkgraph.Invalid("branchId", "either a thought or a command, not both", "branchId",
			"'branchId' at the top level belongs to the thought form; command %q does not take a branchId", typ)
	}
	var unknown []string
	for k, v := range merged {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		if !slices.Contains(fields, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		takes := "no data"
		if len(fields) > 0 {
			takes = strings.Join(fields, ", ")
		}
		return nil, thinkgraph.Invalid(unknown[0], "one of: "+takes, unknown[0], "command %q does not take '%s'; it takes: %s", typ, unknown[0], takes)
	}
	d := &args{raw: merged}
	if in.BranchID, err = branchIDArg(d, "branchId"); err != nil {
		return nil, err
	}
	if g, ok, err := d.str("goal"); err != nil {
		return nil, err
	} else if ok {
		in.Goal = &g
	}
	for _, f := range []struct {
		name string
		dst  **int
	}{{"topK", &in.TopK}, {"limit", &in.Limit}, {"count", &in.Count}} {
		if *f.dst, err = d.integer(f.name); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"query", &in.Query}, {"thoughtId", &in.ThoughtID}, {"fromThoughtId", &in.FromThoughtID}, {"toThoughtId", &in.ToThoughtID},
		{"otherThoughtId", &in.OtherThoughtID}, {"verdict", &in.Verdict}, {"reason", &in.Reason}} {
		if *f.dst, _, err = d.str(f.name); err != nil {
			return nil, err
		}
	}
	if in.Enabled, err = d.boolean("enabled"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		dst  **float64
	}{{"suggestPivotThreshold", &in.PivotThresh}, {"threshold", &in.Threshold}, {"minSimilarity", &in.MinSimilarity}} {
		if *f.dst, err = d.number(f.name); err != nil {
			return nil, err
		}
	}
	if raw, ok := d.get("thresholds"); ok {
		ta, err := parseArgs(raw, []string{"excellent", "good", "moderate"})
		if err != nil {
			return nil, prefixed("thresholds", err)
		}
		t := &branching.PartialThresholds{}
		for _, f := range []struct {
			name string
			dst  **float64
		}{{"excellent", &t.Excellent}, {"good", &t.Good}, {"moderate", &t.Moderate}} {
			if *f.dst, err = ta.number(f.name); err != nil {
				return nil, prefixed("thresholds", err)
			}
		}
		in.Thresholds = t
	}
	if raw, ok := d.get("branches"); ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			for _, b := range strings.Split(s, ",") {
				if b = strings.TrimSpace(b); b != "" {
					in.Branches = append(in.Branches, b)
				}
			}
		} else if in.Branches, err = stringList(d, "branches"); err != nil {
			return nil, err
		}
	}
	return in, nil
}

func compactJSON(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}
