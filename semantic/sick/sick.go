// Package sick evaluates thinkgraph's semantic engine on the SICK data set
// (Sentences Involving Compositional Knowledge, Marelli et al., LREC 2014):
// how well embedding cosine tracks human relatedness ratings (Spearman and
// Pearson correlation), and how well the pairwise contradiction decider finds
// the pairs labelled CONTRADICTION (precision, recall, F1 against all other
// pairs).
//
// The data file is tab-separated with a header line naming at least the
// columns sentence_A, sentence_B, entailment_label, relatedness_score and
// SemEval_set (TRAIN, TRIAL or TEST). It is evaluation data only and is never
// shipped with the program.
package sick

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
)

// Pair is one SICK sentence pair.
type Pair struct {
	A, B        string
	Label       string  // ENTAILMENT, NEUTRAL or CONTRADICTION
	Relatedness float64 // mean human rating, 1..5
	Set         string  // TRAIN, TRIAL or TEST
}

// Contradictor decides whether two sentences contradict each other;
// *contradict.Contradictor implements it.
type Contradictor interface {
	Contradiction(a, b string) contradict.Verdict
}

// Result is the outcome of one evaluation run.
type Result struct {
	Split    string // the split evaluated ("TEST", "TRAIN+TRIAL", "ALL", ...)
	N        int    // number of pairs
	Embedder string // the embedder's model id
	Spearman float64
	Pearson  float64
	// Precision, Recall and F1 of the contradiction decider (CONTRADICTION
	// vs the rest); nil when they cannot be computed, with the reason in
	// Undefined: no decider given, or a ratio whose denominator is zero.
	Precision, Recall, F1 *float64
	Undefined             string
	// Confusion counts of the contradiction decider.
	TP, FP, FN, TN int
}

// String formats the result as one line, e.g.
// "split=TEST n=4906 embedder=... spearman=0.7000 pearson=0.7000 precision=... recall=... f1=...";
// a figure that cannot be computed is "null" and the reason follows.
func (r Result) String() string {
	f := func(v *float64) string {
		if v == nil {
			return "null"
		}
		return fmt.Sprintf("%.4f", *v)
	}
	line := fmt.Sprintf("split=%s n=%d embedder=%s spearman=%.4f pearson=%.4f precision=%s recall=%s f1=%s",
		r.Split, r.N, r.Embedder, r.Spearman, r.Pearson, f(r.Precision), f(r.Recall), f(r.F1))
	if r.Undefined != "" {
		line += " (" + r.Undefined + ")"
	}
	return line
}

// Read parses a SICK file and returns the pairs whose SemEval_set is in
// split. split is a set name (TRAIN, TRIAL, TEST), several joined with "+"
// ("TRAIN+TRIAL"), or "" / "ALL" for every pair; case does not matter.
func Read(r io.Reader, split string) ([]Pair, error) {
	want := map[string]bool{}
	split = strings.ToUpper(strings.TrimSpace(split))
	if split != "" && split != "ALL" {
		for _, s := range strings.Split(split, "+") {
			want[strings.TrimSpace(s)] = true
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("sick: %w", err)
		}
		return nil, fmt.Errorf("sick: empty input")
	}
	col := map[string]int{}
	for i, h := range strings.Split(strings.TrimRight(sc.Text(), "\r\n"), "\t") {
		col[strings.TrimSpace(h)] = i
	}
	need := []string{"sentence_A", "sentence_B", "entailment_label", "relatedness_score", "SemEval_set"}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return nil, fmt.Errorf("sick: header lacks column %q", n)
		}
	}
	var pairs []Pair
	line := 1
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r\n")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		get := func(name string) (string, error) {
			i := col[name]
			if i >= len(f) {
				return "", fmt.Errorf("sick: line %d: missing column %s", line, name)
			}
			return strings.TrimSpace(f[i]), nil
		}
		var vals [5]string
		for i, n := range need {
			v, err := get(n)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		set := strings.ToUpper(vals[4])
		if len(want) > 0 && !want[set] {
			continue
		}
		rel, err := strconv.ParseFloat(vals[3], 64)
		if err != nil {
			return nil, fmt.Errorf("sick: line %d: relatedness %q: %w", line, vals[3], err)
		}
		pairs = append(pairs, Pair{A: vals[0], B: vals[1], Label: strings.ToUpper(vals[2]), Relatedness: rel, Set: set})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sick: %w", err)
	}
	return pairs, nil
}

