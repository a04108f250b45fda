package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// CircularOptions tunes DetectCircular; zero values mean the defaults.
type CircularOptions struct {
	// Lexicon reads the thoughts' words (nil: the embedded lexicon).
	Lexicon *semantic.Lexicon
	// Cache keeps what reading the thoughts' texts learns for the next
	// call on the same thoughts and more (nil: read every text again).
	Cache *ArgCache
}

// Kinds of circular reasoning reported by DetectCircular.
const (
	// CircularDependencyCycle: thoughts that depend on each other through
	// parent links and builds_upon cross-references.
	CircularDependencyCycle = "dependency_cycle"
	// CircularSupport: a claim supported, directly or through a chain of
	// reasons, by a restatement of itself.
	CircularSupport = "circular_support"
	// CircularRestatedArgument: a thought that offers, as a further reason,
	// the argument of the thought before it again in other words (the same
	// premise for the same conclusion, nothing added): the conclusion still
	// rests on that one premise, and the reasoning goes round.
	CircularRestatedArgument = "restated_argument"
	// CircularMutualSupport: a thought that argues for the premise of the
	// thought before it from that thought's conclusion ("X because Y", then
	// "Y since X", each said in other words): each conclusion rests on the
	// other.
	CircularMutualSupport = "mutual_support"
)

// CircularReasoning is one finding of DetectCircular.
type CircularReasoning struct {
	Kind string `json:"kind"`
	// Thoughts are the cycle in dependency order (each depends on the next,
	// the last on the first), or the thoughts whose claims form a circular
	// argument, in step order.
	Thoughts []ThoughtRef `json:"thoughts"`
	// Support lists the links of a circular argument: which claim is
	// offered as support for which, and the claims that restate each other.
	Support []SupportLink `json:"support,omitempty"`
	Reason  string        `json:"reason"`
}

// SupportLink is one link of a circular argument.
type SupportLink struct {
	// Kind is "supports" (From is offered as a reason for To) or
	// "restates" (From says what To says, in other words).
	Kind string        `json:"kind"`
	From ArgumentClaim `json:"from"`
	To   ArgumentClaim `json:"to"`
	// Marker is the connective that gave a support link ("because", "so",
	// …), or "offered as support" for a thought read as a reason for the
	// thought it follows.
	Marker string `json:"marker,omitempty"`
}

// ArgumentClaim is a clause of a thought in an argument.
// In results it is named by its thought's step; the finding's thoughts
// give the ids.
type ArgumentClaim struct {
	ThoughtID string `json:"-"`
	Step      int    `json:"step,omitempty"`
	Text      string `json:"text"`
}

