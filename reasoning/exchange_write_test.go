package reasoning

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// WriteExchange writes what a json.Encoder with SetIndent("", "  ")
// writes, byte for byte: with lists empty, missing and full, text that
// JSON escapes for HTML, and metadata.
func TestWriteExchangeAsTheEncoder(t *testing.T) {
	c := 0.25
	at := time.Date(2026, 11, 27, 1, 2, 3, 4, time.UTC)
	full := &Exchange{Format: ExchangeFormat, Version: ExchangeVersion, ExportedAt: at, Generator: "thinkgraph",
		Session:  ExchangeSession{ID: "s", Goal: "<b>&</b>", Metadata: json.RawMessage(`{"a": [1, 2]}`), CreatedAt: at},
		Branches: []ExchangeBranch{{ID: "main", State: "active"}, {ID: "alt", ParentBranchID: "main"}},
		Thoughts: []ExchangeThought{{ID: "t1", Step: 1, Content: "a \"quoted\" <script>", Confidence: &c, KeyPoints: []string{}},
			{ID: "t2", Step: 2, ParentID: "t1", Content: "ünïcode\n", Metadata: json.RawMessage(`{"k":"v"}`)}},
		Links:    []ExchangeLink{},
		Feedback: []ExchangeFeedback{{ThoughtID: "t1", Kind: "comment", Text: "x", DeliveredAt: &at, Delivered: true}},
		Counts:   ExchangeCounts{Branches: 2, Thoughts: 2, Feedback: 1}}
	empty := &Exchange{Format: ExchangeFormat, Version: 1}
	for _, doc := range []*Exchange{full, empty} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		if err := WriteExchange(&got, doc); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("WriteExchange differs from the encoder:\n%s\nwant:\n%s", got.String(), want.String())
		}
	}
}