// Run reads a SICK file, keeps the pairs of split (see Read), embeds both
// sentences of every pair with emb and correlates their cosine with the
// human relatedness score, and runs c on every pair to score contradiction
// detection. c may be nil, in which case precision, recall and F1 are nil.
func Run(ctx context.Context, r io.Reader, split string, emb semantic.Embedder, c Contradictor) (Result, error) {
	pairs, err := Read(r, split)
	if err != nil {
		return Result{}, err
	}
	res, err := Evaluate(ctx, pairs, emb, c)
	if err != nil {
		return Result{}, err
	}
	res.Split = strings.ToUpper(strings.TrimSpace(split))
	if res.Split == "" {
		res.Split = "ALL"
	}
	return res, nil
}

// Evaluate scores already loaded pairs; see Run.
func Evaluate(ctx context.Context, pairs []Pair, emb semantic.Embedder, c Contradictor) (Result, error) {
	if len(pairs) == 0 {
		return Result{}, fmt.Errorf("sick: no pairs to evaluate")
	}
	res := Result{N: len(pairs), Embedder: emb.Model()}
	const batch = 256
	gold := make([]float64, len(pairs))
	cos := make([]float64, len(pairs))
	for start := 0; start < len(pairs); start += batch {
		end := min(start+batch, len(pairs))
		texts := make([]string, 0, 2*(end-start))
		for _, p := range pairs[start:end] {
			texts = append(texts, p.A, p.B)
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return Result{}, fmt.Errorf("sick: embed: %w", err)
		}
		if len(vecs) != len(texts) {
			return Result{}, fmt.Errorf("sick: embedder returned %d vectors for %d texts", len(vecs), len(texts))
		}
		for i := start; i < end; i++ {
			gold[i] = pairs[i].Relatedness
			cos[i] = Cosine(vecs[2*(i-start)], vecs[2*(i-start)+1])
		}
	}
	res.Pearson = Pearson(gold, cos)
	res.Spearman = Spearman(gold, cos)
	if c != nil {
		for _, p := range pairs {
			pred := c.Contradiction(p.A, p.B).Contradicts
			actual := p.Label == "CONTRADICTION"
			switch {
			case pred && actual:
				res.TP++
			case pred && !actual:
				res.FP++
			case !pred && actual:
				res.FN++
			default:
				res.TN++
			}
		}
		var why []string
		if res.TP+res.FP > 0 {
			res.Precision = ptr(float64(res.TP) / float64(res.TP+res.FP))
		} else {
			why = append(why, "precision: the decider flagged no pair")
		}
		if res.TP+res.FN > 0 {
			res.Recall = ptr(float64(res.TP) / float64(res.TP+res.FN))
		} else {
			why = append(why, "recall: no pair is labelled CONTRADICTION")
		}
		switch {
		case res.Precision == nil || res.Recall == nil:
			why = append(why, "f1: needs precision and recall")
		case *res.Precision+*res.Recall > 0:
			res.F1 = ptr(2 * *res.Precision * *res.Recall / (*res.Precision + *res.Recall))
		default:
			res.F1 = ptr(0)
		}
		res.Undefined = strings.Join(why, "; ")
	} else {
		res.Undefined = "no contradiction decider given"
	}
	return res, nil
}

// Cosine returns the cosine of two vectors (0 when either is zero).
func Cosine(a, b semantic.Vector) float64 {
	var dot, na, nb float64
	for i := range a {
		if i >= len(b) {
			break
		}
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// Pearson returns the Pearson correlation of x and y (0 when undefined).
func Pearson(x, y []float64) float64 {
	n := float64(len(x))
	if len(x) != len(y) || len(x) < 2 {
		return 0
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their ranks, ties getting their average rank.
func Spearman(x, y []float64) float64 {
	return Pearson(ranks(x), ranks(y))
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func ptr(v float64) *float64 { return &v }
