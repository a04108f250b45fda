// Package branching is the branch-thinking tool (docs/branch-thinking.md)
// on the reasoning core: thoughts on named branches with cross-references,
// its commands (one table, BranchCommands), the per-session analysis state,
// stated verdicts, the language-model judge, the offline generator, tool
// suggestions, and export and import of a session.
package branching

import (
	"cmp"
	"container/list"
	"context"
	"math"
	"slices"
	"sync"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// BranchThinking runs the branch-thinking tool on a Service. It keeps, per
// session, the running state of the analyses (branch centroids, one
// analyze.BranchTracker per evaluated branch, the contradictions found so
// far and the judge's verdicts), so that adding a thought with
// auto-evaluation and re-running evaluate or findContradictions cost work in
// proportion to what changed, not to the session's size. The state is a
// cache: it is rebuilt from the store whenever it is behind (another process
// or tool wrote to the session) or a write failed.
type BranchThinking struct {
	svc *reasoning.Service

	mu     sync.Mutex
	states map[reasoning.RefKey]*list.Element // of *btState
	lru    *list.List
	max    int
	// gen writes counterfactuals and syntheses with a language model; nil
	// (the default) keeps the offline results.
	gen Generator
	// answers are the language-model judge's answers by group of claim
	// texts
	// (Config.Judge = JudgeLLM).
	answers review.Replies
}

// SetGenerator makes generateCounterfactuals and synthesizeDialectical
// use g, with the offline result as its input and as the fallback when it
// fails. Call it before serving.
func (bt *BranchThinking) SetGenerator(g Generator) { bt.gen = g }

// NewBranchThinking returns the branch-thinking tool on svc.
func NewBranchThinking(svc *reasoning.Service) *BranchThinking {
	max := 64
	if svc.Semantic() != nil {
		max = svc.Semantic().MaxSessions
	}
	return &BranchThinking{svc: svc, states: map[reasoning.RefKey]*list.Element{}, lru: list.New(), max: max}
}

// Service returns the service the tool runs on.
func (bt *BranchThinking) Service() *reasoning.Service { return bt.svc }

// btState is the analysis state of one session. Its mutex is held for a
// whole tool call.
type btState struct {
	mu  sync.Mutex
	key reasoning.RefKey
	// writing is set while a write transaction may have changed the state;
	// if the transaction fails or is retried the state is reset.
	writing bool
	// current is true when step equals the session's step count as of the
	// last sync in this call.
	current  bool
	step     int
	branches map[string]*btBranch
	goal     string
	goalVec  semantic.Vector
	th       analyze.Thresholds
	thSet    bool

	// memo remembers the offline judge's verdicts on the session's pairs
	// of thoughts and of claims (thoughts never change their text).
	memo *review.Memo

	// groups are the session's claim groups (review.go) as of the thought
	// of step groupsStep, groupsDocs thoughts in all; asserted the
	// contradictions the offline judge is certain of in them, as of
	// assertedLinks stated links (nil: compute them again).
	grouper       *analyze.Grouper
	groups        []analyze.ReviewGroup
	groupsStep    int
	groupsDocs    int
	asserted      []analyze.Contradiction
	assertedLinks int
	// stated are the session's stated verdicts, nil until read.
	stated *review.Stated
	// asked are the claims whose texts findContradictions has quoted
	// (they are not quoted again; see review.Review.Quoted).
	asked map[string]bool
	// askedCircular are those detectCircular's review has quoted.
	askedCircular map[string]bool
	// assessed is the session's assessment (assess.go) as of the session
	// state assessedKey names.
	assessed    *assessment
	assessedKey string
	// args keeps the reading of the thoughts' texts into arguments for
	// the next DetectCircular (see argCache); texts never change, so it
	// survives a reset.
	args *analyze.ArgCache
}

// argCache returns the session's analyze.ArgCache, made on first use.
func (st *btState) argCache() *analyze.ArgCache {
	if st.args == nil {
		st.args = analyze.NewArgCache()
	}
	return st.args
}

type btBranch struct {
	sum     []float64
	n       int
	tracker *analyze.BranchTracker
}

func (bt *BranchThinking) stateOf(ref reasoning.SessionRef) *btState {
	key := ref.Key()
	bt.mu.Lock()
	defer bt.mu.Unlock()
	if el, ok := bt.states[key]; ok {
		bt.lru.MoveToFront(el)
		return el.Value.(*btState)
	}
	st := &btState{key: key}
	st.reset()
	bt.states[key] = bt.lru.PushFront(st)
	for bt.lru.Len() > bt.max {
		old := bt.lru.Back()
		bt.lru.Remove(old)
		delete(bt.states, old.Value.(*btState).key)
	}
	return st
}

// withState runs fn with the session's state locked; a failed write resets
// the state.
func (bt *BranchThinking) withState(ctx context.Context, ref reasoning.SessionRef, fn func(st *btState) error) error {
	st := bt.stateOf(ref)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.current = false
	err := fn(st)
	if err != nil && st.writing {
		st.reset()
	}
	st.writing = false
	return err
}

// beginWrite is called at the start of every attempt of a write
// transaction: a retried attempt starts from a clean state.
func (st *btState) beginWrite() {
	if st.writing {
		st.reset()
	}
	st.writing = true
}

func (st *btState) reset() {
	st.step, st.current = 0, false
	st.branches = map[string]*btBranch{}
	st.goal, st.goalVec = "", nil
	st.thSet = false
	if st.memo == nil {
		st.memo = &review.Memo{}
	}
	st.grouper, st.groups, st.groupsStep, st.groupsDocs, st.asserted = nil, nil, 0, 0, nil
	st.stated, st.asked, st.askedCircular = nil, nil, nil
	st.assessed, st.assessedKey = nil, ""
}

// judge is the offline judge on two thoughts, stated verdicts first (see
// review.Stated.PairJudge).
func (bt *BranchThinking) judge(st *btState) analyze.PairJudge {
	return st.stated.PairJudge(bt.svc.Semantic().Contradictor, st.memo)
}

// maxAsked bounds the claims remembered as quoted (emptied when full: their
// texts are then quoted once more).
const maxAsked = 4096

// bounded returns asked, or an empty memory when asked is nil or holds more
// than maxAsked claims.
func bounded(asked map[string]bool) map[string]bool {
	if asked == nil || len(asked) > maxAsked {
		return map[string]bool{}
	}
	return asked
}

// maxTrackerCatchUp is the number of new thoughts up to which existing
// branch trackers are advanced one by one; past it they are rebuilt on use.
const maxTrackerCatchUp = 32

// sync brings the state up to the session as stored: absorbs thoughts
// written since, and applies a changed goal or thresholds. It reads the
// session's docs only when the state is behind.
func (st *btState) sync(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, sess *thinkgraph.Session, cfg AutoEvalConfig) error {
	if err := st.loadStated(ctx, tx, sess.Key); err != nil {
		return err
	}
	th := cfg.semantic()
	th.Calibration = bt.svc.Calibration()
	if !st.thSet || th != st.th {
		st.th, st.thSet = th, true
		for _, b := range st.branches {
			b.tracker = nil
		}
	}
	if st.step < sess.StepCount {
		docs, _, err := bt.svc.Docs(ctx, tx, sess.Key)
		if err != nil {
			return err
		}
		i, _ := slices.BinarySearchFunc(docs, st.step+1, func(d analyze.Doc, step int) int { return cmp.Compare(d.Step, step) })
		if len(docs)-i > maxTrackerCatchUp {
			for _, b := range st.branches {
				b.tracker = nil
			}
		}
		for _, d := range docs[i:] {
			st.absorb(d)
		}
	}
	st.current = st.step >= sess.StepCount
	if sess.Goal != st.goal {
		st.goal, st.goalVec = sess.Goal, nil
		if sess.Goal != "" {
			st.goalVec = reasoning.VectorAt(bt.svc.EmbedForWrite(ctx, sess.Goal), 0)
		}
		for _, b := range st.branches {
			if b.tracker != nil {
				b.tracker.SetGoal(st.goalVec)
			}
		}
	}
	return nil
}

// absorb adds a thought with its vector to the state.
func (st *btState) absorb(d analyze.Doc) {
	st.step = max(st.step, d.Step)
	if d.Vector == nil {
		return
	}
	b := st.branches[d.Branch]
	if b == nil {
		b = &btBranch{sum: make([]float64, len(d.Vector))}
		st.branches[d.Branch] = b
	}
	if b.sum == nil {
		b.sum = make([]float64, len(d.Vector))
	}
	if len(b.sum) == len(d.Vector) {
		for i, x := range d.Vector {
			b.sum[i] += float64(x)
		}
		b.n++
	}
	if b.tracker != nil {
		b.tracker.Add(d)
	}
}

// ensureTracker builds the evaluation tracker of a branch when it has none.
func (st *btState) ensureTracker(ctx context.Context, bt *BranchThinking, tx thinkgraph.Tx, sess *thinkgraph.Session, branch string) error {
	b := st.branches[branch]
	if b != nil && b.tracker != nil {
		return nil
	}
	var own []analyze.Doc
	var confirmed []analyze.Contradiction
	if b != nil && b.n > 0 {
		docs, _, err := bt.svc.Docs(ctx, tx, sess.Key)
		if err != nil {
			return err
		}
		byID := make(map[string]int, len(docs))
		for i, d := range docs {
			byID[d.ID] = i
			if d.Branch == branch && d.Step <= st.step {
				own = append(own, d)
			}
		}
		confirmed = st.stated.Contradictions(docs, byID, func(a, b analyze.Doc) bool {
			return (a.Branch == branch || b.Branch == branch) && a.Step <= st.step && b.Step <= st.step
		})
	}
	if b == nil {
		b = &btBranch{}
		st.branches[branch] = b
	}
	b.tracker = analyze.NewBranchTracker(own, st.goalVec, bt.judge(st), st.th)
	b.tracker.SetConfirmed(confirmed)
	return nil
}

// cosineSum is the cosine of v with the direction of sum.
func cosineSum(v semantic.Vector, sum []float64) float64 {
	if len(v) != len(sum) {
		return 0
	}
	var dot, nv, ns float64
	for i, x := range v {
		dot += float64(x) * sum[i]
		nv += float64(x) * float64(x)
		ns += sum[i] * sum[i]
	}
	if nv == 0 || ns == 0 {
		return 0
	}
	return dot / math.Sqrt(nv*ns)
}

// overlap applies the overlap rule (see overlapMinSimilarity) to a thought
// about to be added to branch target. skip lists branches not to suggest.
func (st *btState) overlap(target string, v semantic.Vector, skip map[string]bool) *OverlapWarning {
	own := st.branches[target]
	if own == nil || own.n < overlapMinThoughts {
		return nil
	}
	cur := cosineSum(v, own.sum)
	best, bestSim := "", 0.0
	for id, b := range st.branches {
		if id == target || b.n < overlapMinThoughts || skip[id] {
			continue
		}
		if s := cosineSum(v, b.sum); s > bestSim || (s == bestSim && id < best) {
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
