// Command memory measures what serving a large session's exports and
// resources costs the server in memory: for each session size it imports a
// generated session (bench/bigsession) with "thinkgraph import", starts
// "thinkgraph serve --http" on it, and for every viewer export and page and
// every MCP resource of the session, one request at a time, records the
// server's RSS before, its peak during (VmHWM, reset before each request
// through /proc/PID/clear_refs) and its RSS after (once it stops falling,
// at most 5 s), and the request's wall time and size. Linux only.
//
//	go build -o /tmp/tg ./cmd/thinkgraph
//	go run ./bench/memory -bin /tmp/tg -sizes 12000,45000
//
// bench/memory.sh builds both and writes bench/results/memory.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("bin", "", "the thinkgraph binary")
	gen := flag.String("gen", "", "the bigsession binary (default: go run ./bench/bigsession)")
	sizes := flag.String("sizes", "12000", "comma-separated session sizes, in thoughts")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "memory: -bin is required")
		os.Exit(2)
	}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 100 {
			fmt.Fprintf(os.Stderr, "memory: bad size %q\n", f)
			os.Exit(2)
		}
		if err := measure(*bin, *gen, n); err != nil {
			fmt.Fprintln(os.Stderr, "memory:", err)
			os.Exit(1)
		}
	}
}

func measure(bin, gen string, n int) error {
	dir, err := os.MkdirTemp("", "tg-memory")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	doc := filepath.Join(dir, "session.json")
	if err := generate(gen, n, doc); err != nil {
		return err
	}
	db := filepath.Join(dir, "tg.db")
	if out, err := exec.Command(bin, "import", doc, "--db", db).CombinedOutput(); err != nil {
		return fmt.Errorf("import: %v\n%s", err, out)
	}
	id := fmt.Sprintf("big-%d", n)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--http", addr, "--db", db)
	srv.Env = append(os.Environ(), "LOG_LEVEL=warn")
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	base := "http://" + addr
	for i := 0; ; i++ {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if i > 200 {
			return fmt.Errorf("the server did not start: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	pid := srv.Process.Pid
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "memory-bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()

	fmt.Printf("\n### %d thoughts (%s of JSON)\n\n", n, mib(fileSize(doc)))
	fmt.Println("| request | time | bytes | RSS before | peak RSS | RSS after | after / before |")
	fmt.Println("|---|---|---|---|---|---|---|")
	settle(pid)
	type target struct {
		name string
		run  func() (int, error)
	}
	get := func(path string) func() (int, error) {
		return func() (int, error) {
			resp, err := http.Get(base + path)
			if err != nil {
				return 0, err
			}
			defer resp.Body.Close()
			k, err := io.Copy(io.Discard, resp.Body)
			if err == nil && resp.StatusCode != 200 {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			return int(k), err
		}
	}
	read := func(view string) func() (int, error) {
		return func() (int, error) {
			uri := "thinkgraph://sessions/" + id + view
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				return 0, err
			}
			k := 0
			for _, c := range res.Contents {
				k += len(c.Text) + len(c.Blob)
			}
			return k, nil
		}
	}
	var targets []target
	for _, f := range []string{"json", "markdown", "mermaid", "dot", "svg", "html"} {
		targets = append(targets, target{"viewer export " + f, get("/sessions/" + id + "/export/" + f)})
	}
	for _, v := range []string{"", "/markdown", "/mermaid", "/svg", "/json", "/context", "/summary"} {
		name := "resource overview"
		if v != "" {
			name = "resource " + strings.TrimPrefix(v, "/")
		}
		targets = append(targets, target{name, read(v)})
	}
	// Last: the viewer keeps the page it rendered (for its live updates).
	targets = append(targets, target{"viewer page", get("/sessions/" + id)}, target{"viewer graph data", get("/sessions/" + id + "/graph")})
	for _, t := range targets {
		before := status(pid)["VmRSS"]
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
			return fmt.Errorf("resetting the peak RSS: %w", err)
		}
		start := time.Now()
		size, err := t.run()
		took := time.Since(start)
		peak := status(pid)["VmHWM"]
		after := settle(pid)
		result := fmt.Sprintf("%.2f s", took.Seconds())
		if err != nil {
			result = "error: " + strings.ReplaceAll(err.Error(), "|", "/")
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %.2f× |\n", t.name, result, mib(int64(size)), mib(before), mib(peak), mib(after), float64(after)/float64(before))
	}
	return nil
}

// settle waits 2 s (the server returns a large render's memory 1 s after
// it), then until the process's RSS stops falling (at most 5 s more), and
// returns it.
func settle(pid int) int64 {
	time.Sleep(2 * time.Second)
	last := status(pid)["VmRSS"]
	for range 10 {
		time.Sleep(500 * time.Millisecond)
		now := status(pid)["VmRSS"]
		if now >= last {
			return now
		}
		last = now
	}
	return last
}

// status reads the kB fields of /proc/PID/status, in bytes.
func status(pid int) map[string]int64 {
	out := map[string]int64{}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || !strings.HasSuffix(v, " kB") {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(v, " kB")), 10, 64)
		out[k] = n << 10
	}
	return out
}

func generate(gen string, n int, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.Command("go", "run", "./bench/bigsession", "-thoughts", strconv.Itoa(n))
	if gen != "" {
		cmd = exec.Command(gen, "-thoughts", strconv.Itoa(n))
	}
	cmd.Stdout, cmd.Stderr = f, os.Stderr
	return cmd.Run()
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
