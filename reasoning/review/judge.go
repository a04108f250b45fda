package review

import (
	"cmp"
	"slices"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
)

// maxVerdicts bounds a Memo's verdicts (about 100 bytes each; the map is
// emptied when it is full).
const maxVerdicts = 1 << 17

// Memo remembers the certain judge's verdicts, per pair of thoughts and
// per pair of claims: thoughts never change their text. It is safe for
// concurrent use (analyses judge on several goroutines).
type Memo struct {
	mu     sync.Mutex
	pairs  map[[2]string]contradict.Verdict
	claims map[[2]ClaimKey]contradict.Verdict
}

// ClaimKey names a claim: its thought's id and its index there.
type ClaimKey struct {
	Thought string
	K       int
}

func (m *Memo) pair(k [2]string) (contradict.Verdict, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.pairs[k]
	return v, ok
}

func (m *Memo) putPair(k [2]string, v contradict.Verdict) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pairs == nil || len(m.pairs) > maxVerdicts {
		m.pairs = map[[2]string]contradict.Verdict{}
	}
	m.pairs[k] = v
}

// certain is c.Certain on two claims, remembered.
func (m *Memo) certain(c *contradict.Contradictor, a, b ClaimKey, ta, tb string) contradict.Verdict {
	k := [2]ClaimKey{a, b}
	m.mu.Lock()
	v, ok := m.claims[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = c.Certain(ta, tb)
	m.mu.Lock()
	if m.claims == nil || len(m.claims) > maxVerdicts {
		m.claims = map[[2]ClaimKey]contradict.Verdict{}
	}
	m.claims[k] = v
	m.mu.Unlock()
	return v
}

// Asserted returns the contradictions the offline judge is certain of
// between two claims of one group, pairs with a stated verdict left out
// (Stated.With adds the stated ones), most confident first.
func (v *Stated) Asserted(docs []analyze.Doc, groups []analyze.ReviewGroup, c *contradict.Contradictor, memo *Memo) []analyze.Contradiction {
	out := []analyze.Contradiction{}
	seen := map[PairKey]bool{}
	corrected := analyze.Corrections(docs)
	for _, g := range groups {
		for i, x := range g.Claims {
			for _, y := range g.Claims[i+1:] {
				a, b := docs[x.Doc], docs[y.Doc]
				k := KeyOf(a.ID, b.ID)
				if seen[k] {
					continue
				}
				if stated, _, _ := v.Contradicts(a.ID, b.ID); stated {
					continue
				}
				w := memo.certain(c, ClaimKey{a.ID, x.K}, ClaimKey{b.ID, y.K}, a.Claims[x.K].Text, b.Claims[y.K].Text)
				if !w.Contradicts || corrected(x.Doc, y.Doc) {
					continue // (or the session took the earlier step back in between)
				}
				seen[k] = true
				if b.Step < a.Step {
					a, b = b, a
				}
				out = append(out, analyze.Contradiction{ThoughtA: analyze.Ref(a), ThoughtB: analyze.Ref(b), Similarity: semantic.Cosine(a.Vector, b.Vector),
					Confidence: w.Confidence, Reason: w.Reason})
			}
		}
	}
	slices.SortFunc(out, func(x, y analyze.Contradiction) int {
		return cmp.Or(cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.ThoughtA.Step, y.ThoughtA.Step), cmp.Compare(x.ThoughtB.Step, y.ThoughtB.Step))
	})
	return out
}

// certainMinCosine is the cosine below which two claims are not compared
// for a certain contradiction: a near-minimal pair (70% of each side's
// content words matched in the other) is far above it.
const certainMinCosine = 0.5

// PairJudge is the offline judge on two thoughts as the analyses that
// compare thoughts (evaluation, synthesis) use it: a stated verdict
// decides; else the two are a contradiction when the certain judge fires on
// a claim of one and its most similar claim of the other (linear in the
// claims, whatever the thoughts' length).
func (v *Stated) PairJudge(c *contradict.Contradictor, memo *Memo) analyze.PairJudge {
	return func(a, b analyze.Doc) (bool, float64, string) {
		if stated, contra, l := v.Contradicts(a.ID, b.ID); stated {
			if contra {
				return true, 1, DeclaredReason(l)
			}
			return false, 0, ""
		}
		k := [2]string{a.ID, b.ID}
		if k[1] < k[0] {
			k[0], k[1] = k[1], k[0]
		}
		if w, ok := memo.pair(k); ok {
			return w.Contradicts, w.Confidence, w.Reason
		}
		var w contradict.Verdict
		units := make([]semantic.Vector, len(b.Claims))
		for j, y := range b.Claims {
			units[j] = semantic.AsUnit(y.Vector)
		}
		for _, x := range a.Claims {
			best, bs := -1, float32(certainMinCosine)
			ux := semantic.AsUnit(x.Vector)
			for j, uy := range units {
				if len(ux) == len(uy) && len(ux) > 0 {
					if s := semantic.Dot(ux, uy); s >= bs {
						best, bs = j, s
					}
				}
			}
			if best < 0 {
				continue
			}
			if u := c.Certain(x.Text, b.Claims[best].Text); u.Contradicts && u.Confidence > w.Confidence {
				w = u
			}
		}
		memo.putPair(k, w)
		return w.Contradicts, w.Confidence, w.Reason
	}
}
