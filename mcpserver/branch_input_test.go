package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning/branching"
)

// btOutcome calls branch-thinking with raw arguments on session "in" and
// sums the answer up: "ok <command or numThoughts>", or the error's code,
// field and message.
func btOutcome(t *testing.T, cs *mcp.ClientSession, raw string) string {
	t.Helper()
	res, err := callRaw(t, cs, bt, raw)
	if err != nil {
		return "protocol error: " + err.Error()
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	if !res.IsError {
		if c, ok := out["command"]; ok {
			return fmt.Sprint("ok ", c)
		}
		return "ok thought"
	}
	d, _ := out["details"].(map[string]any)
	return fmt.Sprintf("%v %v: %v", out["code"], d["field"], out["error"])
}

// Every rule of branch-thinking's input, one broken at a time: the field an
// error names and its message, and the forms that are accepted.
func TestBranchThinkingInputRules(t *testing.T) {
	e := newSemanticTestEnv(t)
	cs := e.connect()
	s := btSession{t, cs, "in"}
	s.thought("A first thought", "analysis")
	s.thought("On b1", "analysis", "branchId", "b1")
	doc, _ := json.Marshal(obj(s.cmd("export", nil), "document"))
	whole, _ := json.Marshal(s.cmd("export", nil))
	docString, _ := json.Marshal(string(doc))
	refs := strings.TrimSuffix(strings.Repeat(`{"toBranch": "main", "type": "complementary"}, `, 17), ", ")
	cases := []struct{ args, want string }{
		// Neither form, both forms.
		{`{}`, `ValidationError content: give either a thought ('content' and 'type') or a 'command' ({"command": {"type": "list"}})`},
		{`{"branchId": "b1"}`, `ValidationError content: give either a thought ('content' and 'type') or a 'command' ({"command": {"type": "list"}})`},
		{`{"content": null, "type": null, "command": null}`, `ValidationError content: give either a thought ('content' and 'type') or a 'command' ({"command": {"type": "list"}})`},
		{`{"command": {"type": "list"}, "type": "analysis"}`, `ValidationError type: 'type' belongs to the thought form but a 'command' was given too: send either a thought or a command`},
		{`{"command": {"type": "list"}, "keyPoints": ["a"]}`, `ValidationError keyPoints: 'keyPoints' belongs to the thought form but a 'command' was given too: send either a thought or a command`},
		{`{"command": {"type": "list"}, "crossRefs": []}`, `ValidationError crossRefs: 'crossRefs' belongs to the thought form but a 'command' was given too: send either a thought or a command`},
		{`{"command": {"type": "list"}, "parentBranchId": "main"}`, `ValidationError parentBranchId: 'parentBranchId' belongs to the thought form but a 'command' was given too: send either a thought or a command`},
		{`{"command": {"type": "list"}, "confidence": 0.5}`, `ValidationError confidence: 'confidence' belongs to the thought form but a 'command' was given too: send either a thought or a command`},
		{`{"command": {"type": "list"}, "content": null, "keyPoints": null}`, `ok list`},
		{`{"command": {"type": "list"}, "branchId": "main"}`, `ValidationError branchId: 'branchId' at the top level belongs to the thought form; command "list" does not take a branchId`},
		{`{"command": {"type": "focus"}, "branchId": "b1"}`, `ok focus`},
		{`{"command": {"type": "focus", "branchId": "b1"}, "branchId": "b1"}`, `ok focus`},
		{`{"command": {"type": "focus", "branchId": "b1"}, "branchId": "main"}`, `ValidationError branchId: 'branchId' is given at the top level and in command with different values`},
		{`{"command": {"type": "focus", "data": {"branchId": "b1"}}, "branchId": "main"}`, `ValidationError branchId: 'branchId' is given at the top level and in command with different values`},
		{`{"foo": 1}`, `ValidationError foo: unknown field 'foo'; this tool takes: branchId, command, confidence, content, crossRefs, keyPoints, parentBranchId, session_id, type`},
		{`{"session_id": 5, "command": {"type": "list"}}`, `ValidationError session_id: 'session_id' must be a string, got a number`},
		// The thought form.
		{`{"content": 5, "type": "analysis"}`, `ValidationError content: 'content' must be a string, got a number`},
		{`{"content": "x", "type": ["analysis"]}`, `ValidationError type: 'type' must be a string, got an array`},
		{`{"content": "x", "type": "analysis", "branchId": 5}`, `ValidationError branchId: 'branchId' must be a string, got a number`},
		{`{"content": "x", "type": "analysis", "branchId": ""}`, `ValidationError branchId: 'branchId' cannot be empty: name a branch, or omit 'branchId' to use the active branch`},
		{`{"content": "x", "type": "analysis", "branchId": "b2", "parentBranchId": " "}`, `ValidationError parentBranchId: 'parentBranchId' cannot be empty: name a branch, or omit 'parentBranchId' to use the active branch`},
		{`{"content": "x", "type": "analysis", "parentBranchId": true}`, `ValidationError parentBranchId: 'parentBranchId' must be a string, got a boolean`},
		{`{"content": "x", "type": "analysis", "confidence": "high"}`, `ValidationError confidence: 'confidence' must be a number, got the string "high"`},
		{`{"content": "x", "type": "analysis", "confidence": {}}`, `ValidationError confidence: 'confidence' must be a number, got an object`},
		{`{"content": "x", "type": "analysis", "confidence": " 0.7 ", "keyPoints": "one"}`, `ok thought`},
		{`{"content": "x", "type": "analysis", "keyPoints": 5}`, `ValidationError keyPoints: 'keyPoints' must be an array of strings, got a number`},
		{`{"content": "x", "type": "analysis", "keyPoints": [1]}`, `ValidationError keyPoints: 'keyPoints' must be an array of strings, got an array`},
		{`{"content": "x", "type": "analysis", "crossRefs": "b1"}`, `ValidationError crossRefs: 'crossRefs' must be an array of {toBranch, type, reason, strength} objects, got a string`},
		{`{"content": "x", "type": "analysis", "crossRefs": [` + refs + `]}`, `ValidationError crossRefs: 'crossRefs' has 17 entries; at most 16 are allowed`},
		{`{"content": "x", "type": "analysis", "crossRefs": [5]}`, `ValidationError crossRefs[0]: 'crossRefs[0]' must be an object {toBranch, type, reason, strength}, got a number`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": "complementary", "weight": 1}]}`, `ValidationError crossRefs[0].weight: crossRefs[0]: unknown field 'weight'; this tool takes: reason, strength, toBranch, type`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": 1, "type": "complementary"}]}`, `ValidationError crossRefs[0].toBranch: crossRefs[0]: 'toBranch' must be a string, got a number`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": null}]}`, `ValidationError crossRefs[0].type: 'crossRefs[0].type' must be one of builds_upon, contradictory, complementary, alternative`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": "complementary", "reason": 1}]}`, `ValidationError crossRefs[0].reason: crossRefs[0]: 'reason' must be a string, got a number`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": "complementary"}, {"toBranch": "b1", "type": "complementary", "reason": " "}]}`, `ValidationError crossRefs[1].reason: 'crossRefs[1].reason' is empty: say why the branches relate, or omit 'reason'`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": "complementary", "strength": "strong"}]}`, `ValidationError crossRefs[0].strength: crossRefs[0]: 'strength' must be a number, got the string "strong"`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "b1", "type": "complementary", "strength": "0.9", "reason": "r"}]}`, `ok thought`},
		// The command form.
		{`{"command": "list"}`, `ValidationError command: 'command' must be an object {"type": ..., "data": {...}}, got a string`},
		{`{"command": []}`, `ValidationError command: 'command' must be an object {"type": ..., "data": {...}}, got an array`},
		{`{"command": {"type": 5}}`, `ValidationError command.type: command: 'type' must be a string, got a number`},
		{`{"command": {}}`, `ValidationError command.type: 'command.type' is required; valid commands: list, focus, history, evaluate, statistics, findContradictions, detectCircular, findStrongestPaths, findSimilar, jumpToRelated, semanticPath, setGoal, toggleAutoEval, configAutoEval, compareProfiles, suggestMerges, detectDrift, generateCounterfactuals, detectKnowledgeGaps, synthesizeDialectical, prune, export, import, suggestTools, judge`},
		{`{"command": {"type": "list", "data": []}}`, `ValidationError command.data: 'command.data' must be an object, got an array`},
		{`{"command": {"type": "list", "data": "x"}}`, `ValidationError command.data: 'command.data' must be an object, got a string`},
		{`{"command": {"type": "list", "data": null}}`, `ok list`},
		{`{"command": {"type": "suggestTools", "data": {"limit": 1}}}`, `ValidationError limit: command "suggestTools" does not take 'limit'; it takes: no data`},
		{`{"command": {"type": "suggestTools", "limit": 1}}`, `ValidationError limit: command "suggestTools" does not take 'limit'; it takes: no data`},
		{`{"command": {"type": "list", "data": {"limit": null}}}`, `ok list`},
		{`{"command": {"type": "findSimilar", "data": {"query": "a", "topK": 1, "k": 2}}}`, `ValidationError k: command "findSimilar" does not take 'k'; it takes: query, limit, cursor`},
		{`{"command": {"type": "setGoal", "goal": "a", "data": {"goal": "b"}}}`, `ValidationError goal: 'goal' is given in command and in command.data with different values`},
		{`{"command": {"type": "setGoal", "goal": "a", "data": {"goal": "a"}}}`, `ok setGoal`},
		{`{"command": {"type": "setGoal", "goal": 5}}`, `ValidationError goal: 'goal' must be a string, got a number`},
		{`{"command": {"type": "focus", "data": {"branchId": ""}}}`, `ValidationError branchId: 'branchId' cannot be empty: name a branch, or omit 'branchId' to use the active branch`},
		{`{"command": {"type": "findSimilar", "data": {"query": "a", "limit": "x"}}}`, `ValidationError limit: 'limit' must be a number, got the string "x"`},
		{`{"command": {"type": "findSimilar", "data": {"query": "a", "limit": 1.5}}}`, `ValidationError limit: 'limit' must be a whole number, got 1.5`},
		{`{"command": {"type": "findSimilar", "query": "a", "limit": "2"}}`, `ok findSimilar`},
		{`{"command": {"type": "findSimilar", "data": {"query": 5}}}`, `ValidationError query: 'query' must be a string, got a number`},
		{`{"command": {"type": "findStrongestPaths", "data": {"topK": true}}}`, `ValidationError topK: 'topK' must be a number, got a boolean`},
		{`{"command": {"type": "generateCounterfactuals", "data": {"count": []}}}`, `ValidationError count: 'count' must be a number, got an array`},
		{`{"command": {"type": "configAutoEval", "data": {"enabled": "maybe"}}}`, `ValidationError enabled: 'enabled' must be true or false, got a string`},
		{`{"command": {"type": "configAutoEval", "data": {"enabled": "false", "suggestPivotThreshold": "0.4", "thresholds": {"excellent": "0.9"}}}}`, `ok configAutoEval`},
		{`{"command": {"type": "configAutoEval", "data": {"suggestPivotThreshold": "x"}}}`, `ValidationError suggestPivotThreshold: 'suggestPivotThreshold' must be a number, got the string "x"`},
		{`{"command": {"type": "configAutoEval", "data": {"thresholds": [1]}}}`, `ValidationError thresholds: 'thresholds' must be an object {excellent, good, moderate}, got an array`},
		{`{"command": {"type": "configAutoEval", "data": {"thresholds": {"great": 1}}}}`, `ValidationError thresholds.great: thresholds: unknown field 'great'; this tool takes: excellent, good, moderate`},
		{`{"command": {"type": "configAutoEval", "data": {"thresholds": {"good": "x"}}}}`, `ValidationError thresholds.good: thresholds: 'good' must be a number, got the string "x"`},
		{`{"command": {"type": "detectDrift", "data": {"threshold": "x"}}}`, `ValidationError threshold: 'threshold' must be a number, got the string "x"`},
		{`{"command": {"type": "suggestMerges", "data": {"minSimilarity": "x"}}}`, `ValidationError minSimilarity: 'minSimilarity' must be a number, got the string "x"`},
		{`{"command": {"type": "synthesizeDialectical", "data": {"branches": 5}}}`, `ValidationError branches: 'branches' must be an array of strings, got a number`},
		{`{"command": {"type": "synthesizeDialectical", "data": {"branches": [1]}}}`, `ValidationError branches: 'branches' must be an array of strings, got an array`},
		{`{"command": {"type": "synthesizeDialectical", "data": {"branches": "main, b1,"}}}`, `ok synthesizeDialectical`},
		{`{"command": {"type": "synthesizeDialectical", "data": {"branches": ["main", "b1"]}}}`, `ok synthesizeDialectical`},
		{`{"command": {"type": "synthesizeDialectical", "data": {"branches": ["main,b1"]}}}`, `ValidationError branches[0]: 'branches[0]' must be 1 to 64 letters, digits, spaces or . _ : @ / -, starting with a letter or digit`},
		{`{"command": {"type": "judge", "data": {"thoughtId": 1.5, "otherThoughtId": "x", "verdict": "compatible"}}}`, `ValidationError thoughtId: 'thoughtId' must be a thought id or its step ("#8" or 8), got a number`},
		{`{"command": {"type": "judge", "data": {"thoughtId": "a", "otherThoughtId": "x", "verdict": "compatible", "reason": []}}}`, `ValidationError reason: 'reason' must be a string, got an array`},
		{`{"command": {"type": "judge", "data": {"verdicts": {"group": "1.1-2.1"}}}}`, `ValidationError verdicts: 'verdicts' must be an array of {group, verdict, conflicts, reason} objects, got an object`},
		{`{"command": {"type": "judge", "data": {"verdicts": ["1.1-2.1"]}}}`, `ValidationError verdicts[0]: 'verdicts[0]' must be an object {group, verdict, conflicts, reason}, got a string`},
		{`{"command": {"type": "judge", "data": {"verdicts": [{"group": "1.1-2.1", "verdict": "consistent"}, {"group": "1.1-3.1", "verdict": "contradiction", "conflicts": [[1, "x", 3]]}]}}}`, `ValidationError verdicts[1].conflicts: verdicts[1]: 'conflicts' must be an array of pairs of steps, e.g. [[7, 13]], got an array`},
		{`{"command": {"type": "semanticPath", "data": {"fromThoughtId": "x", "toThoughtId": [1]}}}`, `ValidationError toThoughtId: 'toThoughtId' must be a thought id or its step ("#8" or 8), got an array`},
		// import: the document as an object, as a JSON string, or the whole
		// export result; it takes no other data.
		{`{"command": {"type": "import"}}`, `ValidationError data: 'import' needs the exported document as command.data`},
		{`{"command": {"type": "import", "data": null}}`, `ValidationError data: 'import' needs the exported document as command.data`},
		{`{"command": {"type": "import", "data": ` + string(doc) + `}}`, `ok import`},
		{`{"command": {"type": "import", "data": ` + string(whole) + `}}`, `ok import`},
		{`{"command": {"type": "import", "data": ` + string(docString) + `}}`, `ok import`},
		{`{"command": {"type": "import", "data": "{\"format\": 3}"}}`, `ValidationError data.format: 'import': malformed document: json: cannot unmarshal number into Go value of type string`},
		{`{"command": {"type": "import", "data": ` + string(doc) + `, "foo": 1}}`, `ok import`},
		{`{"command": {"type": "import", "data": ` + string(doc) + `}, "branchId": "main"}`, `ok import`},
	}
	var got strings.Builder
	for _, c := range cases {
		var m map[string]any
		if err := json.Unmarshal([]byte(c.args), &m); err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if _, ok := m["session_id"]; !ok {
			m["session_id"] = "in"
		}
		raw, _ := json.Marshal(m)
		o := btOutcome(t, cs, string(raw))
		fmt.Fprintf(&got, "%s\n\t=> %s\n", c.args, o)
		if c.want != "" && o != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.args, o, c.want)
		}
	}
	if os.Getenv("BTDUMP") != "" {
		t.Log(got.String())
	}
}

// commandData has a field for each data field of branching.BranchCommands,
// and no other.
func TestBranchCommandDataMatchesTheTable(t *testing.T) {
	want := map[string]bool{}
	for _, c := range branching.BranchCommands {
		for _, f := range c.FieldNames() {
			want[f] = true
		}
	}
	have := map[string]bool{}
	for _, f := range fieldsOf(reflect.TypeFor[commandData]()).list {
		have[f.name] = true
	}
	if !maps.Equal(want, have) {
		t.Fatalf("commandData has %v, the commands take %v", have, want)
	}
}

// A call breaking two rules gets the error of the field read first: every
// field is read before the rules between fields are checked.
func TestBranchThinkingInputTwoFaults(t *testing.T) {
	e := newTestEnv(t)
	cs := e.connect()
	btSession{t, cs, "two"}.thought("A first thought", "analysis")
	for _, c := range []struct{ args, want string }{
		{`{"confidence": "high"}`, `ValidationError confidence: 'confidence' must be a number, got the string "high"`},
		{`{"command": {"type": "list"}, "content": 5}`, `ValidationError content: 'content' must be a string, got a number`},
		{`{"content": "x", "type": "analysis", "branchId": "", "confidence": "high"}`, `ValidationError confidence: 'confidence' must be a number, got the string "high"`},
		{`{"content": "x", "type": "analysis", "crossRefs": [{"toBranch": "main", "type": "complementary", "reason": "", "strength": "x"}]}`, `ValidationError crossRefs[0].strength: crossRefs[0]: 'strength' must be a number, got the string "x"`},
		{`{"command": {"type": "focus", "branchId": 5}, "branchId": "main"}`, `ValidationError branchId: 'branchId' must be a string, got a number`},
		// null counts as absent: no conflict between command, data and
		// the top level.
		{`{"command": {"type": "focus", "branchId": null}, "branchId": "main"}`, `ok focus`},
		{`{"command": {"type": "focus", "branchId": null, "data": {"branchId": "main"}}}`, `ok focus`},
		{`{"command": {"type": "focus", "branchId": "main", "data": {"branchId": null}}}`, `ok focus`},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(c.args), &m); err != nil {
			t.Fatal(err)
		}
		m["session_id"] = "two"
		raw, _ := json.Marshal(m)
		if got := btOutcome(t, cs, string(raw)); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}
