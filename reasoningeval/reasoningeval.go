// Package reasoningeval measures thinkgraph's reasoning checks on a labelled
// set of reasoning-style text: short thoughts about engineering, product,
// planning and analysis, the text the checks really get.
//
// The set is JSON Lines, one item a line, of these kinds:
//
//	{"id":"…","kind":"pair","a":"…","b":"…","label":"contradiction|neutral|entailment","category":"…"}
//	{"id":"…","kind":"retrieval","docs":["…"],"queries":[{"q":"…","answer":3}]}
//	{"id":"…","kind":"circular","thoughts":["…"],"circular":true,"involved":[0,1]}
//	{"id":"…","kind":"session","thoughts":["…"],"pair":[2,9],"label":"contradiction|neutral"}
//	{"id":"…","kind":"clean","question":"…","steps":["…"]}
//
// Pairs go through the contradiction judge that findContradictions uses
// (contradiction is the positive class, neutral and entailment the
// negatives). Each retrieval item becomes a fresh session whose docs are
// written as thoughts in order; each query goes through findSimilar and
// counts when its answer comes first. Each circular item becomes a fresh
// session whose thoughts are written in order on one branch, and
// detectCircular's verdict is compared with the label. A session item's
// review is scored as review.go says. A clean item is a correct
// step-by-step solution (equations, code, computation): its steps are
// written as thoughts of branch main in a fresh session, then
// findContradictions and detectCircular run, and every contradiction
// asserted and every circular finding is false (see CleanFigures).
//
// The reasoning set in testdata/ was written for thinkgraph and is released
// under CC0 1.0.
package reasoningeval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/branching"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
)

// Item is one line of the set.
type Item struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"` // pair, retrieval or circular
	A        string `json:"a"`
	B        string `json:"b"`
	Label    string `json:"label"`
	Category string `json:"category"`
	Docs     []string
	Queries  []Query
	Thoughts []string
	Circular bool
	Involved []int
	// Pair names the two thoughts (0-based) of a session item that do or do
	// not contradict (Label); Generator the model that wrote it.
	Pair      []int
	Generator string
	// Question and Steps are a clean item's problem and its solution, one
	// thought a step.
	Question string
	Steps    []string
}

// Query is one retrieval query: Answer indexes the item's Docs.
type Query struct {
	Q      string `json:"q"`
	Answer int    `json:"answer"`
}

// Read parses a set; it refuses a line that is not a known kind or lacks
// what its kind needs, naming the line.
func Read(r io.Reader) ([]Item, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var items []Item
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var raw struct {
			Item
			Docs      []string `json:"docs"`
			Queries   []Query  `json:"queries"`
			Thoughts  []string `json:"thoughts"`
			Circular  bool     `json:"circular"`
			Involved  []int    `json:"involved"`
			Pair      []int    `json:"pair"`
			Generator string   `json:"generator"`
			Question  string   `json:"question"`
			Steps     []string `json:"steps"`
		}
		if err := json.Unmarshal([]byte(text), &raw); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		it := raw.Item
		it.Docs, it.Queries, it.Thoughts, it.Circular, it.Involved = raw.Docs, raw.Queries, raw.Thoughts, raw.Circular, raw.Involved
		it.Pair, it.Generator, it.Question, it.Steps = raw.Pair, raw.Generator, raw.Question, raw.Steps
		switch it.Kind {
		case "pair":
			if it.A == "" || it.B == "" || it.Label == "" {
				return nil, fmt.Errorf("line %d (%s): a pair needs a, b and label", line, it.ID)
			}
		case "retrieval":
			for _, q := range it.Queries {
				if q.Answer < 0 || q.Answer >= len(it.Docs) {
					return nil, fmt.Errorf("line %d (%s): answer %d is outside the %d docs", line, it.ID, q.Answer, len(it.Docs))
				}
			}
		case "circular":
			if len(it.Thoughts) == 0 {
				return nil, fmt.Errorf("line %d (%s): a circular item needs thoughts", line, it.ID)
			}
		case "session":
			if len(it.Thoughts) < 2 || len(it.Pair) != 2 || it.Label == "" {
				return nil, fmt.Errorf("line %d (%s): a session needs at least two thoughts, a pair [i, j] and a label", line, it.ID)
			}
			for _, i := range it.Pair {
				if i < 0 || i >= len(it.Thoughts) {
					return nil, fmt.Errorf("line %d (%s): pair index %d is outside the %d thoughts", line, it.ID, i, len(it.Thoughts))
				}
			}
			if it.Category == "" {
				it.Category = it.Generator
			}
		case "clean":
			if len(it.Steps) == 0 || slices.Contains(it.Steps, "") {
				return nil, fmt.Errorf("line %d (%s): a clean item needs steps, none of them empty", line, it.ID)
			}
		default:
			return nil, fmt.Errorf("line %d (%s): unknown kind %q (want pair, retrieval, circular, session or clean)", line, it.ID, it.Kind)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("no items")
	}
	return items, nil
}

