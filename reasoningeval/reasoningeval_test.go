package reasoningeval

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

func newService(t *testing.T) (*reasoning.Service, *contradict.Contradictor, string) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "eval.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	emb, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	contra, err := contradict.NewContradictor(nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Contradictor: contra}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	return svc, contra, emb.Model()
}

func TestReadRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"unknown kind":   `{"id":"x","kind":"triple"}`,
		"pair without b": `{"id":"x","kind":"pair","a":"A","label":"neutral"}`,
		"answer outside": `{"id":"x","kind":"retrieval","docs":["a"],"queries":[{"q":"q","answer":1}]}`,
		"no thoughts":    `{"id":"x","kind":"circular","circular":true}`,
		"clean no steps": `{"id":"x","kind":"clean","question":"q"}`,
		"clean empty":    `{"id":"x","kind":"clean","steps":["a",""]}`,
		"not JSON":       `{"id":`,
		"empty":          "\n\n",
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// runSet reads a set given as text and runs it on a fresh service.
func runSet(t *testing.T, set string) Result {
	t.Helper()
	svc, contra, model := newService(t)
	items, err := Read(strings.NewReader(set))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), items, svc, contra, model)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A small hand-made set scores as expected: the figures come from the
// checks, so each one is checked against a count worked out by hand.
func TestRunCounts(t *testing.T) {
	res := runSet(t, `
{"id":"p1","kind":"pair","a":"The nightly job is idempotent.","b":"The nightly job is not idempotent.","label":"contradiction","category":"negation"}
{"id":"p2","kind":"pair","a":"The nightly job is idempotent.","b":"The nightly job runs at midnight.","label":"neutral","category":"related-neutral"}
{"id":"r1","kind":"retrieval","docs":["The cache stores rendered pages.","The database keeps invoices."],"queries":[{"q":"invoices live in the database","answer":1}]}
{"id":"k1","kind":"circular","thoughts":["We measured p99 latency at 40 ms.","So the service meets its target."],"circular":false,"involved":[]}
`)
	if res.Pairs != 2 || res.TP != 1 || res.FP != 0 || res.FN != 0 || res.TN != 1 {
		t.Errorf("pairs: %+v", res)
	}
	if res.Queries != 1 || res.Top1 != 1 || res.CircularItems != 1 || res.CTN != 1 {
		t.Errorf("retrieval/circular: %+v", res)
	}
	if res.F1 == nil || *res.F1 != 1 || res.CircularF1 != nil {
		t.Errorf("F1 %v, circular F1 %v (want 1 and null: no positive at all)", res.F1, res.CircularF1)
	}
	// The negated pair is the same words but "not": asserted, and the two
	// claims are in one review group.
	if f := res.PairReview; f.Items != 2 || f.Positives != 1 || f.Surfaced != 1 || f.Asserted != 1 || f.AssertedTrue != 1 || f.Calls != 2 {
		t.Errorf("review: %+v", f)
	}
	out := res.String()
	if !strings.HasPrefix(out, "surfaced_recall=1.0000 asserted_precision=1.0000 retrieval_top1=1.0000 circular_f1=null") ||
		!strings.Contains(out, "rules_f1=1.0000 rules_precision=1.0000 rules_recall=1.0000") ||
		!strings.Contains(out, "rules category=negation recall=1/1") || !strings.Contains(out, "rules category=related-neutral kept_apart=1/1") ||
		!strings.Contains(out, "review pairs category=negation surfaced=1/1") {
		t.Errorf("output:\n%s", out)
	}
}

