package review

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Review is the review part of findContradictions' and detectCircular's
// answers.
type Review struct {
	Question string  `json:"question,omitempty" jsonschema:"the question every group asks (the first call that shows groups says it)"`
	Groups   []Group `json:"groups" jsonschema:"groups of claims from different thoughts that speak of the same thing, most at risk first; answer each with one judge call"`
	// Open counts the groups not answered yet; Left those of them not shown
	// in this call; Settled those answered.
	Open    int `json:"openGroups"`
	Left    int `json:"left" jsonschema:"open groups not shown in this call; they come once these are answered"`
	Settled int `json:"settledGroups,omitempty" jsonschema:"detectCircular: the arguments answered"`
	// Again are the keys of open groups whose claims earlier calls all
	// quoted, not shown again.
	Again  []string `json:"askedBefore,omitempty" jsonschema:"keys of open groups whose claims earlier calls all quoted; answer them too (verbose: true shows them again)"`
	Answer string   `json:"answer,omitempty" jsonschema:"how to answer the groups (the first call that shows groups says it)"`
}

// Group is one group of claims to judge.
type Group struct {
	Group  string  `json:"group" jsonschema:"the group's key: its claims as step.claim, for judge"`
	Signs  string  `json:"signs,omitempty" jsonschema:"the signs of conflict the offline judge found in the group, when any"`
	Claims []Claim `json:"claims" jsonschema:"the group's claims that no earlier call quoted (the key names them all; verbose: true lists every one)"`
}

// Claim is one claim of a group.
// A claim names its thought by step: the model passes steps back (the
// group key, conflicts), and a thought id would be 36 more characters per
// claim.
type Claim struct {
	Step int    `json:"step"`
	Text string `json:"text"`
}

// Quoted applies what earlier calls showed (asked holds the keys of the
// claims quoted): a group whose every claim was quoted before (by an
// earlier call or an earlier group of this one) is listed in Again by its
// key only, the other groups list only the claims not quoted before (the
// group's key names them all by step; the model knows its own thoughts by
// step), and a review that shows no group drops its question. With
// verbose, everything is shown. What is shown is added to asked. keys are
// the claims' keys, group by group.
func (rv *Review) Quoted(keys []ClaimKey, asked map[ClaimKey]bool, verbose bool) {
	n := 0
	groups := rv.Groups[:0]
	for _, g := range rv.Groups {
		ks := keys[n : n+len(g.Claims)]
		n += len(g.Claims)
		if !verbose && !slices.ContainsFunc(ks, func(k ClaimKey) bool { return !asked[k] }) {
			rv.Again = append(rv.Again, g.Group)
			continue
		}
		claims := g.Claims[:0]
		for j, c := range g.Claims {
			if verbose || !asked[ks[j]] {
				claims = append(claims, c)
			}
			asked[ks[j]] = true
		}
		g.Claims = claims
		groups = append(groups, g)
	}
	rv.Groups = groups
	if len(groups) == 0 {
		rv.Question = "" // the groups in Again were asked with it
	}
}

// Instructed leaves out the question and the answer's form when told
// (an earlier call said them), unless verbose, and reports whether this
// review says them.
func (rv *Review) Instructed(told, verbose bool) bool {
	if told && !verbose {
		rv.Question, rv.Answer = "", ""
	}
	return rv.Answer != ""
}

// QuotedKey names claim k of thought d for Quoted.
func QuotedKey(d analyze.Doc, k int) ClaimKey { return ClaimKey{d.ID, k} }

// Options are the review's grouping: at most 6 claims to a group.
var Options = analyze.ReviewOptions{MaxGroup: 6}

// MaxClaimText bounds a claim's quoted text (a claim is a sentence or a
// clause; the longer ones are clipped).
const MaxClaimText = 120

// Answer tells the model how to answer a group of findContradictions.
const Answer = `judge {verdicts: [{group, verdict: "consistent" | "contradiction", conflicts?: [[step, step]]}, …]}`

// Settled is PlanReview's settled test: two thoughts are settled when a
// verdict is stated on them.
func (v *Stated) Settled(docs []analyze.Doc) func(a, b int) bool {
	if v == nil || len(v.contra) == 0 {
		return func(int, int) bool { return false }
	}
	byID := make(map[string]int, len(docs))
	for i, d := range docs {
		byID[d.ID] = i
	}
	pairs := make(map[uint64]bool, len(v.contra))
	for k := range v.contra {
		i, okA := byID[k[0]]
		j, okB := byID[k[1]]
		if okA && okB {
			pairs[DocPair(i, j)] = true
		}
	}
	return func(a, b int) bool { return pairs[DocPair(a, b)] }
}