// Judge decides whether two thoughts contradict each other;
// *contradict.Contradictor implements it.
type Judge interface {
	Contradiction(a, b string) contradict.Verdict
}

// Category is the outcome on one pair category: for a contradiction
// category Correct counts the pairs found (recall), for a non-contradiction
// category the pairs left alone (1 − false-positive rate).
type Category struct {
	Name          string
	Contradiction bool // whether the category's pairs are contradictions
	N, Correct    int
}

// Miss is one item the checks got wrong, for reading.
type Miss struct {
	ID, Kind, Category, Detail string
}

// Result is the outcome of one run. A figure that cannot be computed (no
// item of its kind, or a zero denominator) is nil, with the reason in
// Undefined.
type Result struct {
	Embedder string
	Pairs    int
	TP, FP   int
	FN, TN   int

	Precision, Recall, F1 *float64
	Categories            []Category

	Queries, Top1, Top3 int
	Retrieval           *float64 // top-1 accuracy
	RetrievalTop3       *float64
	MRR                 *float64

	CircularItems        int
	CTP, CFP, CFN, CTN   int
	CircularF1           *float64
	CircularP, CircularR *float64
	CircularJaccard      *float64 // mean overlap of named thoughts with involved, over true positives
	// PairReview and SessionReview are the review's figures (review.go) on
	// the pairs, each run as a session of two thoughts, and on the session
	// items.
	PairReview, SessionReview ReviewFigures
	// Clean are the figures on the clean items: every finding is false.
	Clean     CleanFigures
	Misses    []Miss
	Undefined []string
}

func ratio(n, d int) *float64 {
	if d == 0 {
		return nil
	}
	v := float64(n) / float64(d)
	return &v
}

// f1 is 2·TP / (2·TP + FP + FN): defined whenever there is a positive,
// gold or predicted (it is 0 when none of the gold positives was found).
func f1(tp, fp, fn int) *float64 {
	return ratio(2*tp, 2*tp+fp+fn)
}

