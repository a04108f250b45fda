package review

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

func docs() []analyze.Doc {
	return []analyze.Doc{
		{ID: "a", Step: 1, Claims: []analyze.Claim{{Text: "The pool holds 20 connections."}}},
		{ID: "b", Step: 2, Claims: []analyze.Claim{{Text: "Backups run nightly."}, {Text: "restores were tested."}}},
		{ID: "c", Step: 7, Claims: []analyze.Claim{{Text: "The pool holds 200 connections."}}},
	}
}

func field(t *testing.T, err error) string {
	t.Helper()
	var e *thinkgraph.Error
	if !errors.As(err, &e) {
		t.Fatalf("not a thinkgraph error: %v", err)
	}
	return e.Field
}

func TestMembers(t *testing.T) {
	got, err := Members(docs(), " 1.1-2.2 - 7.1")
	if err != nil || len(got) != 3 || got[0].ID != "a" || got[1].ID != "b" || got[2].ID != "c" {
		t.Fatalf("%v %v", got, err)
	}
	for key, why := range map[string]string{
		"1.1":       "at least two claims",
		"1.1-9.1":   "step 9",
		"1.1-2.3":   "claim 3 of step 2",
		"1.1-1.1":   "twice",
		"1.1-x":     `"x"`,
		"1.1-2.1.0": `"2.1.0"`,
	} {
		_, err := Members(docs(), key)
		if err == nil || field(t, err) != "group" || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want an error on group saying %s", key, err, why)
		}
	}
}

