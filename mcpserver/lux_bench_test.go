package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// instantModel is an http.RoundTripper that answers OpenAI chat completions
// in-process and at once, so that a benchmark measures only what the server
// does around the model call (the SDK's encoding and decoding included).
//
// It adds the time it spends answering to spent, so that the benchmark can
// subtract the model's own share from the time the server took, and notes
// when its latest answer began and ended, so that the benchmark can split
// the server's share into the parts before and after the model call.
type instantModel struct {
	n            int
	delay        time.Duration // how long it waits before answering (LUXBENCH_MODEL_DELAY)
	spent        atomic.Int64  // nanoseconds inside RoundTrip
	calls        atomic.Int64
	began, ended atomic.Int64 // the latest RoundTrip's start and end, Unix nanoseconds
}

var benchSentences = []string{
	"Measure the slow queries of each service with the query log before changing anything.",
	"Add a composite index on customer and date to the orders table for the report queries.",
	"Cache the product catalogue in each service because it changes rarely and is read often.",
	"Move the reporting queries to a read replica so that they stop competing with writes.",
	"Batch the calls between the order and inventory services to cut the round trips.",
	"Denormalise the customer name into orders to avoid a join across service boundaries.",
	"Set a query timeout per service so that one slow query cannot exhaust the pool.",
	"Review the connection pool sizes against the database's maximum connections.",
	"Partition the events table by month so that old data stops slowing the scans.",
	"Therefore the plan is to measure first, then index, cache and move reports to a replica.",
}

func (m *instantModel) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	m.calls.Add(1)
	m.began.Store(start.UnixNano())
	if m.delay > 0 {
		time.Sleep(m.delay)
	}
	defer func() {
		end := time.Now()
		m.spent.Add(int64(end.Sub(start)))
		m.ended.Store(end.UnixNano())
	}()
	var req struct {
		Logprobs bool `json:"logprobs"`
	}
	body, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(body, &req)
	m.n++
	content := benchSentences[m.n%len(benchSentences)]
	choice := map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}
	if req.Logprobs {
		var toks []any
		for i := range 30 {
			toks = append(toks, map[string]any{"token": fmt.Sprint(i), "logprob": -0.3, "bytes": nil, "top_logprobs": []any{
				map[string]any{"token": "a", "logprob": -0.3, "bytes": nil}, map[string]any{"token": "b", "logprob": -1.5, "bytes": nil},
				map[string]any{"token": "c", "logprob": -2.5, "bytes": nil}}})
		}
		choice["logprobs"] = map[string]any{"content": toks}
	}
	out, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "bench-model", "choices": []any{choice},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130}})
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(out)), Request: r}, nil
}

