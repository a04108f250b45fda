package claims

import (
	"slices"
	"strings"
	"testing"
)

// kindsOf returns "kind: first line" for each part of text.
func kindsOf(text string) []string {
	var out []string
	for _, p := range Parts(text) {
		first, _, _ := strings.Cut(text[p.Start:p.End], "\n")
		out = append(out, p.Kind.String()+": "+strings.TrimSpace(first))
	}
	return out
}

// Each kind of text a thought holds is recognised by its shape: code
// fences, display math, tables, shell sessions, stack traces, compiler
// diagnostics and log lines; the prose around them stays prose.
func TestParts(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"fenced code", "The handler leaks a file descriptor:\n```go\nf, err := os.Open(p)\nif err != nil {\n\treturn err\n}\n```\nIt never closes f.",
			[]string{"prose: The handler leaks a file descriptor:", "code: ```go", "prose: It never closes f."}},
		{"tilde fence, longer closing run", "Config:\n~~~~yaml\nretries: 3\n~~~~~\nDone.",
			[]string{"prose: Config:", "code: ~~~~yaml", "prose: Done."}},
		{"unclosed fence runs to the end", "Output:\n```\nok 1\nok 2", []string{"prose: Output:", "code: ```"}},
		{"display math", "The sum telescopes:\n$$\n\\sum_{k=1}^{n} \\frac{1}{k(k+1)} = 1 - \\frac{1}{n+1}\n$$\nso it tends to one.",
			[]string{"prose: The sum telescopes:", "formula: $$", "prose: so it tends to one."}},
		{"bracket math on one line", "\\[ a^2 + b^2 = c^2 \\]\nThat is Pythagoras.", []string{"formula: \\[ a^2 + b^2 = c^2 \\]", "prose: That is Pythagoras."}},
		{"table", "Latency by region:\n| region | p99 |\n|---|---|\n| eu | 40 ms |\nEU is fastest.",
			[]string{"prose: Latency by region:", "table: | region | p99 |", "prose: EU is fastest."}},
		{"shell session", "Ran it again:\n$ go test ./store\nFAIL\tstore\t0.21s\nStill red.",
			[]string{"prose: Ran it again:", "output: $ go test ./store", "prose: Still red."}},
		{"python trace", "It crashed:\nTraceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    main()\nKeyError: 'user_id'\nThe key is missing from the payload.",
			[]string{"prose: It crashed:", "output: Traceback (most recent call last):", "prose: The key is missing from the payload."}},
		{"java trace", "Stack:\nException in thread \"main\" java.lang.IllegalStateException: closed\n    at com.acme.Pool.take(Pool.java:88)\n    at com.acme.Main.main(Main.java:12)\nThe pool was closed too early.",
			[]string{"prose: Stack:", "output: Exception in thread \"main\" java.lang.IllegalStateException: closed", "prose: The pool was closed too early."}},
		{"go panic", "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\nThe loop runs one step too far.",
			[]string{"output: panic: runtime error: index out of range [3] with length 3", "prose: The loop runs one step too far."}},
		{"compiler diagnostic", "error[E0382]: borrow of moved value: `v`\n  --> src/main.rs:5:20\n  |\n5 |     println!(\"{:?}\", v);\n  |                    ^ value borrowed here after move\nThe vector moved into the closure.",
			[]string{"output: error[E0382]: borrow of moved value: `v`", "prose: The vector moved into the closure."}},
		{"log lines", "From the gateway:\n2024-03-02 11:04:17 ERROR upstream timed out after 30s\n2024-03-02 11:04:19 WARN retrying (2/3)\n[INFO] connection restored\nlevel=error msg=\"pool exhausted\" conns=50\nThe upstream is slow, not down.",
			[]string{"prose: From the gateway:", "output: 2024-03-02 11:04:17 ERROR upstream timed out after 30s", "prose: The upstream is slow, not down."}},
		{"command output header", "Pods:\nNAME      READY   STATUS    RESTARTS\napi-7d9   1/1     Running   17\nAll restarted.",
			[]string{"prose: Pods:", "table: NAME      READY   STATUS    RESTARTS", "prose: All restarted."}},
		{"a title in capitals is prose", "ENVIRONMENTAL PROTECTION AGENCY\nThe report is due.", []string{"prose: ENVIRONMENTAL PROTECTION AGENCY"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := kindsOf(tc.in); !slices.Equal(got, tc.want) {
				t.Fatalf("Parts(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// Parts covers the text: every byte is in one part, in order.
func TestPartsCover(t *testing.T) {
	in := "a\n```\nx := 1\n```\n\n| a | b |\nb\n$ ls\nc"
	at := 0
	for _, p := range Parts(in) {
		if p.Start != at {
			t.Fatalf("part %+v starts at %d, want %d", p, p.Start, at)
		}
		at = p.End + 1
	}
	if at != len(in)+1 {
		t.Fatalf("parts end at %d of %d", at-1, len(in))
	}
}

// A claim reads as a sentence when it states words; a formula without a
// stated subject does not, however it is written.
func TestReadable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"The pool is capped at 20 connections.", true},
		{"It opened in 1998.", true},
		{"Right.", true},
		{"The equation x^2 + 1 = 0 has a real solution.", true},
		{"The test expects `EUR` in the currency column and now gets `Currency.EUR`.", true},
		{"`Currency` is declared in src/ledger/models.py:12 and csv_export.py writes it through an f-string.", true},
		{"Let's call the price of a pencil p and the price of an eraser e.", true},
		{"The worst pod peaked at 437.5 / 512 = 85% of its limit.", true},
		{"Our hardware refresh would cost $400k next year, while the cloud estimate is $220k a year.", true},
		{"We have 3p+e=1.24 and 5p+e=1.82.", false},
		{"This simplifies to 2p=0.58.", false},
		{"So n = 14.", false},
		{"We have z_1=x_1+i y_1, z_2=x_2+i y_2, and so on.", false},
		{"\\frac{14}{2} is 7, and (14-1)*7 is 91, so we now have S_{14} = 7(210 + 91).", false},
		{"So the expression becomes $\\frac{\\log_2 3}{\\log_2 2} \\cdot \\frac{\\log_2 4}{\\log_2 3} \\cdot \\frac{\\log_2 5}{\\log_2 4}$.", false},
		{"They are 105, 112, 119, 126, 133.", false},
		{"if retries > max_retries { return errors.New(\"too many retries\") }", false},
		{"x is greater than 5.", false},
		{"Revenue grew +5% last quarter.", true},
	} {
		if got := Readable(tc.in); got != tc.want {
			t.Errorf("Readable(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// Split keeps code, formulas, output and tables out of the claims, and a
// sentence's formula clause out of its claims; the prose around them is
// split as before.
func TestSplitKinds(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"code block", "The handler leaks a file descriptor:\n```go\nf, err := os.Open(p)\nif err != nil { return err }\n```\nIt never closes the file, so the process runs out of descriptors.",
			[]string{"The handler leaks a file descriptor:", "It never closes the file,", "so the process runs out of descriptors."}},
		{"stack trace", "Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\nKeyError: 'user_id'\nThe payload has no user id.",
			[]string{"The payload has no user id."}},
		{"log and shell", "$ kubectl logs api-7d9\n2024-03-02 11:04:17 ERROR upstream timed out after 30s\nThe upstream times out under load.",
			[]string{"The upstream times out under load."}},
		{"table", "| region | p99 |\n|---|---|\n| eu | 40 ms |\n| us | 95 ms |\nThe US region is slower.", []string{"The US region is slower."}},
		{"equation steps", "Now let's simplify. \\frac{14}{2} is 7, and (14-1)*7 is 91, so we now have S_{14} = 7(210 + 91).",
			[]string{"Now let's simplify."}},
		{"a formula clause and a prose clause", "53 = 53 * 1, so the prime factorization is just 53.", []string{"so the prime factorization is just 53."}},
		{"inline code keeps its colon", "A kernel OOM kill would show `Reason: OOMKilled` and exit 137, which is not what we see.",
			[]string{"A kernel OOM kill would show `Reason: OOMKilled` and exit 137, which is not what we see."}},
		{"all code", "```\nmake test\n```", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := texts(Split(tc.in)); !slices.Equal(got, tc.want) {
				t.Fatalf("Split(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// The formulas of a claim, for readers of figures: inline math and tokens
// of symbols, not currency or prose.
func TestFormulaSpans(t *testing.T) {
	in := "The sum is $x^2 + 4$ for z_1 and 2p=0.58, while the fee is $5 and $10, and max_retries is 3."
	var got []string
	for _, sp := range FormulaSpans(in) {
		got = append(got, in[sp[0]:sp[1]])
	}
	if want := []string{"$x^2 + 4$", "z_1", "2p=0.58,"}; !slices.Equal(got, want) {
		t.Fatalf("FormulaSpans(%q) = %q, want %q", in, got, want)
	}
	in = "Yes, and 5 + 12 is 17. So T_5 = 4 * 17, in 3 steps."
	got = nil
	for _, sp := range FormulaSpans(in) {
		got = append(got, in[sp[0]:sp[1]])
	}
	if want := []string{"5 + 12", "T_5 = 4 * 17,"}; !slices.Equal(got, want) {
		t.Fatalf("FormulaSpans(%q) = %q, want %q", in, got, want)
	}
}

// Recognising the kinds costs time linear in the text: a long thought of
// every kind, and one of unmatched dollar signs and backticks.
func BenchmarkSplitMixed10k(b *testing.B) {
	block := "The cache misses under load, so p99 rises to 90 ms.\n```go\nfor i := range xs { total += xs[i] }\n```\n" +
		"2024-03-02 11:04:17 ERROR upstream timed out after 30s\nWe have 3p+e=1.24 and 5p+e=1.82, so p=0.29.\n| a | b |\n"
	in := strings.Repeat(block, 10000/len(block)+1)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Split(in)
	}
}

func BenchmarkReadableDollars(b *testing.B) {
	in := strings.Repeat("$5 `x ", 2000)
	for b.Loop() {
		Readable(in)
	}
}

// A formula becomes one name: the same formula the same name, another
// another, and the words around it stay.
func TestFormulasAsNames(t *testing.T) {
	a := FormulasAsNames("So S_{14} = 7 * 301, the sum.")
	b := FormulasAsNames("Then S_{14} = 7 *  301, again.")
	c := FormulasAsNames("So S_{15} = 7 * 302, the sum.")
	name := func(s string) string {
		for _, f := range strings.Fields(s) {
			if strings.HasPrefix(f, FormulaMark) {
				return f
			}
		}
		return ""
	}
	if !strings.HasPrefix(a, "So ") || !strings.HasSuffix(a, " the sum.") || name(a) == "" || strings.Contains(a, "301") {
		t.Fatalf("FormulasAsNames = %q", a)
	}
	if name(a) != name(b) || name(a) == name(c) {
		t.Fatalf("names %q, %q, %q: want the first two equal, the third apart", name(a), name(b), name(c))
	}
	if s := "No formula here."; FormulasAsNames(s) != s {
		t.Fatalf("a sentence without formulas changed: %q", FormulasAsNames(s))
	}
}
