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
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"

	// Mozilla's CA roots, used only where the system has none: the
	// container image is FROM scratch, and the providers are HTTPS.
	_ "golang.org/x/crypto/x509roots/fallback"
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
		usage(stderr)
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
		bi, _ := debug.ReadBuildInfo()
		fmt.Fprint(stdout, versionText(bi))
		return nil
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return nil
	default:
		usage(stderr)
		return usageError{fmt.Errorf("unknown command %q", cmd)}
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `thinkgraph: an MCP server for structured reasoning over one persisted reasoning graph.

Usage:
  thinkgraph serve [--db PATH] [--http ADDR] [--toolsets LIST]
                                               serve MCP over stdio, or streamable HTTP at ADDR/mcp
  thinkgraph tools [--toolsets LIST]           each listed tool's size in bytes and estimated tokens, and the total
  thinkgraph sessions list [--db PATH] [--limit N]
  thinkgraph sessions show ID [--db PATH]
  thinkgraph export ID [--format F] [--db PATH] write a session as json, markdown, mermaid, dot, html or svg
  thinkgraph import FILE [--tenant T] [--db PATH]
                                               store the session of a JSON export (FILE - reads stdin)
  thinkgraph view [--db PATH]                  serve the web viewer on a free loopback port and print its URL
  thinkgraph invocations [--session ID]        list the LLM calls the server made
  thinkgraph eval sick FILE [--split TEST]    measure the semantic engine on the SICK data set
  thinkgraph eval scenarios FILE [--misses]   measure the analyses' advice on labelled sessions
  thinkgraph token new TENANT                  make a bearer token for HTTP (prints the token and its tokens-file line)
  thinkgraph version
  thinkgraph help

Run "thinkgraph COMMAND --help" for the flags of a command.

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
