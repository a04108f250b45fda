package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/thinkgraph/thinkgraph"
)

const sessionsUsage = "Usage: thinkgraph sessions list [--db PATH] [--limit N] | thinkgraph sessions show ID [--db PATH]"

func (e *env) sessions(ctx context.Context, argv []string) error {
	if len(argv) > 0 && wantsHelp(argv[:1]) {
		return e.helpText(sessionsUsage)
	}
	if len(argv) == 0 {
		return usageError{fmt.Errorf("sessions: want list or show ID")}
	}
	switch argv[0] {
	case "list":
		fs := e.flagSet("sessions list", "sessions list [--db PATH] [--limit N]")
		db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
		limit := fs.Int("limit", 50, "list at most N sessions, most recently updated first (0: all)")
		if err := e.parse(fs, argv[1:]); err != nil {
			return err
		}
		_, store, err := e.openExisting(ctx, *db)
		var none noDatabase
		if errors.As(err, &none) {
			fmt.Fprintf(e.stdout, "no sessions yet (no database at %s)\n", none.path)
			return nil
		}
		if err != nil {
			return err
		}
		defer store.Close()
		return store.View(ctx, func(tx thinkgraph.Tx) error {
			ss, err := tx.Sessions(ctx, thinkgraph.SessionFilter{Limit: *limit})
			if err != nil {
				return err
			}
			if len(ss) == 0 {
				fmt.Fprintln(e.stdout, "no sessions yet")
				return nil
			}
			tw := tabwriter.NewWriter(toTerminal(e.stdout), 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTENANT\tSTEPS\tMODE\tUPDATED\tGOAL")
			for _, s := range ss {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", s.ID, s.Tenant, s.StepCount, s.Mode, s.UpdatedAt.Local().Format(time.DateTime), trimLines(s.Goal, 60))
			}
			return tw.Flush()
		})
	case "show":
		fs := e.flagSet("sessions show", "sessions show ID [--tenant NAME] [--db PATH]")
		db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
		tenant := fs.String("tenant", "", "the tenant whose session ID is shown (needed only when several tenants use ID)")
		if wantsHelp(argv[1:]) {
			return e.help(fs)
		}
		if len(argv) < 2 {
			return usageError{fmt.Errorf("sessions show: want a session ID")}
		}
		id := argv[1]
		if err := e.parse(fs, argv[2:]); err != nil {
			return err
		}
		_, store, err := e.openExisting(ctx, *db)
		if err != nil {
			return err
		}
		defer store.Close()
		return store.View(ctx, func(tx thinkgraph.Tx) error {
			s, err := findSession(ctx, tx, *tenant, id)
			if err != nil {
				return err
			}
			branches, err := tx.Branches(ctx, s.Key)
			if err != nil {
				return err
			}
			ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: s.Key})
			if err != nil {
				return err
			}
			w := toTerminal(e.stdout)
			fmt.Fprintf(w, "Session %s (tenant %s)\n", s.ID, s.Tenant)
			if s.Goal != "" {
				fmt.Fprintf(w, "Goal:     %s\n", s.Goal)
			}
			fmt.Fprintf(w, "Tenant:   %s\n", s.Tenant)
			fmt.Fprintf(w, "Mode:     %s\nCreated:  %s\nUpdated:  %s\nSteps:    %d\nBranches:", s.Mode,
				s.CreatedAt.Local().Format(time.DateTime), s.UpdatedAt.Local().Format(time.DateTime), s.StepCount)
			for _, b := range branches {
				fmt.Fprintf(w, " %s (%s)", b.ID, b.State)
			}
			fmt.Fprintln(w)
			for _, th := range ths {
				marks := ""
				if th.ID == s.CurrentThoughtID {
					marks += " ← current"
				}
				if th.BranchPoint {
					marks += " [branch point]"
				}
				if th.Alternative {
					if th.Selected {
						marks += " [selected alternative]"
					} else {
						marks += " [alternative]"
					}
				}
				conf := ""
				if th.Confidence != nil {
					conf = " confidence " + strconv.FormatFloat(*th.Confidence, 'g', 3, 64)
				}
				fmt.Fprintf(w, "\nStep %d · %s · %s%s%s\n%s\n", th.Step, th.BranchID, th.Tool, conf, marks, th.Content)
			}
			return nil
		})
	default:
		return usageError{fmt.Errorf("sessions: unknown subcommand %q (want list or show ID)", argv[0])}
	}
}

// findSession finds the session id of tenant or, with tenant "", of
// whichever tenant uses id: the CLI reads the database as its owner. Session
// ids are unique only within a tenant; an id several tenants use needs
// tenant.
func findSession(ctx context.Context, tx thinkgraph.Tx, tenant, id string) (*thinkgraph.Session, error) {
	notFound := fmt.Errorf("session %q not found (see \"thinkgraph sessions list\")", id)
	if tenant != "" {
		s, err := tx.Session(ctx, tenant, id)
		if errors.Is(err, thinkgraph.ErrNotFound) {
			return nil, fmt.Errorf("session %q of tenant %q not found (see \"thinkgraph sessions list\")", id, tenant)
		}
		return s, err
	}
	ss, err := tx.Sessions(ctx, thinkgraph.SessionFilter{ID: id})
	switch {
	case err != nil:
		return nil, err
	case len(ss) == 0:
		return nil, notFound
	case len(ss) > 1:
		tenants := make([]string, len(ss))
		for i, s := range ss {
			tenants[i] = s.Tenant
		}
		return nil, fmt.Errorf("tenants %s each have a session %q: pass --tenant NAME", strings.Join(tenants, ", "), id)
	}
	return &ss[0], nil
}
