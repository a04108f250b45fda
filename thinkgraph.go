// Package thinkgraph holds the domain of the thinkgraph reasoning server: the
// persisted reasoning graph (sessions, branches, thoughts, links, invocations)
// and the Store interface that the sqlite and postgres packages implement.
//
// Every tool family of the server is a different way into this one graph:
// a thought written with `think` is part of `show_current_path`, can be found
// by `branch-thinking`'s findSimilar, and is checked by findContradictions.
//
// Data flows one way: an MCP handler (package mcpserver) parses arguments and
// calls the reasoning service (package reasoning), which runs its logic inside
// one Store transaction and calls the pure analyzers of package semantic.
package thinkgraph

import (
	"context"
	"encoding/json"
	"time"
)

// DefaultBranch is the branch every session starts with.
const DefaultBranch = "main"

// LocalTenant owns every session created over stdio or unauthenticated
// loopback HTTP.
const LocalTenant = "local"

// SessionKey is the store's own key of a session: what branches, thoughts,
// links, vectors and invocations point to. Clients name a session by its ID,
// which is unique only within its tenant (two tenants may both have a
// session "s1" and never meet); a Tx finds a session by tenant and ID
// (Tx.Session), and everything else by the session's Key.
type SessionKey string

// Session is one reasoning context.
type Session struct {
	// Key is the store's key of the session, set by Tx.CreateSession.
	Key SessionKey
	// ID is the session id clients use, unique within Tenant.
	ID     string
	Tenant string
	// Goal is the session's stated goal (branch-thinking setGoal), "" if none.
	Goal string
	// Mode names the reasoning mode that created the session (think, linear, ...).
	Mode      string
	CreatedAt time.Time
	UpdatedAt time.Time
	// Metadata is free-form JSON owned by the tools (nil or a JSON object).
	Metadata json.RawMessage
	// Settings is JSON for per-session settings such as auto-evaluation.
	Settings json.RawMessage
	// CurrentThoughtID is the thought new thoughts attach to ("" before the first).
	CurrentThoughtID string
	// ActiveBranch is the branch new thoughts go to.
	ActiveBranch string
	// StepCount is the number of thoughts in the session; the next thought gets
	// step StepCount+1.
	StepCount int
	// ContextStart is the step after which the think log's context window
	// starts; clearing the context sets it to StepCount. Nothing is deleted.
	ContextStart int
}

