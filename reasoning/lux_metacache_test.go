package reasoning

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

func fullStepRun() stepRun {
	f := func(v float64) *float64 { return &v }
	return stepRun{Run: 2, RootID: "r", Steps: map[string]string{"1": "a", "2": "b"}, Count: 2, Total: 5, Branches: []string{"alt"},
		Pending: &pendingInput{Number: 3, Content: "c <&>", ThoughtID: "t", ParentID: "p", Branch: "main"},
		Traced: &tracedState{
			Interventions: []tracedIntervention{{Intervention: Intervention{Step: 1, InterventionType: "SemanticDrift", Description: "d", Severity: "High"}, Open: true}},
			Records:       []tracedRecord{{Number: 1, Metrics: StepMetrics{SemanticSimilarity: f(0.1234567890123), Perplexity: f(1.5)}, TokenConfidence: f(0.7)}},
		},
		Plan: &planState{Confidences: []float64{0.25, 1.0 / 3}, Complete: true},
	}
}

// TestStepRunCloneIsDeep: changing a clone leaves the original as it was.
func TestStepRunCloneIsDeep(t *testing.T) {
	r := fullStepRun()
	before, _ := json.Marshal(r)
	c := r.clone()
	if got, _ := json.Marshal(c); string(got) != string(before) {
		t.Fatalf("clone %s, want %s", got, before)
	}
	c.Steps["3"] = "x"
	c.Branches[0] = "y"
	c.Pending.Content = "z"
	c.Traced.Interventions[0].Open = false
	c.Traced.Interventions = append(c.Traced.Interventions, tracedIntervention{})
	c.Traced.Records[0].Number = 9
	c.Traced.Records = append(c.Traced.Records, tracedRecord{})
	c.Plan.Confidences[0] = 0
	c.Plan.Complete = false
	if after, _ := json.Marshal(r); string(after) != string(before) {
		t.Fatalf("the original changed with its clone:\n%s\n%s", after, before)
	}
}

// TestStepRunCloneKnowsEveryField fails when a field is added to the run's
// types: stepRun.clone must then copy it deeply if it is a map, slice or
// pointer (the cache hands the clone to code that modifies it).
func TestStepRunCloneKnowsEveryField(t *testing.T) {
	want := map[reflect.Type][]string{
		reflect.TypeFor[stepRun]():            {"Run", "RootID", "Steps", "Count", "Total", "Branches", "Pending", "Traced", "Plan"},
		reflect.TypeFor[pendingInput]():       {"Number", "Content", "ThoughtID", "ParentID", "Branch"},
		reflect.TypeFor[tracedState]():        {"Interventions", "Records"},
		reflect.TypeFor[tracedIntervention](): {"Intervention", "Open"},
		reflect.TypeFor[Intervention]():       {"Step", "InterventionType", "Description", "Severity"},
		reflect.TypeFor[tracedRecord]():       {"Number", "Metrics", "TokenConfidence"},
		reflect.TypeFor[planState]():          {"Confidences", "Complete"},
		reflect.TypeFor[conferState]():        {"Exchanges"},
		reflect.TypeFor[conferExchange]():     {"Message", "Answer", "Step"},
	}
	for typ, names := range want {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, names) {
			t.Errorf("%v has fields %v; clone() knows %v: update the clone and this list", typ, got, names)
		}
	}
}

// TestLuxMetaCache: a value read back from the bytes it was written as is
// the value json.Unmarshal gives, and a private copy; other bytes are
// decoded.
func TestLuxMetaCache(t *testing.T) {
	var c luxMetaCache
	sess := &thinkgraph.Session{ID: "s", Metadata: json.RawMessage(`{"other":{"a":1}}`)}
	r := fullStepRun()
	if err := luxSetMetaCached(&c, sess, "traced_reasoning", r, (*stepRun).clone); err != nil {
		t.Fatal(err)
	}
	var decoded stepRun
	if _, err := luxGetMeta(sess, "traced_reasoning", &decoded); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		var got stepRun
		if ok, err := luxGetMetaCached(&c, sess, "traced_reasoning", &got, (*stepRun).clone); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if !reflect.DeepEqual(got, decoded) {
			t.Fatalf("cached %+v, decoded %+v", got, decoded)
		}
		got.Steps["9"] = "changed" // a private copy: the next read is unchanged
		got.Traced.Records[0].Number = 42
	}
	// Another process wrote the key: its bytes are decoded.
	sess2 := *sess
	sess2.Metadata = json.RawMessage(`{"traced_reasoning":{"run":7,"root_id":"q","steps":{},"count":0,"total":1}}`)
	var got stepRun
	if ok, err := luxGetMetaCached(&c, &sess2, "traced_reasoning", &got, (*stepRun).clone); !ok || err != nil || got.Run != 7 || got.RootID != "q" {
		t.Fatalf("%v %v %+v", ok, err, got)
	}
	// A missing key is not found, a cached session notwithstanding.
	sess2.Metadata = json.RawMessage(`{"other":{}}`)
	if ok, err := luxGetMetaCached(&c, &sess2, "traced_reasoning", &got, (*stepRun).clone); ok || err != nil {
		t.Fatal(ok, err)
	}
}
