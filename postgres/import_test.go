package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/postgres"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// Issue 38, case 8: an import whose thought or link id is no id (a NUL,
// markup, 5 KB) is refused with a ValidationError naming the field, on
// PostgreSQL too, which answered a NUL with a raw SQLSTATE; nothing is
// stored.
func TestImportRefusesBadIDs(t *testing.T) {
	admin(t)
	svc := reasoning.New(open(t, newSchema(t), postgres.Options{}), reasoning.Config{})
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	doc := func(thoughtID, linkID string) *reasoning.Exchange {
		return &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion,
			Session:  reasoning.ExchangeSession{ID: "ids", ActiveBranch: "main", StepCount: 2, CurrentThoughtID: "b", CreatedAt: at, UpdatedAt: at},
			Branches: []reasoning.ExchangeBranch{{ID: "main", State: "active", Priority: 1}},
			Thoughts: []reasoning.ExchangeThought{{ID: "a", Step: 1, BranchID: "main", Content: "First.", CreatedAt: at},
				{ID: thoughtID, Step: 2, BranchID: "main", ParentID: "a", Content: "Second.", CreatedAt: at}},
			Links: []reasoning.ExchangeLink{{ID: linkID, FromThought: "a", ToThought: thoughtID, Type: "builds_upon", CreatedAt: at}}}
	}
	for _, c := range []struct{ thought, link, field string }{
		{"b\x00c", "l1", "data.thoughts[1].id"},
		{"<script>alert(1)</script>", "l1", "data.thoughts[1].id"},
		{strings.Repeat("b", 5000), "l1", "data.thoughts[1].id"},
		{"b", "l\x00", "data.links[0].id"},
	} {
		d := doc(c.thought, c.link)
		d.Session.CurrentThoughtID = c.thought
		_, err := svc.RestoreSession(context.Background(), d, "t")
		if te := thinkgraph.AsError(err); te.Code != thinkgraph.CodeValidation || te.Field != c.field {
			t.Errorf("ids %.20q, %q: %v, want a ValidationError naming %s", c.thought, c.link, err, c.field)
		}
	}
	err := svc.Store().View(context.Background(), func(tx thinkgraph.Tx) error {
		ss, err := tx.Sessions(context.Background(), thinkgraph.SessionFilter{Tenant: "t"})
		if len(ss) != 0 {
			err = fmt.Errorf("%d sessions stored", len(ss))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
