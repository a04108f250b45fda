package analyze

import (
	"strings"
	"testing"
)

// A session like the scenario ones: each branch opens with a hypothesis
// and follows it with analysis and evidence; gaps are only what was really
// left open.
func TestDetectKnowledgeGapsInBranches(t *testing.T) {
	docs := tstDocs(
		[4]string{"m1", "main", "analysis", "We need a queue for order events."},
		[4]string{"k1", "kafka", "hypothesis", "Kafka keeps a replayable log."},
		[4]string{"k2", "kafka", "analysis", "Partitions by order id keep events in order."},
		[4]string{"k3", "kafka", "observation", "Our team ran Kafka for two years."},
		[4]string{"s1", "sqs", "hypothesis", "SQS removes broker operations."},
		[4]string{"s2", "sqs", "analysis", "FIFO groups keep order per order id."},
		[4]string{"r1", "redis", "hypothesis", "Redis streams could carry the events."},
		[4]string{"x1", "closed", "hypothesis", "A database table could act as a queue."},
		[4]string{"m2", "main", "analysis", "Probably the cheapest route is SQS."},
	)
	for i := range docs {
		switch {
		case i > 0 && docs[i-1].Branch == docs[i].Branch:
			docs[i].ParentID = docs[i-1].ID
		case docs[i].Branch != "main":
			docs[i].ParentID = "m1"
		}
	}
	docs[8].ParentID = "m1"
	docs[8].Confidence = tstF(0.3)
	got := DetectKnowledgeGaps(docs, GapOptions{Closed: map[string]bool{"closed": true}})
	var kinds []string
	for _, g := range got {
		kinds = append(kinds, g.Kind+":"+g.Thought.ID)
		if strings.Contains(g.Reason, "depends on no thought") {
			t.Errorf("reason %q", g.Reason)
		}
	}
	// k1 is examined by the observation that follows it; s1 only by
	// analysis; r1 was never followed; x1's branch is closed; m2 is a
	// low-confidence claim with a parent but no evidence.
	want := "unvalidated_hypothesis:s1,unexplored_alternative:r1,unsupported_claim:m2"
	if strings.Join(kinds, ",") != want {
		t.Fatalf("gaps = %v, want %s", kinds, want)
	}
}