// A clean item is a session in which nothing contradicts and nothing
// argues in a circle: every finding counts, per 100 sessions. One plants a
// contradiction the certain judge asserts and a circular argument, so the
// counts are checked against findings the checks do make; the same
// contradiction with a retraction between its two sides is a correction,
// not asserted.
func TestRunClean(t *testing.T) {
	res := runSet(t, `
{"id":"c1","kind":"clean","question":"q","steps":["The nightly job is idempotent.","It runs at midnight on every node.","The nightly job is not idempotent."]}
{"id":"c2","kind":"clean","question":"q","steps":["The defendant is guilty of the theft.","He took the car because he is guilty.","We know he is guilty since he took the car."]}
{"id":"c3","kind":"clean","question":"q","steps":["The pool holds 20 connections.","Each request takes one connection for 5 ms."]}
{"id":"c4","kind":"clean","question":"q","steps":["The cache is warm."]}
{"id":"c5","kind":"clean","question":"q","steps":["The nightly batch processes 120 files.","We made an error in the count, the log lists more.","The nightly batch processes 140 files."]}
`)
	c := res.Clean
	if c.Sessions != 5 || c.Steps != 12 || c.Asserted != 1 || c.AssertedIn != 1 || c.Circular < 1 || c.CircularIn != 1 {
		t.Fatalf("clean figures: %+v", c)
	}
	if v := c.Per100(c.Asserted); v == nil || *v != 20 {
		t.Errorf("asserted per 100 sessions = %s, want 20", fig(v))
	}
	var kinds []string
	for _, m := range res.Misses {
		kinds = append(kinds, m.ID+" "+m.Category)
	}
	if !slices.Contains(kinds, "c1 contradiction") || !slices.Contains(kinds, "c2 circular") || len(kinds) != 1+c.Circular {
		t.Errorf("misses: %q", kinds)
	}
	if out := res.String(); !strings.Contains(out, "clean sessions=5 steps=12 asserted_per_100=20.0 ") {
		t.Errorf("output:\n%s", out)
	}
}

// The dev set in testdata, through the default offline engine: the figures
// must not fall below what the engine reached when they were last raised.
// Raise a floor when the engine gets better; never lower one to let a
// change through.
func TestDevSetFloors(t *testing.T) {
	items := readDev(t)
	if len(items) != 288 {
		t.Fatalf("%d items, want 288", len(items))
	}
	svc, contra, model := newService(t)
	res, err := Run(context.Background(), items, svc, contra, model)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + res.String())
	floor := func(name string, v *float64, min float64) {
		t.Helper()
		if v == nil || *v < min {
			t.Errorf("%s = %s, below its floor %.2f", name, fig(v), min)
		}
	}
	all := res.Surfaced()
	floor("surfaced recall", all.SurfacedRecall(), 0.98)
	floor("asserted precision", all.AssertedPrecision(), 0.97)
	floor("rules F1", res.F1, 0.875)
	floor("rules precision", res.Precision, 0.97)
	floor("circular F1", res.CircularF1, 0.92)
	floor("retrieval top-1", res.Retrieval, 0.62)
	checkReadmeRow(t, "reasoning dev pairs", res.PairReview)
}

// readSet reads a set in testdata.
func readSet(t testing.TB, path string) []Item {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// Text nobody on the project wrote (testdata/external): ChatProtect's LLM
// self-contradictions as sessions, and a sample of MultiNLI, where the
// offline judge must not claim what it does not know. Floors as in
// TestDevSetFloors: raise them, never lower them.
func TestExternalFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 300 sessions and 2,204 pairs (about 10 s); go test ./reasoningeval -run TestExternalFloors")
	}
	for _, tc := range []struct {
		file                string
		surfaced, precision float64
		maxClaims, maxBytes float64
		readme              string // the README's row of its figures
	}{
		{"testdata/external/chatprotect_sessions.jsonl", 0.90, 0.95, 30, 4000, "ChatProtect sessions (testdata/external)"},
		{"testdata/external/mnli_sample.jsonl", 0.88, 0.95, 30, 2000, "MultiNLI sample (testdata/external)"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			svc, contra, model := newService(t)
			res, err := Run(context.Background(), readSet(t, tc.file), svc, contra, model)
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + res.String())
			all := res.Surfaced()
			if v := all.SurfacedRecall(); v == nil || *v < tc.surfaced {
				t.Errorf("surfaced recall %s, below its floor %.2f", fig(v), tc.surfaced)
			}
			// Nothing asserted is a precision of null, which passes: the
			// floor is on what is asserted.
			if v := all.AssertedPrecision(); v != nil && *v < tc.precision {
				t.Errorf("asserted precision %s, below its floor %.2f", fig(v), tc.precision)
			}
			if c := float64(all.Claims) / float64(all.Calls); c > tc.maxClaims {
				t.Errorf("%.1f claims a call, over %v", c, tc.maxClaims)
			}
			if b := float64(all.Bytes) / float64(all.Calls); b > tc.maxBytes {
				t.Errorf("%.0f bytes a call, over %v", b, tc.maxBytes)
			}
			checkReadmeRow(t, tc.readme, all)
		})
	}
}

