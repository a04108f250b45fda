package lux

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// The Lux tools keep their state under one key each of the session
// metadata object (reasoning.GetSessionMeta, reasoning.SetSessionMeta).

func fullStepRun() stepRun {
	f := func(v float64) *float64 { return &v }
	return stepRun{Run: 2, RootID: "r1", Steps: map[string]string{"1": "a1", "2": "b2"}, Count: 2, Total: 3, Branches: []string{"alt"},
		Pending: &pendingInput{Number: 3, Content: "check <x> & y", ThoughtID: "t3", ParentID: "b2", Branch: "alt"},
		Traced: &tracedState{
			Interventions: []tracedIntervention{{Intervention: Intervention{Step: 2, InterventionType: "SemanticDrift", Description: "drift", Severity: "High"}, Open: true}},
			Records:       []tracedRecord{{Number: 1, Metrics: StepMetrics{SemanticSimilarity: f(0.75), Perplexity: f(1.5)}, TokenConfidence: f(0.625)}},
		},
		Plan: &planState{Confidences: []float64{0.25, 0.5}, Complete: true},
	}
}

// TestLuxStateRoundTrip: each tool's state reads back as it was written,
// beside the other keys of the metadata, which are kept.
func TestLuxStateRoundTrip(t *testing.T) {
	sess := &thinkgraph.Session{ID: "s", Metadata: json.RawMessage(`{"linear_last_thought":"x","other":{"a":[1,2]}}`)}
	run := fullStepRun()
	conf := conferState{Exchanges: []conferExchange{{Message: "m1", Answer: "a1", Step: 4}, {Message: "m2", Answer: "a2", Step: 6}}}
	biased := biasedState{Query: "Q?", QueryID: "q", MaxRounds: 3, Primary: "p", Pending: BiasedCorrection, ReasoningID: "r",
		LastBias: &BiasInfo{BiasType: "anchoring", Severity: "high"}, Found: []BiasInfo{{BiasType: "anchoring"}}, Guidance: []string{"g"}, AwaitGuidance: true}
	biased.TotalSteps, biased.BiasesDetected = 4, 1
	for key, v := range map[string]any{"traced_reasoning": run, "confer": conf, biasedKey: biased} {
		if err := reasoning.SetSessionMeta(sess, key, v); err != nil {
			t.Fatal(err)
		}
	}
	var gotRun stepRun
	var gotConf conferState
	var gotBiased biasedState
	for key, p := range map[string]any{"traced_reasoning": &gotRun, "confer": &gotConf, biasedKey: &gotBiased} {
		if ok, err := reasoning.GetSessionMeta(sess, key, p); !ok || err != nil {
			t.Fatalf("%s: found %v, %v", key, ok, err)
		}
	}
	if !reflect.DeepEqual(gotRun, run) || !reflect.DeepEqual(gotConf, conf) || !reflect.DeepEqual(gotBiased, biased) {
		t.Fatalf("read back:\n%+v\n%+v\n%+v", gotRun, gotConf, gotBiased)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(sess.Metadata, &m); err != nil {
		t.Fatal(err)
	}
	if string(m["linear_last_thought"]) != `"x"` || string(m["other"]) != `{"a":[1,2]}` || len(m) != 5 {
		t.Fatalf("the other keys: %s", sess.Metadata)
	}
	// A later write replaces the key; what the reader changed is not stored.
	gotRun.Steps["3"] = "c3"
	gotRun.Traced.Records[0].Number = 9
	var again stepRun
	if _, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &again); err != nil || !reflect.DeepEqual(again, run) {
		t.Fatalf("after changing a value read: %+v %v", again, err)
	}
	if err := reasoning.SetSessionMeta(sess, "traced_reasoning", gotRun); err != nil {
		t.Fatal(err)
	}
	if _, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &again); err != nil || again.Steps["3"] != "c3" || again.Traced.Records[0].Number != 9 {
		t.Fatalf("after the second write: %+v %v", again, err)
	}
}

// storedLuxMeta is session metadata as the Lux tools stored it before
// their state was read with encoding/json (reasoning/lux_meta.go, removed):
// keys sorted, values compact and HTML-escaped.
const storedLuxMeta = `{"alpha":{"x":"\u003cb\u003e"},"confer":{"exchanges":[{"message":"m1","answer":"a1","step":4}]},` +
	`"traced_reasoning":{"run":2,"root_id":"r1","steps":{"1":"a1","2":"b2"},"count":2,"total":3,"branches":["alt"],` +
	`"pending":{"number":3,"content":"check \u003cx\u003e \u0026 y","thought_id":"t3","parent_id":"b2","branch":"alt"},` +
	`"traced":{"interventions":[{"step":2,"intervention_type":"SemanticDrift","description":"drift","severity":"High","open":true}],` +
	`"records":[{"number":1,"metrics":{"semantic_similarity":0.75,"perplexity":1.5,"attention_entropy":null,"consistency_score":null},"token_confidence":0.625}]},` +
	`"plan":{"confidences":[0.25,0.5],"complete":true}},"zeta":[1,2]}`

