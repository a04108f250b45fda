package semantic

import (
	"fmt"
	"slices"
	"strings"
)

// CircularOptions tunes DetectCircular; zero values mean the defaults.
type CircularOptions struct {
	// RestateSimilarity is the cosine at or above which a conclusion counts as
	// restating a premise (default 0.9: near-identical wording).
	RestateSimilarity float64
	// RestateSimilarityOther is the same for thoughts that are not
	// conclusions and restate a thought they list in DependsOn (default
	// 0.95). Callers that put revisions into DependsOn should leave them out
	// here, or a light edit of a thought reads as a restatement.
	RestateSimilarityOther float64
	// MaxAncestors bounds how many premises (nearest first) are compared with
	// each conclusion (default 64).
	MaxAncestors int
}

// Kinds of circular reasoning reported by DetectCircular.
const (
	CircularDependencyCycle = "dependency_cycle"
	CircularRestatedPremise = "restated_premise"
)

// CircularReasoning is one finding of DetectCircular.
type CircularReasoning struct {
	Kind string `json:"kind"`
	// Thoughts are the cycle in dependency order (each depends on the next,
	// the last on the first), or the conclusion followed by the premise it
	// restates.
	Thoughts []ThoughtRef `json:"thoughts"`
	// Similarity is the cosine of conclusion and premise (restatements only).
	Similarity *float64 `json:"similarity,omitempty"`
	Reason     string   `json:"reason"`
}

// conclusionTypes are the thought types that state a result.
var conclusionTypes = map[string]bool{"synthesis": true, "answer": true, "conclusion": true}

// DetectCircular finds circular reasoning among docs, in two ways.
//
// Dependency cycles: a thought depends on the thoughts in its DependsOn and on
// its parent (ParentID); every strongly connected component of that graph with
// more than one thought, or a thought depending on itself, is a cycle. One
// shortest cycle through the component's earliest thought is reported.
//
// Restated premises: a conclusion (type synthesis, answer or conclusion) is
// compared with its premises, i.e. the thoughts it depends on transitively
// through DependsOn and ParentID (the nearest opts.MaxAncestors in
// breadth-first order); any other thought is compared with the thoughts it
// lists in DependsOn. If the cosine with a premise is ≥ opts.RestateSimilarity
// (opts.RestateSimilarityOther for thoughts that are not conclusions) the
// thought restates what it claims to build on, and the most similar premise
// is reported. Thoughts without vectors are only checked for cycles.
func DetectCircular(docs []Doc, opts CircularOptions) []CircularReasoning {
	if opts.RestateSimilarity <= 0 {
		opts.RestateSimilarity = 0.9
	}
	if opts.RestateSimilarityOther <= 0 {
		opts.RestateSimilarityOther = 0.95
	}
	if opts.MaxAncestors <= 0 {
		opts.MaxAncestors = 64
	}
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

	// Tarjan's strongly connected components.
	index := make([]int, len(docs))
	low := make([]int, len(docs))
	onStack := make([]bool, len(docs))
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
		for _, e := range deps[v] {
			if index[e.to] < 0 {
				strong(e.to)
				low[v] = min(low[v], low[e.to])
			} else if onStack[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
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
	for v := range docs {
		if index[v] < 0 {
			strong(v)
		}
	}
	inCycle := make([]bool, len(docs))
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
			inCycle[v] = true
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
			links = append(links, fmt.Sprintf("%s %s %s", docs[v].ID, how, docs[next].ID))
		}
		out = append(out, CircularReasoning{
			Kind:     CircularDependencyCycle,
			Thoughts: refs,
			Reason:   fmt.Sprintf("dependency cycle of %d thoughts: %s", len(cyc), strings.Join(links, ", ")),
		})
	}

	// Restated premises.
	vd := vectorsOf(docs, nil)
	for i, d := range docs {
		if _, ok := vd.row[i]; !ok {
			continue
		}
		var premises []int
		th := opts.RestateSimilarityOther
		if conclusionTypes[strings.ToLower(d.Type)] {
			th = opts.RestateSimilarity
			seen := map[int]bool{i: true}
			queue := []int{i}
			for len(queue) > 0 && len(premises) < opts.MaxAncestors {
				v := queue[0]
				queue = queue[1:]
				for _, e := range deps[v] {
					if !seen[e.to] {
						seen[e.to] = true
						premises = append(premises, e.to)
						queue = append(queue, e.to)
					}
				}
			}
			if len(premises) > opts.MaxAncestors {
				premises = premises[:opts.MaxAncestors]
			}
		} else {
			for _, e := range deps[i] {
				if !e.parent && e.to != i {
					premises = append(premises, e.to)
				}
			}
		}
		best, bestSim := -1, th
		for _, p := range premises {
			if s, ok := vd.sim(i, p); ok && s >= bestSim {
				best, bestSim = p, s
			}
		}
		if best < 0 {
			continue
		}
		s := bestSim
		kind := "depends on"
		if conclusionTypes[strings.ToLower(d.Type)] {
			kind = fmt.Sprintf("is a %s built on", strings.ToLower(d.Type))
		}
		out = append(out, CircularReasoning{
			Kind:       CircularRestatedPremise,
			Thoughts:   []ThoughtRef{Ref(d), Ref(docs[best])},
			Similarity: &s,
			Reason: fmt.Sprintf("%s %s %s but restates it (similarity %.2f ≥ %.2f): the conclusion assumes what it sets out to show",
				d.ID, kind, docs[best].ID, s, th),
		})
	}
	return out
}