// Run scores items: pairs with judge, retrieval and circular items through
// svc's branch-thinking tool (svc must have its semantic engine enabled;
// each item gets a fresh session).
func Run(ctx context.Context, items []Item, svc *reasoning.Service, judge Judge, embedder string) (Result, error) {
	res := Result{Embedder: embedder}
	cats := map[string]*Category{}
	bt := branching.NewBranchThinking(svc, nil)
	var jac float64
	for _, it := range items {
		switch it.Kind {
		case "pair":
			res.Pairs++
			v := judge.Contradiction(it.A, it.B)
			gold := it.Label == "contradiction"
			c := cats[it.Category]
			if c == nil {
				c = &Category{Name: it.Category, Contradiction: gold}
				cats[it.Category] = c
			}
			c.N++
			if v.Contradicts == gold {
				c.Correct++
			} else {
				detail := "missed"
				if v.Contradicts {
					detail = "false alarm: " + v.Reason
				}
				res.Misses = append(res.Misses, Miss{it.ID, it.Kind, it.Category, detail})
			}
			switch {
			case v.Contradicts && gold:
				res.TP++
			case v.Contradicts:
				res.FP++
			case gold:
				res.FN++
			default:
				res.TN++
			}
			if err := reviewPairItem(ctx, bt, it, &res.PairReview); err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
		case "session":
			m, missed, err := runSession(ctx, bt, it, &res.SessionReview)
			if err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
			if missed {
				res.Misses = append(res.Misses, m)
			}
		case "clean":
			m, err := runClean(ctx, bt, it, &res.Clean)
			if err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
			res.Misses = append(res.Misses, m...)
		case "retrieval":
			ids, sess, err := write(ctx, bt, it.Docs)
			if err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
			limit := len(it.Docs)
			for qi, q := range it.Queries {
				out, err := bt.Command(ctx, branching.CommandInput{Session: sess, Type: "findSimilar", Query: q.Q, Limit: &limit})
				if err != nil {
					return Result{}, fmt.Errorf("%s query %d: %w", it.ID, qi, err)
				}
				hits := out.(*branching.SimilarResult).Results
				res.Queries++
				rank := 0
				for i, h := range hits {
					if h.ThoughtID == ids[q.Answer] {
						rank = i + 1
						break
					}
				}
				if rank == 1 {
					res.Top1++
				} else {
					res.Misses = append(res.Misses, Miss{fmt.Sprintf("%s#%d", it.ID, qi), it.Kind, "", fmt.Sprintf("answer ranked %d", rank)})
				}
				if rank >= 1 && rank <= 3 {
					res.Top3++
				}
				if rank > 0 {
					if res.MRR == nil {
						res.MRR = new(float64)
					}
					*res.MRR += 1 / float64(rank)
				}
			}
		case "circular":
			ids, sess, err := write(ctx, bt, it.Thoughts)
			if err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
			out, err := bt.Command(ctx, branching.CommandInput{Session: sess, Type: "detectCircular"})
			if err != nil {
				return Result{}, fmt.Errorf("%s: %w", it.ID, err)
			}
			found := out.(*branching.CircularResult).Circular
			res.CircularItems++
			pred := len(found) > 0
			switch {
			case pred && it.Circular:
				res.CTP++
				jac += jaccard(ids, it.Involved, found)
			case pred:
				res.CFP++
				res.Misses = append(res.Misses, Miss{it.ID, it.Kind, "", "false alarm: " + found[0].Reason})
			case it.Circular:
				res.CFN++
				res.Misses = append(res.Misses, Miss{it.ID, it.Kind, "", "missed"})
			default:
				res.CTN++
			}
		}
	}
	if res.PairReview.Items+res.SessionReview.Items == 0 {
		res.Undefined = append(res.Undefined, "no pair or session items: surfaced_recall and asserted_precision are null")
	} else if res.PairReview.Positives+res.SessionReview.Positives == 0 {
		res.Undefined = append(res.Undefined, "no planted contradiction: surfaced_recall is null")
	}
	if res.PairReview.Items > 0 && res.PairReview.Asserted == 0 {
		res.Undefined = append(res.Undefined, "no pair asserted a contradiction: pair asserted_precision is null")
	}
	if res.SessionReview.Items > 0 && res.SessionReview.Asserted == 0 {
		res.Undefined = append(res.Undefined, "no session asserted a contradiction: session asserted_precision is null")
	}
	if res.Pairs == 0 {
		res.Undefined = append(res.Undefined, "no pair items: contradiction figures are null")
	} else {
		res.Precision = ratio(res.TP, res.TP+res.FP)
		res.Recall = ratio(res.TP, res.TP+res.FN)
		res.F1 = f1(res.TP, res.FP, res.FN)
		if res.Precision == nil {
			res.Undefined = append(res.Undefined, "no pair judged a contradiction: precision is null")
		}
	}
	if res.Queries == 0 {
		res.Undefined = append(res.Undefined, "no retrieval queries: retrieval figures are null")
	} else {
		res.Retrieval = ratio(res.Top1, res.Queries)
		res.RetrievalTop3 = ratio(res.Top3, res.Queries)
		if res.MRR == nil {
			res.MRR = new(float64)
		}
		*res.MRR /= float64(res.Queries)
	}
	if res.CircularItems == 0 {
		res.Undefined = append(res.Undefined, "no circular items: circular figures are null")
	} else {
		res.CircularP = ratio(res.CTP, res.CTP+res.CFP)
		res.CircularR = ratio(res.CTP, res.CTP+res.CFN)
		res.CircularF1 = f1(res.CTP, res.CFP, res.CFN)
		if res.CTP > 0 {
			v := jac / float64(res.CTP)
			res.CircularJaccard = &v
		}
		if res.CircularP == nil {
			res.Undefined = append(res.Undefined, "no argument judged circular: circular precision is null")
		}
	}
	for _, c := range cats {
		res.Categories = append(res.Categories, *c)
	}
	sort.Slice(res.Categories, func(i, j int) bool {
		a, b := res.Categories[i], res.Categories[j]
		if a.Contradiction != b.Contradiction {
			return a.Contradiction
		}
		return a.Name < b.Name
	})
	return res, nil
}

