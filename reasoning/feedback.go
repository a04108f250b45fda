package reasoning

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
)

// MaxFeedbackText is the longest feedback text, in characters.
const MaxFeedbackText = 2000

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
	if strings.TrimSpace(text) == "" {
		return thinkgraph.Invalid(prefix+"text", "text with at least one character that is not white space", "only white space",
			"'%stext' is only white space: say what is wrong, right or worth noting about the thought", prefix)
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

// DeliverFeedback takes the session's feedback not delivered yet (each
// piece goes to one tool result only, also with concurrent calls) and says
// what to do about each: a refuted thought on the path to the current
// thought is to be backtracked from or revised. The session's update time
// moves when feedback was delivered. It returns nothing, without writing,
// when there is none or the session does not exist.
func (s *Service) DeliverFeedback(ctx context.Context, ref SessionRef) ([]FeedbackNote, error) {
	pending := false
	err := s.View(ctx, ref, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		fb, err := tx.Feedback(ctx, sess.Key)
		for _, f := range fb {
			pending = pending || f.DeliveredAt == nil
		}
		return err
	})
	if err != nil || !pending {
		if thinkgraph.AsError(err).Code == thinkgraph.CodeSessionNotFound {
			err = nil
		}
		return nil, err
	}
	var notes []FeedbackNote
	err = s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		notes = nil
		sess, err := s.Session(ctx, tx, ref, false, "")
		if err != nil {
			return err
		}
		now := s.now()
		fb, err := tx.TakeFeedback(ctx, sess.Key, now)
		if err != nil || len(fb) == 0 {
			return err
		}
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
		return nil, err
	}
	return notes, nil
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