func TestConflicts(t *testing.T) {
	ms := docs()
	got, err := Conflicts(ms, [][]string{{"1", "#7"}, {"b", "c"}})
	if err != nil || !slices.Equal(got, [][2]int{{0, 2}, {1, 2}}) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range [][][]string{{{"1"}}, {{"1", "1"}}, {{"1", "9"}}, {{"1", "2"}, {"x", "7"}}} {
		if _, err := Conflicts(ms, bad); err == nil || !strings.HasPrefix(field(t, err), "conflicts[") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

func TestReadReply(t *testing.T) {
	if r, err := ReadReply(`{"verdict": "consistent"}`, 3); err != nil || len(r.Conflicts) != 0 {
		t.Fatal(r, err)
	}
	r, err := ReadReply("Sure.\n```json\n{\"verdict\": \"contradiction\", \"conflicts\": [[1, 3]], \"reason\": \"20 is not 200\"}\n```", 3)
	if err != nil || !slices.Equal(r.Conflicts, [][2]int{{0, 2}}) || r.Reason != "20 is not 200" {
		t.Fatal(r, err)
	}
	for _, bad := range []string{`not json`, `{"verdict": "maybe"}`, `{"verdict": "contradiction"}`, `{"verdict": "contradiction", "conflicts": [[1, 4]]}`, `{"verdict": "contradiction", "conflicts": [[2, 2]]}`} {
		if _, err := ReadReply(bad, 3); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// The latest verdict on a pair wins, in either direction; circular verdicts
// are a family of their own.
func TestStated(t *testing.T) {
	v := StatedOf([]thinkgraph.Link{
		{FromThought: "c", ToThought: "a", Type: LinkContradictory, Reason: "20 is not 200"},
		{FromThought: "b", ToThought: "a", Type: LinkContradictory},
		{FromThought: "a", ToThought: "b", Type: LinkCompatible},
		{FromThought: "b", ToThought: "c", Type: LinkCircular},
		{FromThought: "a", ToThought: "a", Type: LinkContradictory},
		{FromThought: "a", ToThought: "c", Type: "builds_upon"},
	})
	if stated, contra, l := v.Contradicts("a", "c"); !stated || !contra || DeclaredReason(l) != "declared contradictory: 20 is not 200" {
		t.Fatal(stated, contra, l)
	}
	if stated, contra, _ := v.Contradicts("a", "b"); !stated || contra {
		t.Fatal("a/b: the later compatible verdict wins")
	}
	if l, ok := v.Circular("c", "b"); !ok || l.Type != LinkCircular {
		t.Fatal(l, ok)
	}
	if v.Links() != 6 || (*Stated)(nil).Links() != -1 {
		t.Fatal(v.Links())
	}
	ds := docs()
	byID := map[string]int{"a": 0, "b": 1, "c": 2}
	cs := v.Contradictions(ds, byID, nil)
	if len(cs) != 1 || cs[0].ThoughtA.ID != "a" || cs[0].ThoughtB.ID != "c" || cs[0].Source != "declared" {
		t.Fatal(cs)
	}
	settled := v.Settled(ds)
	if !settled(0, 1) || !settled(2, 0) || settled(1, 2) {
		t.Fatal("settled pairs")
	}
	circ := v.CircularWith(nil, ds, byID)
	if len(circ) != 1 || circ[0].Kind != "declared" || circ[0].Thoughts[0].ID != "c" {
		t.Fatal(circ)
	}
}

func TestRender(t *testing.T) {
	ds := docs()
	ds[2].Claims[0].Text = strings.Repeat("long claim ", 40)
	rv := Render(ds, Plan{Open: 3, Groups: []analyze.ReviewGroup{{Claims: []analyze.ClaimRef{{Doc: 0}, {Doc: 2}}, Signs: []string{"one side negated"}}}})
	if rv.Open != 3 || rv.Left != 2 || len(rv.Groups) != 1 || rv.Answer == "" {
		t.Fatalf("%+v", rv)
	}
	g := rv.Groups[0]
	if g.Group != "1.1-7.1" || g.Signs != "one side negated" || g.Claims[1].Step != 7 || len([]rune(g.Claims[1].Text)) != MaxClaimText+1 {
		t.Fatalf("%+v", g)
	}
	if empty := Render(ds, Plan{}); empty.Groups == nil || empty.Answer != "" {
		t.Fatalf("%+v", empty)
	}
}

// A verdict replaced by a later one on the same pair is dropped; the other
// family's verdicts and other links stay, in order.
func TestLatest(t *testing.T) {
	links := []thinkgraph.Link{
		{ID: "1", FromThought: "b", ToThought: "a", Type: LinkContradictory},
		{ID: "2", FromThought: "a", ToThought: "b", Type: LinkCircular},
		{ID: "3", FromThought: "a", ToThought: "b", Type: LinkCompatible},
		{ID: "4", FromThought: "b", ToThought: "a", Type: "builds_upon"},
		{ID: "5", FromThought: "a", ToThought: "b", Type: LinkContradictory},
		{ID: "6", FromThought: "a", ToThought: "c", Type: LinkContradictory},
	}
	var ids []string
	for _, l := range Latest(links) {
		ids = append(ids, l.ID)
	}
	if !slices.Equal(ids, []string{"2", "4", "5", "6"}) {
		t.Fatal(ids)
	}
}

// Quoted quotes each claim's text once across calls: a group with a new
// claim lists only that claim (its key names the others), a group of claims
// all quoted before is listed by key in Again, and verbose shows
// everything.
func TestQuoted(t *testing.T) {
	review := func() *Review {
		return &Review{Question: AskConsistent, Groups: []Group{
			{Group: "1.1-2.1", Claims: []Claim{{Step: 1, Text: "a"}, {Step: 2, Text: "b"}}},
			{Group: "2.1-3.1", Claims: []Claim{{Step: 2, Text: "b"}, {Step: 3, Text: "c"}}},
		}}
	}
	keys := []ClaimKey{{"t1", 0}, {"t2", 0}, {"t2", 0}, {"t3", 0}}
	asked := map[ClaimKey]bool{}
	first := review()
	first.Quoted(keys, asked, false)
	if len(first.Groups) != 2 || len(first.Groups[0].Claims) != 2 || len(first.Groups[1].Claims) != 1 || first.Groups[1].Claims[0].Step != 3 || first.Again != nil {
		t.Fatalf("first call: %+v", first)
	}
	second := review()
	second.Quoted(keys, asked, false)
	if len(second.Groups) != 0 || !slices.Equal(second.Again, []string{"1.1-2.1", "2.1-3.1"}) || second.Question != "" {
		t.Fatalf("second call: %+v", second)
	}
	verbose := review()
	verbose.Quoted(keys, asked, true)
	if len(verbose.Groups) != 2 || len(verbose.Groups[1].Claims) != 2 || verbose.Again != nil {
		t.Fatalf("verbose: %+v", verbose)
	}
}
