package reasoning

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
	"github.com/thinkgraph/thinkgraph/semantic/claims"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
)

// SemanticConfig wires the semantic engine into the service.
type SemanticConfig struct {
	Embedder     semantic.Embedder
	Contradictor *contradict.Contradictor
	// EmbedTimeout bounds embedding a thought on the write path; a thought
	// whose embedding fails or times out is stored without a vector, which is
	// filled in when its session is next analysed (default 2 s).
	EmbedTimeout time.Duration
	// MaxSessions bounds the sessions whose thoughts and vectors are held in
	// memory (least recently used are dropped; default 64).
	MaxSessions int
	Logger      *slog.Logger
	// Warm, when set, loads the engine's resources in the background at
	// once instead of on the first call. Use it only with an embedder that
	// needs no network (the offline lexical one).
	Warm bool
}

// engine holds the semantic engine and a bounded cache of each analysed
// session's thoughts as analyzer documents with their similarity index.
type engine struct {
	cfg SemanticConfig

	mu       sync.Mutex
	sessions map[thinkgraph.SessionKey]*list.Element // of *sessionDocs
	lru      *list.List
	// recent holds the vectors computed on the write path until the cache
	// picks them up, so they are not embedded twice.
	recent map[string]semantic.Vector
	// persisting tracks background writes of vectors computed at load time.
	persisting sync.WaitGroup
}

// maxRecent bounds engine.recent; past it the map is emptied (the vectors
// are in the store anyway).
const maxRecent = 4096

// sessionDocs is one session's thoughts as analyzer documents, in step
// order, with their vectors in an index. Thoughts never change content,
// type, confidence, branch or parent after they are written, so the cache
// stays right by appending the thoughts with a step above lastStep.
type sessionDocs struct {
	id thinkgraph.SessionKey

	mu       sync.Mutex
	docs     []analyze.Doc
	byID     map[string]int
	lastStep int
	// index holds the vectors of docs[:indexed]: it is brought up to date
	// when it is handed out (DocsView), not on each write. The tools that
	// only look vectors up (docVectors: traced_reasoning's guardrails on
	// every step) then never pay for it, in particular not for the copy
	// of every vector of the session each time its storage grows (a
	// quarter more: tens of milliseconds once a session has a thousand
	// thoughts).
	index   *semantic.Index
	indexed int
	// dim is the vectors' length (0 until the first when the embedder
	// does not tell): extend checks it as the index would.
	dim int
}

// syncIndex adds the documents not yet in the index; the caller holds
// sd.mu.
func (sd *sessionDocs) syncIndex() error {
	for ; sd.indexed < len(sd.docs); sd.indexed++ {
		d := &sd.docs[sd.indexed]
		if err := sd.index.Add(d.ID, d.Vector); err != nil {
			return &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "indexing thought " + d.ID, Err: err}
		}
	}
	return nil
}

// checkVector rejects, with the error the index would give, a vector the
// index would not take: it is checked when the document is cached, where
// the index used to be extended.
func (sd *sessionDocs) checkVector(id string, v semantic.Vector) error {
	var err error
	switch {
	case len(v) == 0:
		err = fmt.Errorf("semantic: index add %q: empty vector", id)
	case sd.dim != 0 && len(v) != sd.dim:
		err = fmt.Errorf("semantic: index add %q: length %d, index has %d: %w", id, len(v), sd.dim, semantic.ErrDimension)
	default:
		sd.dim = len(v)
		return nil
	}
	return &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "indexing thought " + id, Err: err}
}

// EnableSemantic turns on the semantic engine: thoughts written from now on
// are embedded and their vectors persisted, and the analyses are available.
func (s *Service) EnableSemantic(cfg SemanticConfig) error {
	if cfg.Embedder == nil {
		return errors.New("semantic: no embedder")
	}
	if cfg.Contradictor == nil {
		c, err := contradict.NewContradictor(nil)
		if err != nil {
			return err
		}
		cfg.Contradictor = c
	}
	if cfg.EmbedTimeout <= 0 {
		cfg.EmbedTimeout = 2 * time.Second
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 64
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s.sem = &engine{cfg: cfg, sessions: map[thinkgraph.SessionKey]*list.Element{}, lru: list.New(), recent: map[string]semantic.Vector{}}
	if cfg.Warm {
		// The offline engine parses its lexicon on first use (tens of ms):
		// do it now, off the critical path of the first call.
		s.sem.persisting.Add(1)
		go func() {
			defer s.sem.persisting.Done()
			_, _ = cfg.Embedder.Embed(context.Background(), []string{"warm up"})
			cfg.Contradictor.Contradiction("it is warm", "it is not warm")
		}()
	}
	return nil
}

// Close waits for background work (vectors being persisted) to finish.
func (s *Service) Close() {
	if s.sem != nil {
		s.sem.persisting.Wait()
	}
}

// ErrNoSemantic is returned by analyses when no embedder is configured.
var ErrNoSemantic = &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "the semantic engine is not enabled on this server"}

