package branching

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/think"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// Benchmarks of branch-thinking on sessions of 1,000 and 10,000 thoughts
// across 50 branches, on a real SQLite file with the lexical embedder:
//
//	go test -run '^$' -bench BranchThinking -benchtime 200x ./reasoning/

var benchSubjects = []string{"the cache", "the database", "the API", "the queue", "the index", "the replica", "the scheduler", "the load balancer", "the session store", "the search service"}
var benchVerbs = []string{"reduces", "increases", "stabilises", "doubles", "limits", "improves", "slows", "protects", "duplicates", "simplifies"}
var benchObjects = []string{"latency", "throughput", "cost", "memory use", "error rate", "write volume", "cold starts", "lock contention", "disk usage", "tail latency"}
var benchContexts = []string{"under peak load", "for European users", "during deploys", "in the batch jobs", "for mobile clients", "after the migration", "in the nightly backup", "for large tenants"}

func benchText(r *rand.Rand, branch int) string {
	s := benchSubjects[(branch+r.IntN(3))%len(benchSubjects)]
	v := benchVerbs[r.IntN(len(benchVerbs))]
	o := benchObjects[(branch*3+r.IntN(4))%len(benchObjects)]
	c := benchContexts[r.IntN(len(benchContexts))]
	if r.IntN(10) == 0 {
		return fmt.Sprintf("%s does not %s %s %s", strings.ToUpper(s[:1])+s[1:], strings.TrimSuffix(v, "s"), o, c)
	}
	return fmt.Sprintf("%s %s %s %s", strings.ToUpper(s[:1])+s[1:], v, o, c)
}

// benchSession imports a generated session of n thoughts over 50 branches
// and warms the caches (as a running server would be after the first call).
func benchSession(b *testing.B, n int) (*BranchThinking, reasoning.SessionRef) {
	b.Helper()
	bt, ref := benchSessionNoWarm(b, n)
	warmBench(b, bt, ref, n)
	return bt, ref
}

// benchSessionNoWarm imports the generated session of benchSession and
// returns it cold: nothing read yet (as after a restart).
func benchSessionNoWarm(b *testing.B, n int) (*BranchThinking, reasoning.SessionRef) {
	b.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex, EmbedTimeout: time.Minute}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	const branches = 50
	r := rand.New(rand.NewPCG(uint64(n), 7))
	now := time.Now().UTC()
	doc := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion, Session: reasoning.ExchangeSession{ID: "bench", Goal: "Cut the API's tail latency under peak load",
		ActiveBranch: "b0", StepCount: n, CreatedAt: now, UpdatedAt: now}}
	last := map[string]string{}
	for i := range branches {
		doc.Branches = append(doc.Branches, reasoning.ExchangeBranch{ID: fmt.Sprintf("b%d", i), State: "active", Priority: 1, CreatedAt: now, UpdatedAt: now})
	}
	types := ThoughtTypes
	for i := range n {
		br := i % branches
		id := fmt.Sprintf("t%d", i)
		c := float64(5+r.IntN(5)) / 10
		bid := fmt.Sprintf("b%d", br)
		doc.Thoughts = append(doc.Thoughts, reasoning.ExchangeThought{ID: id, Step: i + 1, BranchID: bid, ParentID: last[bid], Content: benchText(r, br),
			Type: types[r.IntN(len(types))], Confidence: &c, Author: "client", Tool: "branch-thinking", CreatedAt: now})
		last[bid] = id
	}
	rep, err := svc.ImportSession(context.Background(), doc, "")
	if err != nil {
		b.Fatal(err)
	}
	return NewBranchThinking(svc, nil), reasoning.SessionRef{ID: rep.SessionID, Explicit: true}
}

