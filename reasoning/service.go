// Package reasoning is thinkgraph's domain service: the operations behind the
// MCP tools. Each operation validates its input, then runs its logic in one
// Store transaction, so a tool call either writes everything it reports or
// nothing. It is the core the tool families' packages build on
// (reasoning/think, reasoning/graph: the confidence graph,
// reasoning/sequential, reasoning/branching: branch-thinking, reasoning/lux,
// reasoning/pipes: the reasoning.* tools): sessions, thoughts, embedding and
// the similarity index, provider calls and their invocations, feedback and
// the exchange document.
package reasoning

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
)

// Config holds the limits and thresholds of the service.
type Config struct {
	// MaxThoughtLength is the longest thought accepted, in characters.
	MaxThoughtLength int
	// MaxContextThoughts is the size of the think log's context window
	// (THINK_MAX_THOUGHTS, the think tool).
	MaxContextThoughts int
	// ConfidenceThreshold: a thought with lower confidence is a branch point,
	// and backtrack returns to the nearest thought at or above it.
	ConfidenceThreshold float64
	// Judge is "" (the offline judge decides, the calling model answers
	// the candidates) or JudgeLLM: findContradictions also settles up to 5
	// candidates per call with the configured LLM provider
	// (THINKGRAPH_JUDGE).
	Judge string
}

// JudgeLLM is the Config.Judge value (THINKGRAPH_JUDGE=llm) that lets the
// server settle contradiction candidates with its configured provider.
const JudgeLLM = "llm"

// DefaultConfig returns the defaults of the original servers (docs/contracts.md).
func DefaultConfig() Config {
	return Config{MaxThoughtLength: 10000, MaxContextThoughts: 100, ConfidenceThreshold: 0.6}
}

// Service runs reasoning operations on a Store.
type Service struct {
	store thinkgraph.Store
	cfg   Config
	now   func() time.Time
	// sem is the semantic engine; nil until EnableSemantic.
	sem *engine
	// llmCfg configures the LLM-backed tools; nil means the defaults (no
	// provider unless the client offers sampling).
	llmCfg *llm.Config
	llmLog *slog.Logger
	// providers holds the providers built from llmCfg, by name (llm.go).
	providers sync.Map
}

// New returns a service on store.
func New(store thinkgraph.Store, cfg Config) *Service {
	d := DefaultConfig()
	if cfg.MaxThoughtLength <= 0 {
		cfg.MaxThoughtLength = d.MaxThoughtLength
	}
	if cfg.MaxContextThoughts <= 0 {
		cfg.MaxContextThoughts = d.MaxContextThoughts
	}
	if cfg.ConfidenceThreshold <= 0 {
		cfg.ConfidenceThreshold = d.ConfidenceThreshold
	}
	return &Service{store: store, cfg: cfg, now: func() time.Time { return time.Now().UTC() }}
}

// Config returns the service's configuration.
func (s *Service) Config() Config { return s.cfg }

// Store returns the underlying store.
func (s *Service) Store() thinkgraph.Store { return s.store }

// SessionRef says which session a call goes to.
type SessionRef struct {
	// ID is the session id: the caller's session_id, or the MCP
	// connection's own session when the caller gave none.
	ID string
	// Explicit is true when the caller named the session.
	Explicit bool
	// Tenant owns the session.
	Tenant string
}

// tenant is the tenant of the session: Tenant, or LocalTenant when empty.
func (r SessionRef) tenant() string {
	if r.Tenant == "" {
		return thinkgraph.LocalTenant
	}
	return r.Tenant
}

// RefKey names a session before it is read: session ids are unique only
// within a tenant, so caches of sessions by id key them by both.
type RefKey struct{ Tenant, ID string }

// Key is the RefKey of r.
func (r SessionRef) Key() RefKey { return RefKey{r.tenant(), r.ID} }

// ValidateSessionID checks a caller-supplied session id.
func ValidateSessionID(id string) error {
	if !thinkgraph.ValidName(id, 128, "._:@-") {
		return thinkgraph.Invalid("session_id", "1 to 128 characters: letters, digits and . _ : @ - (not starting with a symbol)", Clip(id, 64),
			"'session_id' must be 1 to 128 letters, digits or . _ : @ -, starting with a letter or digit; omit it to use this connection's session")
	}
	return nil
}