// EmbedForWrite embeds the texts of thoughts about to be written, within
// EmbedTimeout. On failure (or with the engine off) it returns nil and the
// thoughts are stored without vectors (filled in later): a slow or failing
// embedder never loses or blocks a write.
func (s *Service) EmbedForWrite(ctx context.Context, texts ...string) []semantic.Vector {
	if s.sem == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.sem.cfg.EmbedTimeout)
	defer cancel()
	vs, err := s.sem.cfg.Embedder.Embed(ctx, texts)
	if err != nil || len(vs) != len(texts) {
		s.sem.cfg.Logger.Warn("embedding failed; thoughts are stored and will be embedded later", "err", err)
		return nil
	}
	return vs
}

// putVector stores the vector of a thought in the same transaction.
func (s *Service) putVector(ctx context.Context, tx thinkgraph.Tx, th *thinkgraph.Thought, v semantic.Vector) error {
	if s.sem == nil || v == nil {
		return nil
	}
	// Keep the vector for the cache only if the session is cached: a
	// session loaded later reads its vectors from the store.
	s.sem.mu.Lock()
	if _, cached := s.sem.sessions[th.Session]; cached {
		if len(s.sem.recent) >= maxRecent {
			clear(s.sem.recent)
		}
		s.sem.recent[th.ID] = v
	}
	s.sem.mu.Unlock()
	return tx.PutVectors(ctx, []thinkgraph.Vector{{
		ThoughtID: th.ID, Session: th.Session, Model: s.sem.cfg.Embedder.Model(), Dim: len(v), Values: v, CreatedAt: th.CreatedAt,
	}})
}

// VectorAt returns vs[i], or nil when embedding failed.
func VectorAt(vs []semantic.Vector, i int) semantic.Vector {
	if i < len(vs) {
		return vs[i]
	}
	return nil
}

// ToDoc converts a thought for the analyzers.
func ToDoc(th *thinkgraph.Thought) analyze.Doc {
	// A revision does not build on the thought it revises, so RevisesID is
	// not a dependency (it would read as a restated premise).
	return analyze.Doc{
		ID: th.ID, SessionID: string(th.Session), Branch: th.BranchID, ParentID: th.ParentID, Step: th.Step,
		Type: th.Type, Content: th.Content, Confidence: th.Confidence, KeyPoints: th.KeyPoints,
	}
}

