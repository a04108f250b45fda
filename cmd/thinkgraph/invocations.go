package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

// invocations lists the LLM calls the server made (mcp-langbase-reasoning's invocations).
func (e *env) invocations(ctx context.Context, argv []string) error {
	fs := e.flagSet("invocations", "invocations [--tenant NAME] [--session ID] [--limit N] [--db PATH]")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
	tenant := fs.String("tenant", "", "only the invocations of this tenant's sessions")
	session := fs.String("session", "", "only the invocations of sessions with this id (of every tenant, unless --tenant)")
	limit := fs.Int("limit", 100, "list at most N invocations (0: all)")
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	_, store, err := e.openExisting(ctx, *db)
	var none noDatabase
	if errors.As(err, &none) {
		fmt.Fprintf(e.stdout, "no invocations (no database at %s)\n", none.path)
		return nil
	}
	if err != nil {
		return err
	}
	defer store.Close()
	return store.View(ctx, func(tx thinkgraph.Tx) error {
		invs, err := tx.Invocations(ctx, thinkgraph.InvocationFilter{Tenant: *tenant, SessionID: *session, Limit: *limit})
		if err != nil {
			return err
		}
		if len(invs) == 0 {
			fmt.Fprintln(e.stdout, "no invocations")
			return nil
		}
		tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "TIME\tTENANT\tSESSION\tTOOL\tPROVIDER\tPIPE/MODEL\tLATENCY\tTOKENS\tRESULT")
		for _, inv := range invs {
			result := "ok"
			if !inv.Success {
				result = "error: " + trimLines(inv.Error, 60)
			}
			model := inv.Model
			if inv.PipeName != "" && model != "" {
				model = inv.PipeName + " (" + model + ")"
			} else if inv.PipeName != "" {
				model = inv.PipeName
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d ms\t%d\t%s\n", inv.CreatedAt.Local().Format(time.DateTime), inv.Tenant, inv.SessionID, inv.ToolName,
				inv.Provider, model, inv.LatencyMS, inv.TotalTokens, result)
		}
		return tw.Flush()
	})
}