// DetectCircular finds circular reasoning among docs, in two ways.
//
// Dependency cycles: a thought depends on the thoughts in its DependsOn and on
// its parent (ParentID); every strongly connected component of that graph with
// more than one thought, or a thought depending on itself, is a cycle. One
// shortest cycle through the component's earliest thought is reported.
//
// Circular support, whatever the thoughts' types: each thought is read into
// claims and the support between them (see readArguments). Connectives give
// the direction: "X because Y", "X since Y", "X, given that Y", "X follows
// from Y", "X, as shown by Y", "X, and the proof is that Y", "the reason X is
// that Y" and "Since Y, X" make Y a reason for X; "X, so Y", "X, therefore Y",
// "X, which is why Y", "X, hence Y" make X a reason for Y; a thought that
// opens with "So", "Therefore" or "That is because" continues its parent
// thought. A thought without such a link is read as a reason for the thought
// it follows (a claim, then its support), unless it repeats an earlier claim
// or derives itself from its parent; a conclusion (type synthesis, answer or
// conclusion) and a thought that builds upon another (DependsOn) are supported
// by them. Only prose is read (claims.Sentences), a formula in a sentence is
// one name, not words (claims.FormulasAsNames), and a chain of computation
// derives rather than argues: "X, so Y" links nothing when X states a figure
// or a formula, and such a claim is no implicit reason for its parent nor
// argued for by its child; an assent ("Right.") is no claim. Two claims
// restate each other when they have the same polarity, every content word
// (function words and framing such as "we know that" left out) of the one with
// fewer is matched in the other by lemma, Porter stem, a shared WordNet sense
// or word vectors (cosine ≥ 0.45) and its figures are stated there too; a
// claim about "it" thus restates the fuller claim said before it that it
// stands for. Claims are compared within a thought and with its nearest eight
// ancestors and the thoughts it builds upon. The argument is circular when a
// support link joins two claims of one strongly connected component of the
// graph of support links and restatements (both ways): the conclusion is,
// directly or through a chain, a reason for itself. Support from independent
// evidence never closes such a loop, so a conclusion repeated after its
// evidence ("So X") is not circular.
func DetectCircular(docs []Doc, opts CircularOptions) []CircularReasoning {
	pos := make(map[string]int, len(docs))
	for i, d := range docs {
		if _, dup := pos[d.ID]; !dup {
			pos[d.ID] = i
		}
	}
	// deps[i] lists the positions doc i depends on, with the kind of link.
	type dep struct {
		to     int
		parent bool
	}
	deps := make([][]dep, len(docs))
	for i, d := range docs {
		seen := map[int]bool{}
		if p, ok := pos[d.ParentID]; ok && d.ParentID != "" {
			deps[i] = append(deps[i], dep{p, true})
			seen[p] = true
		}
		for _, id := range d.DependsOn {
			if p, ok := pos[id]; ok && !seen[p] {
				deps[i] = append(deps[i], dep{p, false})
				seen[p] = true
			}
		}
	}
	var out []CircularReasoning

	comps := strongComponents(len(docs), func(v int, visit func(int)) {
		for _, e := range deps[v] {
			visit(e.to)
		}
	})
	for _, comp := range comps {
		self := false
		if len(comp) == 1 {
			for _, e := range deps[comp[0]] {
				self = self || e.to == comp[0]
			}
			if !self {
				continue
			}
		}
		member := map[int]bool{}
		start := comp[0]
		for _, v := range comp {
			member[v] = true
			if docs[v].Step < docs[start].Step || (docs[v].Step == docs[start].Step && docs[v].ID < docs[start].ID) {
				start = v
			}
		}
		// Shortest cycle through start: BFS along dependencies inside the
		// component until an edge leads back to start.
		prev := map[int]int{start: -1}
		queue := []int{start}
		last := -1
		for len(queue) > 0 && last < 0 {
			v := queue[0]
			queue = queue[1:]
			for _, e := range deps[v] {
				if e.to == start {
					last = v
					break
				}
				if _, seen := prev[e.to]; !seen && member[e.to] {
					prev[e.to] = v
					queue = append(queue, e.to)
				}
			}
		}
		var cyc []int
		for v := last; v >= 0; v = prev[v] {
			cyc = append(cyc, v)
		}
		slices.Reverse(cyc)
		var refs []ThoughtRef
		var links []string
		for k, v := range cyc {
			refs = append(refs, Ref(docs[v]))
			next := cyc[(k+1)%len(cyc)]
			how := "builds on"
			for _, e := range deps[v] {
				if e.to == next && e.parent {
					how = "follows from"
				}
			}
			links = append(links, fmt.Sprintf("#%d %s #%d", docs[v].Step, how, docs[next].Step))
		}
		out = append(out, CircularReasoning{
			Kind:     CircularDependencyCycle,
			Thoughts: refs,
			Reason:   fmt.Sprintf("dependency cycle of %d thoughts: %s", len(cyc), strings.Join(links, ", ")),
		})
	}
	return append(out, circularSupport(docs, opts.Lexicon, opts.Cache)...)
}