// Docs returns the session's thoughts as analyzer documents with vectors,
// in step order, and the session's similarity index. The slice is a
// snapshot the caller may keep. Links of type builds_upon between thoughts
// become DependsOn edges.
func (s *Service) Docs(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) ([]analyze.Doc, *semantic.Index, error) {
	var docs []analyze.Doc
	var index *semantic.Index
	err := s.DocsView(ctx, tx, session, func(cached []analyze.Doc, byID map[string]int, idx *semantic.Index) error {
		docs, index = slices.Clone(cached), idx
		links, err := tx.Links(ctx, session)
		if err != nil {
			return err
		}
		for _, l := range links {
			if l.Type == "builds_upon" && l.FromThought != "" && l.ToThought != "" {
				if i, ok := byID[l.FromThought]; ok {
					docs[i].DependsOn = append(slices.Clip(docs[i].DependsOn), l.ToThought)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return docs, index, nil
}

// DocsView is Service.Docs without the copy: it brings the session's cached
// documents up to date and runs fn on them while holding the cache's lock.
// fn must neither keep nor modify docs or byID. The documents carry no
// DependsOn edges from links (use Docs for analyses that need them). At
// 10,000 thoughts the copy Docs makes is most of the cost of a search.
func (s *Service) DocsView(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey, fn func(docs []analyze.Doc, byID map[string]int, idx *semantic.Index) error) error {
	if s.sem == nil {
		return ErrNoSemantic
	}
	sd := s.sem.session(session)
	sd.mu.Lock()
	defer sd.mu.Unlock()
	if err := s.refreshDocs(ctx, tx, sd); err != nil {
		return err
	}
	if err := sd.syncIndex(); err != nil {
		return err
	}
	return fn(sd.docs, sd.byID, sd.index)
}

// refreshDocs appends the session's thoughts written since the cache last
// saw it (with their vectors) to the cache; the caller holds sd.mu.
func (s *Service) refreshDocs(ctx context.Context, tx thinkgraph.Tx, sd *sessionDocs) error {
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sd.id, AfterStep: sd.lastStep})
	if err != nil {
		return err
	}
	if len(ths) > 0 {
		fresh, err := s.sem.extend(ctx, tx, sd, ths)
		if err != nil {
			return err
		}
		s.persistVectors(fresh)
	}
	return nil
}

// DocVectors is the vector lookup of the documents [Service.Docs] would
// return now: it brings the session's cache up to date and returns the
// vectors (and steps) of the thoughts in it, without copying the documents
// or reading the links; ErrNoSemantic when the engine is off. The lookups
// see only the documents cached at the call: call it before writing in tx,
// the cache must only see committed thoughts.
func (s *Service) DocVectors(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) (vector func(id string) (semantic.Vector, bool), step func(id string) (int, bool), err error) {
	if s.sem == nil {
		return nil, nil, ErrNoSemantic
	}
	sd := s.sem.session(session)
	sd.mu.Lock()
	defer sd.mu.Unlock()
	if err := s.refreshDocs(ctx, tx, sd); err != nil {
		return nil, nil, err
	}
	n := len(sd.docs)
	doc := func(id string) (analyze.Doc, bool) {
		sd.mu.Lock()
		defer sd.mu.Unlock()
		if i, ok := sd.byID[id]; ok && i < n {
			return sd.docs[i], true
		}
		return analyze.Doc{}, false
	}
	vector = func(id string) (semantic.Vector, bool) {
		d, ok := doc(id)
		return d.Vector, ok
	}
	step = func(id string) (int, bool) {
		d, ok := doc(id)
		return d.Step, ok
	}
	return vector, step, nil
}

// session returns the cache entry of a session, creating it and evicting
// the least recently used one beyond MaxSessions.
func (e *engine) session(id thinkgraph.SessionKey) *sessionDocs {
	e.mu.Lock()
	defer e.mu.Unlock()
	if el, ok := e.sessions[id]; ok {
		e.lru.MoveToFront(el)
		return el.Value.(*sessionDocs)
	}
	dim := e.cfg.Embedder.Dim()
	sd := &sessionDocs{id: id, byID: map[string]int{}, index: semantic.NewIndex(dim), dim: dim}
	e.sessions[id] = e.lru.PushFront(sd)
	for e.lru.Len() > e.cfg.MaxSessions {
		old := e.lru.Back()
		e.lru.Remove(old)
		delete(e.sessions, old.Value.(*sessionDocs).id)
	}
	return sd
}

// extend appends thoughts to a session's cache with their vectors: the
// persisted ones for this embedding model, else freshly embedded (and then
// persisted, best effort), so thoughts stored while the embedder was down,
// or under another model, are indexed now.
func (e *engine) extend(ctx context.Context, tx thinkgraph.Tx, sd *sessionDocs, ths []thinkgraph.Thought) ([]thinkgraph.Vector, error) {
	model := e.cfg.Embedder.Model()
	stored := map[string][]float32{}
	e.mu.Lock()
	for i := range ths {
		if v, ok := e.recent[ths[i].ID]; ok {
			stored[ths[i].ID] = v
			delete(e.recent, ths[i].ID)
		}
	}
	e.mu.Unlock()
	if len(stored) < len(ths) && (sd.lastStep == 0 || len(ths) > 64) {
		vs, err := tx.Vectors(ctx, sd.id, model)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			stored[v.ThoughtID] = v.Values
		}
	}
	var missing []int
	for i := range ths {
		if _, ok := stored[ths[i].ID]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		texts := make([]string, len(missing))
		for j, i := range missing {
			texts[j] = ths[i].Content
		}
		ectx, cancel := context.WithTimeout(ctx, e.cfg.EmbedTimeout+time.Duration(len(texts))*time.Millisecond)
		vs, err := e.cfg.Embedder.Embed(ectx, texts)
		cancel()
		if err != nil {
			return nil, &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: fmt.Sprintf("embedding %d thoughts with %s failed", len(texts), model),
				Err: err, Suggestions: []string{"check THINKGRAPH_EMBEDDINGS_URL and that the embedding service is up; the thoughts are stored and will be embedded on the next call"}}
		}
		for j, i := range missing {
			stored[ths[i].ID] = vs[j]
		}
	}
	var fresh []thinkgraph.Vector
	for _, i := range missing {
		th := &ths[i]
		v := stored[th.ID]
		fresh = append(fresh, thinkgraph.Vector{ThoughtID: th.ID, Session: th.Session, Model: model, Dim: len(v), Values: v, CreatedAt: time.Now().UTC()})
	}
	start := len(sd.docs)
	for i := range ths {
		d := ToDoc(&ths[i])
		d.Vector = stored[ths[i].ID]
		if err := sd.checkVector(d.ID, d.Vector); err != nil {
			return nil, err
		}
		sd.byID[d.ID] = len(sd.docs)
		sd.docs = append(sd.docs, d)
		sd.lastStep = max(sd.lastStep, d.Step)
	}
	e.addClaims(ctx, sd.docs[start:])
	return fresh, nil
}

// AddClaims gives d its claims with their vectors, as the session's docs
// get them when read (see addClaims): for a thought just written, whose
// doc the caller built itself.
func (s *Service) AddClaims(ctx context.Context, d *analyze.Doc) {
	if s.sem == nil || d.Vector == nil {
		return
	}
	docs := []analyze.Doc{*d}
	s.sem.addClaims(ctx, docs)
	*d = docs[0]
}

// addClaims splits each document into its claims (package semantic/claims)
// and gives each claim a vector: a thought of one claim lends it its own,
// the claims of the others are embedded in one batch. When that batch
// fails, each claim gets its thought's vector, so the review still groups
// it by what its thought is about. Claim vectors are not persisted: the
// offline embedder recomputes them in microseconds each, and another
// embedder is asked once per session load.
func (e *engine) addClaims(ctx context.Context, docs []analyze.Doc) {
	var texts []string
	var at [][2]int // doc, claim of each text
	for i := range docs {
		d := &docs[i]
		cs := claims.Split(d.Content)
		d.Claims = make([]analyze.Claim, len(cs))
		for k, c := range cs {
			d.Claims[k] = analyze.Claim{Text: c.Text, Vector: d.Vector}
			if len(cs) > 1 {
				texts = append(texts, c.Text)
				at = append(at, [2]int{i, k})
			}
		}
	}
	if len(texts) == 0 {
		return
	}
	ectx, cancel := context.WithTimeout(ctx, e.cfg.EmbedTimeout+time.Duration(len(texts))*time.Millisecond)
	vs, err := e.cfg.Embedder.Embed(ectx, texts)
	cancel()
	if err != nil || len(vs) != len(texts) {
		e.cfg.Logger.Warn("embedding claims failed; each claim has its thought's vector", "err", err, "claims", len(texts))
		return
	}
	for j, a := range at {
		if len(vs[j]) == len(docs[a[0]].Vector) {
			docs[a[0]].Claims[a[1]].Vector = vs[j]
		}
	}
}

// persistVectors stores vectors computed at load time, in the background:
// the caller may hold a transaction, and the vectors can be recomputed if
// this write is lost.
func (s *Service) persistVectors(vs []thinkgraph.Vector) {
	if len(vs) == 0 {
		return
	}
	s.sem.persisting.Add(1)
	go func() {
		defer s.sem.persisting.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.store.Update(ctx, func(tx thinkgraph.Tx) error { return tx.PutVectors(ctx, vs) }); err != nil {
			s.sem.cfg.Logger.Warn("storing vectors failed; they will be recomputed", "err", err, "n", len(vs))
		}
	}()
}

// Calibration returns the calibration of the active embedder's cosines (see
// analyze.Calibration): the measured constants of the default offline
// embedder, analyze.Raw for an embedder that was never measured (an
// OpenAI-compatible one) or when the semantic engine is off.
func (s *Service) Calibration() analyze.Calibration {
	if s.sem == nil {
		return analyze.Raw
	}
	return analyze.CalibrationFor(s.sem.cfg.Embedder.Model())
}
