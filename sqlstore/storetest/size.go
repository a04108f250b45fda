package storetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// testSessionSize: SessionSize counts a session's thoughts and links, the
// UTF-8 bytes of its thoughts' text, key points and metadata, and the
// square of the characters of a long thought beyond LongThought, and no
// other session's.
func testSessionSize(t *testing.T, s thinkgraph.Store) {
	update(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		for _, id := range []string{"s1", "s2"} {
			if err := tx.CreateSession(ctx, newSession(id, "alpha", 0)); err != nil {
				return err
			}
		}
		for _, th := range []*thinkgraph.Thought{
			{ID: "t1", Session: "s1", BranchID: "main", Step: 1, Content: "ünï", Author: "client", CreatedAt: at(1)}, // 5 bytes
			{ID: "t2", Session: "s1", BranchID: "main", ParentID: "t1", Step: 2, Content: "0123456789", Author: "client",
				KeyPoints: []string{"k"}, Metadata: json.RawMessage(`{"a":1}`), CreatedAt: at(2)}, // 10 + 5 (["k"]) + 7
			{ID: "t3", Session: "s1", BranchID: "main", ParentID: "t2", Step: 3, Content: strings.Repeat("é", thinkgraph.LongThought+3), Author: "client", CreatedAt: at(3)}, // 2,006 bytes, 3 characters long
			{ID: "u1", Session: "s2", BranchID: "main", Step: 1, Content: "another session's", Author: "client", CreatedAt: at(3)},
		} {
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
		}
		return tx.AddLink(ctx, &thinkgraph.Link{ID: "l1", Session: "s1", FromThought: "t1", ToThought: "t2", Type: "builds_upon", CreatedAt: at(3)})
	})
	view(t, s, func(ctx context.Context, tx thinkgraph.Tx) error {
		got, err := tx.SessionSize(ctx, "s1")
		equal(t, "SessionSize(s1)", got, thinkgraph.SessionSize{Thoughts: 3, Links: 1, Bytes: 27 + 2006, LongestThought: 2006, LongText: 9})
		if err != nil {
			return err
		}
		got, err = tx.SessionSize(ctx, "s3")
		equal(t, "SessionSize(unknown)", got, thinkgraph.SessionSize{})
		return err
	})
}
