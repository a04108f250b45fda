package main

import (
	"context"
	"fmt"
	"os"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoningeval"
	"github.com/thinkgraph/thinkgraph/semantic/sick"
)

const evalUsage = "usage: thinkgraph eval reasoning FILE [--misses] | thinkgraph eval scenarios FILE [--misses] | thinkgraph eval sick FILE [--split TEST|TRAIN|TRIAL|TRAIN+TRIAL|ALL]"

// eval measures the semantic engine on evaluation data.
func (e *env) eval(ctx context.Context, argv []string) error {
	if len(argv) > 0 && wantsHelp(argv[:1]) {
		return e.helpText(evalUsage)
	}
	if len(argv) > 0 && argv[0] == "reasoning" {
		return e.evalReasoning(ctx, argv[1:])
	}
	if len(argv) > 0 && argv[0] == "scenarios" {
		return e.evalScenarios(ctx, argv[1:])
	}
	if len(argv) == 0 || argv[0] != "sick" {
		return usageError{fmt.Errorf(evalUsage)}
	}
	fs := e.flagSet("eval sick", "eval sick FILE [--split TEST]")
	split := fs.String("split", "TEST", "which SemEval_set rows to evaluate: TEST, TRAIN, TRIAL, TRAIN+TRIAL or ALL")
	if wantsHelp(argv[1:]) {
		return e.help(fs)
	}
	if len(argv) < 2 {
		return usageError{fmt.Errorf("eval sick: want the path of SICK.txt")}
	}
	path := argv[1]
	if err := e.parse(fs, argv[2:]); err != nil {
		return err
	}
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return usageError{err}
	}
	sem, err := cfg.semanticEngine(nil)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := sick.Run(ctx, f, *split, sem.Embedder, sem.Contradictor)
	if err != nil {
		return fmt.Errorf("eval sick %s: %w", path, err)
	}
	fmt.Fprintln(e.stdout, res.String())
	return nil
}

// evalReasoning runs the reasoning checks over a labelled set of
// reasoning-style text (package reasoningeval), through the branch-thinking
// service on a throw-away SQLite database.
func (e *env) evalReasoning(ctx context.Context, argv []string) error {
	fs := e.flagSet("eval reasoning", "eval reasoning FILE [--misses]")
	misses := fs.Bool("misses", false, "also list every item the checks got wrong")
	if wantsHelp(argv) {
		return e.help(fs)
	}
	if len(argv) < 1 {
		return usageError{fmt.Errorf("eval reasoning: want the path of the set (JSON Lines, e.g. reasoningeval/testdata/dev.jsonl)")}
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
	items, err := reasoningeval.Read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("eval reasoning %s: %w", path, err)
	}
	var res reasoningeval.Result
	err = e.withEvalService(ctx, cfg, func(svc *reasoning.Service, sem reasoning.SemanticConfig) (err error) {
		res, err = reasoningeval.Run(ctx, items, svc, sem.Contradictor, sem.Embedder.Model())
		return err
	})
	if err != nil {
		return fmt.Errorf("eval reasoning %s: %w", path, err)
	}
	fmt.Fprintln(e.stdout, res.String())
	if *misses {
		for _, m := range res.Misses {
			fmt.Fprintf(e.stdout, "miss %s %s %s: %s\n", m.ID, m.Kind, m.Category, m.Detail)
		}
	}
	return nil
}
