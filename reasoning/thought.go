package reasoning

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// ValidateContent checks a thought's text given in field: present, not
// blank, valid UTF-8, at most max characters.
func ValidateContent(field, text string, max int) error {
	if Blank(text) {
		return thinkgraph.Invalid(field, "a non-empty string", Clip(text, 64), "'%s' parameter is required", field)
	}
	return ValidateText(field, text, max)
}

// Blank reports whether text has nothing to read: only white space,
// control characters and the invisible format characters (Unicode's Cf:
// zero-width spaces and joiners, the byte order mark, direction marks,
// the soft hyphen).
func Blank(text string) bool {
	for _, r := range text {
		if !unicode.IsSpace(r) && !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// ValidateText is ValidateContent for a text that may be empty.
func ValidateText(field, text string, max int) error {
	if !utf8.ValidString(text) {
		return thinkgraph.Invalid(field, "valid UTF-8 text", "invalid UTF-8", "'%s' must be valid UTF-8 text", field)
	}
	if strings.ContainsRune(text, 0) {
		return thinkgraph.Invalid(field, "text without NUL characters", "text containing NUL", "'%s' must not contain NUL characters", field)
	}
	if n := utf8.RuneCountInString(text); n > max {
		return thinkgraph.Invalid(field, fmt.Sprintf("at most %d characters", max), fmt.Sprintf("%d characters", n),
			"'%s' is %d characters long; the limit is %d characters: split it into several thoughts", field, n, max)
	}
	return nil
}

// ValidateConfidence checks an optional confidence in [0,1].
func ValidateConfidence(field string, c *float64) error {
	if c == nil {
		return nil
	}
	if math.IsNaN(*c) || *c < 0 || *c > 1 {
		return thinkgraph.Invalid(field, "a number from 0 to 1", fmt.Sprint(*c),
			"'%s' must be a number from 0 to 1 (e.g. 0.8), got %v", field, *c)
	}
	return nil
}

// ClampCount checks an optional count field: def when v is nil, else *v,
// which must be from lo to hi.
func ClampCount(field string, v *int, def, lo, hi int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, thinkgraph.Invalid(field, fmt.Sprintf("an integer from %d to %d", lo, hi), fmt.Sprint(*v),
			"'%s' must be from %d to %d, got %d", field, lo, hi, *v)
	}
	return *v, nil
}

// AppendThought gives th the session's next step, attaches it to the
// current thought (unless th.ParentID is set) on the active branch (unless
// th.BranchID is set), stores it with its vector (nil: none yet), makes it
// current and saves the session.
func (s *Service) AppendThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	if err := s.AddThought(ctx, tx, sess, th, vec); err != nil {
		return err
	}
	return tx.UpdateSession(ctx, sess)
}

// AddInput is AddThought for a caller's input to a model call: stored
// before the model is called (a failing model loses nothing) as a child of
// the current thought, but the session's current thought and active branch
// stay where they were. The model's answer, a child of the input, moves
// them when it is stored: a failed call leaves the session where it was.
func (s *Service) AddInput(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	cur, active := sess.CurrentThoughtID, sess.ActiveBranch
	if err := s.AddThought(ctx, tx, sess, th, vec); err != nil {
		return err
	}
	sess.CurrentThoughtID, sess.ActiveBranch = cur, active
	return nil
}

// AddThought is AppendThought without saving the session: for callers that
// save it themselves before the transaction ends, so that its row is
// written once.
func (s *Service) AddThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	if err := ValidateMetadata("metadata", th.Metadata, MaxThoughtMetadata); err != nil {
		return err
	}
	now := s.now()
	sess.StepCount++
	th.ID = NewID()
	th.Session = sess.Key
	th.Step = sess.StepCount
	if th.ParentID == "" {
		th.ParentID = sess.CurrentThoughtID
	}
	if th.BranchID == "" {
		th.BranchID = sess.ActiveBranch
	}
	if th.BranchID == "" {
		th.BranchID = thinkgraph.DefaultBranch
	}
	if th.Author == "" {
		th.Author = "client"
	}
	th.CreatedAt = now
	if err := tx.AddThought(ctx, th); err != nil {
		return err
	}
	if err := s.putVector(ctx, tx, th, vec); err != nil {
		return err
	}
	sess.CurrentThoughtID = th.ID
	sess.UpdatedAt = now
	return nil
}

