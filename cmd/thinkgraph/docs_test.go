package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated parts of README.md")

// The README's figures and command list come from the code: each part
// between "<!-- code: NAME -->" and "<!-- /code -->" is what docsParts
// NAME prints; the test fails when one differs, and -update-docs rewrites
// them (go test ./cmd/thinkgraph -run TestDocsFromCode -update-docs).
func TestDocsFromCode(t *testing.T) {
	runOut := func(args ...string) string {
		var out bytes.Buffer
		if err := run(context.Background(), args, nil, &out, &out, func(string) string { return "" }); err != nil && err != flag.ErrHelp {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	table := func(out string) string {
		var rows []string
		for _, line := range strings.Split(out, "\n") {
			rows = append(rows, strings.TrimRight(line, " "))
			if strings.HasPrefix(line, "total") {
				break
			}
		}
		return strings.Join(rows, "\n")
	}
	total := func(out string) (int, int) {
		var bytes, tokens int
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "total") {
				fmt.Sscan(strings.TrimPrefix(line, "total"), &bytes, &tokens)
			}
		}
		return bytes, tokens
	}
	parts := map[string]string{
		"tools": "```\n" + table(runOut("tools")) + "\n```",
		"all-tools": func() string {
			out := runOut("tools", "--sampling")
			b, tok := total(out)
			n := strings.Count(table(out), "\n") - 1 // rows between the header and the total
			return fmt.Sprintf("All %d tools (a provider configured, or a client that samples) cost %s bytes (~%s tokens).", n, humanize.Comma(int64(b)), humanize.Comma(int64(tok)))
		}(),
		"commands": func() string {
			var lines []string
			for _, line := range strings.Split(runOut("help"), "\n") {
				if l := strings.TrimSpace(line); strings.HasPrefix(l, "thinkgraph ") {
					lines = append(lines, l)
				}
			}
			return "```\n" + strings.Join(lines, "\n") + "\n```"
		}(),
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)<!-- code: ([a-z-]+) -->\n(.*?)\n<!-- /code -->`)
	seen := map[string]bool{}
	got := block.ReplaceAllStringFunc(string(readme), func(m string) string {
		sub := block.FindStringSubmatch(m)
		want, ok := parts[sub[1]]
		if !ok {
			t.Errorf("README.md: no generator for <!-- code: %s -->", sub[1])
			return m
		}
		seen[sub[1]] = true
		if sub[2] != want && !*updateDocs {
			t.Errorf("README.md <!-- code: %s --> differs from what the code prints; run go test ./cmd/thinkgraph -run TestDocsFromCode -update-docs\nREADME:\n%s\ncode:\n%s", sub[1], sub[2], want)
		}
		return "<!-- code: " + sub[1] + " -->\n" + want + "\n<!-- /code -->"
	})
	for name := range parts {
		if !seen[name] {
			t.Errorf("README.md has no <!-- code: %s --> part", name)
		}
	}
	if *updateDocs && got != string(readme) {
		if err := os.WriteFile("../../README.md", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// thinkgraph help names every command and flag; version --help prints
// help; an unknown command is one line naming the commands.
func TestHelpNamesEveryCommandAndFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"help"}, nil, &out, &out, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	for _, want := range []string{"thinkgraph eval reasoning FILE", "thinkgraph serve [--db DB] [--http HTTP] [--stateless]", "[--tenant TENANT]",
		"thinkgraph tools [--sampling]", "thinkgraph view [--addr ADDR]", "thinkgraph export ID", "[--no-analysis]", "thinkgraph token new TENANT"} {
		if !strings.Contains(help, want) {
			t.Errorf("help does not name %q:\n%s", want, help)
		}
	}
	for _, c := range commands {
		var out bytes.Buffer
		err := run(context.Background(), append(strings.Fields(c.name), "--help"), nil, &out, &out, func(string) string { return "" })
		if err != nil && err != flag.ErrHelp || (c.name != "help" && !strings.Contains(out.String(), "Usage: thinkgraph "+strings.Fields(c.name)[0])) {
			t.Errorf("%s --help: %v\n%s", c.name, err, out.String())
		}
		for _, f := range regexp.MustCompile(`(?m)^\s+-([a-z-]+)`).FindAllStringSubmatch(out.String(), -1) {
			if !strings.Contains(help, "[--"+f[1]) {
				t.Errorf("help does not name %s's flag --%s", c.name, f[1])
			}
		}
	}
	out.Reset()
	err := run(context.Background(), []string{"bogus"}, nil, &out, &out, func(string) string { return "" })
	if msg := fmt.Sprint(err); out.Len() != 0 || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, `unknown command "bogus"`) ||
		!strings.Contains(msg, "serve, tools, sessions, export, import, view, invocations, eval, token, version, help") {
		t.Errorf("unknown command: %q, printed %q", msg, out.String())
	}
}