// DocPair is the key of two thoughts (indexes into docs), either order.
func DocPair(a, b int) uint64 { return uint64(min(a, b))<<32 | uint64(max(a, b)) }

// Render renders a plan, each claim clipped (Quoted leaves out the texts
// quoted before).
func Render(docs []analyze.Doc, plan Plan) *Review {
	rv := &Review{Groups: []Group{}, Open: plan.Open, Left: plan.Open - len(plan.Groups)}
	for _, g := range plan.Groups {
		out := Group{Group: analyze.GroupKey(docs, g.Claims), Signs: strings.Join(g.Signs, "; ")}
		for _, c := range g.Claims {
			d := docs[c.Doc]
			out.Claims = append(out.Claims, Claim{Step: d.Step, Text: reasoning.Clip(d.Claims[c.K].Text, MaxClaimText)})
		}
		rv.Groups = append(rv.Groups, out)
	}
	if len(rv.Groups) > 0 {
		rv.Question, rv.Answer = AskConsistent, Answer
	}
	return rv
}

// AskConsistent is the question of every findContradictions group.
const AskConsistent = "Can each group's claims all be true at once?"

// groupError is the error of a judge call whose group key does not name
// claims of the session.
func groupError(key, why string) error {
	return thinkgraph.Invalid("group", "a group key from findContradictions' review, such as \"7.1-13.2\" (step.claim of each claim)", reasoning.Clip(key, 80),
		"'group' %s; call findContradictions and copy a group's key", why)
}

// GroupClaim is one claim a group key names: claim K (from 1) of step
// Step.
type GroupClaim struct{ Step, K int }

// ParseGroupKey reads a group key ("7.1-13.2"): the claims it names, in its
// order.
func ParseGroupKey(key string) ([]GroupClaim, error) {
	parts := strings.Split(strings.TrimSpace(key), "-")
	if len(parts) < 2 {
		return nil, groupError(key, "must name at least two claims")
	}
	var out []GroupClaim
	for _, p := range parts {
		p = strings.TrimSpace(p)
		var c GroupClaim
		if _, err := fmt.Sscanf(p, "%d.%d", &c.Step, &c.K); err != nil || fmt.Sprintf("%d.%d", c.Step, c.K) != p {
			return nil, groupError(key, fmt.Sprintf("has %q where a claim step.claim (e.g. 7.1) belongs", reasoning.Clip(p, 20)))
		}
		if slices.ContainsFunc(out, func(o GroupClaim) bool { return o.Step == c.Step }) {
			return nil, groupError(key, fmt.Sprintf("names step %d twice", c.Step))
		}
		out = append(out, c)
	}
	return out, nil
}

// Members resolves a group key against the session's docs: the thought of
// each claim, in the key's order.
func Members(docs []analyze.Doc, key string) ([]analyze.Doc, error) {
	claims, err := ParseGroupKey(key)
	if err != nil {
		return nil, err
	}
	byStep := map[int]int{}
	for i, d := range docs {
		byStep[d.Step] = i
	}
	var out []analyze.Doc
	for _, c := range claims {
		i, ok := byStep[c.Step]
		if !ok {
			return nil, groupError(key, fmt.Sprintf("names step %d, which is not a thought of this session: no group of the review has this key", c.Step))
		}
		if c.K < 1 || c.K > max(1, len(docs[i].Claims)) {
			return nil, groupError(key, fmt.Sprintf("names claim %d of step %d, which has %d: no group of the review has this key", c.K, c.Step, len(docs[i].Claims)))
		}
		out = append(out, docs[i])
	}
	return out, nil
}

