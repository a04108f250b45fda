package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// evalScenarios writes each labelled session of a scenario set through
// branch-thinking (package reasoningeval) on a throw-away SQLite database
// and prints the advice measures of the set's README.
func (e *env) evalScenarios(ctx context.Context, argv []string) error {
	fs := e.flagSet("eval scenarios", "eval scenarios FILE [--misses]")
	misses := fs.Bool("misses", false, "also list every planted problem the analyses missed and every false finding")
	if wantsHelp(argv) {
		return e.help(fs)
	}
	if len(argv) < 1 {
		return usageError{fmt.Errorf("eval scenarios: want the path of the set (JSON Lines, e.g. reasoningeval/testdata/scenarios/dev.jsonl)")}
	}
	path := argv[0]
	if err := e.parse(fs, argv[1:]); err != nil {
		return err
	}
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return usageError{err}
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	scs, err := reasoningeval.ReadScenarios(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("eval scenarios %s: %w", path, err)
	}
	var res reasoningeval.ScenarioResult
	err = e.withEvalService(ctx, cfg, func(svc *reasoning.Service, sem reasoning.SemanticConfig) (err error) {
		res, err = reasoningeval.RunScenarios(ctx, scs, svc, sem.Embedder.Model())
		return err
	})
	if err != nil {
		return fmt.Errorf("eval scenarios %s: %w", path, err)
	}
	fmt.Fprintln(e.stdout, res.String())
	if *misses {
		for _, m := range res.Misses {
			fmt.Fprintf(e.stdout, "miss %s %s: %s\n", m.ID, m.Kind, m.Detail)
		}
	}
	return nil
}

// withEvalService runs fn with a reasoning service whose semantic engine is
// the configured one, on a throw-away SQLite database.
func (e *env) withEvalService(ctx context.Context, cfg *config, fn func(*reasoning.Service, reasoning.SemanticConfig) error) error {
	sem, err := cfg.semanticEngine(cfg.logger(e.stderr))
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "thinkgraph-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(ctx, filepath.Join(dir, "eval.db"), sqlite.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	svc := reasoning.New(store, cfg.reasoning)
	if err := svc.EnableSemantic(sem); err != nil {
		return err
	}
	defer svc.Close()
	return fn(svc, sem)
}