// Correct step-by-step solutions (testdata/external/prmbench_clean.jsonl):
// nothing in them contradicts itself or argues in a circle, so every
// assertion and every circular finding is false. These are ceilings: lower
// one when the checks get better, never raise one to let a change through.
func TestCleanFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 180 sessions (about 5 s); go test ./reasoningeval -run TestCleanFloors")
	}
	svc, contra, model := newService(t)
	res, err := Run(context.Background(), readSet(t, "testdata/external/prmbench_clean.jsonl"), svc, contra, model)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Clean
	t.Log(c.String())
	if c.Sessions != 180 {
		t.Fatalf("%d clean sessions, want 180", c.Sessions)
	}
	for _, m := range []struct {
		name    string
		v       *float64
		ceiling float64
	}{
		{"asserted contradictions per 100 sessions", c.Per100(c.Asserted), 0.6},
		{"circular findings per 100 sessions", c.Per100(c.Circular), 0.6},
		{"review claims per session", ratio(c.Claims, c.Sessions), 10.5},
	} {
		if m.v == nil || *m.v > m.ceiling {
			t.Errorf("%s = %s, above its ceiling %v", m.name, fig(m.v), m.ceiling)
		}
	}
	checkCleanRow(t, "PRMBench clean solutions (testdata/external)", c)
}

// Coding sessions written for thinkgraph (testdata/coding.jsonl): code
// blocks, unfenced logs, stack traces, test output, shell sessions, tables,
// diffs of values the writer changed and arithmetic, with nothing that
// contradicts or argues in a circle (clean items); and the same kinds of
// text around a planted prose contradiction or circular argument, which
// must still be found.
func TestCodingSessions(t *testing.T) {
	svc, contra, model := newService(t)
	res, err := Run(context.Background(), readSet(t, "testdata/coding.jsonl"), svc, contra, model)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + res.String())
	if c := res.Clean; c.Sessions != 9 || c.Asserted != 0 || c.Circular != 0 {
		t.Errorf("clean coding sessions: %+v; want no finding", c)
	}
	for _, m := range res.Misses {
		t.Errorf("miss %s %s: %s", m.ID, m.Category, m.Detail)
	}
	if f := res.SessionReview; f.Positives != 2 || f.Surfaced != 2 || f.Asserted != 1 || f.AssertedTrue != 1 {
		t.Errorf("planted prose contradictions among code: %+v; want both surfaced, the figures one asserted", f)
	}
	if res.CTP != 1 || res.CFP != 0 {
		t.Errorf("planted circular argument among logs: found %d, false %d", res.CTP, res.CFP)
	}
}

// checkReadmeRow holds the README's row of review figures for a set (the
// table under "Latest figures") to what was measured: the README's figures
// come from the code. Run with -update-docs to write them.
func checkReadmeRow(t *testing.T, name string, f ReviewFigures) {
	t.Helper()
	checkReadmeLine(t, name, fmt.Sprintf("| %s | %s | %s (%d) | %.1f / %s |", name, fig2(f.SurfacedRecall()), fig2(f.AssertedPrecision()), f.Asserted,
		float64(f.Claims)/float64(f.Calls), humanize.Comma(int64(math.Round(float64(f.Bytes)/float64(f.Calls))))))
}

// checkCleanRow holds the README's row of a clean set's figures (the table
// of findings on clean solutions) to what was measured.
func checkCleanRow(t *testing.T, name string, f CleanFigures) {
	t.Helper()
	checkReadmeLine(t, name, fmt.Sprintf("| %s | %.1f | %.1f | %.1f / %s |", name, *f.Per100(f.Asserted), *f.Per100(f.Circular),
		float64(f.Claims)/float64(f.Sessions), humanize.Comma(int64(math.Round(float64(f.Bytes)/float64(f.Sessions))))))
}

// checkReadmeLine holds the README's line that starts "| name |" to want;
// with -update-docs it writes want there.
func checkReadmeLine(t *testing.T, name, want string) {
	t.Helper()
	const path = "../README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "| "+name+" |") })
	switch {
	case i < 0:
		t.Errorf("README.md has no row %q in its table of review figures; want\n%s", name, want)
	case lines[i] == want:
	case *updateDocs:
		lines[i] = want
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	default:
		t.Errorf("README.md's figures for %s are not what the code measures; run go test ./reasoningeval -run '%s' -update-docs\n got %s\nwant %s", name, t.Name(), lines[i], want)
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the README's review figures with what the tests measure")
