package reasoning

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// The exchange document is thinkgraph's self-describing export of one
// session: every branch, thought and link, with the goal and settings. It is
// what branch-thinking's export returns and import reads, and what other
// exporters (markdown, mermaid) render.
const (
	// ExchangeFormat names the document type.
	ExchangeFormat = "thinkgraph.session"
	// ExchangeVersion is the version written; documents of a higher version
	// are rejected, lower ones are read. Version 2 added the feedback
	// people gave in the viewer (a version 1 document has none).
	ExchangeVersion = 2
)

// Exchange is the exported session document.
type Exchange struct {
	Format     string            `json:"format"`
	Version    int               `json:"version"`
	ExportedAt time.Time         `json:"exportedAt"`
	Generator  string            `json:"generator,omitempty"`
	Session    ExchangeSession   `json:"session"`
	Branches   []ExchangeBranch  `json:"branches"`
	Thoughts   []ExchangeThought `json:"thoughts"`
	Links      []ExchangeLink    `json:"links"`
	// Feedback is what people said about the thoughts, oldest first
	// (version 2).
	Feedback []ExchangeFeedback `json:"feedback"`
	Counts   ExchangeCounts     `json:"counts"`
}

// ExchangeCounts let a reader check that nothing was cut off.
type ExchangeCounts struct {
	Branches int `json:"branches"`
	Thoughts int `json:"thoughts"`
	Links    int `json:"links"`
	Feedback int `json:"feedback"`
}

