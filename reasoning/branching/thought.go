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
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// ThoughtTypes are the ten thought types of branch-thinking (docs/branch-thinking.md).
var ThoughtTypes = []string{"analysis", "hypothesis", "validation", "synthesis", "observation",
	"question", "answer", "example", "counterexample", "critique"}

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

// AutoEvalThresholds are the quality thresholds of auto-evaluation.
type AutoEvalThresholds struct {
	Excellent float64 `json:"excellent"`
	Good      float64 `json:"good"`
	Moderate  float64 `json:"moderate"`
}

// AutoEvalConfig is the auto-evaluation setting of a session.
type AutoEvalConfig struct {
	Enabled               bool               `json:"enabled"`
	Thresholds            AutoEvalThresholds `json:"thresholds"`
	SuggestPivotThreshold float64            `json:"suggestPivotThreshold"`
}

// defaultAutoEval is the auto-evaluation setting of a new session: on, with
// the seed's thresholds.
func defaultAutoEval() AutoEvalConfig {
	d := analyze.DefaultThresholds()
	return AutoEvalConfig{Enabled: true, Thresholds: AutoEvalThresholds{Excellent: d.Excellent, Good: d.Good, Moderate: d.Moderate},
		SuggestPivotThreshold: d.Pivot}
}

func (c AutoEvalConfig) semantic() analyze.Thresholds {
	th := analyze.DefaultThresholds()
	th.Excellent, th.Good, th.Moderate, th.Pivot = c.Thresholds.Excellent, c.Thresholds.Good, c.Thresholds.Moderate, c.SuggestPivotThreshold
	return th
}

// settingsKey is the key of branch-thinking's settings in Session.Settings;
// other keys there belong to other tools and are kept.
const settingsKey = "branchThinking"

type branchSettings struct {
	AutoEval *AutoEvalConfig `json:"autoEval,omitempty"`
	// Closed holds the reason the model gave when it closed a branch
	// (prune with branchId), by branch.
	Closed map[string]string `json:"closed,omitempty"`
}

// settingsOf reads branch-thinking's settings of a session.
func settingsOf(sess *thinkgraph.Session) branchSettings {
	var all map[string]json.RawMessage
	var bs branchSettings
	if json.Unmarshal(sess.Settings, &all) == nil {
		_ = json.Unmarshal(all[settingsKey], &bs)
	}
	return bs
}

// setSettings writes branch-thinking's settings into sess.Settings, keeping
// other tools' keys.
func setSettings(sess *thinkgraph.Session, bs branchSettings) error {
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
	all[settingsKey] = b
	sess.Settings, err = json.Marshal(all)
	return err
}

// autoEvalOf reads the auto-evaluation setting of a session.
func autoEvalOf(sess *thinkgraph.Session) AutoEvalConfig {
	if bs := settingsOf(sess); bs.AutoEval != nil {
		return *bs.AutoEval
	}
	return defaultAutoEval()
}

// setAutoEval writes the auto-evaluation setting into sess.Settings.
func setAutoEval(sess *thinkgraph.Session, cfg AutoEvalConfig) error {
	bs := settingsOf(sess)
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
	err := bt.withState(ctx, in.Session, func(st *btState) error {
		return s.Store().Update(ctx, func(tx thinkgraph.Tx) error {
			st.beginWrite()
			res = BranchThoughtResult{}
			sess, err := s.Session(ctx, tx, in.Session, true, "branch")
			if err != nil {
				return err
			}
			return bt.addThought(ctx, tx, st, sess, in, vec, &res)
		})
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
	st   *btState
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
	// cfg is the session's auto-evaluation; evalReady says the target's
	// tracker is built, so the thought is evaluated once written.
	cfg       AutoEvalConfig
	evalReady bool
}

// addThought runs the steps of AddThought in tx, in order: load the
// branches, check the named branches, check that no loop is closed, place
// the thought on its branch (creating or reviving it), prepare the
// evaluation, write the thought and its cross-references, evaluate, count.
func (bt *BranchThinking) addThought(ctx context.Context, tx thinkgraph.Tx, st *btState, sess *thinkgraph.Session, in BranchThoughtInput, vec semantic.Vector, res *BranchThoughtResult) error {
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

// prepareEvaluation brings the semantic state up to the previous step,
// builds the target's tracker when auto-evaluation is on and applies the
// overlap rule.
func (a *addition) prepareEvaluation(ctx context.Context) error {
	st, bt := a.st, a.bt
	a.cfg = autoEvalOf(a.sess)
	if bt.svc.Semantic() == nil || a.vec == nil {
		return nil
	}
	if err := st.sync(ctx, bt, a.tx, a.sess, a.cfg); err != nil {
		return err
	}
	if a.cfg.Enabled {
		if err := st.ensureTracker(ctx, bt, a.tx, a.sess, a.target); err != nil {
			return err
		}
		a.evalReady = true
	}
	skip := map[string]bool{}
	for _, ob := range a.branches {
		if ob.State == "pruned" {
			skip[ob.ID] = true
		}
	}
	if t := a.in.Type; t != "synthesis" && t != "answer" {
		a.res.OverlapWarning = st.overlap(a.target, a.vec, skip)
	}
	return nil
}

// write stores the thought on its branch and makes the branch active.
func (a *addition) write(ctx context.Context) error {
	a.sess.ActiveBranch = a.target
	// AppendThought attaches a thought without parent to the current
	// thought; make that the intended parent ("" for a root).
	a.sess.CurrentThoughtID = a.th.ParentID
	return a.bt.svc.AppendThought(ctx, a.tx, a.sess, a.th, a.vec)
}

// writeCrossRefs stores the cross-references as links from the thought to
// the latest thought of each target branch.
func (a *addition) writeCrossRefs(ctx context.Context) error {
	tx, sess, th := a.tx, a.sess, a.th
	for _, c := range a.in.CrossRefs {
		l := &thinkgraph.Link{ID: reasoning.NewID(), Session: sess.Key, FromBranch: a.target, ToBranch: c.ToBranch, FromThought: th.ID,
			Type: c.Type, Reason: c.Reason, CreatedAt: a.now, Strength: 0.5}
		if c.Strength != nil {
			l.Strength = *c.Strength
		}
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
		if err := tx.AddLink(ctx, l); err != nil {
			return err
		}
	}
	a.res.CrossRefs = len(a.in.CrossRefs)
	return nil
}

// evaluate adds the written thought to the semantic state and, with
// auto-evaluation, evaluates its branch and stores the branch's priority.
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
	d.Vector = a.vec
	bt.svc.AddClaims(ctx, &d)
	st.absorb(d)
	if !a.evalReady {
		return nil
	}
	if slices.ContainsFunc(a.in.CrossRefs, func(c CrossRef) bool { return c.Type == review.LinkContradictory }) {
		// The declared contradiction counts in this evaluation too.
		if err := st.loadStated(ctx, a.tx, a.sess.Key); err != nil {
			return err
		}
		if err := st.ensureTracker(ctx, bt, a.tx, a.sess, a.target); err != nil {
			return err
		}
	}
	ev := st.branches[a.target].tracker.Evaluation()
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
	n := 0
	if bs := st.branches[a.target]; a.bt.svc.Semantic() != nil && a.vec != nil && bs != nil && st.current {
		n = bs.n
	} else {
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
