package main

import (
	"bytes"
	"context"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// runTools runs "thinkgraph tools" in process with env and returns its
// table's rows by tool name (bytes, tokens) and the total.
func runTools(t *testing.T, env map[string]string, args ...string) (map[string][2]int, [2]int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"tools"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("tools %v: %v\n%s", args, err, errOut.String())
	}
	rows := map[string][2]int{}
	var total [2]int
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		b, err1 := strconv.Atoi(f[1])
		tok, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			continue
		}
		if f[0] == "total" {
			total = [2]int{b, tok}
		} else {
			rows[f[0]] = [2]int{b, tok}
		}
	}
	return rows, total, out.String()
}

func TestToolsCommand(t *testing.T) {
	rows, total, out := runTools(t, nil)
	if len(rows) != 8 || rows["confer"] != [2]int{} || !strings.Contains(out, "Not listed") {
		t.Fatalf("without a provider, want the 8 tools that can run:\n%s", out)
	}
	sum := 0
	for name, r := range rows {
		if r[0] <= 0 || r[1] != (r[0]+3)/4 {
			t.Errorf("%s: %d bytes, %d tokens", name, r[0], r[1])
		}
		sum += r[0]
	}
	if total[0] != sum || total[0] > 9000 {
		t.Errorf("total %d bytes, rows sum to %d (budget 9000)", total[0], sum)
	}
	// The guidance speaks of the listed tools only.
	_, _, out = runTools(t, nil, "--toolsets", "think,graph")
	if !strings.Contains(out, "Prompts: think-step-by-step, explore-alternatives.") || strings.Contains(out, "debate") || !strings.Contains(out, "Instructions (sent once") {
		t.Errorf("--toolsets think,graph: the prompts and instructions of those tools only:\n%s", out)
	}
	// A provider brings the LLM-backed tools; a toolset narrows the list.
	rows, _, out = runTools(t, map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "--toolsets", "reasoning,lux")
	if len(rows) != 8 || rows["reasoning_linear"][0] == 0 || rows["planner"][0] == 0 || rows["think"][0] != 0 {
		t.Fatalf("--toolsets reasoning,lux with a provider:\n%s", out)
	}
	rows, _, out = runTools(t, map[string]string{"THINKGRAPH_TOOL_NAMES": "seed", "THINKGRAPH_TOOLSETS": "reasoning"}, "--sampling")
	if len(rows) != 4 || rows["reasoning.linear"][0] == 0 {
		t.Fatalf("seed names to a sampling client:\n%s", out)
	}
}

func TestToolsetsAndToolNamesRejected(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"tools", "--toolsets", "think,memory"}, nil, `--toolsets: unknown toolset "memory": want a comma-separated list of think, graph, sequential, branch, reasoning, lux, all`},
		{[]string{"serve", "--toolsets", "memory"}, nil, `--toolsets: unknown toolset "memory"`},
		{[]string{"serve"}, map[string]string{"THINKGRAPH_TOOLSETS": "graphs"}, `THINKGRAPH_TOOLSETS: unknown toolset "graphs"`},
		{[]string{"serve"}, map[string]string{"THINKGRAPH_TOOL_NAMES": "dotted"}, `THINKGRAPH_TOOL_NAMES must be default or seed`},
	} {
		var out bytes.Buffer
		err := run(context.Background(), c.args, strings.NewReader(""), &out, &out, func(k string) string { return c.env[k] })
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want a usage error containing %q", c.args, c.env, err, c.want)
		}
	}
}

// versionText prints the revision and time Go recorded in the binary.
func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "github.com/thinkgraph/thinkgraph", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := versionText(bi)
	for _, want := range []string{"revision 0123abc (with uncommitted changes)\n", "time     2026-01-02T03:04:05Z\n", "module   github.com/thinkgraph/thinkgraph v1.2.3\n", "go       go1.99\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("version text lacks %q:\n%s", want, got)
		}
	}
	// The built binary prints what Go recorded in it.
	out, err := exec.Command(binary, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	info, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(info), "\n") {
		if _, rev, ok := strings.Cut(line, "vcs.revision="); ok && !strings.Contains(string(out), "revision "+strings.TrimSpace(rev)) {
			t.Errorf("the binary records revision %s; version printed:\n%s", rev, out)
		}
	}
	if !strings.Contains(string(out), "module   github.com/thinkgraph/thinkgraph") {
		t.Errorf("version:\n%s", out)
	}
}

// A release build names its version, commit and date by -X flags
// (scripts/dist.sh checks the built binary prints them); Go's VCS stamp,
// when there is one, still wins for the commit and date.
func TestVersionTextRelease(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v1.2.3", "fedcba9", "2026-02-03T04:05:06Z"
	bi := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "github.com/thinkgraph/thinkgraph", Version: "(devel)"}}
	got := versionText(bi)
	for _, want := range []string{"thinkgraph v1.2.3\n", "revision fedcba9\n", "time     2026-02-03T04:05:06Z\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("version text lacks %q:\n%s", want, got)
		}
	}
	bi.Settings = []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}}
	got = versionText(bi)
	if !strings.Contains(got, "revision 0123abc\n") || !strings.Contains(got, "time     2026-01-02T03:04:05Z\n") {
		t.Errorf("the VCS stamp should win over the -X flags:\n%s", got)
	}
}
