// Package review is the consistency review of a session: the verdicts
// stated on pairs of thoughts (links in the graph), the groups of claims put
// to the model and how its answers are stored, the contradictions the
// offline judge is certain of, and the questions on circular arguments. It
// holds no state of its own: branch-thinking (reasoning/branching) keeps a
// session's review state and runs the commands (findContradictions,
// detectCircular, judge).
//
// Whether two sentences can both be true rests on knowledge of the world
// and of paraphrase that no rule list holds; the calling model has it. So
// the offline judge asserts only what it is certain of
// (contradict.Contradictor.Certain), the claims of the session are grouped
// by what they speak of (analyze.GroupClaims), and the model answers a group
// in one call. An answer is a verdict link; a group whose every pair of
// thoughts has a verdict is not asked again until a new claim joins it.
package review

import (
	"cmp"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Stated verdicts. A verdict is a link between two thoughts, so it lives in
// the graph, is exported and imported with it, and every analysis reads it
// from there:
//
//   - contradictory (a declared cross-reference, or verdict "contradiction"):
//     the pair is a contradiction in findContradictions, evaluate,
//     synthesizeDialectical, suggestTools, exports and the viewer;
//   - compatible: the pair is not a contradiction (also when the offline
//     judge says it is) and its review groups are settled;
//   - circular / not_circular: the same for detectCircular.
//
// The latest verdict on a pair wins.

// Link types of stated verdicts (contradictory is also a cross-reference
// type, reasoning.CrossRefTypes).
const (
	LinkContradictory = "contradictory"
	LinkCompatible    = reasoning.LinkCompatible
	LinkCircular      = reasoning.LinkCircular
	LinkNotCircular   = reasoning.LinkNotCircular
)

// Verdicts are the verdicts judge takes on two thoughts.
var Verdicts = []string{"contradiction", "compatible", "consistent", "circular", "not_circular"}

// VerdictLink maps a verdict to its link type; "consistent" and
// "compatible" say the same of two thoughts.
var VerdictLink = map[string]string{"contradiction": LinkContradictory, "compatible": LinkCompatible, "consistent": LinkCompatible, "circular": LinkCircular, "not_circular": LinkNotCircular}

// PairKey is an unordered pair of thought ids (smaller first).
type PairKey [2]string

// KeyOf returns the key of the pair a, b.
func KeyOf(a, b string) PairKey {
	if b < a {
		a, b = b, a
	}
	return PairKey{a, b}
}

// Stated are a session's stated verdicts on thought pairs.
type Stated struct {
	links int
	// contra holds the latest contradictory/compatible link per pair,
	// circular the latest circular/not_circular link.
	contra   map[PairKey]thinkgraph.Link
	circular map[PairKey]thinkgraph.Link
}

// StatedOf reads the verdicts from links in creation order (the store's
// order), so that a later verdict on a pair replaces an earlier one.
func StatedOf(links []thinkgraph.Link) *Stated {
	v := &Stated{links: len(links), contra: map[PairKey]thinkgraph.Link{}, circular: map[PairKey]thinkgraph.Link{}}
	for _, l := range links {
		if l.FromThought == "" || l.ToThought == "" || l.FromThought == l.ToThought {
			continue
		}
		k := KeyOf(l.FromThought, l.ToThought)
		switch l.Type {
		case LinkContradictory, LinkCompatible:
			v.contra[k] = l
		case LinkCircular, LinkNotCircular:
			v.circular[k] = l
		}
	}
	return v
}

// Links is the number of the session's links the verdicts were read from
// (links are only ever added, so a different count means new verdicts).
func (v *Stated) Links() int {
	if v == nil {
		return -1
	}
	return v.links
}

// Contradicts returns the stated contradiction verdict on a pair: whether
// there is one, and whether it says contradictory.
func (v *Stated) Contradicts(a, b string) (stated, contradictory bool, l thinkgraph.Link) {
	if v == nil {
		return false, false, l
	}
	l, ok := v.contra[KeyOf(a, b)]
	return ok, ok && l.Type == LinkContradictory, l
}

// Circular returns the latest circular or not_circular link on a pair.
func (v *Stated) Circular(a, b string) (thinkgraph.Link, bool) {
	if v == nil {
		return thinkgraph.Link{}, false
	}
	l, ok := v.circular[KeyOf(a, b)]
	return l, ok
}

// Compatible calls f with every pair stated compatible.
func (v *Stated) Compatible(f func(k PairKey, l thinkgraph.Link)) {
	if v == nil {
		return
	}
	for k, l := range v.contra {
		if l.Type == LinkCompatible {
			f(k, l)
		}
	}
}

// DeclaredReason is the reason of a stated contradiction.
func DeclaredReason(l thinkgraph.Link) string {
	if r := strings.TrimSpace(l.Reason); r != "" {
		return "declared contradictory: " + r
	}
	return "declared contradictory"
}

// Contradictions are the stated contradictions between thoughts in docs for
// which keep is true (nil: all), earlier thought first.
func (v *Stated) Contradictions(docs []analyze.Doc, byID map[string]int, keep func(a, b analyze.Doc) bool) []analyze.Contradiction {
	if v == nil {
		return nil
	}
	var out []analyze.Contradiction
	for k, l := range v.contra {
		if l.Type != LinkContradictory {
			continue
		}
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if !okA || !okB {
			continue
		}
		a, b := docs[i], docs[j]
		if b.Step < a.Step {
			a, b = b, a
		}
		if keep != nil && !keep(a, b) {
			continue
		}
		out = append(out, analyze.Contradiction{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: semantic.Cosine(a.Vector, b.Vector),
			Confidence: 1, Reason: DeclaredReason(l), Source: "declared"})
	}
	slices.SortFunc(out, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(x.ThoughtA.Step, y.ThoughtA.Step), cmp.Compare(x.ThoughtB.Step, y.ThoughtB.Step))
	})
	return out
}