// circularSupport finds the circular arguments among docs (see
// DetectCircular).
func circularSupport(docs []Doc, lx *semantic.Lexicon, cache *ArgCache) []CircularReasoning {
	g, r := readArguments(docs, lx, cache)
	n := len(g.units)
	if n == 0 {
		return nil
	}
	unitsOf := make([][]int, len(docs))
	for u, x := range g.units {
		unitsOf[x.doc] = append(unitsOf[x.doc], u)
	}
	// Restatements, both ways, between the claims of a thought and of the
	// thoughts near it.
	type pair struct{ a, b int }
	var same []pair
	adj := make([][]int, n)
	for i := range docs {
		for _, o := range g.near[i] {
			for _, a := range unitsOf[i] {
				for _, b := range unitsOf[o] {
					if (o != i || a < b) && r.restates(g.units[a], g.units[b]) {
						same = append(same, pair{a, b})
						adj[a] = append(adj[a], b)
						adj[b] = append(adj[b], a)
					}
				}
			}
		}
	}
	for _, e := range g.edges {
		adj[e.from] = append(adj[e.from], e.to)
	}
	comp := make([]int, n)
	comps := strongComponents(n, func(v int, visit func(int)) {
		for _, w := range adj[v] {
			visit(w)
		}
	})
	for c, members := range comps {
		for _, u := range members {
			comp[u] = c
		}
	}
	claim := func(u int) ArgumentClaim {
		d := docs[g.units[u].doc]
		return ArgumentClaim{ThoughtID: d.ID, Step: d.Step, Text: g.units[u].text}
	}
	// The support links and restatements inside each component, in the
	// order of g.edges and same (read once, not once per component).
	edgesIn := make([][]argEdge, len(comps))
	for _, e := range g.edges {
		if c := comp[e.from]; c == comp[e.to] {
			edgesIn[c] = append(edgesIn[c], e)
		}
	}
	sameIn := make([][]pair, len(comps))
	for _, p := range same {
		if c := comp[p.a]; c == comp[p.b] {
			sameIn[c] = append(sameIn[c], p)
		}
	}
	// A component is circular when an explicit support link runs inside it.
	var out []CircularReasoning
	for c, members := range comps {
		circular := false
		var links []SupportLink
		for _, e := range edgesIn[c] {
			circular = circular || !e.implicit
			links = append(links, SupportLink{Kind: "supports", From: claim(e.from), To: claim(e.to), Marker: e.how})
		}
		if !circular {
			continue
		}
		for _, p := range sameIn[c] {
			links = append(links, SupportLink{Kind: "restates", From: claim(p.a), To: claim(p.b)})
		}
		// The component's thoughts in byStepIndex's order, from its
		// members alone.
		var in []int
		inDoc := map[int]bool{}
		for _, u := range members {
			if d := g.units[u].doc; !inDoc[d] {
				inDoc[d] = true
				in = append(in, d)
			}
		}
		slices.SortFunc(in, stepOrder(docs))
		var refs []ThoughtRef
		for _, i := range in {
			r := Ref(docs[i])
			r.Content = "" // the support quotes its claims
			refs = append(refs, r)
		}
		steps := make([]string, len(refs))
		for i, r := range refs {
			steps[i] = fmt.Sprintf("#%d", r.Step)
		}
		out = append(out, CircularReasoning{
			Kind:     CircularSupport,
			Thoughts: refs,
			Support:  links,
			Reason: fmt.Sprintf("circular argument over %s: a claim is supported, directly or through a chain, by a restatement of itself (support lists the links)",
				strings.Join(steps, ", ")),
		})
	}
	out = append(out, restatedArguments(docs, g, r, unitsOf, comp)...)
	return append(out, mutualSupport(docs, g, r, comp)...)
}

