// Command thinkgraph is an MCP server for structured reasoning: a think log,
// a confidence graph with backtracking, branches, sequential thinking and
// semantic checks over one persisted reasoning graph.
//
//	thinkgraph serve                 MCP over stdio (what an MCP client spawns)
//	thinkgraph serve --http ADDR     MCP over streamable HTTP at /mcp
//	thinkgraph sessions list|show ID read the stored sessions
//	thinkgraph tools                 what each listed tool costs a model's context
//	thinkgraph version
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// A release build (scripts/dist.sh, .goreleaser.yaml) sets these with
// -ldflags "-X main.version=v1.2.3 -X main.commit=SHA -X main.date=RFC3339";
// otherwise the version comes from the module version go install recorded,
// and the commit and date from the VCS stamp go build records in a checkout.
var version, commit, date string

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// versionText is what "thinkgraph version" prints: the version, and the
// VCS revision and time the binary was built from, when Go recorded them
// (a build inside a git checkout; not go install module@version) or the
// release build set them.
func versionText(bi *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintln(&b, "thinkgraph", buildVersion())
	if bi == nil {
		return b.String()
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	// Without Go's VCS stamp (built with -buildvcs=false or outside a
	// checkout), a release build names its commit and date by -X flags.
	if settings["vcs.revision"] == "" && commit != "" {
		settings["vcs.revision"] = commit
	}
	if settings["vcs.time"] == "" && date != "" {
		settings["vcs.time"] = date
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if settings["vcs.modified"] == "true" {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintln(&b, "revision", rev)
	}
	if t := settings["vcs.time"]; t != "" {
		fmt.Fprintln(&b, "time    ", t)
	}
	fmt.Fprintln(&b, "module  ", bi.Main.Path, bi.Main.Version)
	fmt.Fprintln(&b, "go      ", bi.GoVersion)
	return b.String()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "thinkgraph:", err)
		os.Exit(exitCode(err))
	}
}

type usageError struct{ error }

