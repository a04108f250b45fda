// Command loadtest drives thinkgraph servers over streamable HTTP with many
// concurrent MCP clients and checks afterwards, by reading the database, that
// every acknowledged thought was stored exactly once with gapless steps.
//
//	go run ./cmd/loadtest -targets http://127.0.0.1:8081/mcp,http://127.0.0.1:8082/mcp \
//	    -clients 32 -duration 60s -db postgres://postgres@127.0.0.1:5432/test
//
// Each client owns one session (session_id load-<run>-<n>) and sends a mix
// of calls: think (60%), sequentialthinking (20%), show_current_path (10%),
// get_unexplored_branches (10%). Clients start on target n mod len(targets);
// a client whose call fails with a transport error moves to the next target
// and retries the same call (with -failover), so a replica can be killed
// mid-run. The report gives throughput, p50/p90/p99/max latency, errors, and
// the verification result; -json writes it as JSON too.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/postgres"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore"
)

type ack struct {
	session, content string
	step             int
}

type toolStats struct {
	Calls int     `json:"calls"`
	P50ms float64 `json:"p50_ms"`
	P99ms float64 `json:"p99_ms"`
}

// percentile returns the p-th percentile of sorted, in milliseconds.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[min(len(sorted)-1, int(p*float64(len(sorted))))].Microseconds()) / 1000
}

type report struct {
	Targets       []string       `json:"targets"`
	Clients       int            `json:"clients"`
	DurationS     float64        `json:"duration_s"`
	Calls         int64          `json:"calls"`
	Errors        int64          `json:"errors"`
	ErrorKinds    map[string]int `json:"error_kinds,omitempty"`
	Failovers     int64          `json:"failovers"`
	Throughput    float64        `json:"calls_per_s"`
	P50ms         float64        `json:"p50_ms"`
	P90ms         float64        `json:"p90_ms"`
	P99ms         float64        `json:"p99_ms"`
	MaxMs         float64        `json:"max_ms"`
	Acknowledged  int            `json:"acknowledged_writes"`
	Verified      bool           `json:"verified"`
	Lost          int            `json:"lost"`
	Duplicated    int            `json:"duplicated"`
	StepGaps      int            `json:"step_gaps"`
	VerifySkipped string         `json:"verify_skipped,omitempty"`
	VerifyDetails []string       `json:"verify_details,omitempty"`
	// LoadgenCPUs is the CPU time the load generator itself used while
	// sending calls (user + system), in seconds.
	LoadgenCPUs float64 `json:"loadgen_cpu_s"`
	// LoadAvg is the machine's 1-minute load average at the start and at
	// the end of the run (other processes compete for the same cores).
	LoadAvg [2]float64 `json:"load_avg"`
	// PerTool gives each tool's successful calls and latency percentiles.
	PerTool        map[string]toolStats `json:"per_tool,omitempty"`
	StartedAt      time.Time            `json:"started_at"`
	ClientsPerHost map[string]int       `json:"clients_per_target"`
}

