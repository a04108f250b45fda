package branching

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/analysis"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// ThoughtTypes are the ten thought types of branch-thinking
// (docs/branch-thinking.md), from the one table of thought roles.
var ThoughtTypes = thinkgraph.ThoughtTypes()

// CrossRef is a cross-reference from a new thought's branch to another
// branch.
type CrossRef struct {
	ToBranch string   `json:"toBranch"`
	Type     string   `json:"type"`
	Reason   string   `json:"reason"`
	Strength *float64 `json:"strength"`
}

// MaxCrossRefs bounds the cross-references of a branch-thinking thought.
const MaxCrossRefs = 16

// BranchThoughtInput is a thought of the branch-thinking tool.
type BranchThoughtInput struct {
	Session        reasoning.SessionRef
	Content        string
	Type           string
	BranchID       string
	Confidence     *float64
	KeyPoints      []string
	ParentBranchID string
	CrossRefs      []CrossRef
}

// setSettings writes branch-thinking's settings into sess.Settings, keeping
// other tools' keys.
func setSettings(sess *thinkgraph.Session, bs analysis.Settings) error {
	all := map[string]json.RawMessage{}
	if len(sess.Settings) > 0 {
		if err := json.Unmarshal(sess.Settings, &all); err != nil || all == nil {
			all = map[string]json.RawMessage{}
		}
	}
	b, err := json.Marshal(bs)
	if err != nil {
		return err
	}
	all[analysis.SettingsKey] = b
	sess.Settings, err = json.Marshal(all)
	return err
}

// setAutoEval writes the auto-evaluation setting into sess.Settings.
func setAutoEval(sess *thinkgraph.Session, cfg AutoEvalConfig) error {
	bs := analysis.SettingsOf(sess)
	bs.AutoEval = &cfg
	return setSettings(sess, bs)
}

func (in *BranchThoughtInput) validate(maxLen int) error {
	if err := reasoning.ValidateContent("content", in.Content, maxLen); err != nil {
		return err
	}
	if in.Type == "" {
		return thinkgraph.Invalid("type", "one of: "+strings.Join(ThoughtTypes, ", "), "none",
			"'type' is required: one of %s", strings.Join(ThoughtTypes, ", "))
	}
	if !slices.Contains(ThoughtTypes, in.Type) {
		return thinkgraph.Invalid("type", "one of: "+strings.Join(ThoughtTypes, ", "), reasoning.Clip(in.Type, 40),
			"'type' %q is not a thought type; use one of %s", reasoning.Clip(in.Type, 40), strings.Join(ThoughtTypes, ", "))
	}
	if err := reasoning.ValidateConfidence("confidence", in.Confidence); err != nil {
		return err
	}
	if in.BranchID != "" {
		if err := reasoning.ValidateBranchID("branchId", in.BranchID); err != nil {
			return err
		}
	}
	if in.ParentBranchID != "" {
		if err := reasoning.ValidateBranchID("parentBranchId", in.ParentBranchID); err != nil {
			return err
		}
	}
	if err := reasoning.ValidateKeyPoints("keyPoints", in.KeyPoints); err != nil {
		return err
	}
	if len(in.CrossRefs) > MaxCrossRefs {
		return thinkgraph.Invalid("crossRefs", fmt.Sprintf("at most %d cross-references", MaxCrossRefs), fmt.Sprint(len(in.CrossRefs)),
			"'crossRefs' has %d entries; at most %d are allowed", len(in.CrossRefs), MaxCrossRefs)
	}
	for i, c := range in.CrossRefs {
		f := fmt.Sprintf("crossRefs[%d]", i)
		if c.ToBranch == "" {
			return thinkgraph.Invalid(f+".toBranch", "the id of an existing branch", "none", "'%s.toBranch' is required", f)
		}
		if err := reasoning.ValidateBranchID(f+".toBranch", c.ToBranch); err != nil {
			return err
		}
		if err := reasoning.ValidateLink(f, c.Type, c.Reason, c.Strength); err != nil {
			return err
		}
	}
	return nil
}