// ContextSize is the number of thoughts in the session's context window.
func (s *Service) ContextSize(sess *thinkgraph.Session) int {
	return min(sess.StepCount-sess.ContextStart, s.cfg.MaxContextThoughts)
}

// ContextEntry is one thought of the think log.
type ContextEntry struct {
	Step      int       `json:"step"`
	Thought   string    `json:"thought"`
	Timestamp time.Time `json:"timestamp"`
}

// ContextSummary is the think tool's get_context_summary.
type ContextSummary struct {
	SessionID   string    `json:"session_id"`
	TotalSteps  int       `json:"total_steps"`
	ContextSize int       `json:"context_size"`
	CreatedAt   time.Time `json:"created_at"`
	LastUpdated time.Time `json:"last_updated"`
}

// ContextWindow is the think log of a session: the thoughts in its window.
type ContextWindow struct {
	Summary ContextSummary
	Entries []ContextEntry
}

// Formatted renders the window as the think tool's get_formatted_context does.
func (w *ContextWindow) Formatted() string {
	var b strings.Builder
	b.WriteString("Previous thoughts in this session:\n")
	for _, e := range w.Entries {
		fmt.Fprintf(&b, "\nStep %d (%s):\n%s\n", e.Step, e.Timestamp.UTC().Format(time.RFC3339), e.Thought)
	}
	return b.String()
}

// Context returns the session's context window: the last MaxContextThoughts
// thoughts since the context was last cleared.
func (s *Service) Context(ctx context.Context, ref SessionRef) (*ContextWindow, error) {
	var w ContextWindow
	err := s.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key, AfterStep: sess.ContextStart, Last: s.cfg.MaxContextThoughts})
		if err != nil {
			return err
		}
		w.Summary = ContextSummary{
			SessionID: sess.ID, TotalSteps: sess.StepCount, ContextSize: s.ContextSize(sess),
			CreatedAt: sess.CreatedAt, LastUpdated: sess.UpdatedAt,
		}
		for _, th := range ths {
			w.Entries = append(w.Entries, ContextEntry{Step: th.Step, Thought: th.Content, Timestamp: th.CreatedAt})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &w, nil
}

// ValidateBranchID checks a caller-supplied branch id.
func ValidateBranchID(field, id string) error {
	if !thinkgraph.ValidName(id, 64, "._:@/ -") {
		return thinkgraph.Invalid(field, "1 to 64 letters, digits, spaces or . _ : @ / -, starting with a letter or digit", Clip(id, 64),
			"'%s' must be 1 to 64 letters, digits, spaces or . _ : @ / -, starting with a letter or digit", field)
	}
	return nil
}

// Thought loads the thought of the session a caller names in field: by its
// id, or by its step in the session, as "#8" or "8" (a number argument
// arrives as its digits). It is the one resolver of a thought argument for
// every tool; a ThoughtNotFoundError names the field when there is no such
// thought.
func (s *Service) Thought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field, id string) (*thinkgraph.Thought, error) {
	th, err := tx.Thought(ctx, sess.Key, id)
	if step, ok := StepOf(id); ok && errors.Is(err, thinkgraph.ErrNotFound) {
		th, err = tx.ThoughtByStep(ctx, sess.Key, step)
	}
	if errors.Is(err, thinkgraph.ErrNotFound) {
		return nil, ThoughtNotFound(field, id, sess.ID)
	}
	return th, err
}

// StepOf reads a thought named by its step: "#8" or "8" is step 8.
func StepOf(v string) (int, bool) {
	digits := strings.TrimPrefix(v, "#")
	if digits == "" || len(digits) > 9 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n > 0
}

// ViewOrEmpty is View, except that the not-yet-created session of a
// connection reads as an empty session rather than an error.
func (s *Service) ViewOrEmpty(ctx context.Context, ref SessionRef, fn func(tx thinkgraph.Tx, sess *thinkgraph.Session) error) error {
	err := s.View(ctx, ref, fn)
	var te *thinkgraph.Error
	if !ref.Explicit && errors.As(err, &te) && te.Code == thinkgraph.CodeSessionNotFound {
		return s.store.View(ctx, func(tx thinkgraph.Tx) error {
			return fn(tx, &thinkgraph.Session{ID: ref.ID, Tenant: ref.Tenant, ActiveBranch: thinkgraph.DefaultBranch})
		})
	}
	return err
}