// Conflicts resolves the conflicts of a group judge call (each a pair of
// the group's steps, "#7" or 7, or thought ids) to indexes of members.
func Conflicts(members []analyze.Doc, conflicts [][]string) ([][2]int, error) {
	find := func(ref string) int {
		ref = strings.TrimPrefix(strings.TrimSpace(ref), "#")
		for i, d := range members {
			if d.ID == ref || fmt.Sprint(d.Step) == ref {
				return i
			}
		}
		return -1
	}
	var steps []string
	for _, d := range members {
		steps = append(steps, fmt.Sprint(d.Step))
	}
	var out [][2]int
	for n, c := range conflicts {
		field := fmt.Sprintf("conflicts[%d]", n)
		if len(c) != 2 {
			return nil, thinkgraph.Invalid(field, "a pair of the group's steps, e.g. [7, 13]", fmt.Sprint(len(c))+" entries",
				"'%s' must be a pair of two of the group's steps (%s)", field, strings.Join(steps, ", "))
		}
		i, j := find(c[0]), find(c[1])
		if i < 0 || j < 0 || i == j {
			return nil, thinkgraph.Invalid(field, "two different steps of the group: "+strings.Join(steps, ", "), reasoning.Clip(strings.Join(c, ", "), 80),
				"'%s' must name two different claims of the group by their steps (%s)", field, strings.Join(steps, ", "))
		}
		out = append(out, [2]int{i, j})
	}
	return out, nil
}

// StoreGroup writes the verdicts on a group's pairs of thoughts in tx: a
// contradictory link for each conflicting pair, a compatible link for every
// other pair, but where the latest verdict on the pair already says the
// same. It names the links stored ("#7/#13 contradiction").
//
// A pair in keep is not stored compatible (nil: none): another answer of
// the same call names it a conflict.
func StoreGroup(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, members []analyze.Doc, conflicts [][2]int, keep map[PairKey]bool, reason string, now time.Time) ([]string, error) {
	conflict := map[[2]int]bool{}
	for _, c := range conflicts {
		conflict[[2]int{min(c[0], c[1]), max(c[0], c[1])}] = true
	}
	return store(ctx, tx, sess, members, reason, now, func(i, j int) (string, string) {
		if conflict[[2]int{i, j}] {
			return LinkContradictory, "contradiction"
		}
		if keep[KeyOf(members[i].ID, members[j].ID)] {
			return "", ""
		}
		return LinkCompatible, "compatible"
	})
}

// StoreCircular writes a circular or not_circular link (typ) on every two
// thoughts of a group, but where the latest such verdict says the same.
func StoreCircular(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, members []analyze.Doc, typ, reason string, now time.Time) ([]string, error) {
	return store(ctx, tx, sess, members, reason, now, func(int, int) (string, string) { return typ, typ })
}

// store writes a link on every two members, of the type verdict gives
// (with the verdict's name; none when it gives ""), unless the latest link
// of that family on the pair is of that type.
func store(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, members []analyze.Doc, reason string, now time.Time, verdict func(i, j int) (typ, name string)) ([]string, error) {
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	prev := StatedOf(links)
	stored := []string{}
	for i := range members {
		for j := i + 1; j < len(members); j++ {
			a, b := members[i], members[j]
			if b.Step < a.Step {
				a, b = b, a
			}
			typ, name := verdict(i, j)
			if typ == "" {
				continue
			}
			family := prev.contra
			if typ == LinkCircular || typ == LinkNotCircular {
				family = prev.circular
			}
			if l, ok := family[KeyOf(a.ID, b.ID)]; ok && l.Type == typ {
				continue
			}
			l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: b.Branch, ToBranch: a.Branch, FromThought: b.ID, ToThought: a.ID,
				Type: typ, Reason: reason, Strength: 1, CreatedAt: now}
			if err := tx.AddLink(ctx, l); err != nil {
				return nil, err
			}
			stored = append(stored, fmt.Sprintf("#%d/#%d %s", a.Step, b.Step, name))
		}
	}
	return stored, nil
}

// connectives mark a thought that draws a conclusion from, or gives a
// reason for, what it follows.
var connectives = map[string]bool{"so": true, "therefore": true, "thus": true, "hence": true, "because": true, "since": true,
	"consequently": true, "follows": true, "proves": true, "shows": true}

// CircularSimilar is the cosine from which a claim of an arguing thought and
// a claim of a premise it rests on are put to the model as a possible
// circular argument (CircularReview).
const CircularSimilar = 0.6

func arguing(text string) bool {
	for _, t := range semantic.Tokenize(text) {
		if connectives[t] {
			return true
		}
	}
	return false
}

// CircularPair is a question of CircularReview: claim KA of thought A (a
// premise, an index into docs) and claim KB of thought B (an arguing thought
// resting on it) say much the same (cosine Sim ≥ CircularSimilar).
type CircularPair struct {
	A, B, KA, KB int
	Sim          float32
}

