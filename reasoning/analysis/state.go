package analysis

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/reasoning/review"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// State is the analysis state of one session, as of its last sync. Its
// methods are called with the state locked (Analyst.Read, Update,
// ReadSession hand it out locked).
type State struct {
	an  *Analyst
	mu  sync.Mutex
	key thinkgraph.SessionKey
	// writing is set while a write transaction may have changed the state;
	// if the transaction fails or is retried the state is reset.
	writing bool
	// current is true when step equals the session's step count as of the
	// last sync in this call.
	current  bool
	step     int
	branches map[string]*branchState
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
	// cover is the review's cover of the pairs not compared yet
	// (review.CoverOf) as of coverLinks stated links and the grouper's
	// coverEpoch.
	cover                                 *review.Cover
	coverLinks, coverEpoch, coverCircular int
	// circular are the pairs of thoughts (review.DocPair) that
	// detectCircular's review may ask about (review.CircularPairs), of the
	// first circularDocs thoughts; askedPairs marks those a review showed,
	// by which (askedByContradictions, askedByCircular), and circularAsked
	// counts the changes detectCircular made to it (the cover reads them).
	circular      map[uint64]bool
	circularDocs  int
	askedPairs    map[review.PairKey]uint8
	circularAsked int
	// stated are the session's stated verdicts, nil until read; declared
	// the contradictory cross-references that name a branch but no thought
	// (each a question to the model, not a verdict).
	stated   *review.Stated
	declared []thinkgraph.Link
	// asked are the claims whose texts findContradictions has quoted
	// (they are not quoted again; see review.Review.Quoted);
	// askedCircular those detectCircular's review has quoted.
	asked         map[review.ClaimKey]bool
	askedCircular map[review.ClaimKey]bool
	// shown are the pairs of thoughts of the groups findContradictions has
	// shown; told says which reviews have said their question and how to
	// answer (askedByContradictions, askedByCircular).
	shown map[review.PairKey]bool
	told  uint8
	// assessed is the session's assessment (assess.go) as of the session
	// state assessedKey names.
	assessed    *Assessment
	assessedKey string
	// args keeps the reading of the thoughts' texts into arguments for
	// the next circular search (see analyze.ArgCache); aligned the offline
	// engine's reading of each text for drift (semantic.AlignText). Texts
	// never change, so these survive a reset.
	args       *analyze.ArgCache
	aligned    map[string]semantic.AlignedText
	alignments map[[2]string]float64
	// ranks are the thoughts' ranks as the session's conclusion
	// (advice.ConclusionRank), by id; proseVecs the prose of the thoughts
	// that quote code or output, as drift reads it.
	ranks     map[string]int
	proseVecs map[string]proseVec
}

// branchState is what the state keeps of one branch: the sum of its
// thoughts' vectors (its centre) and its evaluation tracker.
type branchState struct {
	sum     []float64
	n       int
	tracker *analyze.BranchTracker
}

// emptyState is the state of a session that does not exist yet (a
// connection's own session before its first write).
func emptyState(an *Analyst) *State {
	st := &State{an: an}
	st.reset()
	return st
}

// beginWrite is called at the start of every attempt of a write
// transaction: a retried attempt starts from a clean state.
func (st *State) beginWrite() {
	if st.writing {
		st.reset()
	}
	st.writing = true
}

func (st *State) reset() {
	st.step, st.current = 0, false
	st.branches = map[string]*branchState{}
	st.goal, st.goalVec = "", nil
	st.thSet = false
	if st.memo == nil {
		st.memo = &review.Memo{}
	}
	st.grouper, st.groups, st.groupsStep, st.groupsDocs, st.asserted, st.cover = nil, nil, 0, 0, nil, nil
	st.stated, st.declared = nil, nil
	st.assessed, st.assessedKey = nil, ""
	// What the reviews showed (asked, askedCircular, askedPairs, shown,
	// told) is what the model read, which no failed write takes back: it
	// is kept.
}

// svc is the service the state reads.
func (st *State) svc() *reasoning.Service { return st.an.svc }

// judge is the offline judge on two thoughts, stated verdicts first (see
// review.Stated.PairJudge).
func (st *State) judge() analyze.PairJudge {
	return st.stated.PairJudge(st.svc().Semantic().Contradictor, st.memo)
}

// maxAsked bounds the claims remembered as quoted (emptied when full: their
// texts are then quoted once more).
const maxAsked = 4096

// bounded returns asked, or an empty memory when asked is nil or holds more
// than maxAsked entries.
func bounded[K comparable, V any](asked map[K]V) map[K]V {
	if asked == nil || len(asked) > maxAsked {
		return map[K]V{}
	}
	return asked
}

// maxTrackerCatchUp is the number of new thoughts up to which existing
// branch trackers are advanced one by one; past it they are rebuilt on use.
const maxTrackerCatchUp = 32

// AutoEval is the auto-evaluation setting of a session (branch-thinking's
// configAutoEval): whether writes carry an evaluation, and the quality
// thresholds every evaluation of the session uses.
type AutoEval struct {
	Enabled               bool               `json:"enabled"`
	Thresholds            AutoEvalThresholds `json:"thresholds"`
	SuggestPivotThreshold float64            `json:"suggestPivotThreshold"`
}

// AutoEvalThresholds are the quality thresholds of auto-evaluation.
type AutoEvalThresholds struct {
	Excellent float64 `json:"excellent"`
	Good      float64 `json:"good"`
	Moderate  float64 `json:"moderate"`
}

// DefaultAutoEval is the auto-evaluation setting of a new session: on, with
// the seed's thresholds.
func DefaultAutoEval() AutoEval {
	d := analyze.DefaultThresholds()
	return AutoEval{Enabled: true, Thresholds: AutoEvalThresholds{Excellent: d.Excellent, Good: d.Good, Moderate: d.Moderate}, SuggestPivotThreshold: d.Pivot}
}