// Branch is a named line of thought inside a session.
type Branch struct {
	Session SessionKey
	ID      string
	// State is "active", "pruned", "merged" or "completed".
	State    string
	Priority float64
	// ParentBranchID is the branch this one forked from, "" for a root branch.
	ParentBranchID string
	// ForkThoughtID is the thought this branch forked from, "" if none.
	ForkThoughtID string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Thought is one step of reasoning: a node of the session graph.
type Thought struct {
	ID       string
	Session  SessionKey
	BranchID string
	// ParentID is the thought this one follows (the graph edge), "" for a root.
	ParentID string
	// Step is the 1-based position of the thought in its session.
	Step    int
	Content string
	// Type is the thought type (analysis, hypothesis, ...), "" if not given.
	Type string
	// Confidence in [0,1]; nil when the writer did not give one.
	Confidence *float64
	KeyPoints  []string
	// BranchPoint marks a thought whose confidence was below the branch
	// threshold: alternatives are expected as its children.
	BranchPoint bool
	// Alternative marks a thought created as one of several alternatives
	// (select_path); Selected marks an alternative that was chosen.
	Alternative bool
	Selected    bool
	// RevisesID names the thought this one revises, "" if none.
	RevisesID string
	// Author is "client" for thoughts the MCP client sent, or the name of the
	// model that wrote it.
	Author string
	// Tool is the tool that wrote the thought (think, sequentialthinking, ...).
	Tool string
	// Metadata is tool-specific JSON (nil or a JSON object).
	Metadata  json.RawMessage
	CreatedAt time.Time
}

// Link is a typed cross-reference between branches or thoughts.
type Link struct {
	ID          string
	Session     SessionKey
	FromBranch  string
	ToBranch    string
	FromThought string
	ToThought   string
	// Type is builds_upon, contradictory, complementary, alternative, ...
	Type      string
	Reason    string
	Strength  float64
	CreatedAt time.Time
}

// Invocation is one call of an LLM provider (mcp-langbase-reasoning's fields).
type Invocation struct {
	ID string
	// Tenant and SessionID name the session the call was made for
	// (SessionID "" if none).
	Tenant           string
	SessionID        string
	ToolName         string
	Input            json.RawMessage
	Output           json.RawMessage
	Provider         string
	PipeName         string
	Model            string
	LatencyMS        int64
	Success          bool
	Error            string
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
	CreatedAt        time.Time
}

// Vector is the embedding of one thought by one model, for the semantic
// engine. A thought has at most one stored vector: putting a vector of
// another model replaces it (a re-index after a model switch).
type Vector struct {
	ThoughtID string
	Session   SessionKey
	// Model names the embedder that computed Values; vectors of different
	// models are not comparable.
	Model string
	// Dim is len(Values).
	Dim    int
	Values []float32
	// CreatedAt is when the vector was computed.
	CreatedAt time.Time
}

// Feedback kinds: what a person says about a thought.
const (
	FeedbackRefute  = "refute"
	FeedbackConfirm = "confirm"
	FeedbackComment = "comment"
)

// FeedbackCount counts a session's feedback (Tx.CountFeedback).
type FeedbackCount struct {
	Total, Pending, Since int
}

// FeedbackAuthor is the author of feedback given in the viewer.
const FeedbackAuthor = "human"

// Feedback is what a person said about a thought of a session (in the
// viewer): a refutation, a confirmation or a comment. The next tool result
// of the session carries it to the model, once.
type Feedback struct {
	ID        string
	Session   SessionKey
	ThoughtID string
	// Kind is FeedbackRefute, FeedbackConfirm or FeedbackComment.
	Kind string
	Text string
	// Author is FeedbackAuthor.
	Author    string
	CreatedAt time.Time
	// DeliveredAt is when a tool result carried the feedback to the model
	// (nil until then).
	DeliveredAt *time.Time
}

// SessionSize measures what a session holds (Tx.SessionSize): what a
// render or an export of it costs grows with each.
type SessionSize struct {
	Thoughts, Links int
	// Bytes is the UTF-8 bytes of its thoughts' text, key points and
	// metadata.
	Bytes int64
	// LongestThought is the length of its longest thought's text, in
	// bytes.
	LongestThought int
	// LongText is the sum, over its thoughts longer than LongThought
	// characters, of the square of their length beyond it: what the
	// analyses' time grows with (they compare the words of similar
	// claims pairwise), 0 when no thought is long.
	LongText int64
}

// LongThought is the length, in characters, from which a thought's text
// counts in SessionSize.LongText.
const LongThought = 1000

// SessionFilter selects sessions to list.
type SessionFilter struct {
	Tenant string // "" means every tenant
	ID     string // "" means every id
	Limit  int    // 0 means no limit
}

// ThoughtFilter selects thoughts of one session.
type ThoughtFilter struct {
	Session   SessionKey
	BranchID  string // "" means every branch
	ParentID  *string
	AfterStep int // only thoughts with Step > AfterStep
	// Last, when > 0, returns only the last Last thoughts (still in step order).
	Last int
	// OpenAlternatives, when set, returns only alternatives that were never
	// selected (Alternative && !Selected).
	OpenAlternatives bool
}

// InvocationFilter selects invocations to list.
type InvocationFilter struct {
	Tenant    string // "" means every tenant
	SessionID string // "" means every session
	Limit     int
}

// Tx is one transaction on the store. Methods return an error wrapping
// ErrNotFound when a row does not exist.
type Tx interface {
	// Session reads the session id of tenant.
	Session(ctx context.Context, tenant, id string) (*Session, error)
	// LockSession reads the session id of tenant and holds it against
	// concurrent writers (other processes or replicas) until the
	// transaction ends.
	LockSession(ctx context.Context, tenant, id string) (*Session, error)
	// CreateSession stores a new session under s.Key, or under a new key
	// it sets when s.Key is empty; a session of the same tenant and ID (or
	// key) is ErrConflict.
	CreateSession(ctx context.Context, s *Session) error
	// UpdateSession writes the session of s.Key (its Key, ID and Tenant
	// stay as they are).
	UpdateSession(ctx context.Context, s *Session) error
	Sessions(ctx context.Context, f SessionFilter) ([]Session, error)

	AddThought(ctx context.Context, t *Thought) error
	// UpdateThought writes a thought's flags (BranchPoint, Alternative,
	// Selected) and Metadata. Its other fields never change once it is
	// written (the analyses' caches rely on it): a change to one is
	// refused with an error, and nothing is written.
	UpdateThought(ctx context.Context, t *Thought) error
	Thought(ctx context.Context, session SessionKey, id string) (*Thought, error)
	ThoughtByStep(ctx context.Context, session SessionKey, step int) (*Thought, error)
	Thoughts(ctx context.Context, f ThoughtFilter) ([]Thought, error)
	// Ancestors returns the path from the root to the thought id, inclusive.
	Ancestors(ctx context.Context, session SessionKey, id string) ([]Thought, error)

	Branch(ctx context.Context, session SessionKey, id string) (*Branch, error)
	Branches(ctx context.Context, session SessionKey) ([]Branch, error)
	// PutBranch inserts or updates a branch.
	PutBranch(ctx context.Context, b *Branch) error

	AddLink(ctx context.Context, l *Link) error
	Links(ctx context.Context, session SessionKey) ([]Link, error)

	// SessionSize measures the session's thoughts and links without
	// reading them whole.
	SessionSize(ctx context.Context, session SessionKey) (SessionSize, error)

	AddInvocation(ctx context.Context, inv *Invocation) error
	Invocations(ctx context.Context, f InvocationFilter) ([]Invocation, error)

	// PutVectors inserts or replaces the vectors of their thoughts. Each
	// thought must exist in the vector's session, and Dim must be
	// len(Values) (0 is taken as len(Values)).
	PutVectors(ctx context.Context, vs []Vector) error
	// Vectors returns the vectors of the session's thoughts computed by
	// model, in step order of their thoughts.
	Vectors(ctx context.Context, session SessionKey, model string) ([]Vector, error)
	// MissingVectors returns, in step order, up to limit thoughts of the
	// session (every one if limit <= 0) that have no vector of model: those
	// whose embedding failed, and all of them after a model switch.
	MissingVectors(ctx context.Context, session SessionKey, model string, limit int) ([]Thought, error)

	// AddFeedback stores feedback on a thought of its session (the
	// thought must exist there).
	AddFeedback(ctx context.Context, f *Feedback) error
	// Feedback returns the session's feedback, oldest first.
	Feedback(ctx context.Context, session SessionKey) ([]Feedback, error)
	// CountFeedback counts the session's feedback: all of it, what is not
	// delivered yet, and what was given at or after since.
	CountFeedback(ctx context.Context, session SessionKey, since time.Time) (FeedbackCount, error)
	// PendingFeedback returns the session's oldest feedback not delivered
	// yet, at most limit pieces, oldest first.
	PendingFeedback(ctx context.Context, session SessionKey, limit int) ([]Feedback, error)
	// TakeFeedback marks the feedback of the session with the given ids
	// delivered at at, unless it already is, and returns what it marked,
	// oldest first: of concurrent calls, one gets each piece of feedback.
	TakeFeedback(ctx context.Context, session SessionKey, at time.Time, ids []string) ([]Feedback, error)
}

// Store persists the reasoning graph.
type Store interface {
	// Update runs fn in a write transaction and commits it when fn returns
	// nil. fn may be run more than once if the transaction must be retried,
	// so it must not have side effects outside the transaction.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
	Close() error
}
