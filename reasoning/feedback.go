package reasoning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
)

// MaxFeedbackText is the longest feedback text, in characters.
const MaxFeedbackText = 2000

// Bounds on feedback: what a session holds, what it takes in a minute,
// and what one tool result carries to the model (the rest waits for the
// next results).
const (
	MaxSessionFeedback   = 1000
	MaxFeedbackPerMinute = 30
	MaxFeedbackPerResult = 5
	// maxFeedbackBytes bounds the JSON of the feedback one result carries
	// (one piece at least).
	maxFeedbackBytes   = 10 << 10
	feedbackRateWindow = time.Minute
)

// FeedbackInput is what a person says about a thought of a session.
type FeedbackInput struct {
	Session   SessionRef
	ThoughtID string
	// Kind is refute, confirm or comment.
	Kind string
	Text string
}

// AddFeedback stores a person's feedback on a thought of an existing
// session (author human), to be delivered with the session's next tool
// result. The session's update time moves, so that viewers and resource
// subscribers see it.
func (s *Service) AddFeedback(ctx context.Context, in FeedbackInput) (*thinkgraph.Feedback, error) {
	if err := validateFeedback("", in.Kind, in.ThoughtID, in.Text, "thought_id"); err != nil {
		return nil, err
	}
	var f *thinkgraph.Feedback
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		sess, err := s.Session(ctx, tx, in.Session, false, "")
		if err != nil {
			return err
		}
		th, err := s.Thought(ctx, tx, sess, "thought_id", in.ThoughtID)
		if err != nil {
			return err
		}
		now := s.now()
		c, err := tx.CountFeedback(ctx, sess.Key, now.Add(-feedbackRateWindow))
		if err != nil {
			return err
		}
		switch {
		case c.Total >= MaxSessionFeedback:
			return &thinkgraph.Error{Code: thinkgraph.CodeLimit, Field: "session_id",
				Message:     fmt.Sprintf("session %q holds %d pieces of feedback, the most a session keeps", sess.ID, MaxSessionFeedback),
				Suggestions: []string{"continue in a new session, or export this one and start afresh"}}
		case c.Since >= MaxFeedbackPerMinute:
			return &thinkgraph.Error{Code: thinkgraph.CodeLimit, Field: "session_id", RetryAfter: feedbackRateWindow,
				Message:     fmt.Sprintf("session %q took %d pieces of feedback in the last minute, the most it takes", sess.ID, MaxFeedbackPerMinute),
				Suggestions: []string{"wait a minute and send it again; the model reads at most 5 pieces with each step"}}
		}
		f = &thinkgraph.Feedback{ID: NewID(), Session: sess.Key, ThoughtID: th.ID, Kind: in.Kind, Text: in.Text,
			Author: thinkgraph.FeedbackAuthor, CreatedAt: now}
		if err := tx.AddFeedback(ctx, f); err != nil {
			return err
		}
		sess.UpdatedAt = now
		return tx.UpdateSession(ctx, sess)
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// validateFeedback checks feedback as the viewer and an imported document
// give it: its kind, a thought id (field idField) and a text of 1 to
// MaxFeedbackText characters. Fields are named with prefix.
func validateFeedback(prefix, kind, thoughtID, text, idField string) error {
	switch kind {
	case thinkgraph.FeedbackRefute, thinkgraph.FeedbackConfirm, thinkgraph.FeedbackComment:
	default:
		return thinkgraph.Invalid(prefix+"kind", "refute, confirm or comment", Clip(kind, 64),
			"'%skind' must be refute, confirm or comment, got %q", prefix, Clip(kind, 64))
	}
	if thoughtID == "" {
		return thinkgraph.Invalid(prefix+idField, "the id of a thought in this session", "",
			"'%s%s' is required: the id of the thought the feedback is about", prefix, idField)
	}
	if n := utf8.RuneCountInString(text); n == 0 || n > MaxFeedbackText || !utf8.ValidString(text) {
		return thinkgraph.Invalid(prefix+"text", fmt.Sprintf("1 to %d characters of UTF-8 text", MaxFeedbackText), fmt.Sprintf("%d characters", n),
			"'%stext' must be 1 to %d characters, got %d", prefix, MaxFeedbackText, n)
	}
	if Blank(text) {
		return thinkgraph.Invalid(prefix+"text", "text with at least one character to read (not white space or an invisible character)", "only white space or invisible characters",
			"'%stext' is blank (only white space or invisible characters such as zero-width spaces): say what is wrong, right or worth noting about the thought", prefix)
	}
	return ValidateText(prefix+"text", text, MaxFeedbackText)
}

// FeedbackNote is feedback as a tool result carries it to the model.
type FeedbackNote struct {
	ThoughtID string    `json:"thought_id"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	// Advice says what to do about it.
	Advice string `json:"advice"`
}

// DeliverFeedback takes the session's oldest feedback not delivered yet,
// at most MaxFeedbackPerResult pieces (each piece goes to one tool result
// only, also with concurrent calls), says what to do about each (a refuted
// thought on the path to the current thought is to be backtracked from or
// revised) and how many pieces still wait. The session's update time moves
// when feedback was delivered. It returns nothing, without writing, when
// there is none or the session does not exist.
func (s *Service) DeliverFeedback(ctx context.Context, ref SessionRef) (notes []FeedbackNote, waiting int, err error) {
	pending := 0
	err = s.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		c, err := tx.CountFeedback(ctx, sess.Key, time.Time{})
		pending = c.Pending
		return err
	})
	if err != nil || pending == 0 {
		if thinkgraph.AsError(err).Code == thinkgraph.CodeSessionNotFound {
			err = nil
		}
		return nil, 0, err
	}
	err = s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		notes, waiting = nil, 0
		sess, err := s.Session(ctx, tx, ref, false, "")
		if err != nil {
			return err
		}
		now := s.now()
		pending, err := tx.PendingFeedback(ctx, sess.Key, MaxFeedbackPerResult)
		if err != nil {
			return err
		}
		var ids []string
		size := 0
		for _, f := range pending {
			b, _ := json.Marshal(FeedbackNote{ThoughtID: f.ThoughtID, Kind: f.Kind, Text: f.Text, At: f.CreatedAt, Advice: feedbackAdvice(f.Kind, true)})
			if size += len(b); len(ids) > 0 && size > maxFeedbackBytes {
				break
			}
			ids = append(ids, f.ID)
		}
		fb, err := tx.TakeFeedback(ctx, sess.Key, now, ids)
		if err != nil || len(fb) == 0 {
			return err
		}
		c, err := tx.CountFeedback(ctx, sess.Key, now)
		if err != nil {
			return err
		}
		waiting = c.Pending
		// The session changed (its feedback is delivered): viewers redraw.
		sess.UpdatedAt = now
		if err := tx.UpdateSession(ctx, sess); err != nil {
			return err
		}
		onPath := map[string]bool{}
		if sess.CurrentThoughtID != "" {
			path, err := tx.Ancestors(ctx, sess.Key, sess.CurrentThoughtID)
			if err != nil && !errors.Is(err, thinkgraph.ErrNotFound) {
				return err
			}
			for _, th := range path {
				onPath[th.ID] = true
			}
		}
		for _, f := range fb {
			notes = append(notes, FeedbackNote{ThoughtID: f.ThoughtID, Kind: f.Kind, Text: f.Text, At: f.CreatedAt,
				Advice: feedbackAdvice(f.Kind, onPath[f.ThoughtID])})
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return notes, waiting, nil
}

func feedbackAdvice(kind string, onPath bool) string {
	switch {
	case kind == thinkgraph.FeedbackRefute && onPath:
		return "A person refuted this thought, which is on your current path: backtrack to before it or revise it, and do not build on it."
	case kind == thinkgraph.FeedbackRefute:
		return "A person refuted this thought: do not build on it."
	case kind == thinkgraph.FeedbackConfirm:
		return "A person confirmed this thought: you can build on it."
	default:
		return "A person commented on this thought: take the comment into account."
	}
}

// Refuted returns the thoughts whose latest refutation or confirmation in
// fb (oldest first) is a refutation: a later confirmation withdraws it.
func Refuted(fb []thinkgraph.Feedback) map[string]bool {
	out := map[string]bool{}
	for _, f := range fb {
		switch f.Kind {
		case thinkgraph.FeedbackRefute:
			out[f.ThoughtID] = true
		case thinkgraph.FeedbackConfirm:
			delete(out, f.ThoughtID)
		}
	}
	return out
}