// thresholds are the evaluation thresholds of the setting.
func (c AutoEval) thresholds() analyze.Thresholds {
	th := analyze.DefaultThresholds()
	th.Excellent, th.Good, th.Moderate, th.Pivot = c.Thresholds.Excellent, c.Thresholds.Good, c.Thresholds.Moderate, c.SuggestPivotThreshold
	return th
}

// SettingsKey is the key of branch-thinking's settings in Session.Settings;
// other keys there belong to other tools and are kept.
const SettingsKey = "branchThinking"

// Settings are branch-thinking's settings of a session, which its
// assessment reads.
type Settings struct {
	AutoEval *AutoEval `json:"autoEval,omitempty"`
	// Closed holds the reason the model gave when it closed a branch
	// (prune with branchId), by branch.
	Closed map[string]string `json:"closed,omitempty"`
}

// SettingsOf reads branch-thinking's settings of a session.
func SettingsOf(sess *thinkgraph.Session) Settings {
	var all map[string]json.RawMessage
	var bs Settings
	if json.Unmarshal(sess.Settings, &all) == nil {
		_ = json.Unmarshal(all[SettingsKey], &bs)
	}
	return bs
}

// AutoEvalOf reads the auto-evaluation setting of a session.
func AutoEvalOf(sess *thinkgraph.Session) AutoEval {
	if bs := SettingsOf(sess); bs.AutoEval != nil {
		return *bs.AutoEval
	}
	return DefaultAutoEval()
}

// Sync brings the state up to the session as stored: absorbs thoughts
// written since, and applies a changed goal, thresholds or stated verdicts.
// It reads the session's docs only when the state is behind.
func (st *State) Sync(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) error {
	svc := st.svc()
	if svc.Semantic() == nil {
		return reasoning.ErrNoSemantic
	}
	if err := st.loadStated(ctx, tx, sess.Key); err != nil {
		return err
	}
	th := AutoEvalOf(sess).thresholds()
	th.Calibration = svc.Calibration()
	if !st.thSet || th != st.th {
		st.th, st.thSet = th, true
		for _, b := range st.branches {
			b.tracker = nil
		}
	}
	if st.step < sess.StepCount {
		docs, _, err := svc.Docs(ctx, tx, sess.Key)
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
			st.goalVec = reasoning.VectorAt(svc.EmbedForWrite(ctx, sess.Goal), 0)
		}
		for _, b := range st.branches {
			if b.tracker != nil {
				b.tracker.SetGoal(st.goalVec)
			}
		}
	}
	return nil
}

// loadStated brings the state's stated verdicts up to the session's links;
// when they changed, the branch trackers and the contradiction search start
// afresh so that every figure counts them.
func (st *State) loadStated(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) error {
	links, err := tx.Links(ctx, session)
	if err != nil {
		return err
	}
	st.applyLinks(links)
	return nil
}

// applyLinks is loadStated on links already read (the session's, in the
// store's order).
func (st *State) applyLinks(links []thinkgraph.Link) {
	if st.stated != nil && st.stated.Links() == len(links) {
		return
	}
	st.stated = review.StatedOf(links)
	st.declared = st.declared[:0]
	for _, l := range links {
		if l.Type == review.LinkContradictory && l.FromThought != "" && l.ToThought == "" && l.ToBranch != "" {
			st.declared = append(st.declared, l)
		}
	}
	st.asserted = nil
	for _, b := range st.branches {
		b.tracker = nil
	}
}

// Docs returns the session's analyzer docs after syncing the state.
func (st *State) Docs(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session) ([]analyze.Doc, *semantic.Index, error) {
	if err := st.Sync(ctx, tx, sess); err != nil {
		return nil, nil, err
	}
	return st.svc().Docs(ctx, tx, sess.Key)
}

// Absorb adds a thought just written in this state's write transaction,
// with its vector, to the state (the session's document cache sees it once
// it is committed).
func (st *State) Absorb(d analyze.Doc) { st.absorb(d) }

// absorb adds a thought with its vector to the state.
func (st *State) absorb(d analyze.Doc) {
	st.step = max(st.step, d.Step)
	if d.Vector == nil {
		return
	}
	b := st.branches[d.Branch]
	if b == nil {
		b = &branchState{sum: make([]float64, len(d.Vector))}
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

// Current reports whether the state holds every thought of the session as
// of the last sync (then Thoughts counts a branch's).
func (st *State) Current() bool { return st.current }

// Thoughts is the number of thoughts with vectors of a branch the state
// holds.
func (st *State) Thoughts(branch string) (int, bool) {
	b := st.branches[branch]
	if b == nil {
		return 0, false
	}
	return b.n, true
}

// ensureTracker builds the evaluation tracker of a branch from docs (the
// session's thoughts) when it has none.
func (st *State) ensureTracker(docs []analyze.Doc, branch string) error {
	b := st.branches[branch]
	if b != nil && b.tracker != nil {
		return nil
	}
	var own []analyze.Doc
	var confirmed []analyze.Contradiction
	if b != nil && b.n > 0 {
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
		b = &branchState{}
		st.branches[branch] = b
	}
	b.tracker = analyze.NewBranchTracker(own, st.goalVec, st.judge(), st.th)
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

// Centres returns the cosine of v with the centre of each branch of at
// least minThoughts thoughts with vectors.
func (st *State) Centres(v semantic.Vector, minThoughts int) map[string]float64 {
	out := map[string]float64{}
	for id, b := range st.branches {
		if b.n >= minThoughts {
			out[id] = cosineSum(v, b.sum)
		}
	}
	return out
}
