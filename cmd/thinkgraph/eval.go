package main

import (
	"context"
	"fmt"
	"os"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/sick"
)

// eval measures the semantic engine on evaluation data.
func (e *env) eval(ctx context.Context, argv []string) error {
	if len(argv) == 0 || argv[0] != "sick" {
		return usageError{fmt.Errorf("usage: thinkgraph eval sick FILE [--split TEST|TRAIN|TRIAL|TRAIN+TRIAL|ALL]")}
	}
	fs := e.flagSet("eval sick", "eval sick FILE [--split TEST]")
	split := fs.String("split", "TEST", "which SemEval_set rows to evaluate: TEST, TRAIN, TRIAL, TRAIN+TRIAL or ALL")
	if len(argv) < 2 {
		return usageError{fmt.Errorf("eval sick: want the path of SICK.txt")}
	}
	path := argv[1]
	if err := parseFlags(fs, argv[2:]); err != nil {
		return err
	}
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return usageError{err}
	}
	emb, err := cfg.embedder()
	if err != nil {
		return err
	}
	contra, err := semantic.NewContradictor(nil)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := sick.Run(ctx, f, *split, emb, contra)
	if err != nil {
		return fmt.Errorf("eval sick %s: %w", path, err)
	}
	fmt.Fprintln(e.stdout, res.String())
	return nil
}