func exitCode(err error) int {
	var u usageError
	if errors.Is(err, flag.ErrHelp) {
		return 0 // help was asked for, and printed
	}
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// env gives commands their I/O and environment, so tests can run them
// in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

func run(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	if len(argv) == 0 {
		usage(ctx, stderr, getenv)
		return usageError{errors.New("no command given")}
	}
	cmd, rest := argv[0], argv[1:]
	switch cmd {
	case "serve":
		return e.serve(ctx, rest)
	case "sessions":
		return e.sessions(ctx, rest)
	case "invocations":
		return e.invocations(ctx, rest)
	case "eval":
		return e.eval(ctx, rest)
	case "export":
		return e.export(ctx, rest)
	case "import":
		return e.importDoc(ctx, rest)
	case "view":
		return e.view(ctx, rest)
	case "token":
		return e.token(rest)
	case "tools":
		return e.tools(ctx, rest)
	case "version", "--version", "-version":
		if wantsHelp(rest) {
			return e.helpText("Usage: thinkgraph version\n\nPrints the version, and the git revision and time the binary was built from.")
		}
		bi, _ := debug.ReadBuildInfo()
		fmt.Fprint(stdout, versionText(bi))
		return nil
	case "help", "-h", "-help", "--help":
		usage(ctx, stdout, getenv)
		return nil
	default:
		return usageError{fmt.Errorf("unknown command %q; the commands are %s (thinkgraph help lists their flags)", reasoning.Clip(cmd, 40), strings.Join(commandNames(), ", "))}
	}
}

// commands are the commands help lists, in its order: the words that name
// the command, its arguments and what it does. Each one's flags are read
// from its own flag set (its --help), so help names every flag.
var commands = []struct{ name, args, about string }{
	{"serve", "", "serve MCP over stdio, or streamable HTTP at ADDR/mcp"},
	{"tools", "", "each listed tool's size in bytes and estimated tokens, the instructions and the prompts a connection gets"},
	{"sessions list", "", "list the stored sessions"},
	{"sessions show", "ID", "show a stored session"},
	{"export", "ID", "write a session as json, markdown, mermaid, dot, html or svg"},
	{"import", "FILE", "store the session of a JSON export (FILE - reads stdin)"},
	{"view", "", "serve the web viewer and /mcp on a loopback port and print its URL"},
	{"invocations", "", "list the LLM calls the server made"},
	{"eval reasoning", "FILE", "measure the reasoning checks on labelled reasoning text"},
	{"eval scenarios", "FILE", "measure the analyses' advice on labelled sessions"},
	{"eval sick", "FILE", "measure the semantic engine on the SICK data set"},
	{"token new", "TENANT", "make a bearer token for HTTP (prints the token and its tokens-file line)"},
	{"version", "", "print the version and the revision the binary was built from"},
	{"help", "", "print this help"},
}

// commandNames are the first words of the commands, once each.
func commandNames() []string {
	var out []string
	for _, c := range commands {
		if first, _, _ := strings.Cut(c.name, " "); !slices.Contains(out, first) {
			out = append(out, first)
		}
	}
	return out
}

// flagLine matches a flag in a flag set's help: "  -db string".
var flagLine = regexp.MustCompile(`^\s+-([a-z][a-z-]*)(?: (\S+))?$`)

// commandFlags are the flags of a command, as its --help lists them:
// "[--db PATH]".
func commandFlags(ctx context.Context, name string, getenv func(string) string) []string {
	var out bytes.Buffer
	_ = run(ctx, append(strings.Fields(name), "--help"), nil, &out, &out, getenv)
	var flags []string
	for _, line := range strings.Split(out.String(), "\n") {
		m := flagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := "[--" + m[1]
		switch m[2] {
		case "":
		case "string": // unnamed in its usage: named after the flag
			f += " " + strings.ToUpper(m[1])
		case "int":
			f += " N"
		default:
			f += " " + strings.ToUpper(m[2])
		}
		flags = append(flags, f+"]")
	}
	return flags
}

func usage(ctx context.Context, w io.Writer, getenv func(string) string) {
	fmt.Fprint(w, "thinkgraph: an MCP server for structured reasoning over one persisted reasoning graph.\n\nUsage:\n")
	for _, c := range commands {
		line := strings.Join(slices.DeleteFunc([]string{"thinkgraph", c.name, c.args}, func(s string) bool { return s == "" }), " ")
		if c.name != "help" {
			if flags := commandFlags(ctx, c.name, getenv); len(flags) > 0 {
				line += " " + strings.Join(flags, " ")
			}
		}
		fmt.Fprintf(w, "  %s\n      %s\n", line, c.about)
	}
	fmt.Fprint(w, `
Run "thinkgraph COMMAND --help" for what each flag means.

Environment:
`)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, v := range envVars {
		fmt.Fprintf(tw, "  %s\t%s (default: %s)\n", v.name, v.help, v.def)
	}
	tw.Flush()
}

// flagSet returns a flag set for a subcommand whose -help prints the flags
// and the environment variables.
func (e *env) flagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: thinkgraph %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nEnvironment: see \"thinkgraph help\".")
	}
	return fs
}

// wantsHelp reports whether args ask for help (-h, -help or --help before
// a "--").
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help prints a command's help to stdout and returns flag.ErrHelp, which
// ends the command with status 0 and touches nothing.
func (e *env) help(fs *flag.FlagSet) error {
	fs.SetOutput(e.stdout)
	fs.Usage()
	return flag.ErrHelp
}

// helpText prints a command's one-line usage to stdout, as help does.
func (e *env) helpText(text string) error {
	fmt.Fprintln(e.stdout, text)
	return flag.ErrHelp
}

// parse parses a command's flags; asked for help, it prints the help.
func (e *env) parse(fs *flag.FlagSet, args []string) error {
	if wantsHelp(args) {
		return e.help(fs)
	}
	return parseFlags(fs, args)
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}

func trimLines(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
