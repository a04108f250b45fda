package reasoning

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// WriteExchange writes what a json.Encoder with SetIndent("", "  ")
// writes, byte for byte, with lists empty, missing and full, text that
// JSON escapes for HTML, and metadata of one level; metadata nested
// deeper is the same JSON, its inner levels compact.
func TestWriteExchangeAsTheEncoder(t *testing.T) {
	c := 0.25
	at := time.Date(2026, 11, 27, 1, 2, 3, 4, time.UTC)
	full := &Exchange{Format: ExchangeFormat, Version: ExchangeVersion, ExportedAt: at, Generator: "thinkgraph",
		Session:  ExchangeSession{ID: "s", Goal: "<b>&</b>", Metadata: json.RawMessage(`{"a": 1, "b": "[{,:\"}]"}`), CreatedAt: at},
		Branches: []ExchangeBranch{{ID: "main", State: "active"}, {ID: "alt", ParentBranchID: "main"}},
		Thoughts: []ExchangeThought{{ID: "t1", Step: 1, Content: "a \"quoted\" <script> [{,:}]", Confidence: &c, KeyPoints: []string{"k, \"l\""}},
			{ID: "t2", Step: 2, ParentID: "t1", Content: "ünïcode\n", Metadata: json.RawMessage(`{"k":"v","e":{},"f":[]}`)}},
		Links:    []ExchangeLink{},
		Feedback: []ExchangeFeedback{{ThoughtID: "t1", Kind: "comment", Text: "x", DeliveredAt: &at, Delivered: true}},
		Counts:   ExchangeCounts{Branches: 2, Thoughts: 2, Feedback: 1}}
	empty := &Exchange{Format: ExchangeFormat, Version: 1}
	encode := func(doc *Exchange) string {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		return want.String()
	}
	write := func(doc *Exchange) string {
		var got bytes.Buffer
		if err := WriteExchange(&got, doc); err != nil {
			t.Fatal(err)
		}
		return got.String()
	}
	for _, doc := range []*Exchange{full, empty} {
		if got, want := write(doc), encode(doc); got != want {
			t.Errorf("WriteExchange differs from the encoder:\n%s\nwant:\n%s", got, want)
		}
	}
	// Nested deeper: the same document, the inner levels compact.
	full.Session.Metadata = json.RawMessage(`{"a": [1, {"b": [2, "]"]}], "c": {"d": {}}}`)
	full.Thoughts[1].Metadata = json.RawMessage(`{"k": [[["v"]]]}`)
	got := write(full)
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(encode(full)), &b); err != nil {
		t.Fatal(err)
	}
	if ga, _ := json.Marshal(a); string(ga) != string(must(json.Marshal(b))) {
		t.Errorf("not the same JSON:\n%s", got)
	}
	for _, line := range []string{`      "a": [1,{"b":[2,"]"]}],`, `      "c": {"d":{}}`, `        "k": [[["v"]]]`} {
		if !strings.Contains(got, "\n"+line+"\n") {
			t.Errorf("no line %q in\n%s", line, got)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// Metadata is checked the same way at write as at import: nested deeper
// than MaxMetadataDepth (or larger than its bound) it is refused naming
// the field, and nothing is written; at the bound it is stored.
func TestMetadataBoundsAtWrite(t *testing.T) {
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := New(store, Config{})
	ctx := context.Background()
	ref := SessionRef{ID: "m", Explicit: true}
	write := func(meta string) error {
		return svc.store.Update(ctx, func(tx thinkgraph.Tx) error {
			sess, err := svc.Session(ctx, tx, ref, true, "think")
			if err != nil {
				return err
			}
			return svc.AppendThought(ctx, tx, sess, &thinkgraph.Thought{Content: "x", Metadata: json.RawMessage(meta)}, nil)
		})
	}
	for _, bad := range []string{strings.Repeat("[", MaxMetadataDepth+1) + strings.Repeat("]", MaxMetadataDepth+1),
		`{"a":"` + strings.Repeat("x", MaxThoughtMetadata) + `"}`} {
		err := write(bad)
		if te := thinkgraph.AsError(err); te.Code != thinkgraph.CodeValidation || te.Field != "metadata" {
			t.Errorf("metadata of %d bytes: %v, want a ValidationError naming metadata", len(bad), err)
		}
	}
	if err := write(strings.Repeat("[", MaxMetadataDepth) + strings.Repeat("]", MaxMetadataDepth)); err != nil {
		t.Fatalf("metadata nested %d deep: %v", MaxMetadataDepth, err)
	}
	err = svc.View(ctx, ref, func(_ thinkgraph.Tx, s *thinkgraph.Session) error {
		if s.StepCount != 1 {
			t.Errorf("%d thoughts stored, want the one valid", s.StepCount)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
