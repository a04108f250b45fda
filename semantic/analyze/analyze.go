// Package analyze holds the analyses of a session that the reasoning tools
// expose: contradictions (decided by a PairJudge the caller adapts, such as
// semantic/contradict), circular reasoning and the argument graph it reads,
// drift, redundancy, knowledge gaps, branch profiles, semantic and strongest
// paths, and branch evaluation, with the calibration of an embedder's
// cosines they use.
//
// Analyzers are pure functions of thoughts and vectors: they never touch a
// database. Callers load thoughts from the store, embed them (or read their
// persisted vectors) and hand both in.
package analyze

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// Doc is one thought as the analyzers see it.
type Doc struct {
	ID         string
	SessionID  string
	Branch     string   // branch id ("main" by default)
	ParentID   string   // parent thought id, "" for a root
	Step       int      // 1-based step number in the session
	Type       string   // thought type (analysis, hypothesis, ...), may be ""
	Content    string   // the thought text
	Confidence *float64 // nil when unknown
	KeyPoints  []string
	// DependsOn lists ids of thoughts this one explicitly builds upon
	// (cross-references, revisions); used by circular-reasoning detection.
	DependsOn []string
	Vector    semantic.Vector // may be nil until the embedder has filled it in
	// Claims are the thought's claims (package semantic/claims), in order,
	// each with its vector; a thought of one claim has the thought's
	// vector as its claim's. Nil until the thought is embedded.
	Claims []Claim
	// Refuted marks a thought a person refuted: StrongestPaths leaves out
	// every path through it.
	Refuted bool
}

// Claim is one claim of a thought: a sentence, or a clause where one
// sentence joins two claims.
type Claim struct {
	Text   string
	Vector semantic.Vector // nil when it could not be embedded
}

// ErrNotFound is returned when a thought id is not among the given thoughts
// or in the index.
var ErrNotFound = errors.New("semantic: thought not found")

// ErrNoVector is returned when an analysis needs the vector of a thought that
// has none yet.
var ErrNoVector = errors.New("semantic: thought has no vector")

// ThoughtRef names a thought in an analysis result: by step (every field
// that takes a thought id takes its step, and a step is 36 characters
// shorter; ID is for the code that reads the result), with its branch and
// the start of its text,
// clipped to RefClip characters. A result quotes the whole text only where
// it is about that text (findSimilar, history); the whole text of a
// reference is Text, for the code that reads it (an LLM judge's prompt).
type ThoughtRef struct {
	ID      string `json:"-"`
	Step    int    `json:"step,omitempty"`
	Branch  string `json:"branchId"`
	Content string `json:"content,omitempty" jsonschema:"the start of the thought's text (clipped to 80 characters, with …), in the first reference to the thought in a result only; history has the whole text"`
	// text is the whole text (Content clipped it).
	text string
}

// RefClip is the number of characters of a thought's text a reference
// quotes.
const RefClip = 80

// Ref returns the reference to d used in analysis results.
func Ref(d Doc) ThoughtRef {
	return ThoughtRef{ID: d.ID, Branch: d.Branch, Step: d.Step, Content: thinkgraph.Clip(d.Content, RefClip), text: d.Content}
}

// Text is the whole text of the thought (its clipped Content when the
// reference was not made by Ref).
func (r ThoughtRef) Text() string {
	if r.text != "" {
		return r.text
	}
	return r.Content
}

// PairJudge decides whether two thoughts contradict each other, with a
// confidence in [0, 1] and a human-readable reason. The contradiction decider
// of this package (or an LLM judge) is adapted to it by the caller.
type PairJudge func(a, b Doc) (contradicts bool, confidence float64, reason string)

// byStep returns the docs sorted by step, then id (a stable reading order).
func byStep(docs []Doc) []Doc {
	out := slices.Clone(docs)
	slices.SortStableFunc(out, func(a, b Doc) int {
		if c := cmp.Compare(a.Step, b.Step); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// vectored is the subset of a set of docs that have vectors, as a matrix:
// row r is docs[rows[r]].
type vectored struct {
	m    *matrix
	rows []int
	row  map[int]int // doc position -> row
}

// vectorsOf collects the vectors of docs (taking a missing one from idx when
// idx is not nil) into a matrix. Docs without a vector, or whose vector
// length differs from the first one found, are left out.
func vectorsOf(docs []Doc, idx *semantic.Index) vectored {
	vs := make([]semantic.Vector, 0, len(docs))
	vd := vectored{row: make(map[int]int, len(docs))}
	dim := 0
	for i, d := range docs {
		v := d.Vector
		if v == nil && idx != nil {
			v, _ = idx.Vector(d.ID)
		}
		if len(v) == 0 {
			continue
		}
		if dim == 0 {
			dim = len(v)
		}
		if len(v) != dim {
			continue
		}
		vd.row[i] = len(vd.rows)
		vd.rows = append(vd.rows, i)
		vs = append(vs, v)
	}
	vd.m = newMatrix(vs, dim)
	return vd
}

// sim returns the cosine of the docs at positions i and j, and false when one
// of them has no vector.
func (v vectored) sim(i, j int) (float64, bool) {
	ri, ok1 := v.row[i]
	rj, ok2 := v.row[j]
	if !ok1 || !ok2 {
		return 0, false
	}
	return float64(semantic.Dot(v.m.row(ri), v.m.row(rj))), true
}

// simTo returns the cosine of the doc at position i with the unit vector q.
func (v vectored) simTo(i int, q []float32) (float64, bool) {
	ri, ok := v.row[i]
	if !ok || len(q) != v.m.dim {
		return 0, false
	}
	return float64(semantic.Dot(v.m.row(ri), q)), true
}

// isQuestion reports whether d asks something: type question, or text that
// ends with a question mark.
func isQuestion(d Doc) bool {
	return thinkgraph.RoleOf(d.Type).Asks || strings.HasSuffix(strings.TrimSpace(d.Content), "?")
}
