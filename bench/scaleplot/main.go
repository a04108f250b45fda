// Command scaleplot reads `go test -bench` output of the branch-thinking
// benchmarks run at several session sizes (bench/scale.sh) and writes an SVG
// log-log plot of time per operation against thoughts per session, plus a
// markdown table with the measured growth exponent between sizes: 1 means
// linear, 0 constant, 2 quadratic.
//
//	go run ./bench/scaleplot -in bench/results/scale.txt -svg bench/results/scale.svg -md bench/results/scale.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// line matches e.g. "BenchmarkBranchThinkingEvaluate/10k-2   20   71234 ns/op   90000 cpu-ns/op".
var line = regexp.MustCompile(`^Benchmark(\w+)/(\d+)(k?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

type point struct{ n, ns float64 }

func main() {
	in := flag.String("in", "bench/results/scale.txt", "go test -bench output")
	svgOut := flag.String("svg", "bench/results/scale.svg", "SVG plot to write")
	mdOut := flag.String("md", "bench/results/scale.md", "markdown table to write")
	flag.Parse()
	f, err := os.Open(*in)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	series := map[string][]point{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.ParseFloat(m[2], 64)
		if m[3] == "k" {
			n *= 1000
		}
		ns, _ := strconv.ParseFloat(m[4], 64)
		if n <= 0 || ns <= 0 {
			continue // a size or time that cannot go on a log scale
		}
		name := strings.TrimPrefix(m[1], "BranchThinking")
		series[name] = append(series[name], point{n, ns})
	}
	if len(series) == 0 {
		fail(fmt.Errorf("no benchmark lines with sizes in %s", *in))
	}
	names := make([]string, 0, len(series))
	for n, ps := range series {
		sort.Slice(ps, func(i, j int) bool { return ps[i].n < ps[j].n })
		names = append(names, n)
	}
	sort.Strings(names)
	if err := os.WriteFile(*svgOut, []byte(plot(names, series)), 0o644); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*mdOut, []byte(table(names, series)), 0o644); err != nil {
		fail(err)
	}
	fmt.Print(table(names, series))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scaleplot:", err)
	os.Exit(1)
}

// exponent is the slope of log(time) against log(size) between two points.
func exponent(a, b point) float64 { return math.Log(b.ns/a.ns) / math.Log(b.n/a.n) }

func table(names []string, series map[string][]point) string {
	var b strings.Builder
	b.WriteString("| operation | size | time/op | growth exponent from the previous size |\n|---|---|---|---|\n")
	for _, n := range names {
		ps := series[n]
		for i, p := range ps {
			exp := "—"
			if i > 0 {
				exp = fmt.Sprintf("%.2f", exponent(ps[i-1], p))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", n, sizeLabel(p.n), dur(p.ns), exp)
		}
	}
	b.WriteString("\nGrowth exponent: log(t2/t1) / log(n2/n1); 0 = constant, 1 = linear, 2 = quadratic.\n")
	return b.String()
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	default:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
}

var colors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"}

func plot(names []string, series map[string][]point) string {
	const w, h, left, right, top, bottom = 760, 460, 70, 230, 30, 50
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, ps := range series {
		for _, p := range ps {
			minX, maxX = math.Min(minX, p.n), math.Max(maxX, p.n)
			minY, maxY = math.Min(minY, p.ns), math.Max(maxY, p.ns)
		}
	}
	lx0, lx1 := math.Floor(math.Log10(minX)), math.Ceil(math.Log10(maxX))
	ly0, ly1 := math.Floor(math.Log10(minY)), math.Ceil(math.Log10(maxY))
	if lx1 == lx0 {
		lx1++
	}
	if ly1 == ly0 {
		ly1++
	}
	px := func(n float64) float64 { return left + (math.Log10(n)-lx0)/(lx1-lx0)*(w-left-right) }
	py := func(ns float64) float64 { return h - bottom - (math.Log10(ns)-ly0)/(ly1-ly0)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14">branch-thinking: time per operation vs thoughts per session (log-log)</text>`+"\n", left)
	for e := lx0; e <= lx1; e++ {
		x := px(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n",
			x, top, x, h-bottom, x, h-bottom+16, sizeLabel(math.Pow(10, e)))
	}
	for e := ly0; e <= ly1; e++ {
		y := py(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, y, w-right, y, left-6, y+4, dur(math.Pow(10, e)))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">thoughts per session</text>`+"\n", (left+w-right)/2, h-12)
	// A reference line of slope 1 (linear growth) from the lowest first point.
	x0, x1 := math.Pow(10, lx0), math.Pow(10, lx1)
	y0 := minY
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="5,4"/>`+"\n", px(x0), py(y0), px(x1), py(y0*x1/x0))
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666">- - - linear (slope 1)</text>`+"\n", w-right+10, top+10)
	for i, n := range names {
		c := colors[i%len(colors)]
		ps := series[n]
		var pts []string
		for _, p := range ps {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p.n), py(p.ns)))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(p.n), py(p.ns), c)
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), c)
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", w-right+10, top+30+18*i, c, html.EscapeString(n))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func sizeLabel(n float64) string {
	if n >= 1000 {
		return fmt.Sprintf("%gk", n/1000)
	}
	return fmt.Sprintf("%g", n)
}
