package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// exportFormats maps --format values to renderers.
var exportFormats = map[string]func(io.Writer, *render.Graph) error{
	"markdown": render.Markdown, "md": render.Markdown,
	"mermaid": render.Mermaid, "mmd": render.Mermaid,
	"dot": render.DOT, "graphviz": render.DOT,
	"html": render.HTML,
	"svg":  render.SVG,
}

// export writes one session to stdout as JSON (the lossless exchange
// document), Markdown, Mermaid, DOT, SVG or HTML.
func (e *env) export(ctx context.Context, argv []string) error {
	fs := e.flagSet("export", "export ID [--tenant NAME] [--format json|markdown|mermaid|dot|html|svg] [--db PATH]")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
	tenantFlag := fs.String("tenant", "", "the tenant whose session ID is exported (needed only when several tenants use ID)")
	format := fs.String("format", "markdown", "json, markdown, mermaid, dot, html or svg")
	noAnalysis := fs.Bool("no-analysis", false, "skip the semantic analyses (contradictions, circular reasoning, evaluation)")
	var id string
	if len(argv) > 0 && !strings.HasPrefix(argv[0], "-") {
		id, argv = argv[0], argv[1:]
	}
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	if id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
	}
	if id == "" {
		return usageError{errors.New("export: want a session ID (see \"thinkgraph sessions list\")")}
	}
	*format = strings.ToLower(*format)
	fn, ok := exportFormats[*format]
	if !ok && *format != "json" {
		return usageError{fmt.Errorf("export: unknown --format %q (want json, markdown, mermaid, dot, html or svg)", *format)}
	}
	cfg, store, err := e.openExisting(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := reasoning.New(store, cfg.reasoning)
	// The CLI reads the database directly, as its owner: any tenant's
	// session can be exported.
	var tenant string
	if err := store.View(ctx, func(tx thinkgraph.Tx) error {
		s, err := findSession(ctx, tx, *tenantFlag, id)
		if err != nil {
			return err
		}
		tenant = s.Tenant
		return nil
	}); err != nil {
		return err
	}
	ref := reasoning.SessionRef{ID: id, Explicit: true, Tenant: tenant}
	if *format == "json" {
		return exportJSON(ctx, e.stdout, svc, ref)
	}
	analyze := !*noAnalysis
	if analyze {
		emb, err := cfg.embedder()
		if err == nil {
			err = svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Logger: cfg.logger(e.stderr)})
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "thinkgraph: export without analyses: %v\n", err)
		} else {
			defer svc.Close()
		}
	}
	g, err := render.NewLoader(svc, nil).Load(ctx, ref, analyze)
	if err != nil {
		return err
	}
	return fn(toTerminal(e.stdout), g)
}

// exportJSON writes the session's exchange document: the lossless,
// versioned export that branch-thinking's import reads back.
func exportJSON(ctx context.Context, w io.Writer, svc *reasoning.Service, ref reasoning.SessionRef) error {
	return svc.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		doc, err := reasoning.ExportSession(ctx, tx, sess, time.Now().UTC())
		if err != nil {
			return err
		}
		return reasoning.WriteExchange(w, doc)
	})
}