// OverlapWarning says that an added thought fits another branch clearly
// better than its own.
type OverlapWarning struct {
	SuggestedBranch     string  `json:"suggestedBranch"`
	CurrentSimilarity   float64 `json:"currentSimilarity"`
	SuggestedSimilarity float64 `json:"suggestedSimilarity"`
	Reason              string  `json:"reason"`
}

// Overlap rule: the new thought's cosine with the centroid of every other
// branch (not pruned, with at least overlapMinThoughts thoughts) is compared
// with its cosine with the centroid of its own branch's earlier thoughts. A
// warning names the best other branch when its similarity is at least
// overlapMinSimilarity and exceeds the own branch's by at least
// overlapMargin. A synthesis or an answer draws on other branches by
// design and is never warned about, nor is a thought whose own branch has
// fewer than overlapMinThoughts earlier thoughts (its centre is not known
// yet): on the scenario sessions, where every thought is where it belongs,
// those two cases were 8 of the 9 warnings.
const (
	overlapMinSimilarity = 0.5
	overlapMargin        = 0.15
	overlapMinThoughts   = 2
)

// BranchThoughtResult is the StandardResponse of an added thought.
type BranchThoughtResult struct {
	ThoughtID      string                  `json:"thoughtId"`
	BranchID       string                  `json:"branchId"`
	BranchState    string                  `json:"branchState"`
	BranchPriority float64                 `json:"branchPriority"`
	NumThoughts    int                     `json:"numThoughts"`
	ActiveBranch   string                  `json:"activeBranch"`
	SessionID      string                  `json:"session_id"`
	Step           int                     `json:"step"`
	ParentStep     int                     `json:"parentStep,omitempty" jsonschema:"the step of the thought this one follows"`
	CreatedBranch  bool                    `json:"createdBranch,omitempty"`
	CrossRefs      int                     `json:"crossRefs,omitempty"`
	Evaluation     *analyze.AutoEvaluation `json:"evaluation,omitempty"`
	OverlapWarning *OverlapWarning         `json:"overlapWarning,omitempty"`
	// Note explains what happened beyond the fields (a revived branch, an
	// evaluation that could not be computed).
	Note string `json:"note,omitempty"`
}

// branchNotFound is a BranchNotFoundError listing the session's branches.
func branchNotFound(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field, id string) error {
	bs, err := tx.Branches(ctx, sess.Key)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(bs))
	for _, b := range bs {
		ids = append(ids, b.ID)
	}
	sugg := []string{"existing branches: " + strings.Join(ids, ", ")}
	if field == "branchId" {
		sugg = append(sugg, "add a thought with a new branchId to create a branch")
	}
	return &thinkgraph.Error{
		Code: thinkgraph.CodeBranchNotFound, Field: field, Expected: "one of: " + strings.Join(ids, ", "), Received: reasoning.Clip(id, 64),
		Message:     fmt.Sprintf("'%s': branch %q does not exist in session %q", field, reasoning.Clip(id, 64), sess.ID),
		Suggestions: sugg,
	}
}

// branchOf loads a branch named by a caller's field.
func branchOf(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field, id string) (*thinkgraph.Branch, error) {
	b, err := tx.Branch(ctx, sess.Key, id)
	if errors.Is(err, thinkgraph.ErrNotFound) {
		return nil, branchNotFound(ctx, tx, sess, field, id)
	}
	return b, err
}

// branchDeps returns the two dependency graphs between branches, each of
// which must stay acyclic: a branch's parent, and the branches it builds
// upon. They are apart, as in Branch Thinking: a parent building upon its
// child branch (main summing up what a child found) closes no loop.
func branchDeps(bs []thinkgraph.Branch, links []thinkgraph.Link) (parents, buildsUpon map[string][]string) {
	parents, buildsUpon = map[string][]string{}, map[string][]string{}
	for _, b := range bs {
		if b.ParentBranchID != "" {
			parents[b.ID] = append(parents[b.ID], b.ParentBranchID)
		}
	}
	for _, l := range links {
		if l.Type == "builds_upon" && l.FromBranch != "" && l.ToBranch != "" && l.FromBranch != l.ToBranch {
			buildsUpon[l.FromBranch] = append(buildsUpon[l.FromBranch], l.ToBranch)
		}
	}
	return parents, buildsUpon
}