// TestLuxStateReadsStoredFormat: sessions stored by earlier versions load,
// and writing the same state gives the same bytes (the layout is unchanged,
// so either version reads what the other wrote).
func TestLuxStateReadsStoredFormat(t *testing.T) {
	sess := &thinkgraph.Session{ID: "s", Metadata: json.RawMessage(storedLuxMeta)}
	var run stepRun
	var conf conferState
	if ok, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &run); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := reasoning.GetSessionMeta(sess, "confer", &conf); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if want := fullStepRun(); !reflect.DeepEqual(run, want) {
		t.Fatalf("traced_reasoning: %+v, want %+v", run, want)
	}
	if want := (conferState{Exchanges: []conferExchange{{Message: "m1", Answer: "a1", Step: 4}}}); !reflect.DeepEqual(conf, want) {
		t.Fatalf("confer: %+v", conf)
	}
	out := &thinkgraph.Session{Metadata: json.RawMessage(` {"zeta": [1, 2], "alpha":{"x":"<b>"}} `)}
	if err := reasoning.SetSessionMeta(out, "traced_reasoning", run); err != nil {
		t.Fatal(err)
	}
	if err := reasoning.SetSessionMeta(out, "confer", conf); err != nil {
		t.Fatal(err)
	}
	if string(out.Metadata) != storedLuxMeta {
		t.Fatalf("written:\n%s\nwant\n%s", out.Metadata, storedLuxMeta)
	}
}

// TestLuxStateOddMetadata: metadata that is not an object, or has no value
// for the key, holds no state and takes a write; a value of the wrong shape
// is an error naming the session and key; of duplicate keys the last wins.
func TestLuxStateOddMetadata(t *testing.T) {
	for _, m := range []string{``, `null`, `[]`, `"x"`, `{}`, ` { } `, `{"a":1`, `{"traced_reasoning":null}`, `{"nested":{"traced_reasoning":{"run":9}}}`} {
		sess := &thinkgraph.Session{ID: "s", Metadata: json.RawMessage(m)}
		var run stepRun
		if ok, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &run); ok || err != nil {
			t.Errorf("%q: found %v, %v", m, ok, err)
		}
		if err := reasoning.SetSessionMeta(sess, "traced_reasoning", stepRun{Run: 1, RootID: "r"}); err != nil {
			t.Errorf("%q: write: %v", m, err)
			continue
		}
		if ok, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &run); !ok || err != nil || run.Run != 1 || run.RootID != "r" {
			t.Errorf("%q: after a write %s: %v %v %+v", m, sess.Metadata, ok, err, run)
		}
	}
	sess := &thinkgraph.Session{ID: "s1", Metadata: json.RawMessage(`{"traced_reasoning":"not an object"}`)}
	var run stepRun
	_, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &run)
	if err == nil || !strings.HasPrefix(err.Error(), `session "s1": metadata "traced_reasoning": `) {
		t.Fatalf("a string for the state: %v", err)
	}
	sess.Metadata = json.RawMessage(`{"traced_reasoning":{"run":1},"traced_reasoning":{"run":2,"root_id":"dup"}}`)
	if ok, err := reasoning.GetSessionMeta(sess, "traced_reasoning", &run); !ok || err != nil || run.Run != 2 || run.RootID != "dup" {
		t.Fatalf("duplicate keys: %v %v %+v", ok, err, run)
	}
}

// luxTestModel answers every sampling request with the next of its answers
// (failing when told to), counting the requests and keeping their messages.
type luxTestModel struct {
	mu       sync.Mutex
	fail     bool
	n        int
	messages [][]string
}

func (m *luxTestModel) call() reasoning.LLMCall {
	return reasoning.LLMCall{Sampler: func(_ context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.fail {
			return nil, fmt.Errorf("the model is down")
		}
		m.n++
		var msgs []string
		for _, sm := range p.Messages {
			msgs = append(msgs, string(sm.Role)+": "+sm.Content.(*mcp.TextContent).Text)
		}
		m.messages = append(m.messages, msgs)
		return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: fmt.Sprintf("Answer %d.", m.n)}}, nil
	}}
}