// CircularPairs are the questions of CircularReview whose arguing thought
// is docs[from:]: for each thought that argues (a connective), each
// premise it rests on (one of its three nearest ancestors, or a thought it
// builds upon) whose most alike claim is very like one of its own.
func CircularPairs(docs []analyze.Doc, byID map[string]int, from int) []CircularPair {
	var out []CircularPair
	for j := from; j < len(docs); j++ {
		b := docs[j]
		if b.Vector == nil || !arguing(b.Content) {
			continue
		}
		premises := slices.Clone(b.DependsOn)
		for p, n := b.ParentID, 0; p != "" && n < 3; n++ {
			premises = append(premises, p)
			i, ok := byID[p]
			if !ok {
				break
			}
			p = docs[i].ParentID
		}
		var seen []int
		for _, pid := range premises {
			i, ok := byID[pid]
			if !ok || i == j || slices.Contains(seen, i) {
				continue
			}
			seen = append(seen, i)
			c := CircularPair{A: i, B: j, Sim: -2}
			for x, cx := range docs[i].Claims {
				for y, cy := range b.Claims {
					if len(cx.Vector) > 0 && len(cx.Vector) == len(cy.Vector) {
						if s := semantic.Dot(semantic.AsUnit(cx.Vector), semantic.AsUnit(cy.Vector)); s > c.Sim {
							c.KA, c.KB, c.Sim = x, y, s
						}
					}
				}
			}
			if c.Sim >= CircularSimilar {
				out = append(out, c)
			}
		}
	}
	return out
}

// CircularReview puts to the model the arguments the detector could not
// decide: the CircularPairs that no finding and no stated verdict covers,
// and that asked (nil: none) does not report as asked by another question.
// Each is a group of those two claims, the most alike first, within
// CallBudget.Claims; shown are the pairs of the groups shown, keys the
// claims' keys for Quoted, group by group.
func (v *Stated) CircularReview(docs []analyze.Doc, byID map[string]int, found []analyze.CircularReasoning, asked func(a, b int) bool) (rv *Review, shown []CircularPair, keys []ClaimKey) {
	inFinding := map[PairKey]bool{}
	for _, c := range found {
		for i := range c.Thoughts {
			for j := i + 1; j < len(c.Thoughts); j++ {
				inFinding[KeyOf(c.Thoughts[i].ID, c.Thoughts[j].ID)] = true
			}
		}
	}
	var all []CircularPair
	settled := 0
	seen := map[PairKey]bool{}
	for _, c := range CircularPairs(docs, byID, 0) {
		a, b := docs[c.A].ID, docs[c.B].ID
		if k := KeyOf(a, b); inFinding[k] || seen[k] || asked != nil && asked(c.A, c.B) {
			continue
		}
		seen[KeyOf(a, b)] = true
		if _, stated := v.Circular(a, b); stated {
			settled++
			continue
		}
		all = append(all, c)
	}
	slices.SortStableFunc(all, func(x, y CircularPair) int { return cmp.Compare(y.Sim, x.Sim) })
	rv = &Review{Groups: []Group{}, Open: len(all), Settled: settled}
	for _, c := range all {
		if 2*(len(rv.Groups)+1) > CallBudget.Claims {
			break
		}
		a, b := docs[c.A], docs[c.B]
		shown = append(shown, c)
		keys = append(keys, QuotedKey(a, c.KA), QuotedKey(b, c.KB))
		rv.Groups = append(rv.Groups, Group{
			Group: analyze.GroupKey(docs, []analyze.ClaimRef{{Doc: c.A, K: c.KA}, {Doc: c.B, K: c.KB}}),
			Claims: []Claim{{Step: a.Step, Text: reasoning.Clip(a.Claims[c.KA].Text, MaxClaimText)},
				{Step: b.Step, Text: reasoning.Clip(b.Claims[c.KB].Text, MaxClaimText)}},
		})
	}
	rv.Left = rv.Open - len(rv.Groups)
	if len(rv.Groups) > 0 {
		rv.Question = "Does the second claim's thought argue in a circle, resting on the first, which says much the same?"
		rv.Answer = `judge {verdicts: [{group, verdict: "circular" | "not_circular" | "contradiction", conflicts?}, …]}`
	}
	return rv, shown, keys
}