// warmBench warms the caches of a bench session.
func warmBench(b *testing.B, bt *BranchThinking, ref reasoning.SessionRef, n int) {
	const branches = 50
	// Warm: the docs cache, the contradiction state and the trackers of
	// every branch.
	start := time.Now()
	if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d thoughts: first findContradictions (cold: docs load, full neighbour search, judge) %v", n, time.Since(start))
	start = time.Now()
	if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "evaluate", BranchID: "b1"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d thoughts: first evaluate of a %d-thought branch (cold tracker) %v", n, n/branches, time.Since(start))
	for i := range branches {
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "evaluate", BranchID: fmt.Sprintf("b%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's user+system CPU time: the benchmarks report it
// per operation next to the wall time, which the shared machine inflates.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs f as the benchmark's operation and reports cpu-ns/op.
func loop(b *testing.B, f func(i int)) {
	b.ResetTimer()
	start, n := cpuTime(), 0
	for b.Loop() {
		f(n)
		n++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}

// benchSizes runs f at each session size: 1k and 10k thoughts, or the
// comma-separated sizes of THINKGRAPH_BENCH_SIZES (bench/scale.sh adds 100k).
func benchSizes(b *testing.B, f func(b *testing.B, n int)) {
	sizes := []int{1_000, 10_000}
	if env := os.Getenv("THINKGRAPH_BENCH_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 100 {
				b.Fatalf("THINKGRAPH_BENCH_SIZES: %q is not a size ≥ 100", f)
			}
			sizes = append(sizes, n)
		}
	}
	for _, n := range sizes {
		name := fmt.Sprintf("%dk", n/1000)
		if n%1000 != 0 {
			name = strconv.Itoa(n)
		}
		b.Run(name, func(b *testing.B) { f(b, n) })
	}
}

// BenchmarkBranchThinkingExport is the export command: the whole session
// as a versioned JSON document.
func BenchmarkBranchThinkingExport(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		loop(b, func(int) {
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "export"}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkThinkManySessions is think into one of 1,000 sessions of a
// store (10 thoughts each to start): a write costs the same however many
// sessions the store holds.
func BenchmarkThinkManySessions(b *testing.B) {
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "many.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	lex, err := semantic.NewLexical(semantic.LexicalOptions{})
	if err != nil {
		b.Fatal(err)
	}
	svc := reasoning.New(store, reasoning.Config{})
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex}); err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	log := think.New(svc)
	r := rand.New(rand.NewPCG(8, 9))
	const sessions = 1000
	for s := range sessions {
		for i := range 10 {
			if _, err := log.Think(ctx, think.Input{Session: reasoning.SessionRef{ID: fmt.Sprintf("s%d", s), Explicit: true}, Thought: benchText(r, i)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	loop(b, func(i int) {
		if _, err := log.Think(ctx, think.Input{Session: reasoning.SessionRef{ID: fmt.Sprintf("s%d", r.IntN(sessions)), Explicit: true}, Thought: benchText(r, i)}); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkBranchThinkingAddThought(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		r := rand.New(rand.NewPCG(1, 2))
		loop(b, func(i int) {
			br := i % 50
			res, err := bt.AddThought(context.Background(), BranchThoughtInput{Session: ref, Content: benchText(r, br), Type: "analysis", BranchID: fmt.Sprintf("b%d", br)})
			if err != nil || res.Evaluation == nil {
				b.Fatal(err, res)
			}
		})
	})
}

func BenchmarkBranchThinkingEvaluate(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		loop(b, func(i int) {
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "evaluate", BranchID: fmt.Sprintf("b%d", i%50)}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkBranchThinkingAddThenEvaluate is a thought added (auto-eval off)
// followed by evaluate of its branch, so every evaluate sees a change.
func BenchmarkBranchThinkingAddThenEvaluate(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "toggleAutoEval"}); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		loop(b, func(i int) {
			br := fmt.Sprintf("b%d", i%50)
			if _, err := bt.AddThought(context.Background(), BranchThoughtInput{Session: ref, Content: benchText(r, i%50), Type: "analysis", BranchID: br}); err != nil {
				b.Fatal(err)
			}
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "evaluate", BranchID: br}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkBranchThinkingFindContradictions(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		loop(b, func(int) {
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkBranchThinkingAddThenFindContradictions adds a thought before
// every findContradictions, so each call checks one new thought.
func BenchmarkBranchThinkingAddThenFindContradictions(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "toggleAutoEval"}); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 6))
		loop(b, func(i int) {
			if _, err := bt.AddThought(context.Background(), BranchThoughtInput{Session: ref, Content: benchText(r, i%50), Type: "analysis", BranchID: fmt.Sprintf("b%d", i%50)}); err != nil {
				b.Fatal(err)
			}
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkBranchThinkingFindSimilar(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		r := rand.New(rand.NewPCG(7, 8))
		loop(b, func(int) {
			res, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "findSimilar", Query: benchText(r, r.IntN(50))})
			if err != nil || len(res.(*SimilarResult).Results) != 5 {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkBranchThinkingDocs is Service.Docs on a warm cache: the cost
// every full analysis pays to get the session's documents.
func BenchmarkBranchThinkingDocs(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		ctx := context.Background()
		loop(b, func(int) {
			err := bt.svc.Store().View(ctx, func(tx thinkgraph.Tx) error {
				sess, err := tx.Session(ctx, ref.Key().Tenant, ref.ID)
				if err != nil {
					return err
				}
				docs, _, err := bt.svc.Docs(ctx, tx, sess.Key)
				if len(docs) < n {
					b.Fatal(len(docs))
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	})
}

// longText is a thought of about n characters: sentences of the bench
// vocabulary, joined, as a model writes a long analysis.
func longText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(benchText(r, r.IntN(50)))
		b.WriteString(". ")
	}
	return b.String()[:n]
}

// BenchmarkBranchThinkingLongThought stores a 10,000-character thought
// (auto-evaluation on, as by default) in a session of 20 such thoughts, and
// runs findContradictions over 100 thoughts of 2,000 characters: the cost
// of long text, which must grow linearly with it.
//
//	go test -run '^$' -bench LongThought -benchtime 20x ./reasoning/branching/
func BenchmarkBranchThinkingLongThought(b *testing.B) {
	for _, tc := range []struct {
		name       string
		n, chars   int
		addChars   int
		contradict bool
	}{
		{"store10k/20", 20, 10_000, 10_000, false},
		{"store200/20", 20, 200, 200, false},
		{"findContradictions/100x2k", 100, 2_000, 0, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "long.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { store.Close() })
			lex, err := semantic.NewLexical(semantic.LexicalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			svc := reasoning.New(store, reasoning.Config{MaxThoughtLength: 20_000})
			if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex, EmbedTimeout: time.Minute}); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(svc.Close)
			bt := NewBranchThinking(svc, nil)
			ctx := context.Background()
			ref := reasoning.SessionRef{ID: "long", Explicit: true}
			r := rand.New(rand.NewPCG(3, 4))
			for i := range tc.n {
				if _, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: longText(r, tc.chars), Type: "analysis", BranchID: fmt.Sprintf("b%d", i%4)}); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := bt.Command(ctx, CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
				b.Fatal(err)
			}
			texts := make([]string, 0, 64)
			for range 64 {
				texts = append(texts, longText(r, max(tc.addChars, 200)))
			}
			loop(b, func(i int) {
				if tc.contradict {
					// A new thought each time, so the call has work to do.
					if _, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: texts[i%len(texts)][:200], Type: "analysis"}); err != nil {
						b.Fatal(err)
					}
					if _, err := bt.Command(ctx, CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
						b.Fatal(err)
					}
					return
				}
				if _, err := bt.AddThought(ctx, BranchThoughtInput{Session: ref, Content: texts[i%len(texts)], Type: "analysis", BranchID: fmt.Sprintf("b%d", i%4)}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkBranchThinkingFirstFindContradictions is the first
// findContradictions on a session after a restart: each operation is a
// fresh service on the same database, so the docs are read, the claims
// split and grouped and the assertions judged from nothing.
//
//	go test -run '^$' -bench FirstFindContradictions -benchtime 3x ./reasoning/branching/
func BenchmarkBranchThinkingFirstFindContradictions(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSessionNoWarm(b, n)
		store := bt.Service().Store()
		lex, err := semantic.NewLexical(semantic.LexicalOptions{})
		if err != nil {
			b.Fatal(err)
		}
		// The lexicon is loaded once per process, not per session: load it
		// before timing.
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
			b.Fatal(err)
		}
		loop(b, func(int) {
			svc := reasoning.New(store, reasoning.Config{})
			if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: lex, EmbedTimeout: time.Minute}); err != nil {
				b.Fatal(err)
			}
			if _, err := NewBranchThinking(svc, nil).Command(context.Background(), CommandInput{Session: ref, Type: "findContradictions"}); err != nil {
				b.Fatal(err)
			}
			svc.Close()
		})
	})
}

// BenchmarkBranchThinkingAdvice is each command that reads the session's
// assessment (closures, drift, circular arguments, the conclusion), after
// the session's first analysis (one call before timing: the assessment is
// kept until the session changes).
func BenchmarkBranchThinkingAdvice(b *testing.B) {
	for _, cmd := range []string{"findStrongestPaths", "detectDrift", "suggestTools", "detectKnowledgeGaps"} {
		b.Run(cmd, func(b *testing.B) {
			benchSizes(b, func(b *testing.B, n int) {
				bt, ref := benchSession(b, n)
				start := time.Now()
				if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: cmd}); err != nil {
					b.Fatal(err)
				}
				b.Logf("%d thoughts: first %s %v", n, cmd, time.Since(start))
				loop(b, func(int) {
					if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: cmd}); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
}

// BenchmarkBranchThinkingAddThenSuggestTools adds a thought (auto-eval
// off) before every suggestTools, so each call sees a changed session: the
// assessment, the circular arguments and the gaps are found again.
func BenchmarkBranchThinkingAddThenSuggestTools(b *testing.B) {
	benchSizes(b, func(b *testing.B, n int) {
		bt, ref := benchSession(b, n)
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "toggleAutoEval"}); err != nil {
			b.Fatal(err)
		}
		if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "suggestTools"}); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(9, 10))
		loop(b, func(i int) {
			if _, err := bt.AddThought(context.Background(), BranchThoughtInput{Session: ref, Content: benchText(r, i%50), Type: "analysis", BranchID: fmt.Sprintf("b%d", i%50)}); err != nil {
				b.Fatal(err)
			}
			if _, err := bt.Command(context.Background(), CommandInput{Session: ref, Type: "suggestTools"}); err != nil {
				b.Fatal(err)
			}
		})
	})
}