// depPath returns a dependency path from → … → to, or nil.
func depPath(deps map[string][]string, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			var path []string
			for c := to; c != ""; c = prev[c] {
				path = append(path, c)
				if c == from {
					break
				}
			}
			slices.Reverse(path)
			return path
		}
		for _, m := range deps[n] {
			if _, seen := prev[m]; !seen {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	return nil
}

func circular(field, received string, cycle []string, format string, args ...any) error {
	return &thinkgraph.Error{
		Code: thinkgraph.CodeCircularReference, Field: field, Expected: "a branch that does not (transitively) depend on this one", Received: received,
		Message:     fmt.Sprintf(format, args...) + ": " + strings.Join(cycle, " → "),
		Suggestions: []string{"use a cross-reference of type complementary or alternative for branches that inform each other", "choose another parent branch"},
	}
}

// AddThought adds a branch-thinking thought: to in.BranchID (default: the
// active branch), creating that branch when it does not exist: with
// in.ParentBranchID it forks from that branch's latest thought, without it
// from the session's root thought (see rootThought). The thought follows the latest thought of its branch; its
// cross-references become links from it to the latest thought of each
// target branch; its branch becomes active.
func (bt *BranchThinking) AddThought(ctx context.Context, in BranchThoughtInput) (*BranchThoughtResult, error) {
	s := bt.svc
	if err := in.validate(s.Config().MaxThoughtLength); err != nil {
		return nil, err
	}
	vec := reasoning.VectorAt(s.EmbedForWrite(ctx, in.Content), 0)
	var res BranchThoughtResult
	err := bt.an.Update(ctx, in.Session, true, "branch", func(tx thinkgraph.Tx, sess *thinkgraph.Session, st *analysis.State) error {
		res = BranchThoughtResult{}
		return bt.addThought(ctx, tx, st, sess, in, vec, &res)
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// addition is one AddThought in its transaction: what its steps share.
type addition struct {
	bt   *BranchThinking
	tx   thinkgraph.Tx
	st   *analysis.State
	sess *thinkgraph.Session
	in   BranchThoughtInput
	vec  semantic.Vector
	res  *BranchThoughtResult
	now  time.Time

	// target is the thought's branch; b is that branch once placed (nil
	// before when it does not exist yet).
	target        string
	branches      []thinkgraph.Branch
	links         []thinkgraph.Link
	byID          map[string]*thinkgraph.Branch
	b             *thinkgraph.Branch
	parentChanged bool
	th            *thinkgraph.Thought
	// cfg is the session's auto-evaluation; docs are the session's
	// thoughts as stored before this one (read when the semantic engine
	// is on and the thought has a vector).
	cfg  AutoEvalConfig
	docs []analyze.Doc
	// dependsOn are the thoughts the new one builds upon (its builds_upon
	// cross-references), as the session's documents will read it.
	dependsOn []string
}

// addThought runs the steps of AddThought in tx, in order: load the
// branches, check the named branches, check that no loop is closed, place
// the thought on its branch (creating or reviving it), prepare the
// evaluation, write the thought and its cross-references, evaluate, count.
func (bt *BranchThinking) addThought(ctx context.Context, tx thinkgraph.Tx, st *analysis.State, sess *thinkgraph.Session, in BranchThoughtInput, vec semantic.Vector, res *BranchThoughtResult) error {
	a := &addition{bt: bt, tx: tx, st: st, sess: sess, in: in, vec: vec, res: res, now: bt.svc.Now()}
	for _, step := range []func(context.Context) error{
		a.load, a.checkBranches, a.checkLoops, a.place, a.prepareEvaluation,
		a.write, a.writeCrossRefs, a.evaluate, a.result,
	} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// load resolves the target branch (default: the active one) and reads the
// session's branches and links.
func (a *addition) load(ctx context.Context) error {
	a.target = a.in.BranchID
	if a.target == "" {
		a.target = a.sess.ActiveBranch
	}
	if a.target == "" {
		a.target = thinkgraph.DefaultBranch
	}
	var err error
	if a.branches, err = a.tx.Branches(ctx, a.sess.Key); err != nil {
		return err
	}
	if a.links, err = a.tx.Links(ctx, a.sess.Key); err != nil {
		return err
	}
	a.byID = map[string]*thinkgraph.Branch{}
	for i := range a.branches {
		a.byID[a.branches[i].ID] = &a.branches[i]
	}
	a.b = a.byID[a.target]
	return nil
}

// checkBranches checks that the parent branch and the cross-references'
// branches exist, and that the parent is not the target itself.
func (a *addition) checkBranches(ctx context.Context) error {
	in, target := a.in, a.target
	if in.ParentBranchID != "" {
		if _, ok := a.byID[in.ParentBranchID]; !ok {
			return branchNotFound(ctx, a.tx, a.sess, "parentBranchId", in.ParentBranchID)
		}
		if in.ParentBranchID == target {
			return circular("parentBranchId", in.ParentBranchID, []string{target, target}, "branch %q cannot be its own parent", target)
		}
	}
	for i, c := range in.CrossRefs {
		// A cross-reference to the thought's own branch is allowed, as
		// in Branch Thinking (a thought relating to earlier ones).
		if _, ok := a.byID[c.ToBranch]; !ok {
			return branchNotFound(ctx, a.tx, a.sess, fmt.Sprintf("crossRefs[%d].toBranch", i), c.ToBranch)
		}
	}
	return nil
}

// checkLoops checks that the parent tree and the builds_upon graph each
// stay acyclic, and notes whether an existing branch gets a new parent.
func (a *addition) checkLoops(context.Context) error {
	in, target, b := a.in, a.target, a.b
	parents, deps := branchDeps(a.branches, a.links)
	if in.ParentBranchID != "" && (b == nil || b.ParentBranchID != in.ParentBranchID) {
		if p := depPath(parents, in.ParentBranchID, target); b != nil && p != nil {
			return circular("parentBranchId", in.ParentBranchID, append([]string{target}, p...),
				"making %q the parent of %q would close a loop of parent branches", in.ParentBranchID, target)
		}
		a.parentChanged = b != nil
	}
	for i, c := range in.CrossRefs {
		if c.Type != "builds_upon" || c.ToBranch == target {
			continue
		}
		if p := depPath(deps, c.ToBranch, target); p != nil {
			return circular(fmt.Sprintf("crossRefs[%d].toBranch", i), c.ToBranch, append([]string{target}, p...),
				"%q building upon %q would close a dependency loop", target, c.ToBranch)
		}
		deps[target] = append(deps[target], c.ToBranch)
	}
	return nil
}

// place makes the thought and puts it on its branch: a new branch is
// created, an existing one continued.
func (a *addition) place(ctx context.Context) error {
	in := a.in
	a.th = &thinkgraph.Thought{
		Content: in.Content, Type: in.Type, Confidence: in.Confidence, KeyPoints: in.KeyPoints, BranchID: a.target,
		BranchPoint: in.Confidence != nil && *in.Confidence < a.bt.svc.Config().ConfidenceThreshold,
		Author:      "client", Tool: "branch-thinking",
	}
	if a.b == nil {
		return a.createBranch(ctx)
	}
	return a.continueBranch(ctx)
}

// createBranch creates the target branch: with a parent branch it forks
// from that branch's latest thought, without one from the session's root
// thought (see rootThought).
func (a *addition) createBranch(ctx context.Context) error {
	tx, sess, now, target := a.tx, a.sess, a.now, a.target
	b := &thinkgraph.Branch{Session: sess.Key, ID: target, State: "active", Priority: 1, ParentBranchID: a.in.ParentBranchID, CreatedAt: now, UpdatedAt: now}
	if parent := a.in.ParentBranchID; parent == "" {
		// No parent branch named: the branch is an alternative from the
		// start, so it forks from the session's root thought, never from
		// whatever was written last on another branch.
		if target != thinkgraph.DefaultBranch {
			root, err := rootThought(ctx, tx, sess.Key)
			if err != nil {
				return err
			}
			if root != nil {
				b.ParentBranchID, b.ForkThoughtID = root.BranchID, root.ID
			}
		}
	} else {
		last, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: parent, Last: 1})
		if err != nil {
			return err
		}
		if len(last) > 0 {
			b.ForkThoughtID = last[0].ID
		} else if pb := a.byID[parent]; pb != nil {
			b.ForkThoughtID = pb.ForkThoughtID
		}
	}
	a.th.ParentID = b.ForkThoughtID
	a.res.CreatedBranch = true
	if err := tx.PutBranch(ctx, b); err != nil {
		return err
	}
	a.b = b
	a.branches = append(a.branches, *b)
	return nil
}

// continueBranch puts the thought after the latest thought of the existing
// target branch, giving the branch its new parent and making it active
// again.
func (a *addition) continueBranch(ctx context.Context) error {
	b := a.b
	last, err := a.tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: a.sess.Key, BranchID: a.target, Last: 1})
	if err != nil {
		return err
	}
	if len(last) > 0 {
		a.th.ParentID = last[0].ID
	} else {
		a.th.ParentID = b.ForkThoughtID
	}
	changed := a.parentChanged
	if a.parentChanged {
		b.ParentBranchID = a.in.ParentBranchID
	}
	if b.State != "active" {
		a.res.Note = fmt.Sprintf("branch %q was %s; adding a thought made it active again", b.ID, b.State)
		b.State = "active"
		changed = true
	}
	if changed {
		b.UpdatedAt = a.now
		if err := a.tx.PutBranch(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// prepareEvaluation reads the session's thoughts as stored (the analysis
// state brought up to the previous step on the way) and applies the overlap
// rule.
func (a *addition) prepareEvaluation(ctx context.Context) error {
	st, bt := a.st, a.bt
	a.cfg = analysis.AutoEvalOf(a.sess)
	if bt.svc.Semantic() == nil || a.vec == nil {
		return nil
	}
	var err error
	if a.docs, _, err = st.Docs(ctx, a.tx, a.sess); err != nil {
		return err
	}
	skip := map[string]bool{}
	for _, ob := range a.branches {
		if ob.State == "pruned" {
			skip[ob.ID] = true
		}
	}
	if !thinkgraph.RoleOf(a.in.Type).Concludes {
		a.res.OverlapWarning = overlap(st, a.target, a.vec, skip)
	}
	return nil
}

// overlap applies the overlap rule (see overlapMinSimilarity) to a thought
// about to be added to branch target. skip lists branches not to suggest.
func overlap(st *analysis.State, target string, v semantic.Vector, skip map[string]bool) *OverlapWarning {
	centres := st.Centres(v, overlapMinThoughts)
	cur, ok := centres[target]
	if !ok {
		return nil
	}
	best, bestSim := "", 0.0
	for id, s := range centres {
		if id == target || skip[id] {
			continue
		}
		if s > bestSim || (s == bestSim && id < best) {
			best, bestSim = id, s
		}
	}
	if best == "" || bestSim < overlapMinSimilarity || bestSim-cur < overlapMargin {
		return nil
	}
	return &OverlapWarning{SuggestedBranch: best, CurrentSimilarity: round3(cur), SuggestedSimilarity: round3(bestSim),
		Reason: "this thought is closer to the centre of branch " + best + " than to the centre of its own branch: if it continues " + best + ", add it there or cross-reference it"}
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// write stores the thought on its branch and makes the branch active.
func (a *addition) write(ctx context.Context) error {
	a.sess.ActiveBranch = a.target
	// AppendThought attaches a thought without parent to the current
	// thought; make that the intended parent ("" for a root).
	a.sess.CurrentThoughtID = a.th.ParentID
	return a.bt.svc.AppendThought(ctx, a.tx, a.sess, a.th, a.vec)
}

// writeCrossRefs stores the cross-references as links from the thought to
// the latest thought of each target branch. A contradictory one names the
// branch only: which of its thoughts the new one contradicts is not said,
// and the latest is as likely another, so the link points at the branch
// and the review asks the model (analysis: declared questions).
func (a *addition) writeCrossRefs(ctx context.Context) error {
	tx, sess, th := a.tx, a.sess, a.th
	for _, c := range a.in.CrossRefs {
		l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: a.target, ToBranch: c.ToBranch, FromThought: th.ID,
			Type: c.Type, Reason: c.Reason, CreatedAt: a.now, Strength: 0.5}
		if c.Strength != nil {
			l.Strength = *c.Strength
		}
		if c.Type != review.LinkContradictory {
			// The branch's latest thought before this one (a reference to
			// the thought's own branch points at its predecessor there).
			last, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: c.ToBranch, Last: 2})
			if err != nil {
				return err
			}
			for i := len(last) - 1; i >= 0; i-- {
				if last[i].ID != th.ID {
					l.ToThought = last[i].ID
					break
				}
			}
		}
		if err := tx.AddLink(ctx, l); err != nil {
			return err
		}
		if c.Type == "builds_upon" && l.ToThought != "" {
			a.dependsOn = append(a.dependsOn, l.ToThought)
		}
	}
	a.res.CrossRefs = len(a.in.CrossRefs)
	return nil
}

// evaluate adds the written thought to the analysis state and, with
// auto-evaluation, evaluates its branch as evaluate will once the write is
// committed, and stores the branch's priority.
func (a *addition) evaluate(ctx context.Context) error {
	st, bt, b := a.st, a.bt, a.b
	if bt.svc.Semantic() == nil {
		return nil
	}
	if a.vec == nil {
		if a.cfg.Enabled {
			a.res.Note = "the thought was stored without a vector (the embedder failed); it is evaluated on the next analysis"
		}
		return nil
	}
	d := reasoning.ToDoc(a.th)
	d.Vector, d.DependsOn = a.vec, a.dependsOn
	bt.svc.AddClaims(ctx, &d)
	if !a.cfg.Enabled {
		st.Absorb(d)
		return nil
	}
	ev, err := st.EvaluationAfterWrite(ctx, a.tx, a.sess, a.docs, d)
	if err != nil {
		return err
	}
	if ev.Thoughts >= 2 {
		// A branch of one thought is not rated (every metric compares two
		// thoughts): its evaluation would be nulls and that one issue.
		auto := ev.Auto()
		a.res.Evaluation = &auto
	}
	if ev.OverallScore != nil {
		b.Priority = math.Round(*ev.OverallScore*1000) / 1000
		b.UpdatedAt = a.now
		if err := a.tx.PutBranch(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// result counts the branch's thoughts (from the semantic state when it is
// current) and fills in the answer.
func (a *addition) result(ctx context.Context) error {
	st, res, th, b, sess := a.st, a.res, a.th, a.b, a.sess
	n, ok := st.Thoughts(a.target)
	if !ok || a.bt.svc.Semantic() == nil || a.vec == nil || !st.Current() {
		all, err := a.tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, BranchID: a.target})
		if err != nil {
			return err
		}
		n = len(all)
	}
	parent := 0
	if th.ParentID != "" {
		p, err := a.tx.Thought(ctx, sess.Key, th.ParentID)
		if err != nil {
			return err
		}
		parent = p.Step
	}
	*res = BranchThoughtResult{
		ThoughtID: th.ID, BranchID: a.target, BranchState: b.State, BranchPriority: b.Priority, NumThoughts: n,
		ActiveBranch: sess.ActiveBranch, SessionID: sess.ID, Step: th.Step, ParentStep: parent,
		CreatedBranch: res.CreatedBranch, CrossRefs: res.CrossRefs, Evaluation: res.Evaluation, OverlapWarning: res.OverlapWarning, Note: res.Note,
	}
	return nil
}

// rootThought is where a new branch without a parent branch starts: the
// first root thought of the main branch (the session's root, the thought
// every line of reasoning shares), or nil when main has no thought yet; the
// branch's first thought is then a root of its own, beside main under the
// session's goal.
func rootThought(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) (*thinkgraph.Thought, error) {
	none := ""
	first, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: session, BranchID: thinkgraph.DefaultBranch, ParentID: &none})
	if err != nil || len(first) == 0 {
		return nil, err
	}
	return &first[0], nil
}
