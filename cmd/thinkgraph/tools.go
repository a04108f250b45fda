package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// tools prints what each listed tool costs a model's context: the bytes of
// its name, description and input schema and an estimate in tokens, the
// output schema apart, and the total. The list is the one a client gets
// from "thinkgraph serve" with the same settings.
func (e *env) tools(_ context.Context, argv []string) error {
	fs := e.flagSet("tools", "tools [--toolsets LIST] [--sampling]")
	toolsets := fs.String("toolsets", "", "comma-separated toolsets: "+strings.Join(mcpserver.ToolsetNames(), ", ")+" (default all; overrides THINKGRAPH_TOOLSETS)")
	sampling := fs.Bool("sampling", false, "list the tools as for a client that declares sampling (the LLM-backed tools are listed to it without a provider)")
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("tools takes no arguments, got %q", fs.Arg(0))}
	}
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return usageError{err}
	}
	if err := cfg.toolsetsFlag(*toolsets); err != nil {
		return err
	}
	svc := reasoning.New(nil, cfg.reasoning)
	svc.EnableLLM(cfg.llm, slog.New(slog.DiscardHandler))
	srv := mcpserver.New(svc, mcpserver.Options{Toolsets: cfg.toolsets, SeedToolNames: cfg.seedToolNames})
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tBYTES\t~TOKENS\tOUTPUT SCHEMA BYTES\t")
	total, totalOut := 0, 0
	for _, t := range srv.ListedTools(*sampling) {
		n := mcpserver.ContextCost(t)
		out, err := json.Marshal(t.OutputSchema)
		if err != nil || t.OutputSchema == nil {
			out = nil
		}
		total += n
		totalOut += len(out)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", t.Name, n, mcpserver.EstimatedTokens(n), len(out))
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t\n", total, mcpserver.EstimatedTokens(total), totalOut)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\nBYTES: name + description + input schema (compact JSON), what every model request carries; ~TOKENS: BYTES/4.")
	instructions, prompts := srv.Guidance(*sampling)
	fmt.Fprintf(e.stdout, "Instructions (sent once, at initialize): %d bytes, ~%d tokens, speaking of these tools only.\n", len(instructions), mcpserver.EstimatedTokens(len(instructions)))
	if len(prompts) > 0 {
		fmt.Fprintf(e.stdout, "Prompts: %s.\n", strings.Join(prompts, ", "))
	} else {
		fmt.Fprintln(e.stdout, "Prompts: none (each needs toolsets this list leaves out).")
	}
	if hidden := hiddenToolsets(cfg.toolsets, svc); len(hidden) > 0 && !*sampling {
		fmt.Fprintf(e.stdout, "Not listed (no LLM provider configured, and a client without sampling): the %s tools; see \"thinkgraph help\" for the provider variables, or pass --sampling.\n",
			strings.Join(hidden, " and "))
	}
	return nil
}
