package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// maxFeedbackBody bounds the body of a feedback request (the text is at
// most reasoning.MaxFeedbackText characters).
const maxFeedbackBody = 64 << 10

// feedbackRequest is the body of POST /sessions/{id}/feedback.
type feedbackRequest struct {
	ThoughtID string `json:"thought_id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
}

// feedbackResponse is the feedback stored.
type feedbackResponse struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id"`
	ThoughtID string    `json:"thought_id"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	Author    string    `json:"author"`
	At        time.Time `json:"at"`
}

// feedback stores a person's refutation, confirmation or comment on a
// thought. Only the viewer's own pages may send it: the server in front
// (package httpserver) refuses an Origin it does not allow, this handler a
// request a browser marks as coming from another site (Sec-Fetch-Site),
// and the body must be JSON, which a cross-site form cannot send (and a
// cross-site script cannot without a CORS preflight, which is never
// granted).
func (v *Viewer) feedback(w http.ResponseWriter, r *http.Request) {
	if !sameSite(r) {
		jsonError(w, http.StatusForbidden, "", "feedback is accepted from the viewer's own pages only (the request came from another site)")
		return
	}
	ref, ok := v.ref(r)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(strings.ToLower(mt)) != "application/json" {
		jsonError(w, http.StatusUnsupportedMediaType, "", `send the feedback as JSON (Content-Type: application/json): {"thought_id", "kind": "refute" | "confirm" | "comment", "text"}`)
		return
	}
	var req feedbackRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxFeedbackBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		jsonError(w, http.StatusBadRequest, bodyField(err), `the body must be one JSON object {"thought_id": string, "kind": "refute" | "confirm" | "comment", "text": string}: `+err.Error())
		return
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		jsonError(w, http.StatusBadRequest, "", "the body must be one JSON object, with nothing after it")
		return
	}
	f, err := v.svc.AddFeedback(r.Context(), reasoning.FeedbackInput{Session: ref, ThoughtID: req.ThoughtID, Kind: req.Kind, Text: req.Text})
	if err != nil {
		te := thinkgraph.AsError(err)
		switch te.Code {
		case thinkgraph.CodeSessionNotFound:
			v.fail(w, r, err)
		case thinkgraph.CodeLimit:
			if te.RetryAfter > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int(te.RetryAfter.Seconds())))
			}
			b, _ := json.Marshal(map[string]string{"error": te.Message, "suggestion": strings.Join(te.Suggestions, "; ")})
			writeJSON(w, http.StatusTooManyRequests, b)
		case thinkgraph.CodeValidation, thinkgraph.CodeThoughtNotFound:
			b, _ := json.Marshal(map[string]string{"error": te.Message, "field": te.Field, "expected": te.Expected})
			writeJSON(w, http.StatusBadRequest, b)
		default:
			v.fail(w, r, err)
		}
		return
	}
	b, _ := json.Marshal(feedbackResponse{ID: f.ID, SessionID: ref.ID, ThoughtID: f.ThoughtID, Kind: f.Kind, Text: f.Text, Author: f.Author, At: f.CreatedAt})
	writeJSON(w, http.StatusCreated, b)
}

// sameSite reports whether a browser says the request comes from the
// viewer's own origin (or from no page at all): Sec-Fetch-Site, which the
// browser sets from the origins it sees, so it holds behind a reverse
// proxy that rewrites Host. Its Origin is the server's to check, against
// its configured allowed origins.
func sameSite(r *http.Request) bool {
	s := r.Header.Get("Sec-Fetch-Site")
	return s != "cross-site" && s != "same-site"
}

// bodyField names the field a JSON decoding error is about, "" if none.
func bodyField(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return strings.Trim(f, `"`)
	}
	return ""
}

func jsonError(w http.ResponseWriter, status int, field, msg string) {
	body := map[string]string{"error": msg}
	if field != "" {
		body["field"] = field
	}
	b, _ := json.Marshal(body)
	writeJSON(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