// BenchmarkLuxOverhead measures the latency a Lux tool call adds around an
// instant model: MCP in-memory transport, argument parsing, SQLite
// transactions, embedding, guardrails, invocation record. It reports the
// p50 and p99 of the calls, and for the calls that made one model call the
// p50 and p99 of the server's share before the model was called (reading
// the request, the first transaction, building the prompt, the provider
// SDK's request) and after it answered (the SDK's decoding, embedding,
// guardrails, the second transaction, the response).
func BenchmarkLuxOverhead(b *testing.B) {
	for _, tool := range []string{"think", "confer", "traced_reasoning", "planner", "biased_reasoning"} {
		b.Run(tool, func(b *testing.B) {
			// LUXBENCH_CHECKPOINT=1h spaces the background WAL checkpoints
			// an hour apart (none during the run), to tell their share of
			// the tail (docs/lux.md, Latency).
			var opts sqlite.Options
			if v := os.Getenv("LUXBENCH_CHECKPOINT"); v != "" {
				d, err := time.ParseDuration(v)
				if err != nil || d <= 0 {
					b.Fatalf("LUXBENCH_CHECKPOINT=%q: want a positive duration such as 1h", v)
				}
				opts.CheckpointInterval = d
			}
			store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), opts)
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
			cfg := luxConfig("http://model.invalid")
			// LUXBENCH_MODEL_DELAY=20ms has the model wait that long before
			// it answers (its time is still subtracted): a server that sits
			// idle during the model call, as with a real model.
			model := &instantModel{}
			if v := os.Getenv("LUXBENCH_MODEL_DELAY"); v != "" {
				d, err := time.ParseDuration(v)
				if err != nil || d < 0 {
					b.Fatalf("LUXBENCH_MODEL_DELAY=%q: want a duration such as 20ms", v)
				}
				model.delay = d
			}
			cfg.HTTPClient = &http.Client{Transport: model}
			svc.EnableLLM(cfg, nil)
			e := &testEnv{store: store, srv: New(svc, Options{Version: "bench"})}
			timer := &serverTimer{done: make(chan time.Duration, 1)}
			cs := connectTimedB(b, e, timer)
			ctx := context.Background()
			callB := func(args map[string]any) map[string]any {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", tool, err, res)
				}
				var out map[string]any
				raw, _ := json.Marshal(res.StructuredContent)
				_ = json.Unmarshal(raw, &out)
				return out
			}
			const runLen = 10
			sid := ""
			args := func(i int) map[string]any {
				n := i%runLen + 1
				switch tool {
				case "think": // no model: the store and transport cost alone, for comparison
					return map[string]any{"thought": benchSentences[i%len(benchSentences)], "session_id": sid}
				case "confer":
					return map[string]any{"message": benchSentences[i%len(benchSentences)], "session_id": sid}
				case "traced_reasoning":
					return map[string]any{"thought": "Optimise slow database queries across microservices", "thought_number": n, "total_thoughts": runLen,
						"next_thought_needed": n < runLen, "session_id": sid}
				case "planner":
					return map[string]any{"step": "Plan the database optimisation", "step_number": n, "total_steps": runLen, "next_step_required": n < runLen, "session_id": sid}
				default:
					if i%4 == 0 { // Query, Reasoning, BiasAnalysis (no bias), Synthesis
						return map[string]any{"query": "Should we shard the orders database?", "new_session": true}
					}
					return map[string]any{"session_id": sid}
				}
			}
			// The first call creates the session.
			first := args(0)
			delete(first, "session_id")
			sid = callB(first)["session_id"].(string)
			<-timer.done
			durs := make([]time.Duration, 0, b.N)   // as the client sees them
			server := make([]time.Duration, 0, b.N) // added by the server
			var before, after []time.Duration       // the server's share before and after the model call
			// LUXBENCH_SLOW_MS=n prints (to stderr: the benchmark's log keeps
			// 10 lines) the calls whose server share took more than n ms
			// (call number, time since the first call): to tell
			// outliers that come back at the same calls run after run
			// (caused by the data) from those that come at random.
			slow := time.Duration(0)
			if ms, err := strconv.ParseFloat(os.Getenv("LUXBENCH_SLOW_MS"), 64); err == nil {
				slow = time.Duration(ms * float64(time.Millisecond))
			}
			cpu0 := cpuTime()
			t0 := time.Now()
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				a := args(i)
				spent0, calls0 := model.spent.Load(), model.calls.Load()
				start := time.Now()
				out := callB(a)
				durs = append(durs, time.Since(start))
				server = append(server, <-timer.done-time.Duration(model.spent.Load()-spent0))
				if model.calls.Load() == calls0+1 {
					before = append(before, time.Duration(model.began.Load()-timer.start.UnixNano()))
					after = append(after, time.Duration(timer.end.UnixNano()-model.ended.Load()))
				}
				if d := server[len(server)-1]; slow > 0 && d > slow {
					fmt.Fprintf(os.Stderr, "%s: call %d at %v: server %v\n", b.Name(), i, start.Sub(t0).Round(time.Millisecond), d.Round(10*time.Microsecond))
				}
				if a["new_session"] == true {
					sid = out["session_id"].(string)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			reportQuantiles(b, "", durs)
			reportQuantiles(b, "server-", server)
			if len(before) > 0 {
				reportQuantiles(b, "before-", before)
				reportQuantiles(b, "after-", after)
			}
		})
	}
}

// reportQuantiles reports the p50 and p99 of d (sorting it) in
// milliseconds, as the metrics prefix+"p50-ms" and prefix+"p99-ms".
func reportQuantiles(b *testing.B, prefix string, d []time.Duration) {
	slices.Sort(d)
	q := func(p float64) float64 {
		return float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), prefix+"p50-ms")
	b.ReportMetric(q(0.99), prefix+"p99-ms")
}

// cpuTime is the process's user and system CPU time: with other work on
// the machine, CPU per call is steadier than wall-clock percentiles.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serverTimer times, on the server's side of a connection, each tools/call
// from the moment the server has read the request to the moment its
// response is written: the server's whole share of a call, without the
// client's. Calls are timed one at a time (the benchmark makes one at once).
type serverTimer struct {
	id         jsonrpc.ID
	start, end time.Time          // of the latest tools/call; read after its done
	done       chan time.Duration // one per tools/call response
}

type timedTransport struct {
	mcp.Transport
	t *serverTimer
}

func (tt timedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := tt.Transport.Connect(ctx)
	return timedConn{c, tt.t}, err
}

type timedConn struct {
	mcp.Connection
	t *serverTimer
}

func (c timedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "tools/call" {
		c.t.id, c.t.start = r.ID, time.Now()
	}
	return m, err
}

func (c timedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	err := c.Connection.Write(ctx, m)
	if r, ok := m.(*jsonrpc.Response); ok && r.ID == c.t.id {
		c.t.end = time.Now()
		c.t.done <- c.t.end.Sub(c.t.start)
	}
	return err
}

// connectTimedB opens an MCP client connection for a benchmark, the
// server's side timed by t.
func connectTimedB(b *testing.B, e *testEnv, t *serverTimer) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.MCP().Connect(ctx, timedTransport{st, t}, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}
