package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// importDoc stores the session of an exchange document (what "export
// --format json" writes) in the database: the checks of branch-thinking's
// import, read from a file of any size one thought at a time, keeping the
// document's ids when they are free, so exporting the session again gives
// the same document.
func (e *env) importDoc(ctx context.Context, argv []string) error {
	fs := e.flagSet("import", "import FILE [--tenant NAME] [--db PATH]   (FILE - reads stdin)")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH); created if needed")
	tenantFlag := fs.String("tenant", thinkgraph.LocalTenant, "the tenant the session is stored for (over HTTP, a token's tenant)")
	var file string
	if len(argv) > 0 && (argv[0] == "-" || !strings.HasPrefix(argv[0], "-")) {
		file, argv = argv[0], argv[1:]
	}
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	}
	if file == "" {
		return usageError{errors.New("import: want the FILE an export wrote (thinkgraph export ID --format json > FILE), or - for stdin")}
	}
	if !thinkgraph.ValidName(*tenantFlag, 64, "._-") {
		return usageError{fmt.Errorf("import: --tenant %q must be 1 to 64 letters, digits or . _ -", *tenantFlag)}
	}
	var in io.Reader = e.stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		in = f
	}
	cfg, store, _, err := e.open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := reasoning.New(store, cfg.reasoning)
	doc, err := reasoning.ReadExchange(in, cfg.reasoning.MaxThoughtLength)
	if err != nil {
		if te := thinkgraph.AsError(err); te.Field != "" {
			return fmt.Errorf("import %s: %s: %s (expected: %s); nothing was stored", file, te.Field, strings.TrimPrefix(te.Message, "'import': "), te.Expected)
		}
		return fmt.Errorf("import %s: %w", file, err)
	}
	// Vectors are computed as the server computes them, with the
	// configured embedder; without one, on the session's first analysis.
	if emb, err := cfg.embedder(); err == nil {
		if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Logger: cfg.logger(e.stderr)}); err == nil {
			defer svc.Close()
		}
	}
	rep, err := svc.RestoreSession(ctx, doc, *tenantFlag)
	if err != nil {
		return fmt.Errorf("import %s: %w", file, err)
	}
	fmt.Fprintf(e.stdout, "imported session %s for tenant %s: %s, %s, %s, %s\n", rep.SessionID, *tenantFlag,
		thinkgraph.Count(rep.Thoughts, "thought", ""), thinkgraph.Count(rep.Branches, "branch", "branches"),
		thinkgraph.Count(rep.Links, "link", ""), thinkgraph.Count(rep.Feedback, "piece", "pieces")+" of feedback")
	for _, c := range rep.Conflicts {
		fmt.Fprintln(e.stdout, "note:", c)
	}
	return nil
}
