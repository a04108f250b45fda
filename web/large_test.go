package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/sequential"
)

// seedBranches writes n thoughts into session id over branches sequential
// branches forking from the first thoughts, with varied text and confidence.
// Thoughts on one topic state different limits for it: contradictions the
// offline judge is certain of (one figure apart, the same words).
func seedBranches(t testing.TB, svc *reasoning.Service, tenant, id string, n, branches int) {
	t.Helper()
	ctx := context.Background()
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenant}
	topics := []string{"cache latency", "queue depth", "database index", "retry policy", "memory budget", "request rate", "error budget"}
	per := n / branches
	for i := 1; i <= n; i++ {
		in := sequential.Input{Session: ref, ThoughtNumber: i, TotalThoughts: n, NextThoughtNeeded: i < n,
			Thought: fmt.Sprintf("The %s limit is capped at %d ms.", topics[i%len(topics)], (i*37)%500)}
		if b := (i - 1) / per; b > 0 && b < branches {
			from := b
			in.BranchFromThought, in.BranchID = &from, fmt.Sprintf("branch-%d", b)
		}
		if _, err := sequential.New(svc).Think(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
}

func TestViewerLargeSession(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 2,000 thoughts")
	}
	srv, svc := newTestViewer(t)
	start := time.Now()
	seedBranches(t, svc, "a", "big", 2000, 5)
	seed := time.Since(start)
	start = time.Now()
	code, _, page := get(t, srv, "tok-a", "/sessions/big")
	first := time.Since(start)
	start = time.Now()
	get(t, srv, "tok-a", "/sessions/big")
	cachedT := time.Since(start)
	t.Logf("seed %v; first page %v (%d KB), cached %v", seed, first, len(page)/1024, cachedT)
	if code != 200 || len(page) > 4<<20 {
		t.Fatalf("%d, %d bytes", code, len(page))
	}
	// A large session's page draws the first bands; the thought data and
	// the other bands come from the graph endpoint.
	if strings.Contains(page, `id="tg-data"`) || strings.Count(page, "data-step=") > 400 {
		t.Errorf("the page carries %d nodes and the data", strings.Count(page, "data-step="))
	}
	// A large session is drawn at once and analysed in the background.
	if !strings.Contains(page, "Looking for contradictions") {
		t.Error("the first page waited for the analysis")
	}
	// The contradictions drawn are capped (the limits of this session
	// contradict each other thousands of times).
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, _, js := get(t, srv, "tok-a", "/sessions/big/graph")
		if n := strings.Count(js, `\u003cg class=\"contradiction\"`); n > 0 {
			if n != 200 {
				t.Errorf("%d contradictions drawn", n)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no analysis after 20 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
