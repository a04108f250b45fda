package advice

import (
	"regexp"
	"strings"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// A branch is closed when its own reasoning ends it: the model marked it
// (prune with a branchId, state "pruned"), its last thought rules its
// option out in words, a person refuted one of its thoughts, or a later
// critique or counterexample of the branch contradicts an earlier thought
// of it (a contradiction the caller passes). A closed branch is a dead
// end: never the strongest path, and evaluated below open ones.

// Closure says why a branch is closed.
type Closure struct {
	// By is how: "marked" (the model pruned it), "words" (its last
	// thought rules it out), "refuted" (a person refuted a thought of it)
	// or "contradicted" (its own later critique contradicts it).
	By string `json:"by"`
	// Step is the thought that closes it (0 when marked).
	Step   int    `json:"step,omitempty"`
	Reason string `json:"reason"`
}

// closingPhrases end an option by themselves ("this is off the table",
// "the app is not viable"), unless negated just before.
var closingPhrases = regexp.MustCompile(`\b(off the table|unworkable|not workable|infeasible|not feasible|not viable|non-viable|isn't viable|is not an option|no longer an option|not worth pursuing|a non-starter|a dead end|a dead-end|a no-go|won't work|will not work|cannot work|can't work)\b`)

// closingVerbs end an option when someone does it ("I rule it out", "so
// we drop it", "is rejected"): the verb needs a first-person subject, a
// pronoun object or the passive.
var closingVerbs = regexp.MustCompile(`\b(rul(?:e|es|ed|ing)\b(?:\s+\S+){0,4}?\s+out|drop(?:s|ped|ping)?|reject(?:s|ed|ing)?|discard(?:s|ed|ing)?|abandon(?:s|ed|ing)?|dismiss(?:es|ed|ing)?|eliminat(?:e|es|ed|ing)|exclud(?:e|es|ed|ing)|shelv(?:e|es|ed|ing)|scrap(?:s|ped|ping)?|set(?:s|ting)?(?:\s+\S+){0,2}?\s+aside)\b`)

var (
	firstPerson   = regexp.MustCompile(`\b(i|we|i'm|we're|i'll|we'll|i've|we've|i'd|we'd|let's|let us)\s+(?:\S+\s+){0,2}$`)
	pronounObject = regexp.MustCompile(`^\s+(it|this|that|them|this one|that one|this option|that option|this idea|this approach|this route)\b`)
	passive       = regexp.MustCompile(`\b(is|are|was|were|be|been|being)\s+(?:\S+\s+)?$`)
	negatedBefore = regexp.MustCompile(`\b(not|n't|never|no longer|nothing|none|neither|hardly|cannot|can't|won't|wouldn't|shouldn't|don't|doesn't|didn't)\s+(?:\S+\s+){0,2}$`)
	conditional   = regexp.MustCompile(`\b(if|unless|whether|until)\b`)
)

// ClosingSentence returns the sentence of text that rules its option out,
// or "" when none does. A question or a conditional sentence ("if …",
// "unless …") closes nothing; neither does a negated closing ("we should
// not rule it out").
func ClosingSentence(text string) string {
	for _, s := range sentencesWithMarks(text) {
		if strings.HasSuffix(s, "?") {
			continue
		}
		low := strings.ToLower(strings.ReplaceAll(s, "’", "'"))
		if conditional.MatchString(low) {
			continue
		}
		for _, m := range closingPhrases.FindAllStringIndex(low, -1) {
			if !negatedBefore.MatchString(low[:m[0]]) || strings.Contains(low[m[0]:m[1]], "not") {
				return s
			}
		}
		for _, m := range closingVerbs.FindAllStringIndex(low, -1) {
			before, after := low[:m[0]], low[m[1]:]
			if negatedBefore.MatchString(before) {
				continue
			}
			if firstPerson.MatchString(before) || passive.MatchString(before) || pronounObject.MatchString(after) {
				return s
			}
		}
	}
	return ""
}

// sentencesWithMarks splits text into sentences, each keeping its final
// punctuation.
func sentencesWithMarks(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '!', '?', '\n':
			if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\n' {
				continue
			}
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// Conclusion returns the session's conclusion, the thought its reasoning
// leads to, and false when there is none. Candidates are the thoughts whose
// type concludes (thinkgraph.RoleOf: a synthesis, an answer) and that ask
// nothing. A contingency ("If we split later, …": a first sentence opening
// with a condition) is not the conclusion, nor is a thought of a branch in
// skip. A decision (a first sentence that recommends, decides or chooses:
// decisionWords) comes before a summary that decides nothing, and the
// latest of the best kind wins: next steps, conditional follow-ups and
// asides written after the decision do not move it.
func Conclusion(docs []analyze.Doc, skip map[string]bool, rank func(analyze.Doc) int) (analyze.Doc, bool) {
	if rank == nil {
		rank = ConclusionRank
	}
	var best analyze.Doc
	bestRank := 0
	for _, d := range docs {
		if skip[d.Branch] {
			continue
		}
		r := rank(d)
		if r > 0 && (r > bestRank || (r == bestRank && d.Step > best.Step)) {
			best, bestRank = d, r
		}
	}
	return best, bestRank > 0
}

// ConclusionRank is how a thought ranks as the session's conclusion (see
// Conclusion): 0 when it cannot be it, 1 for a conclusion that decides
// nothing, 2 for a decision. It reads only the thought, whose text never
// changes, so a caller may remember it.
func ConclusionRank(d analyze.Doc) int {
	if !thinkgraph.RoleOf(d.Type).Concludes || isQuestion(d) {
		return 0
	}
	first := strings.ToLower(strings.ReplaceAll(firstSentence(d.Content), "’", "'"))
	switch {
	case contingent.MatchString(first):
		return 0
	case decisionWords.MatchString(first):
		return 2
	}
	return 1
}

// contingent matches a sentence that opens with a condition: what it says
// holds only if something else happens.
var contingent = regexp.MustCompile(`^\W*(if|unless|in case|provided( that)?|assuming|should|were|whether|in the event)\b`)

// decisionWords match a sentence that recommends, decides or chooses, in
// any domain: "Recommendation: …", "we should …", "go with …".
var decisionWords = regexp.MustCompile(`\b(recommend\w*|decision|decided?|decides|conclusion|verdict|go with|opt for|choose|chose|chosen|settle on|(we|i)( will|'ll| should| shall| must))\b`)

// firstSentence is the first sentence of text.
func firstSentence(text string) string {
	if ss := sentencesWithMarks(text); len(ss) > 0 {
		return ss[0]
	}
	return ""
}

// ClosureOptions are what Closures reads beyond the thoughts.
type ClosureOptions struct {
	// Marked are the branches the model closed (state "pruned"), with its
	// reason ("" when it gave none).
	Marked map[string]string
	// Contradictions are the asserted and stated contradictions of the
	// session.
	Contradictions []analyze.Contradiction
	// Rank ranks a thought as the session's conclusion (nil:
	// ConclusionRank).
	Rank func(analyze.Doc) int
}

// Closures returns the closed branches of docs and why (see Closure). The
// session's conclusion (Conclusion) closes nothing: when it rules options
// out, they are other branches' options. A refuted thought (Doc.Refuted)
// closes its branch.
func Closures(docs []analyze.Doc, opts ClosureOptions) map[string]Closure {
	out := map[string]Closure{}
	for b, why := range opts.Marked {
		if why == "" {
			why = "the branch was pruned"
		}
		out[b] = Closure{By: "marked", Reason: why}
	}
	concl, hasConcl := Conclusion(docs, nil, opts.Rank)
	groups := analyze.GroupBranches(docs)
	for _, g := range groups {
		if _, ok := out[g.ID]; ok {
			continue
		}
		for _, d := range g.Docs {
			if d.Refuted {
				out[g.ID] = Closure{By: "refuted", Step: d.Step, Reason: "a person refuted this thought"}
				break
			}
		}
		if _, ok := out[g.ID]; ok {
			continue
		}
		last := g.Docs[len(g.Docs)-1]
		if hasConcl && last.ID == concl.ID {
			continue
		}
		if s := ClosingSentence(last.Content); s != "" {
			out[g.ID] = Closure{By: "words", Step: last.Step, Reason: "its last thought rules it out: " + clipWords(s, 12)}
		}
	}
	branchOf := map[string]analyze.Doc{}
	for _, d := range docs {
		branchOf[d.ID] = d
	}
	for _, c := range opts.Contradictions {
		a, okA := branchOf[c.ThoughtA.ID]
		b, okB := branchOf[c.ThoughtB.ID]
		if !okA || !okB || a.Branch != b.Branch {
			continue
		}
		if a.Step > b.Step {
			a, b = b, a
		}
		t := strings.ToLower(b.Type)
		if _, ok := out[a.Branch]; ok || !thinkgraph.RoleOf(b.Type).Challenge {
			continue
		}
		out[a.Branch] = Closure{By: "contradicted", Step: b.Step, Reason: "a later " + t + " of the branch contradicts an earlier thought of it"}
	}
	return out
}

// clipWords keeps the first n words of s, marking a cut with "…".
func clipWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return s
	}
	return strings.Join(w[:n], " ") + " …"
}