// NewID returns a new time-ordered unique id.
func NewID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// Session loads the session of ref, locked for writing. With create, a
// session that does not exist yet is created with mode; otherwise it is a
// SessionNotFoundError. Session ids are the tenant's own: another
// tenant's session of the same id is neither found nor in the way.
func (s *Service) Session(ctx context.Context, tx thinkgraph.Tx, ref SessionRef, create bool, mode string) (*thinkgraph.Session, error) {
	if ref.Explicit {
		if err := ValidateSessionID(ref.ID); err != nil {
			return nil, err
		}
	}
	tenant := ref.tenant()
	sess, err := tx.LockSession(ctx, tenant, ref.ID)
	if err == nil {
		return sess, nil
	}
	if !errors.Is(err, thinkgraph.ErrNotFound) {
		return nil, err
	}
	if !create {
		return nil, sessionNotFound(ref.ID)
	}
	now := s.now()
	sess = &thinkgraph.Session{
		ID: ref.ID, Tenant: tenant, Mode: mode, CreatedAt: now, UpdatedAt: now,
		ActiveBranch: thinkgraph.DefaultBranch,
	}
	if err := tx.CreateSession(ctx, sess); err != nil {
		return nil, err
	}
	if err := tx.PutBranch(ctx, &thinkgraph.Branch{
		Session: sess.Key, ID: thinkgraph.DefaultBranch, State: "active", Priority: 1,
		CreatedAt: now, UpdatedAt: now,
	}); err != nil {
		return nil, err
	}
	return sess, nil
}

func sessionNotFound(id string) *thinkgraph.Error {
	return &thinkgraph.Error{
		Code:     thinkgraph.CodeSessionNotFound,
		Message:  fmt.Sprintf("session %q not found", id),
		Field:    "session_id",
		Expected: "the id of an existing session",
		Received: id,
		Suggestions: []string{
			"omit session_id to use this connection's session",
			"use a session_id returned by an earlier call",
		},
	}
}

// ThoughtNotFound is the ThoughtNotFoundError of a thought (an id, or a
// step as "#8") given in field that names no thought of session sessionID.
func ThoughtNotFound(field, id, sessionID string) error {
	return &thinkgraph.Error{
		Code: thinkgraph.CodeThoughtNotFound, Field: field, Expected: "a thought of this session: its id, or its step as \"#8\"", Received: Clip(id, 64),
		Message:     fmt.Sprintf("'%s': no thought %q in session %q", field, Clip(id, 64), sessionID),
		Suggestions: []string{"name the thought by the id or the step (\"#8\") a result gave for it; history lists a branch's thoughts with both"},
	}
}

// View runs fn on the session of ref in a read-only transaction. A session
// that does not exist is a SessionNotFound error.
func (s *Service) View(ctx context.Context, ref SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session) error) error {
	if ref.Explicit {
		if err := ValidateSessionID(ref.ID); err != nil {
			return err
		}
	}
	return s.store.View(ctx, func(tx thinkgraph.Tx) error {
		sess, err := tx.Session(ctx, ref.tenant(), ref.ID)
		if errors.Is(err, thinkgraph.ErrNotFound) {
			return sessionNotFound(ref.ID)
		}
		if err != nil {
			return err
		}
		return fn(tx, sess)
	})
}

// SessionExists reports whether ref names an existing session of its tenant.
func (s *Service) SessionExists(ctx context.Context, ref SessionRef) (bool, error) {
	err := s.View(ctx, ref, func(thinkgraph.Tx, *thinkgraph.Session) error { return nil })
	var te *thinkgraph.Error
	if errors.As(err, &te) && te.Code == thinkgraph.CodeSessionNotFound {
		return false, nil
	}
	return err == nil, err
}

// Clip is thinkgraph.Clip, under the name the reasoning families call it.
func Clip(s string, n int) string { return thinkgraph.Clip(s, n) }

// Now is the service's clock (UTC).
func (s *Service) Now() time.Time { return s.now() }

// Semantic returns a copy of the semantic engine's configuration, or nil
// when the engine is off (see EnableSemantic).
func (s *Service) Semantic() *SemanticConfig {
	if s.sem == nil {
		return nil
	}
	cfg := s.sem.cfg
	return &cfg
}