// arguedWithParent returns the pairs [parent, thought] (positions in docs)
// in which both thoughts argue in so many words (a support link with a
// connective inside the thought), in the order of docs, with each
// thought's such links.
func arguedWithParent(docs []Doc, g *argGraph) ([][2]int, [][]argEdge) {
	pos := make(map[string]int, len(docs))
	for i, d := range docs {
		pos[d.ID] = i
	}
	explicit := make([][]argEdge, len(docs))
	for _, e := range g.edges {
		if !e.implicit && g.units[e.from].doc == g.units[e.to].doc {
			explicit[g.units[e.to].doc] = append(explicit[g.units[e.to].doc], e)
		}
	}
	var pairs [][2]int
	for j, d := range docs {
		if i, ok := pos[d.ParentID]; ok && d.ParentID != "" && i != j && len(explicit[j]) > 0 && len(explicit[i]) > 0 {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	return pairs, explicit
}

// restatedArguments finds thoughts that repeat the argument of their parent
// (the same premise supporting the same conclusion, each nearly restated as
// mutualSupport reads it) and say nothing else, unless a circular-support
// finding already covers them.
func restatedArguments(docs []Doc, g *argGraph, r *argReader, unitsOf [][]int, comp []int) []CircularReasoning {
	pairs, explicit := arguedWithParent(docs, g)
	var out []CircularReasoning
	for _, p := range pairs {
		i, j := p[0], p[1]
		d := docs[j]
		// Every claim of the thought nearly restates a claim of its parent.
		restated := func(u int) bool {
			for _, v := range unitsOf[i] {
				if r.near(g.units[u], g.units[v]) {
					return true
				}
			}
			return false
		}
		if !slices.ContainsFunc(unitsOf[j], func(u int) bool { return !restated(u) }) {
			for _, e2 := range explicit[j] {
				for _, e1 := range explicit[i] {
					if comp[e2.from] == comp[e2.to] || !r.near(g.units[e2.from], g.units[e1.from]) || !r.near(g.units[e2.to], g.units[e1.to]) {
						continue
					}
					out = append(out, CircularReasoning{
						Kind:     CircularRestatedArgument,
						Thoughts: []ThoughtRef{Ref(docs[i]), Ref(docs[j])},
						Support: []SupportLink{
							{Kind: "supports", From: ArgumentClaim{ThoughtID: docs[i].ID, Step: docs[i].Step, Text: g.units[e1.from].text}, To: ArgumentClaim{ThoughtID: docs[i].ID, Step: docs[i].Step, Text: g.units[e1.to].text}, Marker: e1.how},
							{Kind: "supports", From: ArgumentClaim{ThoughtID: d.ID, Step: d.Step, Text: g.units[e2.from].text}, To: ArgumentClaim{ThoughtID: d.ID, Step: d.Step, Text: g.units[e2.to].text}, Marker: e2.how},
						},
						Reason: fmt.Sprintf("#%d offers again the argument of #%d in other words (%q for %q) and adds nothing: the conclusion still rests on that one premise",
							d.Step, docs[i].Step, g.units[e2.from].text, g.units[e2.to].text),
					})
				}
			}
		}
	}
	return out
}

// strongComponents returns the strongly connected components of a directed
// graph of n nodes (Tarjan's algorithm); edges calls visit for each
// successor of v.
func strongComponents(n int, edges func(v int, visit func(int))) [][]int {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	counter := 0
	var comps [][]int
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		edges(v, func(w int) {
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		})
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	for v := range n {
		if index[v] < 0 {
			strong(v)
		}
	}
	return comps
}

// nearRestatement is the share of each claim's content words that a word
// of the other must say (sameWord) for the two to be read as the same
// claim in mutualSupport, where two such pairs are needed at once.
const nearRestatement = 0.4

// near reports whether two claims say nearly the same: the same polarity, a
// figure in common if both state figures, and nearRestatement of each one's
// content words and figures matched in the other (a claim that refers back
// with a pronoun to the other, said before it, needs it one way only).
func (r *argReader) near(a, b argUnit) bool {
	if a.neg != b.neg {
		return false
	}
	if len(a.figures) > 0 && len(b.figures) > 0 && !slices.ContainsFunc(a.figures, func(f string) bool { return slices.Contains(b.figures, f) }) {
		return false // two steps of a computation with different figures
	}
	share := func(x, y argUnit) float64 {
		n := 0
		for _, w := range x.words {
			for _, v := range y.words {
				if r.sameWord(w, v) {
					n++
					break
				}
			}
		}
		for _, f := range x.figures {
			if slices.Contains(y.figures, f) {
				n++
			}
		}
		return float64(n) / float64(max(1, len(x.words)+len(x.figures)))
	}
	ab, ba := share(a, b), share(b, a)
	if a.pronoun && a.at > b.at || b.pronoun && b.at > a.at {
		return max(ab, ba) >= nearRestatement && min(ab, ba) > 0
	}
	return min(ab, ba) >= nearRestatement
}

// mutualSupport finds a thought whose own argument (an explicit connective:
// "since", "because", "which is why", …) runs the other way round from its
// parent's: its premise nearly restates the parent's conclusion and its
// conclusion nearly restates the parent's premise. Both restatements must
// hold, so two loosely similar claims alone do not make a finding; a pair a
// circular-support finding already covers is not reported again.
func mutualSupport(docs []Doc, g *argGraph, r *argReader, comp []int) []CircularReasoning {
	pairs, explicit := arguedWithParent(docs, g)
	var out []CircularReasoning
	for _, p := range pairs {
		i, j := p[0], p[1]
		d := docs[j]
	found:
		for _, e2 := range explicit[j] {
			for _, e1 := range explicit[i] {
				if comp[e1.from] == comp[e2.from] || !r.near(g.units[e2.from], g.units[e1.to]) || !r.near(g.units[e2.to], g.units[e1.from]) {
					continue
				}
				out = append(out, CircularReasoning{
					Kind:     CircularMutualSupport,
					Thoughts: []ThoughtRef{Ref(docs[i]), Ref(docs[j])},
					Support: []SupportLink{
						{Kind: "supports", From: ArgumentClaim{ThoughtID: docs[i].ID, Step: docs[i].Step, Text: g.units[e1.from].text}, To: ArgumentClaim{ThoughtID: docs[i].ID, Step: docs[i].Step, Text: g.units[e1.to].text}, Marker: e1.how},
						{Kind: "supports", From: ArgumentClaim{ThoughtID: d.ID, Step: d.Step, Text: g.units[e2.from].text}, To: ArgumentClaim{ThoughtID: d.ID, Step: d.Step, Text: g.units[e2.to].text}, Marker: e2.how},
					},
					Reason: fmt.Sprintf("#%d argues for #%d's premise (%q) from its conclusion (%q): each rests on the other",
						d.Step, docs[i].Step, g.units[e1.from].text, g.units[e1.to].text),
				})
				break found
			}
		}
	}
	return out
}