// ExchangeSession is the session of an exchange document.
type ExchangeSession struct {
	ID               string          `json:"id"`
	Goal             string          `json:"goal"`
	Mode             string          `json:"mode"`
	CreatedAt        time.Time       `json:"createdAt"`
	UpdatedAt        time.Time       `json:"updatedAt"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Settings         json.RawMessage `json:"settings,omitempty"`
	ActiveBranch     string          `json:"activeBranch"`
	CurrentThoughtID string          `json:"currentThoughtId"`
	StepCount        int             `json:"stepCount"`
	ContextStart     int             `json:"contextStart"`
}

// ExchangeBranch is a branch of an exchange document.
type ExchangeBranch struct {
	ID             string    `json:"id"`
	State          string    `json:"state"`
	Priority       float64   `json:"priority"`
	ParentBranchID string    `json:"parentBranchId"`
	ForkThoughtID  string    `json:"forkThoughtId"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// ExchangeThought is a thought of an exchange document.
type ExchangeThought struct {
	ID          string          `json:"id"`
	Step        int             `json:"step"`
	BranchID    string          `json:"branchId"`
	ParentID    string          `json:"parentId"`
	Content     string          `json:"content"`
	Type        string          `json:"type"`
	Confidence  *float64        `json:"confidence"`
	KeyPoints   []string        `json:"keyPoints"`
	BranchPoint bool            `json:"branchPoint"`
	Alternative bool            `json:"alternative"`
	Selected    bool            `json:"selected"`
	RevisesID   string          `json:"revisesId"`
	Author      string          `json:"author"`
	Tool        string          `json:"tool"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	CreatedAt   time.Time       `json:"createdAt"`
}

// ExchangeLink is a link of an exchange document.
type ExchangeLink struct {
	ID          string    `json:"id"`
	FromBranch  string    `json:"fromBranch"`
	ToBranch    string    `json:"toBranch"`
	FromThought string    `json:"fromThoughtId"`
	ToThought   string    `json:"toThoughtId"`
	Type        string    `json:"type"`
	Reason      string    `json:"reason"`
	Strength    float64   `json:"strength"`
	CreatedAt   time.Time `json:"createdAt"`
}

// ExchangeFeedback is a person's feedback on a thought of an exchange
// document: a refutation, a confirmation or a comment, and whether a tool
// result has carried it to the model (an undelivered one is delivered by
// the imported session's next tool result).
type ExchangeFeedback struct {
	ThoughtID   string     `json:"thoughtId"`
	Kind        string     `json:"kind"`
	Text        string     `json:"text"`
	Author      string     `json:"author"`
	At          time.Time  `json:"at"`
	Delivered   bool       `json:"delivered"`
	DeliveredAt *time.Time `json:"deliveredAt,omitempty"`
}

// ExportSession builds the exchange document of a session in tx.
func ExportSession(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, now time.Time) (*Exchange, error) {
	bs, err := tx.Branches(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	ths, err := tx.Thoughts(ctx, thinkgraph.ThoughtFilter{Session: sess.Key})
	if err != nil {
		return nil, err
	}
	links, err := tx.Links(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	fb, err := tx.Feedback(ctx, sess.Key)
	if err != nil {
		return nil, err
	}
	doc := &Exchange{Format: ExchangeFormat, Version: ExchangeVersion, ExportedAt: now, Generator: "thinkgraph",
		Session: ExchangeSession{ID: sess.ID, Goal: sess.Goal, Mode: sess.Mode, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt,
			Metadata: sess.Metadata, Settings: sess.Settings, ActiveBranch: sess.ActiveBranch, CurrentThoughtID: sess.CurrentThoughtID,
			StepCount: sess.StepCount, ContextStart: sess.ContextStart},
		Branches: []ExchangeBranch{}, Thoughts: []ExchangeThought{}, Links: []ExchangeLink{}, Feedback: []ExchangeFeedback{}}
	for _, b := range bs {
		doc.Branches = append(doc.Branches, ExchangeBranch{ID: b.ID, State: b.State, Priority: b.Priority, ParentBranchID: b.ParentBranchID,
			ForkThoughtID: b.ForkThoughtID, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt})
	}
	for _, t := range ths {
		kp := t.KeyPoints
		if kp == nil {
			kp = []string{}
		}
		doc.Thoughts = append(doc.Thoughts, ExchangeThought{ID: t.ID, Step: t.Step, BranchID: t.BranchID, ParentID: t.ParentID, Content: t.Content,
			Type: t.Type, Confidence: t.Confidence, KeyPoints: kp, BranchPoint: t.BranchPoint, Alternative: t.Alternative, Selected: t.Selected,
			RevisesID: t.RevisesID, Author: t.Author, Tool: t.Tool, Metadata: t.Metadata, CreatedAt: t.CreatedAt})
	}
	for _, l := range links {
		doc.Links = append(doc.Links, ExchangeLink{ID: l.ID, FromBranch: l.FromBranch, ToBranch: l.ToBranch, FromThought: l.FromThought,
			ToThought: l.ToThought, Type: l.Type, Reason: l.Reason, Strength: l.Strength, CreatedAt: l.CreatedAt})
	}
	for _, f := range fb {
		doc.Feedback = append(doc.Feedback, ExchangeFeedback{ThoughtID: f.ThoughtID, Kind: f.Kind, Text: f.Text, Author: f.Author,
			At: f.CreatedAt, Delivered: f.DeliveredAt != nil, DeliveredAt: f.DeliveredAt})
	}
	doc.Counts = ExchangeCounts{Branches: len(doc.Branches), Thoughts: len(doc.Thoughts), Links: len(doc.Links), Feedback: len(doc.Feedback)}
	return doc, nil
}

// WriteExchange writes doc as JSON indented by two spaces, as a
// json.Encoder with SetIndent("", "  ") writes it, one thought (and branch,
// link, feedback) at a time: a large session's export is never held whole
// as text. A metadata or settings value is indented at its first level
// only; what it nests deeper is written compact, so the export's size
// stays proportional to what is stored (indenting every level costs each
// nested value a line of spaces as wide as its depth).
func WriteExchange(w io.Writer, doc *Exchange) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n")
	member := func(name string, v any) error {
		fmt.Fprintf(bw, "  %q: ", name)
		if err := writeIndented(bw, v, "  "); err != nil {
			return err
		}
		bw.WriteString(",\n")
		return nil
	}
	err := errors.Join(member("format", doc.Format), member("version", doc.Version), member("exportedAt", doc.ExportedAt))
	if doc.Generator != "" {
		err = errors.Join(err, member("generator", doc.Generator))
	}
	err = errors.Join(err, member("session", doc.Session),
		writeList(bw, "branches", doc.Branches), writeList(bw, "thoughts", doc.Thoughts),
		writeList(bw, "links", doc.Links), writeList(bw, "feedback", doc.Feedback))
	if err != nil {
		return err
	}
	bw.WriteString("  \"counts\": ")
	if err := writeIndented(bw, doc.Counts, "  "); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// writeList writes the member name of an exchange document, a list,
// element by element.
func writeList[T any](bw *bufio.Writer, name string, items []T) error {
	fmt.Fprintf(bw, "  %q: ", name)
	switch {
	case items == nil:
		bw.WriteString("null,\n")
		return nil
	case len(items) == 0:
		bw.WriteString("[],\n")
		return nil
	}
	bw.WriteString("[")
	for i := range items {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		if err := writeIndented(bw, &items[i], "    "); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ],\n")
	return nil
}

// indentLevels is how deep an exchange document's member or list element
// is indented: the element's own fields (level 1) and the members of a
// field's value (level 2), such as a thought's key points or the keys of
// its metadata; anything nested deeper is written compact.
const indentLevels = 2

// writeIndented writes v as json.MarshalIndent(v, prefix, "  ") does, but
// for arrays and objects nested more than indentLevels deep, which are
// written compact.
func writeIndented(bw *bufio.Writer, v any, prefix string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	indentTo(bw, b, prefix, "  ", indentLevels)
	return nil
}

// indentTo writes src, compact JSON as json.Marshal writes it, to w
// indented as json.Indent(dst, src, prefix, indent) would, except that the
// arrays and objects nested more than levels deep are copied compact.
func indentTo(w *bufio.Writer, src []byte, prefix, indent string, levels int) {
	depth := 0
	inString, escaped := false, false
	newline := func(d int) {
		w.WriteByte('\n')
		w.WriteString(prefix)
		for range d {
			w.WriteString(indent)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			w.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			w.WriteByte(c)
		case '{', '[':
			depth++
			w.WriteByte(c)
			if depth > levels {
				continue
			}
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				// An empty object or array stays on its line.
				w.WriteByte(src[i+1])
				i++
				depth--
				continue
			}
			newline(depth)
		case '}', ']':
			if depth <= levels {
				newline(depth - 1)
			}
			depth--
			w.WriteByte(c)
		case ',':
			w.WriteByte(c)
			if depth <= levels {
				newline(depth)
			}
		case ':':
			w.WriteByte(c)
			if depth <= levels {
				w.WriteByte(' ')
			}
		default:
			w.WriteByte(c)
		}
	}
}

// ParseExchange decodes and validates an exchange document. Errors are
// ValidationErrors naming the offending field (e.g. "thoughts[3].parentId").
func ParseExchange(raw []byte, maxThoughtLength int) (*Exchange, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, thinkgraph.Invalid("data", "an exported session document (the result of export)", "nothing", "'import' needs the exported document as command.data")
	}
	return ReadExchange(bytes.NewReader(raw), maxThoughtLength)
}

// ReadExchange reads an exchange document from r and validates it as
// ParseExchange does. It decodes one member, and one element of each list,
// at a time, so the document's text is never held whole: a large export
// is read from a file in the memory of its decoded thoughts. A member the
// document does not have, top-level or in an element, is an error naming
// it; so are a second document or anything else after it.
func ReadExchange(r io.Reader, maxThoughtLength int) (*Exchange, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	malformed := func(field string, err error) error {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			field += "." + te.Field
		} else if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			name = strings.Trim(name, `"`)
			return thinkgraph.Invalid(field+"."+Clip(name, 40), "the fields of an exported session document", Clip(name, 40),
				"'import': %s has no field %q (the document is not an export of this version, or was edited)", field, Clip(name, 40))
		}
		return thinkgraph.Invalid(field, "the field types of an exported session document", Clip(err.Error(), 80), "'import': malformed document: %v", err)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		rec := fmt.Sprint(tok)
		if err != nil {
			rec = err.Error()
		}
		return nil, thinkgraph.Invalid("data", "a JSON object: an exported session document", Clip(rec, 40), "'import': data is not a JSON object (%s)", Clip(rec, 40))
	}
	var doc Exchange
	var format *string
	var version *json.RawMessage
	seen := map[string]bool{}
	var unknown error // the first member no export writes
	// list decodes a list member element by element into add.
	list := func(field string, add func(*json.Decoder) error) error {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			if err == nil && tok == nil {
				return nil // null: none
			}
			return thinkgraph.Invalid(field, "a list", Clip(fmt.Sprint(tok), 40), "'import': %s must be a list", field)
		}
		for i := 0; dec.More(); i++ {
			if err := add(dec); err != nil {
				if te := (*thinkgraph.Error)(nil); errors.As(err, &te) {
					return te
				}
				return malformed(fmt.Sprintf("%s[%d]", field, i), err)
			}
		}
		_, err := dec.Token() // ]
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, malformed("data", err)
		}
		key, _ := tok.(string)
		field := "data." + Clip(key, 40)
		if seen[key] {
			return nil, thinkgraph.Invalid(field, "each member once", key, "'import': %s appears twice in the document", field)
		}
		seen[key] = true
		switch key {
		case "format":
			err = dec.Decode(&format)
			if err == nil {
				err = checkFormat(format)
			}
		case "version":
			err = dec.Decode(&version)
			if err == nil {
				doc.Version, err = checkVersion(version)
			}
		case "exportedAt":
			err = dec.Decode(&doc.ExportedAt)
		case "generator":
			err = dec.Decode(&doc.Generator)
		case "session":
			err = dec.Decode(&doc.Session)
		case "counts":
			err = dec.Decode(&doc.Counts)
		case "branches":
			err = list(field, func(d *json.Decoder) error { return decodeAppend(d, &doc.Branches) })
		case "thoughts":
			err = list(field, func(d *json.Decoder) error { return decodeAppend(d, &doc.Thoughts) })
		case "links":
			err = list(field, func(d *json.Decoder) error { return decodeAppend(d, &doc.Links) })
		case "feedback":
			err = list(field, func(d *json.Decoder) error {
				if len(doc.Feedback) == MaxSessionFeedback {
					return tooMuchFeedback(MaxSessionFeedback + 1)
				}
				return decodeAppend(d, &doc.Feedback)
			})
		default:
			// Said after format and version: a document of another kind
			// is better told so.
			if unknown == nil {
				unknown = thinkgraph.Invalid(field, "a member of an exported session document: "+strings.Join(exchangeMembers, ", "), Clip(key, 40),
					"'import': the document has a member %q, which no export writes (its members are %s)", Clip(key, 40), strings.Join(exchangeMembers, ", "))
			}
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			if te := thinkgraph.AsError(err); te.Code == thinkgraph.CodeValidation {
				return nil, err
			}
			return nil, malformed(field, err)
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return nil, malformed("data", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, thinkgraph.Invalid("data", "one JSON object", "more after it", "'import': the document is followed by more data: one exported document at a time")
	}
	if err := checkFormat(format); err != nil {
		return nil, err
	}
	doc.Format = *format
	if _, err := checkVersion(version); err != nil {
		return nil, err
	}
	if unknown != nil {
		return nil, unknown
	}
	if err := doc.validate(maxThoughtLength); err != nil {
		return nil, err
	}
	return &doc, nil
}