func main() {
	targets := flag.String("targets", "http://127.0.0.1:8080/mcp", "comma-separated MCP endpoints")
	clients := flag.Int("clients", 32, "concurrent MCP clients")
	duration := flag.Duration("duration", 60*time.Second, "how long to send calls")
	db := flag.String("db", "", "database to verify against: a SQLite file or postgres:// URL (empty: no verification)")
	token := flag.String("token", "", "bearer token")
	failover := flag.Bool("failover", false, "on a transport error, reconnect to the next target and retry the call")
	jsonOut := flag.String("json", "", "also write the report as JSON to this file")
	cpuProfile := flag.String("cpuprofile", "", "write the load generator's own CPU profile to this file")
	maxCalls := flag.Int64("calls", 0, "stop after this many calls in all (0: run for -duration), for comparing the servers' CPU time on the same work")
	flag.Parse()
	if *clients < 1 || *duration <= 0 {
		fmt.Fprintln(os.Stderr, "loadtest: -clients must be ≥ 1 and -duration > 0")
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		// The load generator shares the cores with the servers it measures:
		// collect its garbage (mostly decoded responses) less often.
		debug.SetGCPercent(400)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
	}
	rep, err := run(strings.Split(*targets, ","), *clients, *duration, *maxCalls, *token, *failover, *db)
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	if *jsonOut != "" {
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
		}
	}
	fmt.Printf("targets=%d clients=%d duration=%.0fs calls=%d errors=%d failovers=%d throughput=%.0f/s p50=%.2fms p90=%.2fms p99=%.2fms max=%.1fms loadgen_cpu=%.1fs load=%.2f..%.2f\n",
		len(rep.Targets), rep.Clients, rep.DurationS, rep.Calls, rep.Errors, rep.Failovers, rep.Throughput, rep.P50ms, rep.P90ms, rep.P99ms, rep.MaxMs, rep.LoadgenCPUs, rep.LoadAvg[0], rep.LoadAvg[1])
	for _, name := range slices.Sorted(maps.Keys(rep.PerTool)) {
		ts := rep.PerTool[name]
		fmt.Printf("  %-24s calls=%d p50=%.2fms p99=%.2fms\n", name, ts.Calls, ts.P50ms, ts.P99ms)
	}
	if rep.VerifySkipped != "" {
		fmt.Printf("verification skipped: %s\n", rep.VerifySkipped)
	} else {
		fmt.Printf("verified=%v acknowledged=%d lost=%d duplicated=%d step_gaps=%d\n", rep.Verified, rep.Acknowledged, rep.Lost, rep.Duplicated, rep.StepGaps)
		for _, d := range rep.VerifyDetails {
			fmt.Println("  ", d)
		}
	}
	if len(rep.ErrorKinds) > 0 {
		fmt.Printf("error kinds: %v\n", rep.ErrorKinds)
	}
	if !rep.Verified && rep.VerifySkipped == "" {
		os.Exit(1)
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// newTransport returns the HTTP transport shared by all clients. It keeps
// an idle connection per client: http.DefaultTransport keeps only 2 per
// host, so with more clients most calls would open (and the server accept)
// a new TCP connection, which measures connection set-up rather than the
// server's calls.
func newTransport(clients int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 2 * clients
	t.MaxIdleConnsPerHost = clients
	return t
}

func connect(ctx context.Context, target, token string, transport http.RoundTripper) (*mcp.ClientSession, error) {
	hc := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	if token != "" {
		hc.Transport = bearer{token, transport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "thinkgraph-loadtest", Version: "1"}, nil)
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: target, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
}

func run(targets []string, clients int, duration time.Duration, maxCalls int64, token string, failover bool, db string) (*report, error) {
	runID := fmt.Sprintf("%x", time.Now().UnixNano()&0xffffffffff)
	rep := &report{Targets: targets, Clients: clients, StartedAt: time.Now().UTC(), ErrorKinds: map[string]int{}, ClientsPerHost: map[string]int{}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		perTool   = map[string][]time.Duration{}
		acks      []ack
		calls     atomic.Int64
		errs      atomic.Int64
		failovers atomic.Int64
		started   atomic.Int64
	)
	deadline := time.Now().Add(duration)
	ctx := context.Background()
	cpu0 := cpuTime()
	rep.LoadAvg[0] = loadAvg()
	transport := newTransport(clients)
	defer transport.CloseIdleConnections()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		rep.ClientsPerHost[targets[c%len(targets)]]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			ti := c % len(targets)
			cs, err := connect(ctx, targets[ti], token, transport)
			if err != nil {
				errs.Add(1)
				mu.Lock()
				rep.ErrorKinds["connect: "+err.Error()]++
				mu.Unlock()
				return
			}
			defer func() { cs.Close() }()
			session := fmt.Sprintf("load-%s-%d", runID, c)
			rng := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			var mine []time.Duration
			myTools := map[string][]time.Duration{}
			var myAcks []ack
			seq := 0
			for i := 0; time.Now().Before(deadline); i++ {
				if maxCalls > 0 && started.Add(1) > maxCalls {
					break
				}
				var name string
				args := map[string]any{"session_id": session}
				write := false
				content := fmt.Sprintf("client %d call %d of run %s", c, i, runID)
				switch r := rng.IntN(10); {
				case r < 6:
					name, write = "think", true
					args["thought"] = content
				case r < 8:
					name, write = "sequentialthinking", true
					seq++
					args["thought"], args["thoughtNumber"], args["totalThoughts"], args["nextThoughtNeeded"] = content, seq, seq, true
				case r < 9:
					name = "show_current_path"
				default:
					name = "get_unexplored_branches"
				}
				if !write && i == 0 {
					name, write = "think", true // the session must exist before reads
					args = map[string]any{"session_id": session, "thought": content}
				}
				for attempt := 0; ; attempt++ {
					start := time.Now()
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
					d := time.Since(start)
					calls.Add(1)
					if err == nil && !res.IsError {
						mine = append(mine, d)
						myTools[name] = append(myTools[name], d)
						if write {
							var out struct {
								Step          int    `json:"step"`
								ThoughtNumber int    `json:"thoughtNumber"`
								Thought       string `json:"thought"`
							}
							b, _ := json.Marshal(res.StructuredContent)
							_ = json.Unmarshal(b, &out)
							myAcks = append(myAcks, ack{session: session, content: content, step: out.Step})
						}
						break
					}
					errs.Add(1)
					kind := "tool error"
					if err != nil {
						kind = "transport: " + trim(err.Error())
					} else if len(res.Content) > 0 {
						if tc, ok := res.Content[0].(*mcp.TextContent); ok {
							kind = "tool error: " + trim(tc.Text)
						}
					}
					mu.Lock()
					rep.ErrorKinds[kind]++
					mu.Unlock()
					if err == nil || !failover || attempt >= 2*len(targets) || time.Now().After(deadline.Add(30*time.Second)) {
						break
					}
					// The replica may be gone: reconnect to the next one and retry.
					cs.Close()
					time.Sleep(100 * time.Millisecond)
					ti = (ti + 1) % len(targets)
					failovers.Add(1)
					if cs, err = connect(ctx, targets[ti], token, transport); err != nil {
						mu.Lock()
						rep.ErrorKinds["reconnect: "+trim(err.Error())]++
						mu.Unlock()
						time.Sleep(200 * time.Millisecond)
						if cs, err = connect(ctx, targets[ti], token, transport); err != nil {
							return
						}
					}
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			for name, ds := range myTools {
				perTool[name] = append(perTool[name], ds...)
			}
			acks = append(acks, myAcks...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(rep.StartedAt)
	rep.LoadgenCPUs = (cpuTime() - cpu0).Seconds()
	rep.LoadAvg[1] = loadAvg()
	rep.DurationS = elapsed.Seconds()
	rep.Calls, rep.Errors, rep.Failovers = calls.Load(), errs.Load(), failovers.Load()
	rep.Throughput = float64(len(latencies)) / elapsed.Seconds()
	slices.Sort(latencies)
	rep.P50ms, rep.P90ms, rep.P99ms = percentile(latencies, 0.50), percentile(latencies, 0.90), percentile(latencies, 0.99)
	rep.PerTool = map[string]toolStats{}
	for name, ds := range perTool {
		slices.Sort(ds)
		rep.PerTool[name] = toolStats{Calls: len(ds), P50ms: percentile(ds, 0.50), P99ms: percentile(ds, 0.99)}
	}
	if len(latencies) > 0 {
		rep.MaxMs = float64(latencies[len(latencies)-1].Microseconds()) / 1000
	}
	rep.Acknowledged = len(acks)
	if db == "" {
		rep.VerifySkipped = "no -db given"
		return rep, nil
	}
	return rep, verify(rep, db, acks, clients, runID)
}

// loadAvg is the 1-minute load average (0 if unknown).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	_, _ = fmt.Sscan(string(b), &l)
	return l
}

// cpuTime is the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func trim(s string) string {
	if len(s) > 120 {
		return s[:120]
	}
	return s
}

// verify reads every session of the run back: each acknowledged thought is
// stored once, at the step it was acknowledged with, and steps are 1..n.
func verify(rep *report, db string, acks []ack, clients int, runID string) error {
	ctx := context.Background()
	var store *sqlstore.DB
	var err error
	if postgres.IsURL(db) {
		store, err = postgres.Open(ctx, db, postgres.Options{})
	} else {
		store, err = sqlite.Open(ctx, db, sqlite.Options{})
	}
	if err != nil {
		return err
	}
	defer store.Close()
	bySession := map[string]map[string]int{} // session -> content -> count
	steps := map[string][]int{}
	err = store.View(ctx, func(tx thinkgraph.Tx) error {
		for c := 0; c < clients; c++ {
			session := fmt.Sprintf("load-%s-%d", runID, c)
			// The run's session ids are its own: one session each, of
			// whichever tenant the token names.
			ss, err := tx.Sessions(ctx, thinkgraph.SessionFilter{ID: session})
			if err != nil {
				return err
			}
			var ths []thinkgraph.Thought
			for _, s := range ss {
				st, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: s.Key})
				if err != nil {
					return err
				}
				ths = append(ths, st...)
			}
			m := map[string]int{}
			for _, th := range ths {
				m[th.Content]++
				steps[session] = append(steps[session], th.Step)
			}
			bySession[session] = m
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, a := range acks {
		if bySession[a.session][a.content] == 0 {
			rep.Lost++
			if len(rep.VerifyDetails) < 10 {
				rep.VerifyDetails = append(rep.VerifyDetails, fmt.Sprintf("lost: %s %q", a.session, a.content))
			}
		}
	}
	for session, m := range bySession {
		for content, n := range m {
			if n > 1 {
				rep.Duplicated += n - 1
				if len(rep.VerifyDetails) < 10 {
					rep.VerifyDetails = append(rep.VerifyDetails, fmt.Sprintf("duplicated %d×: %s %q", n, session, content))
				}
			}
		}
		for i, s := range steps[session] {
			if s != i+1 {
				rep.StepGaps++
				break
			}
		}
	}
	rep.Verified = rep.Lost == 0 && rep.Duplicated == 0 && rep.StepGaps == 0
	if rep.Acknowledged == 0 {
		rep.Verified = false
		return errors.New("nothing was acknowledged")
	}
	return nil
}