// write adds texts as thoughts, in order, on the main branch of a fresh
// session, all of one type (the checks must not depend on it), and returns
// their ids.
func write(ctx context.Context, bt *branching.BranchThinking, texts []string) ([]string, reasoning.SessionRef, error) {
	// Like a connection's own session: created by its first thought.
	sess := reasoning.SessionRef{ID: reasoning.NewID()}
	ids := make([]string, len(texts))
	for i, t := range texts {
		out, err := bt.AddThought(ctx, branching.BranchThoughtInput{Session: sess, Content: t, Type: "analysis"})
		if err != nil {
			return nil, sess, err
		}
		ids[i] = out.ThoughtID
	}
	return ids, sess, nil
}

// jaccard is the overlap of the thoughts named by found with the involved
// ones.
func jaccard(ids []string, involved []int, found []analyze.CircularReasoning) float64 {
	want := map[string]bool{}
	for _, i := range involved {
		if i >= 0 && i < len(ids) {
			want[ids[i]] = true
		}
	}
	got := map[string]bool{}
	for _, f := range found {
		for _, t := range f.Thoughts {
			got[t.ID] = true
		}
	}
	inter, union := 0, len(want)
	for id := range got {
		if want[id] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

func fig(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%.4f", *v)
}

// Surfaced returns the review's figures over every pair and session item.
func (r Result) Surfaced() ReviewFigures {
	f := r.PairReview
	g := r.SessionReview
	f.Items += g.Items
	f.Positives += g.Positives
	f.Surfaced += g.Surfaced
	f.Asserted += g.Asserted
	f.AssertedTrue += g.AssertedTrue
	f.Calls += g.Calls
	f.Claims += g.Claims
	f.Bytes += g.Bytes
	f.Elapsed += g.Elapsed
	f.ByCategory = nil
	return f
}

// String formats the result: the headline line "surfaced_recall=
// asserted_precision= retrieval_top1= circular_f1=" (the review over pairs
// and sessions, retrieval, circularity), the rules of the offline judge
// taken alone ("rules_f1= …": what they would assert if every firing were
// trusted; findContradictions asserts only the certain ones), then the
// review per kind, one line per category and the secondary figures.
func (r Result) String() string {
	var b strings.Builder
	all := r.Surfaced()
	fmt.Fprintf(&b, "surfaced_recall=%s asserted_precision=%s retrieval_top1=%s circular_f1=%s\n",
		fig(all.SurfacedRecall()), fig(all.AssertedPrecision()), fig(r.Retrieval), fig(r.CircularF1))
	fmt.Fprintf(&b, "embedder=%s pairs=%d rules_f1=%s rules_precision=%s rules_recall=%s tp=%d fp=%d fn=%d tn=%d queries=%d retrieval_top3=%s mrr=%s circular_items=%d circular_precision=%s circular_recall=%s circular_jaccard=%s\n",
		r.Embedder, r.Pairs, fig(r.F1), fig(r.Precision), fig(r.Recall), r.TP, r.FP, r.FN, r.TN, r.Queries, fig(r.RetrievalTop3), fig(r.MRR), r.CircularItems, fig(r.CircularP), fig(r.CircularR), fig(r.CircularJaccard))
	if s := r.PairReview.String("pairs"); s != "" {
		fmt.Fprintln(&b, s)
	}
	if s := r.SessionReview.String("sessions"); s != "" {
		fmt.Fprintln(&b, s)
	}
	if s := r.Clean.String(); s != "" {
		fmt.Fprintln(&b, s)
	}
	for _, c := range r.Categories {
		what := "recall"
		if !c.Contradiction {
			what = "kept_apart"
		}
		fmt.Fprintf(&b, "rules category=%s %s=%d/%d (%.2f)\n", c.Name, what, c.Correct, c.N, float64(c.Correct)/float64(c.N))
	}
	for _, u := range r.Undefined {
		fmt.Fprintf(&b, "null: %s\n", u)
	}
	return strings.TrimRight(b.String(), "\n")
}