// tooMuchFeedback refuses a document of n pieces of feedback, more than a
// session keeps (n is a lower bound when the document was not read to its
// end).
func tooMuchFeedback(n int) error {
	return thinkgraph.Invalid("data.feedback", fmt.Sprintf("at most %d pieces of feedback (the most a session keeps)", MaxSessionFeedback), fmt.Sprintf("%d or more", n),
		"'import': data.feedback has more than %d pieces, the most a session keeps: remove the oldest (or those already delivered) and import it again", MaxSessionFeedback)
}

// exchangeMembers are the top-level members of an exchange document.
var exchangeMembers = []string{"format", "version", "exportedAt", "generator", "session", "branches", "thoughts", "links", "feedback", "counts"}

// decodeAppend decodes the next value of d and appends it to *list.
func decodeAppend[T any](d *json.Decoder, list *[]T) error {
	var v T
	if err := d.Decode(&v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}

func checkFormat(format *string) error {
	if format == nil {
		return thinkgraph.Invalid("data.format", ExchangeFormat, "none", "'import': data.format is missing; expected %q (the output of export)", ExchangeFormat)
	}
	if *format != ExchangeFormat {
		return thinkgraph.Invalid("data.format", ExchangeFormat, Clip(*format, 40), "'import': data.format is %q; only %q documents can be imported", Clip(*format, 40), ExchangeFormat)
	}
	return nil
}

func checkVersion(raw *json.RawMessage) (int, error) {
	var version float64
	if raw == nil || json.Unmarshal(*raw, &version) != nil || version != math.Trunc(version) || version < 1 {
		rec := "none"
		if raw != nil {
			rec = Clip(string(*raw), 20)
		}
		return 0, thinkgraph.Invalid("data.version", fmt.Sprintf("an integer from 1 to %d", ExchangeVersion), rec, "'import': data.version must be an integer from 1 to %d", ExchangeVersion)
	}
	if version > ExchangeVersion {
		return 0, thinkgraph.Invalid("data.version", fmt.Sprintf("at most %d", ExchangeVersion), fmt.Sprint(version),
			"'import': the document is version %v, written by a newer thinkgraph; this server reads versions up to %d", version, ExchangeVersion)
	}
	return int(version), nil
}

func (doc *Exchange) validate(maxLen int) error {
	bad := func(field, expected, received, format string, args ...any) error {
		return thinkgraph.Invalid("data."+field, expected, Clip(received, 64), "'import': "+format, args...)
	}
	if c := doc.Counts; (c != ExchangeCounts{}) && (c.Branches != len(doc.Branches) || c.Thoughts != len(doc.Thoughts) || c.Links != len(doc.Links) || c.Feedback != len(doc.Feedback)) {
		return bad("counts", fmt.Sprintf("%d branches, %d thoughts, %d links, %d feedback", len(doc.Branches), len(doc.Thoughts), len(doc.Links), len(doc.Feedback)),
			fmt.Sprintf("%d, %d, %d, %d", c.Branches, c.Thoughts, c.Links, c.Feedback), "the document's counts do not match its content: it was cut off or edited")
	}
	if n := len(doc.Feedback); n > MaxSessionFeedback {
		return tooMuchFeedback(n)
	}
	branches := map[string]bool{}
	for i, b := range doc.Branches {
		f := fmt.Sprintf("branches[%d]", i)
		if err := ValidateBranchID("data."+f+".id", b.ID); err != nil {
			return err
		}
		if branches[b.ID] {
			return bad(f+".id", "a branch id used once", b.ID, "branch %q appears twice", b.ID)
		}
		branches[b.ID] = true
		switch b.State {
		case "active", "pruned", "merged", "completed":
		default:
			return bad(f+".state", "active, pruned, merged or completed", b.State, "%s.state %q is not a branch state", f, b.State)
		}
		if err := ValidateConfidence("data."+f+".priority", &b.Priority); err != nil {
			return err
		}
	}
	parents := map[string]string{}
	for i, b := range doc.Branches {
		if b.ParentBranchID != "" && !branches[b.ParentBranchID] {
			return bad(fmt.Sprintf("branches[%d].parentBranchId", i), "the id of a branch in the document", b.ParentBranchID, "branch %q's parent %q is not in the document", b.ID, b.ParentBranchID)
		}
		parents[b.ID] = b.ParentBranchID
	}
	for i, b := range doc.Branches {
		// A chain of parents longer than the branches has a cycle.
		at := b.ID
		for range len(doc.Branches) + 1 {
			at = parents[at]
		}
		if at != "" {
			return bad(fmt.Sprintf("branches[%d].parentBranchId", i), "a parent that is not the branch itself or one of its descendants", b.ParentBranchID,
				"branch %q's parents lead back to it: the parentBranchId of the document's branches form a cycle", b.ID)
		}
	}
	thoughts := map[string]int{}
	steps := map[int]bool{}
	for i, t := range doc.Thoughts {
		f := fmt.Sprintf("thoughts[%d]", i)
		if err := validateDocID("data."+f+".id", t.ID); err != nil {
			return err
		}
		if _, dup := thoughts[t.ID]; dup {
			return bad(f+".id", "a thought id used once", t.ID, "thought %q appears twice", t.ID)
		}
		thoughts[t.ID] = t.Step
		// Steps count the session's thoughts, and nothing is deleted: an
		// export's N thoughts are steps 1 to N.
		if n := len(doc.Thoughts); t.Step < 1 || t.Step > n || steps[t.Step] {
			return bad(f+".step", fmt.Sprintf("a unique step from 1 to %d (the number of thoughts)", n), fmt.Sprint(t.Step),
				"%s.step %d is not a unique step from 1 to %d: the document's %d thoughts are steps 1 to %d, as export writes them", f, t.Step, n, n, n)
		}
		steps[t.Step] = true
		if !branches[t.BranchID] {
			return bad(f+".branchId", "the id of a branch in the document", t.BranchID, "%s's branch %q is not in the document", f, t.BranchID)
		}
		if err := ValidateContent("data."+f+".content", t.Content, maxLen); err != nil {
			return err
		}
		if err := ValidateConfidence("data."+f+".confidence", t.Confidence); err != nil {
			return err
		}
		if err := ValidateKeyPoints("data."+f+".keyPoints", t.KeyPoints); err != nil {
			return err
		}
		for _, l := range []struct{ name, text string }{{"type", t.Type}, {"author", t.Author}, {"tool", t.Tool}} {
			if err := validateLabel("data."+f+"."+l.name, l.text); err != nil {
				return err
			}
		}
		if err := validateJSONMember("data."+f+".metadata", t.Metadata, MaxThoughtMetadata); err != nil {
			return err
		}
	}
	for i, t := range doc.Thoughts {
		f := fmt.Sprintf("thoughts[%d]", i)
		for _, ref := range []struct{ name, id string }{{"parentId", t.ParentID}, {"revisesId", t.RevisesID}} {
			if ref.id == "" {
				continue
			}
			step, ok := thoughts[ref.id]
			if !ok {
				return bad(f+"."+ref.name, "the id of a thought in the document", ref.id, "%s.%s %q is not in the document", f, ref.name, ref.id)
			}
			if step >= t.Step {
				return bad(f+"."+ref.name, "an earlier thought", ref.id, "%s.%s %q is not an earlier thought (step %d ≥ %d)", f, ref.name, ref.id, step, t.Step)
			}
		}
	}
	for i, b := range doc.Branches {
		if _, ok := thoughts[b.ForkThoughtID]; b.ForkThoughtID != "" && !ok {
			return bad(fmt.Sprintf("branches[%d].forkThoughtId", i), "the id of a thought in the document", b.ForkThoughtID, "branch %q forks from thought %q, which is not in the document", b.ID, b.ForkThoughtID)
		}
	}
	for i, l := range doc.Links {
		f := fmt.Sprintf("links[%d]", i)
		if l.ID != "" {
			if err := validateDocID("data."+f+".id", l.ID); err != nil {
				return err
			}
		}
		// A document's links are cross-references and stated verdicts.
		if err := validateLink("data."+f, l.Type, l.Reason, &l.Strength, slices.Concat(CrossRefTypes, VerdictLinkTypes)); err != nil {
			return err
		}
		for _, ref := range []struct{ name, id string }{{"fromBranch", l.FromBranch}, {"toBranch", l.ToBranch}} {
			if ref.id != "" && !branches[ref.id] {
				return bad(f+"."+ref.name, "the id of a branch in the document", ref.id, "%s.%s %q is not in the document", f, ref.name, ref.id)
			}
		}
		for _, ref := range []struct{ name, id string }{{"fromThoughtId", l.FromThought}, {"toThoughtId", l.ToThought}} {
			if _, ok := thoughts[ref.id]; ref.id != "" && !ok {
				return bad(f+"."+ref.name, "the id of a thought in the document", ref.id, "%s.%s %q is not in the document", f, ref.name, ref.id)
			}
		}
	}
	for i, f := range doc.Feedback {
		p := fmt.Sprintf("data.feedback[%d]", i)
		if err := validateFeedback(p+".", f.Kind, f.ThoughtID, f.Text, "thoughtId"); err != nil {
			return err
		}
		if _, ok := thoughts[f.ThoughtID]; !ok {
			return bad(fmt.Sprintf("feedback[%d].thoughtId", i), "the id of a thought in the document", f.ThoughtID, "feedback[%d].thoughtId %q is not in the document", i, f.ThoughtID)
		}
		if f.Author != "" && f.Author != thinkgraph.FeedbackAuthor {
			return bad(fmt.Sprintf("feedback[%d].author", i), fmt.Sprintf("%q (people give feedback in the viewer)", thinkgraph.FeedbackAuthor), f.Author,
				"feedback[%d].author is %q: feedback is what a person said in the viewer, author %q", i, Clip(f.Author, 40), thinkgraph.FeedbackAuthor)
		}
		if f.DeliveredAt != nil && !f.Delivered {
			return bad(fmt.Sprintf("feedback[%d].deliveredAt", i), "no deliveredAt when delivered is false", f.DeliveredAt.Format(time.RFC3339),
				"feedback[%d] has a deliveredAt but delivered is false: set delivered to true or remove deliveredAt", i)
		}
	}
	s := doc.Session
	if _, ok := thoughts[s.CurrentThoughtID]; s.CurrentThoughtID != "" && !ok {
		return bad("session.currentThoughtId", "the id of a thought in the document", s.CurrentThoughtID, "the session's current thought %q is not in the document", s.CurrentThoughtID)
	}
	if s.ActiveBranch != "" && !branches[s.ActiveBranch] && s.ActiveBranch != thinkgraph.DefaultBranch {
		return bad("session.activeBranch", "the id of a branch in the document", s.ActiveBranch, "the active branch %q is not in the document", s.ActiveBranch)
	}
	if n := len(doc.Thoughts); s.StepCount != n {
		return bad("session.stepCount", fmt.Sprintf("%d (the number of thoughts)", n), fmt.Sprint(s.StepCount),
			"session.stepCount %d is not the document's number of thoughts, %d: the next thought of the session would get step %d", s.StepCount, n, s.StepCount+1)
	}
	if s.ContextStart < 0 || s.ContextStart > s.StepCount {
		return bad("session.contextStart", fmt.Sprintf("a step from 0 to %d (session.stepCount)", s.StepCount), fmt.Sprint(s.ContextStart),
			"session.contextStart %d is not a step from 0 to session.stepCount %d", s.ContextStart, s.StepCount)
	}
	if s.Goal != "" {
		if err := ValidateContent("data.session.goal", s.Goal, maxLen); err != nil {
			return err
		}
	}
	if err := validateLabel("data.session.mode", s.Mode); err != nil {
		return err
	}
	if err := validateJSONMember("data.session.settings", s.Settings, MaxSessionMetadata); err != nil {
		return err
	}
	return validateJSONMember("data.session.metadata", s.Metadata, MaxSessionMetadata)
}

// The largest metadata a thought or session may carry, in bytes of JSON:
// a thought's (the tools write a few hundred bytes: numbers, step types,
// model names) and a session's metadata or settings (the Lux tools keep
// their runs' state there); and how deep arrays and objects may nest in
// them (the tools nest three levels).
const (
	MaxThoughtMetadata = 64 << 10
	MaxSessionMetadata = 256 << 10
	MaxMetadataDepth   = 32
)

// validateJSONMember checks a JSON member of an imported document that the
// tools write themselves (metadata, settings), as ValidateMetadata does.
func validateJSONMember(field string, raw json.RawMessage, max int) error {
	if err := ValidateMetadata(field, raw, max); err != nil {
		te := thinkgraph.AsError(err)
		te.Message = "'import': " + te.Message
		return te
	}
	return nil
}

// ValidateMetadata checks metadata or settings given in field: none, or
// JSON of at most max bytes, nesting arrays and objects at most
// MaxMetadataDepth deep, whose keys and strings are text as the tools
// take it (valid UTF-8, no NUL). It is the one check of such JSON, at
// every write and import.
func ValidateMetadata(field string, raw json.RawMessage, max int) error {
	if len(raw) == 0 {
		return nil
	}
	if len(raw) > max {
		return thinkgraph.Invalid(field, fmt.Sprintf("at most %d bytes of JSON", max), fmt.Sprintf("%d bytes", len(raw)),
			"%s is %d bytes of JSON; the most it may hold is %d", field, len(raw), max)
	}
	if !utf8.Valid(raw) || !json.Valid(raw) {
		return thinkgraph.Invalid(field, "JSON", Clip(string(raw), 40), "%s is not JSON (valid UTF-8)", field)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF: every token read
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth > MaxMetadataDepth {
				return thinkgraph.Invalid(field, fmt.Sprintf("arrays and objects nested at most %d deep", MaxMetadataDepth), fmt.Sprintf("more than %d levels", MaxMetadataDepth),
					"%s nests arrays and objects more than %d levels deep, which no tool writes", field, MaxMetadataDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if str, ok := tok.(string); ok && strings.ContainsRune(str, 0) {
			return thinkgraph.Invalid(field, "keys and strings without NUL characters", "a NUL character",
				"%s has a key or string with a NUL character (\\u0000), which no tool writes", field)
		}
	}
}

// compactJSON is raw without insignificant white space (nil stays nil):
// how metadata is stored, whatever the indentation of the document that
// brought it.
func compactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// validateDocID checks the id of a document's thought or link, which an
// import may keep: 1 to 128 letters, digits and . _ : @ -, starting with a
// letter or digit, as a session id (the tools write UUIDs).
func validateDocID(field, id string) error {
	if !thinkgraph.ValidName(id, 128, "._:@-") {
		return thinkgraph.Invalid(field, "1 to 128 letters, digits and . _ : @ -, starting with a letter or digit (thinkgraph writes UUIDs)", Clip(id, 40),
			"'import': %s %q is not an id: ids are 1 to 128 letters, digits and . _ : @ -, starting with a letter or digit", field, Clip(id, 40))
	}
	return nil
}

// maxLabelLength bounds the names the tools write (a session's mode, a
// thought's type, tool and author), in characters.
const maxLabelLength = 100

// validateLabel checks such a name in a document: none, or a text as
// validateContent takes it of at most maxLabelLength characters.
func validateLabel(field, name string) error {
	if name == "" {
		return nil
	}
	return ValidateContent(field, name, maxLabelLength)
}

// CrossRefTypes are the types of a link between thoughts (a branch-thinking cross-reference).
var CrossRefTypes = []string{"builds_upon", "contradictory", "complementary", "alternative"}

// The other types a link between thoughts may have: the verdicts stated
// with branch-thinking's judge command on a pair (a stated contradiction is
// a contradictory link).
const (
	LinkCompatible  = "compatible"
	LinkCircular    = "circular"
	LinkNotCircular = "not_circular"
)

// VerdictLinkTypes are LinkCompatible, LinkCircular and LinkNotCircular.
var VerdictLinkTypes = []string{LinkCompatible, LinkCircular, LinkNotCircular}

// MaxKeyPoints bounds the key points of a thought.
const MaxKeyPoints = 32

// maxKeyPointLength and maxLinkReasonLength bound a key point and the
// reason of a cross-reference, in characters.
const (
	maxKeyPointLength   = 500
	maxLinkReasonLength = 2000
)

// ValidateKeyPoints checks the key points of a thought (field names them):
// at most MaxKeyPoints texts of at most maxKeyPointLength characters.
func ValidateKeyPoints(field string, kps []string) error {
	if len(kps) > MaxKeyPoints {
		return thinkgraph.Invalid(field, fmt.Sprintf("at most %d key points", MaxKeyPoints), fmt.Sprint(len(kps)),
			"'%s' has %d entries; at most %d are allowed", field, len(kps), MaxKeyPoints)
	}
	for i, k := range kps {
		if err := ValidateContent(fmt.Sprintf("%s[%d]", field, i), k, maxKeyPointLength); err != nil {
			return err
		}
	}
	return nil
}

// ValidateLink checks a cross-reference (f names it): its type one of
// CrossRefTypes, its reason none or a text of at most maxLinkReasonLength
// characters, its strength, if given, from 0 to 1.
func ValidateLink(f, typ, reason string, strength *float64) error {
	return validateLink(f, typ, reason, strength, CrossRefTypes)
}

// validateLink is ValidateLink with the types allowed.
func validateLink(f, typ, reason string, strength *float64, types []string) error {
	if !slices.Contains(types, typ) {
		return thinkgraph.Invalid(f+".type", "one of: "+strings.Join(types, ", "), Clip(typ, 40),
			"'%s.type' must be one of %s", f, strings.Join(types, ", "))
	}
	if reason != "" {
		if err := ValidateContent(f+".reason", reason, maxLinkReasonLength); err != nil {
			return err
		}
	}
	return ValidateConfidence(f+".strength", strength)
}

// ImportReport says what an import created.
type ImportReport struct {
	SessionID       string            `json:"session_id"`
	SourceSessionID string            `json:"sourceSessionId"`
	Branches        int               `json:"branches"`
	Thoughts        int               `json:"thoughts"`
	Links           int               `json:"links"`
	Feedback        int               `json:"feedback"`
	ThoughtIDs      map[string]string `json:"thoughtIdMap" jsonschema:"old thought id → new thought id"`
	LinkIDs         map[string]string `json:"linkIdMap"`
	Conflicts       []string          `json:"conflicts"`
	Vectors         int               `json:"vectorsComputed"`
}

// ImportSession checks doc as ParseExchange does (nothing is written
// unless all of it is valid), then stores it as a new session of tenant
// with new ids for the session, its thoughts and links (branch ids are
// names within a session and are kept), and returns the report with the id
// maps. Vectors are computed when the semantic engine is on (else, or on
// failure, on first analysis).
func (s *Service) ImportSession(ctx context.Context, doc *Exchange, tenant string) (*ImportReport, error) {
	if err := doc.validate(s.cfg.MaxThoughtLength); err != nil {
		return nil, err
	}
	return s.importSession(ctx, doc, tenant, newIDs, s.embedDoc(ctx, doc))
}

// RestoreSession is ImportSession keeping the document's ids (the
// session's, its thoughts' and links'), so that exporting the restored
// session gives the document back (but for exportedAt): for moving a
// session to another database. When the database has a thought or link of
// one of its ids, the thoughts and links get new ids; when the tenant has
// a session of its id, the session too; the report's conflicts say so.
func (s *Service) RestoreSession(ctx context.Context, doc *Exchange, tenant string) (*ImportReport, error) {
	if err := doc.validate(s.cfg.MaxThoughtLength); err != nil {
		return nil, err
	}
	vecs := s.embedDoc(ctx, doc)
	rep, err := s.importSession(ctx, doc, tenant, keepAllIDs, vecs)
	if !errors.Is(err, thinkgraph.ErrConflict) {
		return rep, err
	}
	rep, err = s.importSession(ctx, doc, tenant, keepSessionID, vecs)
	if rep != nil {
		rep.Conflicts = append(rep.Conflicts, "the document's thought or link ids are in use in this database: its thoughts and links were imported with new ids (see the id maps)")
	}
	return rep, err
}

// idPolicy says which of a document's ids an import keeps.
type idPolicy int

const (
	newIDs        idPolicy = iota // new ids for the session, its thoughts and links
	keepSessionID                 // the session's id if the tenant has no session of it; new ids for the rest
	keepAllIDs                    // every id, or ErrConflict
)

// embedDoc embeds the thoughts of doc for an import.
func (s *Service) embedDoc(ctx context.Context, doc *Exchange) []semantic.Vector {
	texts := make([]string, len(doc.Thoughts))
	for i, t := range doc.Thoughts {
		texts[i] = t.Content
	}
	return s.EmbedForWrite(ctx, texts...)
}

// importSession stores a validated doc for tenant, with vecs, the vectors
// of its thoughts (nil when there are none).
func (s *Service) importSession(ctx context.Context, doc *Exchange, tenant string, policy idPolicy, vecs []semantic.Vector) (*ImportReport, error) {
	if tenant == "" {
		tenant = thinkgraph.LocalTenant
	}
	badSessionID := policy != newIDs && ValidateSessionID(doc.Session.ID) != nil
	if badSessionID {
		policy = newIDs
	}
	rep := &ImportReport{SourceSessionID: doc.Session.ID, ThoughtIDs: map[string]string{}, LinkIDs: map[string]string{}, Conflicts: []string{}}
	// keep gives the id a document's thought or link keeps: its own, or
	// a new one.
	keep := func(id string) string {
		if policy == keepAllIDs && id != "" {
			return id
		}
		return NewID()
	}
	err := s.store.Update(ctx, func(tx thinkgraph.Tx) error {
		rep.Conflicts, rep.Vectors = rep.Conflicts[:0], 0
		rep.SessionID = NewID()
		if policy != newIDs {
			rep.SessionID = doc.Session.ID
		}
		if badSessionID {
			rep.Conflicts = append(rep.Conflicts, fmt.Sprintf("the document's session id %q is not a session id (1 to 128 letters, digits and . _ : @ -, starting with a letter or digit): the session was imported as %q with new ids",
				Clip(doc.Session.ID, 40), rep.SessionID))
		}
		if doc.Session.ID != "" {
			if _, err := tx.Session(ctx, tenant, doc.Session.ID); err == nil {
				if policy == keepAllIDs {
					return fmt.Errorf("%w: session %q", thinkgraph.ErrConflict, doc.Session.ID)
				}
				if policy == keepSessionID {
					rep.SessionID = NewID()
				}
				rep.Conflicts = append(rep.Conflicts, fmt.Sprintf("session %q already exists in this store; the document was imported as the new session %q", doc.Session.ID, rep.SessionID))
			}
		}
		ids := map[string]string{"": ""}
		for _, t := range doc.Thoughts {
			n := keep(t.ID)
			ids[t.ID] = n
			rep.ThoughtIDs[t.ID] = n
		}
		ds := doc.Session
		active := ds.ActiveBranch
		if active == "" {
			active = thinkgraph.DefaultBranch
		}
		sess := &thinkgraph.Session{ID: rep.SessionID, Tenant: tenant, Goal: ds.Goal, Mode: ds.Mode, CreatedAt: ds.CreatedAt, UpdatedAt: ds.UpdatedAt,
			Metadata: compactJSON(ds.Metadata), Settings: compactJSON(ds.Settings), CurrentThoughtID: ids[ds.CurrentThoughtID], ActiveBranch: active,
			StepCount: ds.StepCount, ContextStart: ds.ContextStart}
		if sess.CreatedAt.IsZero() {
			sess.CreatedAt = s.now()
		}
		if sess.UpdatedAt.IsZero() {
			sess.UpdatedAt = sess.CreatedAt
		}
		if err := tx.CreateSession(ctx, sess); err != nil {
			return err
		}
		for _, b := range doc.Branches {
			if err := tx.PutBranch(ctx, &thinkgraph.Branch{Session: sess.Key, ID: b.ID, State: b.State, Priority: b.Priority,
				ParentBranchID: b.ParentBranchID, ForkThoughtID: ids[b.ForkThoughtID], CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}); err != nil {
				return err
			}
		}
		var tvs []thinkgraph.Vector
		for i, t := range doc.Thoughts {
			th := &thinkgraph.Thought{ID: ids[t.ID], Session: sess.Key, BranchID: t.BranchID, ParentID: ids[t.ParentID], Step: t.Step,
				Content: t.Content, Type: t.Type, Confidence: t.Confidence, KeyPoints: t.KeyPoints, BranchPoint: t.BranchPoint,
				Alternative: t.Alternative, Selected: t.Selected, RevisesID: ids[t.RevisesID], Author: t.Author, Tool: t.Tool,
				Metadata: compactJSON(t.Metadata), CreatedAt: t.CreatedAt}
			if len(th.KeyPoints) == 0 {
				th.KeyPoints = nil
			}
			if err := tx.AddThought(ctx, th); err != nil {
				return err
			}
			if v := VectorAt(vecs, i); v != nil && s.sem != nil {
				tvs = append(tvs, thinkgraph.Vector{ThoughtID: th.ID, Session: sess.Key, Model: s.sem.cfg.Embedder.Model(), Dim: len(v), Values: v, CreatedAt: s.now()})
			}
		}
		if len(tvs) > 0 {
			if err := tx.PutVectors(ctx, tvs); err != nil {
				return err
			}
			rep.Vectors = len(tvs)
		}
		for _, f := range doc.Feedback {
			fb := &thinkgraph.Feedback{ID: NewID(), Session: sess.Key, ThoughtID: ids[f.ThoughtID], Kind: f.Kind, Text: f.Text,
				Author: f.Author, CreatedAt: f.At, DeliveredAt: f.DeliveredAt}
			if fb.Author == "" {
				fb.Author = thinkgraph.FeedbackAuthor
			}
			if fb.CreatedAt.IsZero() {
				fb.CreatedAt = s.now()
			}
			if f.Delivered && fb.DeliveredAt == nil {
				at := fb.CreatedAt
				fb.DeliveredAt = &at
			}
			if err := tx.AddFeedback(ctx, fb); err != nil {
				return err
			}
		}
		for _, l := range doc.Links {
			n := keep(l.ID)
			rep.LinkIDs[l.ID] = n
			if err := tx.AddLink(ctx, &thinkgraph.Link{ID: n, Session: sess.Key, FromBranch: l.FromBranch, ToBranch: l.ToBranch,
				FromThought: ids[l.FromThought], ToThought: ids[l.ToThought], Type: l.Type, Reason: l.Reason, Strength: l.Strength, CreatedAt: l.CreatedAt}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Branches, rep.Thoughts, rep.Links, rep.Feedback = len(doc.Branches), len(doc.Thoughts), len(doc.Links), len(doc.Feedback)
	return rep, nil
}
