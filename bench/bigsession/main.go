// Command bigsession writes the exchange document (what "thinkgraph export
// --format json" writes, and "thinkgraph import" reads) of a generated
// session: N thoughts of two or three sentences each over B branches, each
// branch forking from a thought of the branch before it, with
// cross-references between branches (some contradictory) and a few pieces
// of human feedback. bench/memory.sh and the CLI's round-trip test load it
// with "thinkgraph import".
//
//	go run ./bench/bigsession -thoughts 12000 -branches 50 > big.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

var (
	subjects = []string{"the cache", "the database", "the API", "the queue", "the index", "the replica", "the scheduler", "the load balancer", "the session store", "the search service", "the billing job", "the CDN"}
	verbs    = []string{"reduces", "increases", "stabilises", "doubles", "limits", "improves", "slows", "protects", "duplicates", "simplifies", "hides", "shifts"}
	objects  = []string{"latency", "throughput", "cost", "memory use", "error rate", "write volume", "cold starts", "lock contention", "disk usage", "tail latency", "retry storms", "queue depth"}
	contexts = []string{"under peak load", "for European users", "during deploys", "in the batch jobs", "for mobile clients", "after the migration", "in the nightly backup", "for large tenants", "at the end of the month", "when the replica lags"}
	types    = []string{"analysis", "hypothesis", "observation", "evidence", "question", "conclusion"}
)

func sentence(r *rand.Rand, branch int) string {
	s := subjects[(branch+r.IntN(3))%len(subjects)]
	v := verbs[r.IntN(len(verbs))]
	o := objects[(branch*3+r.IntN(4))%len(objects)]
	c := contexts[r.IntN(len(contexts))]
	s = strings.ToUpper(s[:1]) + s[1:]
	switch r.IntN(10) {
	case 0:
		return fmt.Sprintf("%s does not %s %s %s.", s, strings.TrimSuffix(v, "s"), o, c)
	case 1:
		return fmt.Sprintf("%s %s %s by %d%% %s.", s, v, o, 5+r.IntN(60), c)
	}
	return fmt.Sprintf("%s %s %s %s.", s, v, o, c)
}

func main() {
	n := flag.Int("thoughts", 12000, "number of thoughts")
	nb := flag.Int("branches", 50, "number of branches")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *n < 1 || *nb < 1 || *nb > *n {
		fmt.Fprintln(os.Stderr, "bigsession: want 1 ≤ -branches ≤ -thoughts")
		os.Exit(2)
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	tick := func() time.Time { at = at.Add(time.Second); return at }
	doc := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion, ExportedAt: at, Generator: "thinkgraph",
		Session: reasoning.ExchangeSession{ID: fmt.Sprintf("big-%d", *n), Goal: "Cut the API's tail latency under peak load", Mode: "branch",
			ActiveBranch: "main", StepCount: *n, CreatedAt: at},
		Branches: []reasoning.ExchangeBranch{}, Thoughts: []reasoning.ExchangeThought{}, Links: []reasoning.ExchangeLink{}, Feedback: []reasoning.ExchangeFeedback{}}
	branchID := func(b int) string {
		if b == 0 {
			return "main"
		}
		return fmt.Sprintf("b%d", b)
	}
	last := make([]string, *nb)
	for i := range *n {
		b := i % *nb
		if i < *nb && b > 0 {
			// Branch b forks from the latest thought of branch b-1.
			doc.Branches = append(doc.Branches, reasoning.ExchangeBranch{ID: branchID(b), State: "active", Priority: 1,
				ParentBranchID: branchID(b - 1), ForkThoughtID: last[b-1], CreatedAt: at, UpdatedAt: at})
		} else if i == 0 {
			doc.Branches = append(doc.Branches, reasoning.ExchangeBranch{ID: "main", State: "active", Priority: 1, CreatedAt: at, UpdatedAt: at})
		}
		parent := last[b]
		if parent == "" && b > 0 {
			parent = last[b-1]
		}
		text := sentence(r, b) + " " + sentence(r, b)
		if r.IntN(2) == 0 {
			text += " " + sentence(r, b)
		}
		c := float64(3+r.IntN(7)) / 10
		id := fmt.Sprintf("t%06d", i+1)
		doc.Thoughts = append(doc.Thoughts, reasoning.ExchangeThought{ID: id, Step: i + 1, BranchID: branchID(b), ParentID: parent, Content: text,
			Type: types[r.IntN(len(types))], Confidence: &c, KeyPoints: []string{objects[r.IntN(len(objects))]}, BranchPoint: c < 0.6,
			Author: "client", Tool: "branch-thinking", CreatedAt: tick()})
		last[b] = id
		if i > *nb && r.IntN(20) == 0 {
			other := doc.Thoughts[r.IntN(i)]
			typ := "builds_upon"
			if r.IntN(4) == 0 {
				typ = "contradictory"
			}
			doc.Links = append(doc.Links, reasoning.ExchangeLink{ID: fmt.Sprintf("l%06d", len(doc.Links)+1), FromBranch: branchID(b), ToBranch: other.BranchID,
				FromThought: id, ToThought: other.ID, Type: typ, Reason: "see step " + fmt.Sprint(other.Step), Strength: 0.7, CreatedAt: at})
		}
		if r.IntN(500) == 0 {
			doc.Feedback = append(doc.Feedback, reasoning.ExchangeFeedback{ThoughtID: id, Kind: "comment", Text: "Measure this before deciding.", Author: "human", At: at})
		}
	}
	doc.Session.CurrentThoughtID = last[0]
	doc.Session.UpdatedAt = at
	doc.Counts = reasoning.ExchangeCounts{Branches: len(doc.Branches), Thoughts: len(doc.Thoughts), Links: len(doc.Links), Feedback: len(doc.Feedback)}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(os.Stderr, "bigsession:", err)
		os.Exit(1)
	}
}
