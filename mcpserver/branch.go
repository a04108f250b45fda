package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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
Send EITHER a thought (content, type, ...; returns thoughtId, branchId, the branch's state and, when on, an evaluation) OR a command {"command": {"type": ..., "data": {...}}}. Name a thought by its id or step (#8).`

// commandDataDoc describes each command's data fields (command.data), from
// branching.BranchCommands.
func commandDataDoc() string {
	parts := make([]string, len(branching.BranchCommands))
	for i, c := range branching.BranchCommands {
		parts[i] = c.Name
		if c.Paged {
			parts[i] += "*"
		}
		if c.Document != "" {
			parts[i] += " {data = " + c.Document + "}"
		} else if len(c.Fields) > 0 {
			parts[i] += " {" + strings.Join(c.Fields, ", ") + "}"
		}
		if c.Note != "" {
			parts[i] += " (" + c.Note + ")"
		}
	}
	return "Fields (also directly in command): " + strings.Join(parts, "; ") + ". *: a list, most relevant first; limit?, cursor? (page.cursor of a result)."
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

// branchArgs are branch-thinking's arguments: a thought (content, type,
// ...) or a command; not both.
type branchArgs struct {
	sessionField
	Content        *string       `json:"content,omitempty" jsonschema:"Thought form: the thought."`
	Type           *string       `json:"type,omitempty" jsonschema:"Thought form: the thought type."`
	BranchID       *string       `json:"branchId,omitempty" jsonschema:"Thought form: the branch to add to (default: the active branch); a new id creates the branch."`
	Confidence     *number       `json:"confidence,omitempty" jsonschema:"Thought form: confidence 0..1."`
	KeyPoints      stringList    `json:"keyPoints,omitempty" jsonschema:"Thought form: key points / concepts."`
	ParentBranchID *string       `json:"parentBranchId,omitempty" jsonschema:"Thought form: the branch a new branch forks from, at its latest thought (default: the session root)."`
	CrossRefs      []crossRefArg `json:"crossRefs,omitempty" jsonschema:"Thought form: cross-references to other branches."`
	Command        *commandArg   `json:"command,omitempty" jsonschema:"Command form: {type, data?}; command-level fields such as branchId and goal may sit here or in data."`
}

// crossRefArg is a cross-reference of the thought form.
type crossRefArg struct {
	ToBranch string  `json:"toBranch" jsonschema:"Target branch id."`
	Type     string  `json:"type"`
	Reason   *string `json:"reason,omitempty" jsonschema:"Why the branches relate."`
	Strength *number `json:"strength,omitempty" jsonschema:"Connection strength 0..1 (default 0.5)."`
}

// commandArg is the command form: the command's type and data, and the
// data fields, which may also sit directly in command (the schema shows
// branchId and goal there).
type commandArg struct {
	commandHead
	commandData
	// document is import's document (reasoning.BranchCommand.Document).
	document json.RawMessage
	// takes are the command's data fields.
	takes []string
}

type commandHead struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

// commandData are the data fields of every command;
// branching.BranchCommands lists which command takes which.
type commandData struct {
	BranchID              *string        `json:"branchId,omitempty"`
	Goal                  *string        `json:"goal,omitempty"`
	TopK                  *integer       `json:"topK,omitempty"`
	Limit                 *integer       `json:"limit,omitempty"`
	Cursor                string         `json:"cursor,omitempty"`
	Verbose               *boolean       `json:"verbose,omitempty"`
	Count                 *integer       `json:"count,omitempty"`
	Query                 string         `json:"query,omitempty"`
	ThoughtID             thoughtArg     `json:"thoughtId,omitempty"`
	FromThoughtID         thoughtArg     `json:"fromThoughtId,omitempty"`
	ToThoughtID           thoughtArg     `json:"toThoughtId,omitempty"`
	OtherThoughtID        thoughtArg     `json:"otherThoughtId,omitempty"`
	Group                 string         `json:"group,omitempty"`
	Conflicts             pairList       `json:"conflicts,omitempty"`
	Verdicts              []verdictArg   `json:"verdicts,omitempty"`
	Verdict               string         `json:"verdict,omitempty"`
	Reason                string         `json:"reason,omitempty"`
	Enabled               *boolean       `json:"enabled,omitempty"`
	SuggestPivotThreshold *number        `json:"suggestPivotThreshold,omitempty"`
	Threshold             *number        `json:"threshold,omitempty"`
	MinSimilarity         *number        `json:"minSimilarity,omitempty"`
	Thresholds            *thresholdsArg `json:"thresholds,omitempty"`
	Branches              commaList      `json:"branches,omitempty"`
}

// verdictArg is one entry of judge's verdicts: the answer on one group.
type verdictArg struct {
	Group     string   `json:"group"`
	Verdict   string   `json:"verdict"`
	Conflicts pairList `json:"conflicts,omitempty"`
	Reason    string   `json:"reason,omitempty"`
}

// thresholdsArg are configAutoEval's thresholds.
type thresholdsArg struct {
	Excellent *number `json:"excellent,omitempty"`
	Good      *number `json:"good,omitempty"`
	Moderate  *number `json:"moderate,omitempty"`
}

func (branchArgs) constrain(s *jsonschema.Schema, _ reasoning.Config) {
	s.Description = "Either a thought (content, type, ...) or a command; not both."
	p := s.Properties
	p["content"].MaxLength = jsonschema.Ptr(10000)
	p["type"].Enum = anyList(branching.ThoughtTypes)
	between(p["confidence"], 0, 1)
	ref := p["crossRefs"].Items.Properties
	ref["type"].Enum = anyList(reasoning.CrossRefTypes)
	between(ref["strength"], 0, 1)
	cmd := p["command"].Properties
	names := make([]string, len(branching.BranchCommands))
	for i, c := range branching.BranchCommands {
		names[i] = c.Name
	}
	cmd["type"].Enum = anyList(names)
	cmd["data"] = &jsonschema.Schema{Description: commandDataDoc()}
	// Of the data fields, which may all sit in command, the schema shows
	// the command-level ones there.
	for name := range cmd {
		switch name {
		case "type", "data":
		case "branchId":
			cmd[name].Description = "Branch for " + commandsTaking(name) + "."
		case "goal":
			cmd[name].Description = "Goal for " + commandsTaking(name) + "."
		default:
			delete(cmd, name)
		}
	}
}

func anyList(names []string) []any {
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	return list
}

// branchResults are the types of branch-thinking's results: a thought's,
// then each command's (branching.BranchCommands), each once.
func branchResults() []reflect.Type {
	types := []reflect.Type{reflect.TypeFor[*branching.BranchThoughtResult]()}
	for _, c := range branching.BranchCommands {
		for _, t := range c.ResultTypes() {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	return types
}

func (s *Server) addBranchThinkingTool() {
	bt := branching.NewBranchThinking(s.svc, s.opts.Analyst)
	s.addTool(toolDef{
		tool: &mcp.Tool{
			Name:        "branch-thinking",
			Title:       "Branch thinking",
			Description: branchDescription,
			Annotations: &mcp.ToolAnnotations{Title: "Branch thinking", ReadOnlyHint: false, IdempotentHint: false,
				DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)},
		},
		toolset:     branchTools,
		errorStatus: "failed",
		input: typedOneOf(func(ctx context.Context, req *mcp.CallToolRequest, a *branchArgs) (any, reasoning.SessionRef, error) {
			ref := s.session(req, a.SessionID)
			if a.Command == nil {
				in, err := a.thought()
				if err != nil {
					return nil, ref, err
				}
				in.Session = ref
				out, err := bt.AddThought(ctx, *in)
				return out, ref, err
			}
			in, err := a.command()
			if err != nil {
				return nil, ref, err
			}
			in.Session = ref
			out, err := bt.Command(ctx, *in)
			if imp, ok := out.(*branching.ImportResult); ok && err == nil {
				// import restores the document as a new session: the
				// call touched that one.
				if !ref.Explicit {
					// As Branch Thinking's import replaces the graph,
					// the connection goes on with the imported session.
					s.moveConnSession(req.Session, imp.SessionID)
					imp.Message += " This connection's calls without session_id now go to it."
				}
				ref.ID = imp.SessionID
			}
			return out, ref, err
		}, branchResults()...),
	})
}

// branchName checks a branch name given as name. Given, it must not be
// blank, as in Branch Thinking ("Branch ID cannot be empty"): an empty one
// is an error, not the active branch.
func branchName(name string, v *string) (string, error) {
	if v == nil {
		return "", nil
	}
	if strings.TrimSpace(*v) == "" {
		return "", thinkgraph.Invalid(name, "a branch name", fmt.Sprintf("%q", *v),
			"'%s' cannot be empty: name a branch, or omit '%s' to use the active branch", name, name)
	}
	return *v, nil
}

// thoughtField is the first field of the thought form other than branchId
// that a is given, or "".
func (a *branchArgs) thoughtField() string {
	v := reflect.ValueOf(a).Elem()
	for _, f := range fieldsOf(v.Type()).list {
		if f.name != "session_id" && f.name != "branchId" && f.name != "command" && !v.FieldByIndex(f.index).IsZero() {
			return f.name
		}
	}
	return ""
}

// thought is the thought form.
func (a *branchArgs) thought() (*branching.BranchThoughtInput, error) {
	if a.Content == nil && a.Type == nil {
		return nil, thinkgraph.Invalid("content", "a thought (content, type, ...) or a command {type, data}", "neither",
			"give either a thought ('content' and 'type') or a 'command' ({\"command\": {\"type\": \"list\"}})")
	}
	in := &branching.BranchThoughtInput{Confidence: (*float64)(a.Confidence), KeyPoints: a.KeyPoints}
	if a.Content != nil {
		in.Content = *a.Content
	}
	if a.Type != nil {
		in.Type = *a.Type
	}
	var err error
	if in.BranchID, err = branchName("branchId", a.BranchID); err != nil {
		return nil, err
	}
	if in.ParentBranchID, err = branchName("parentBranchId", a.ParentBranchID); err != nil {
		return nil, err
	}
	if len(a.CrossRefs) > branching.MaxCrossRefs {
		return nil, thinkgraph.Invalid("crossRefs", fmt.Sprintf("at most %d cross-references", branching.MaxCrossRefs), fmt.Sprint(len(a.CrossRefs)),
			"'crossRefs' has %d entries; at most %d are allowed", len(a.CrossRefs), branching.MaxCrossRefs)
	}
	for i, r := range a.CrossRefs {
		c := branching.CrossRef{ToBranch: r.ToBranch, Type: r.Type, Strength: (*float64)(r.Strength)}
		if r.Reason != nil {
			if c.Reason = *r.Reason; strings.TrimSpace(c.Reason) == "" {
				// As in Branch Thinking: omit the reason rather than send an empty one.
				prefix := fmt.Sprintf("crossRefs[%d]", i)
				return nil, thinkgraph.Invalid(prefix+".reason", "a non-empty reason, or no 'reason'", fmt.Sprintf("%q", c.Reason),
					"'%s.reason' is empty: say why the branches relate, or omit 'reason'", prefix)
			}
		}
		in.CrossRefs = append(in.CrossRefs, c)
	}
	return in, nil
}

// command is the command form, with a branchId given at the top level
// (where the thought form has it) for a command that takes one.
func (a *branchArgs) command() (*branching.CommandInput, error) {
	if f := a.thoughtField(); f != "" {
		return nil, thinkgraph.Invalid(f, "either a thought or a command, not both", f,
			"'%s' belongs to the thought form but a 'command' was given too: send either a thought or a command", f)
	}
	c := a.Command
	if c.document != nil {
		return &branching.CommandInput{Type: c.Type, Document: c.document}, nil
	}
	if a.BranchID != nil {
		if !slices.Contains(c.takes, "branchId") {
			return nil, thinkgraph.Invalid("branchId", "either a thought or a command, not both", "branchId",
				"'branchId' at the top level belongs to the thought form; command %q does not take a branchId", c.Type)
		}
		if c.BranchID != nil && *c.BranchID != *a.BranchID {
			return nil, thinkgraph.Invalid("branchId", "one value", "different values at the top level and in command", "'branchId' is given at the top level and in command with different values")
		}
		c.BranchID = a.BranchID
	}
	branch, err := branchName("branchId", c.BranchID)
	if err != nil {
		return nil, err
	}
	in := &branching.CommandInput{
		Type: c.Type, BranchID: branch, Goal: c.Goal, TopK: (*int)(c.TopK), Limit: (*int)(c.Limit), Count: (*int)(c.Count),
		Query: c.Query, Cursor: c.Cursor, Verbose: c.Verbose != nil && bool(*c.Verbose), ThoughtID: string(c.ThoughtID), FromThoughtID: string(c.FromThoughtID), ToThoughtID: string(c.ToThoughtID),
		OtherThoughtID: string(c.OtherThoughtID), Group: c.Group, Conflicts: c.Conflicts, Verdict: c.Verdict, Reason: c.Reason, Enabled: (*bool)(c.Enabled),
		PivotThresh: (*float64)(c.SuggestPivotThreshold), Threshold: (*float64)(c.Threshold),
		MinSimilarity: (*float64)(c.MinSimilarity), Branches: c.Branches,
	}
	for _, v := range c.Verdicts {
		in.Verdicts = append(in.Verdicts, branching.GroupVerdict{Group: v.Group, Verdict: v.Verdict, Conflicts: v.Conflicts, Reason: v.Reason})
	}
	if t := c.Thresholds; t != nil {
		in.Thresholds = &branching.PartialThresholds{Excellent: (*float64)(t.Excellent), Good: (*float64)(t.Good), Moderate: (*float64)(t.Moderate)}
	}
	return in, nil
}

// UnmarshalJSON reads command {type, data?, fields...}: the fields given
// directly in command and in data are merged (a field given in both with
// different values is an error; null counts as absent), and must be ones the
// command takes.
// import's data is the exported document, sent as it is, as a JSON string,
// or as the whole export result.
func (c *commandArg) UnmarshalJSON(b []byte) error {
	var cmd map[string]json.RawMessage
	if err := json.Unmarshal(b, &cmd); err != nil {
		return thinkgraph.Invalid("command", "an object {type, data?}", typeOf(b), "'command' must be an object {\"type\": ..., \"data\": {...}}, got %s", typeOf(b))
	}
	if err := decodeInput(b, &c.commandHead, true); err != nil {
		return prefixed("command", err)
	}
	typ, data := c.Type, c.Data
	rc, known := branching.FindBranchCommand(typ)
	if !known {
		return branching.UnknownCommand(typ)
	}
	if rc.Document != "" {
		if data == nil {
			return thinkgraph.Invalid("data", "the document returned by export", "none", "'%s' needs the exported document as command.data", typ)
		}
		var str string
		if json.Unmarshal(data, &str) == nil {
			data = json.RawMessage(str) // a document sent as a JSON string
		}
		var wrapped struct {
			Document json.RawMessage `json:"document"`
			Format   *string         `json:"format"`
		}
		if json.Unmarshal(data, &wrapped) == nil && wrapped.Format == nil && len(wrapped.Document) > 0 {
			data = wrapped.Document // the whole export result was passed
		}
		c.document = data
		return nil
	}
	merged := map[string]json.RawMessage{}
	if data != nil {
		if err := json.Unmarshal(data, &merged); err != nil {
			return thinkgraph.Invalid("command.data", "an object", typeOf(data), "'command.data' must be an object, got %s", typeOf(data))
		}
	}
	head := fieldsOf(reflect.TypeFor[commandHead]()).known
	for k, v := range cmd {
		if slices.Contains(head, k) || isNull(v) {
			continue
		}
		if prev, ok := merged[k]; ok && !isNull(prev) && !bytes.Equal(compactJSON(prev), compactJSON(v)) {
			return thinkgraph.Invalid(k, "one value", "different values in command and command.data", "'%s' is given in command and in command.data with different values", k)
		}
		merged[k] = v
	}
	c.takes = rc.FieldNames()
	var unknown []string
	for k, v := range merged {
		if !isNull(v) && !slices.Contains(c.takes, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		takes := "no data"
		if len(c.takes) > 0 {
			takes = strings.Join(c.takes, ", ")
		}
		return thinkgraph.Invalid(unknown[0], "one of: "+takes, unknown[0], "command %q does not take '%s'; it takes: %s", typ, unknown[0], takes)
	}
	all, err := json.Marshal(merged)
	if err != nil {
		return err
	}
	return decodeInput(all, &c.commandData, true)
}

// stringList is a list of strings, given as an array or as one string (a
// list of one).
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*l = stringList{one}
		return nil
	}
	if json.Unmarshal(b, (*[]string)(l)) != nil {
		return &fieldError{"an array of strings", typeOf(b), " must be an array of strings, got " + typeOf(b)}
	}
	return nil
}

// pairList is judge's conflicts: pairs of thoughts, each named by its step
// (7 or "#7") or id: [[7, 13]], or one pair alone ([7, 13]).
type pairList [][]string

func (l *pairList) UnmarshalJSON(b []byte) error {
	bad := &fieldError{"an array of pairs of steps, e.g. [[7, 13]]", typeOf(b), " must be an array of pairs of steps, e.g. [[7, 13]], got " + typeOf(b)}
	var raw []json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		return bad
	}
	ref := func(r json.RawMessage) (string, bool) {
		var s string
		if json.Unmarshal(r, &s) == nil {
			return s, true
		}
		var n json.Number
		if json.Unmarshal(r, &n) == nil {
			return n.String(), true
		}
		return "", false
	}
	// One pair alone: [7, 13].
	if len(raw) == 2 {
		a, okA := ref(raw[0])
		c, okC := ref(raw[1])
		if okA && okC {
			*l = pairList{{a, c}}
			return nil
		}
	}
	*l = nil
	for _, r := range raw {
		var pair []json.RawMessage
		if json.Unmarshal(r, &pair) != nil || len(pair) != 2 {
			return bad
		}
		var out []string
		for _, x := range pair {
			s, ok := ref(x)
			if !ok {
				return bad
			}
			out = append(out, s)
		}
		*l = append(*l, out)
	}
	return nil
}

// commaList is a list of names, given as an array or as one string of
// names separated by commas.
type commaList []string

func (l *commaList) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil {
		return (*stringList)(l).UnmarshalJSON(b)
	}
	*l = nil
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			*l = append(*l, n)
		}
	}
	return nil
}

func compactJSON(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}