// luxTestServices returns two services on one new store (as two processes
// serving it) and a model for their calls.
func luxTestServices(t *testing.T) (thinkgraph.Store, []*Tools, *luxTestModel) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "lux.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store, []*Tools{New(reasoning.New(store, reasoning.Config{})), New(reasoning.New(store, reasoning.Config{}))}, &luxTestModel{}
}

// TestLuxStateAcrossServices: a planner run and a confer conversation
// continued in turn through two services on one store (two processes)
// each see what the other stored last.
func TestLuxStateAcrossServices(t *testing.T) {
	ctx := context.Background()
	store, svcs, model := luxTestServices(t)
	sid := reasoning.SessionRef{ID: "across", Explicit: false}
	for n := 1; n <= 4; n++ {
		in := PlannerInput{Session: sid, StepNumber: n, TotalSteps: 4, NextStepRequired: n < 4, Call: model.call()}
		if n == 1 {
			in.Step = "Plan a migration"
		}
		res, err := svcs[n%2].Planner(ctx, in)
		if err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		if res.Metadata.StepHistoryLength == 0 || res.TotalSteps != 4 {
			t.Fatalf("step %d: %+v", n, res)
		}
	}
	var sess *thinkgraph.Session
	err := store.View(ctx, func(tx thinkgraph.Tx) error {
		var err error
		sess, err = tx.Session(ctx, thinkgraph.LocalTenant, "across")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var run stepRun
	if ok, err := reasoning.GetSessionMeta(sess, "planner", &run); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if run.Run != 1 || run.Count != 4 || len(run.Steps) != 4 || run.Pending != nil || run.Plan == nil || !run.Plan.Complete {
		t.Fatalf("the run after 4 steps through 2 services: %+v", run)
	}

	for i := 1; i <= 4; i++ {
		if _, err := svcs[i%2].Confer(ctx, ConferInput{Session: reasoning.SessionRef{ID: "chat", Explicit: false}, Message: fmt.Sprintf("Question %d?", i), Call: model.call()}); err != nil {
			t.Fatal(err)
		}
	}
	last := model.messages[len(model.messages)-1]
	want := []string{"user: Question 1?", "assistant: Answer 5.", "user: Question 2?", "assistant: Answer 6.", "user: Question 3?", "assistant: Answer 7.", "user: Question 4?"}
	if !slices.Equal(last, want) {
		t.Fatalf("the fourth message's history: %q", last)
	}
}

// TestLuxConcurrentWriters: confer calls on one session at once through two
// services each store their exchange in the state, and each model call is
// recorded once; a failed call is recorded too.
func TestLuxConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	store, svcs, model := luxTestServices(t)
	ref := reasoning.SessionRef{ID: "busy", Explicit: false}
	if _, err := svcs[0].Confer(ctx, ConferInput{Session: ref, Message: "First?", Call: model.call()}); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := svcs[i%2].Confer(ctx, ConferInput{Session: ref, Message: fmt.Sprintf("Question %d?", i), Call: model.call()})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	model.fail = true
	if _, err := svcs[1].Confer(ctx, ConferInput{Session: ref, Message: "Still there?", Call: model.call()}); err == nil {
		t.Fatal("a failed model call succeeded")
	}
	var sess *thinkgraph.Session
	var ths []thinkgraph.Thought
	var invs []thinkgraph.Invocation
	err := store.View(ctx, func(tx thinkgraph.Tx) error {
		var err error
		if sess, err = tx.Session(ctx, thinkgraph.LocalTenant, "busy"); err != nil {
			return err
		}
		if ths, err = tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key}); err != nil {
			return err
		}
		invs, err = tx.Invocations(ctx, thinkgraph.InvocationFilter{SessionID: "busy"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var st conferState
	if _, err := reasoning.GetSessionMeta(sess, "confer", &st); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, th := range ths {
		ids[th.ID] = true
	}
	// Each call stored its message, each but the failed one its answer.
	if len(st.Exchanges) != n+1 || len(ths) != 2*(n+1)+1 {
		t.Fatalf("%d exchanges and %d thoughts after %d calls, one failed", len(st.Exchanges), len(ths), n+2)
	}
	for _, ex := range st.Exchanges {
		if !ids[ex.Message] || !ids[ex.Answer] {
			t.Fatalf("an exchange of thoughts not stored: %+v", ex)
		}
	}
	failed := slices.IndexFunc(invs, func(inv thinkgraph.Invocation) bool { return !inv.Success })
	if len(invs) != n+2 || failed < 0 || invs[failed].ToolName != "confer" || invs[failed].Error == "" || invs[failed].Provider != llm.ProviderSampling {
		t.Fatalf("%d invocations after %d model calls, one failed: %+v", len(invs), n+2, invs)
	}
}