// With returns cs with every stated contradiction among docs that keep
// accepts: those cs holds are marked declared, the others appended.
func (v *Stated) With(cs []analyze.Contradiction, docs []analyze.Doc, byID map[string]int, keep func(a, b analyze.Doc) bool) []analyze.Contradiction {
	stated := v.Contradictions(docs, byID, keep)
	if len(stated) == 0 {
		return cs
	}
	at := map[PairKey]int{}
	for i, c := range cs {
		at[KeyOf(c.ThoughtA.ID, c.ThoughtB.ID)] = i
	}
	for _, s := range stated {
		if i, ok := at[KeyOf(s.ThoughtA.ID, s.ThoughtB.ID)]; ok {
			cs[i].Source, cs[i].Confidence, cs[i].Reason = "declared", 1, s.Reason
			continue
		}
		cs = append(cs, s)
	}
	slices.SortStableFunc(cs, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(y.Similarity, x.Similarity))
	})
	return cs
}

// CircularWith applies the stated circularity verdicts to found: a
// not_circular verdict on a pair drops the findings of exactly that pair, a
// circular verdict adds the pair when nothing reports it yet.
func (v *Stated) CircularWith(found []analyze.CircularReasoning, docs []analyze.Doc, byID map[string]int) []analyze.CircularReasoning {
	if v == nil || len(v.circular) == 0 {
		return found
	}
	pairOf := func(c analyze.CircularReasoning) (PairKey, bool) {
		if len(c.Thoughts) != 2 {
			return PairKey{}, false
		}
		return KeyOf(c.Thoughts[0].ID, c.Thoughts[1].ID), true
	}
	out := found[:0:0]
	reported := map[PairKey]bool{}
	for _, c := range found {
		k, ok := pairOf(c)
		if ok {
			if l, stated := v.circular[k]; stated && l.Type == LinkNotCircular {
				continue
			}
			reported[k] = true
		}
		out = append(out, c)
	}
	var keys []PairKey
	for k, l := range v.circular {
		if l.Type == LinkCircular && !reported[k] {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y PairKey) int { return cmp.Or(strings.Compare(x[0], y[0]), strings.Compare(x[1], y[1])) })
	for _, k := range keys {
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if !okA || !okB {
			continue
		}
		a, b := docs[i], docs[j]
		if b.Step > a.Step {
			a, b = b, a // the later thought first
		}
		l := v.circular[k]
		reason := "declared circular"
		if r := strings.TrimSpace(l.Reason); r != "" {
			reason += ": " + r
		}
		out = append(out, analyze.CircularReasoning{Kind: "declared", Thoughts: []analyze.ThoughtRef{analyze.Ref(a), analyze.Ref(b)}, Reason: reason})
	}
	return out
}

// Latest returns links without the verdicts a later verdict on the same
// pair replaced (of the same family: contradictory/compatible, or
// circular/not_circular), in their order: what a session states now, for
// counting and drawing. Other links are kept.
func Latest(links []thinkgraph.Link) []thinkgraph.Link {
	type key struct {
		pair     PairKey
		circular bool
	}
	last := map[key]int{}
	family := func(l thinkgraph.Link) (key, bool) {
		if l.FromThought == "" || l.ToThought == "" || l.FromThought == l.ToThought {
			return key{}, false
		}
		switch l.Type {
		case LinkContradictory, LinkCompatible:
			return key{KeyOf(l.FromThought, l.ToThought), false}, true
		case LinkCircular, LinkNotCircular:
			return key{KeyOf(l.FromThought, l.ToThought), true}, true
		}
		return key{}, false
	}
	for i, l := range links {
		if k, ok := family(l); ok {
			last[k] = i
		}
	}
	out := make([]thinkgraph.Link, 0, len(links))
	for i, l := range links {
		if k, ok := family(l); ok && last[k] != i {
			continue
		}
		out = append(out, l)
	}
	return out
}
