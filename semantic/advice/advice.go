// Package advice holds the verdicts branch-thinking's advice rests on, read
// from a session's thoughts and vectors: which branches are closed by their
// own reasoning (Closures) and which drift from the goal (DetectDrift), the
// session's conclusion, and the strongest paths through the thought tree
// (RankPaths). Like semantic/analyze, whose Doc it reads, it never touches
// a database.
package advice

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// minTrendThoughts is the number of thoughts with vectors a drift verdict
// needs: one thought's low similarity is no trend.
const minTrendThoughts = 4

// byStep returns the docs sorted by step, then id.
func byStep(docs []analyze.Doc) []analyze.Doc {
	out := slices.Clone(docs)
	slices.SortStableFunc(out, func(a, b analyze.Doc) int {
		if c := cmp.Compare(a.Step, b.Step); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// vectors are the unit vectors of the docs that have one (all of the
// first one's length): row r is docs[rows[r]].
type vectors struct {
	dim  int
	unit [][]float32
	rows []int
	row  map[int]int // doc position -> row
}

func vectorsOf(docs []analyze.Doc) vectors {
	v := vectors{row: map[int]int{}}
	for i, d := range docs {
		if len(d.Vector) == 0 || (v.dim != 0 && len(d.Vector) != v.dim) {
			continue
		}
		v.dim = len(d.Vector)
		v.row[i] = len(v.rows)
		v.rows = append(v.rows, i)
		v.unit = append(v.unit, semantic.AsUnit(d.Vector))
	}
	return v
}

// sim is the cosine of the docs at positions i and j, false when one has
// no vector.
func (v vectors) sim(i, j int) (float64, bool) {
	ri, ok1 := v.row[i]
	rj, ok2 := v.row[j]
	if !ok1 || !ok2 {
		return 0, false
	}
	return float64(semantic.Dot(v.unit[ri], v.unit[rj])), true
}

// isQuestion reports whether d asks something.
func isQuestion(d analyze.Doc) bool {
	return thinkgraph.RoleOf(d.Type).Asks || strings.HasSuffix(strings.TrimSpace(d.Content), "?")
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
