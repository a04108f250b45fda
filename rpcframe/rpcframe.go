// Package rpcframe checks JSON-RPC 2.0 messages for what the MCP SDK reads
// loosely, before the SDK sees them (over stdio in cmd/thinkgraph, over
// HTTP in package httpserver): the SDK reads every numeric id as a float64
// and echoes it as a 64-bit integer (1.5 came back as 1, 2^53+1 as 2^53,
// 10^29 as -2^63), takes "id": null for a notification and never answers
// it, and takes an object with an id and no method for a response. Such
// messages are refused here with an error that names the id as it was sent.
package rpcframe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/tidwall/gjson"
)

// MaxSafeID is the largest magnitude of an integer id accepted: every JSON
// implementation reads integers up to it exactly (I-JSON, RFC 7493), and the
// SDK echoes them unchanged.
const MaxSafeID = 1<<53 - 1

// Reject is the error answer to a message refused.
type Reject struct {
	// ID is the message's id as sent (raw JSON), or null.
	ID      json.RawMessage
	Code    int
	Message string
	// Drop: the message is a notification, which gets no answer where the
	// transport allows none.
	Drop bool
}

// Response is the JSON-RPC error response for r.
func (r *Reject) Response() []byte {
	id := r.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{r.Code, r.Message}})
	return b
}

// Frame checks one message as a transport received it (trimmed of white
// space): valid UTF-8, valid JSON, one object, a JSON-RPC 2.0 message the
// SDK can decode, and what Check refuses. It returns what it read, or the
// Reject: -32700 for what is no JSON (trailing data and invalid UTF-8
// included), -32600 for JSON that is no message (a batch, nesting deeper
// than the SDK reads, a bad id). The Reject of a notification has Drop set:
// a transport that can leave it unanswered (stdio) does.
func Frame(frame []byte) (*Message, *Reject) {
	if len(frame) == 0 {
		return nil, &Reject{Code: jsonrpc.CodeParseError, Message: "parse error: the message is empty: send one JSON-RPC message"}
	}
	if !utf8.Valid(frame) {
		return nil, &Reject{Code: jsonrpc.CodeParseError, Message: "parse error: the message is not valid UTF-8"}
	}
	if !json.Valid(frame) {
		var v json.RawMessage
		err := json.Unmarshal(frame, &v) // says what is wrong, and where
		msg := "parse error: " + err.Error()
		if bytes.Contains(frame, []byte("NaN")) || bytes.Contains(frame, []byte("Infinity")) {
			msg += " (NaN and Infinity are not JSON)"
		}
		return nil, &Reject{Code: jsonrpc.CodeParseError, Message: msg}
	}
	if frame[0] != '{' {
		msg := "invalid request: a message is one JSON object"
		if frame[0] == '[' {
			msg = "invalid request: batches are not supported: send one JSON-RPC message at a time"
		}
		return nil, &Reject{Code: jsonrpc.CodeInvalidRequest, Message: msg}
	}
	m, rej := Check(frame)
	if rej != nil {
		return m, rej
	}
	// The SDK's own decoding: what passes here, the SDK reads.
	var err error
	if m.Decoded, err = jsonrpc.DecodeMessage(frame); err != nil {
		msg := "invalid request: " + err.Error()
		id := m.ID
		switch {
		case id == nil:
			return m, &Reject{Code: jsonrpc.CodeInvalidRequest, Message: msg, Drop: true}
		case id[0] == 'n':
			id = nil
		case id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9'):
			id, msg = nil, "invalid request: id must be a string or a number"
		}
		return m, &Reject{ID: id, Code: jsonrpc.CodeInvalidRequest, Message: msg}
	}
	return m, nil
}

// Message is what Check reads of a message.
type Message struct {
	ID     json.RawMessage `json:"id"`     // nil when absent, "null" when null
	Method json.RawMessage `json:"method"` // nil when absent
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	// Decoded is the message as the SDK decodes it (set by Frame).
	Decoded jsonrpc.Message `json:"-"`
}

// IsCall reports whether m is a request with an id.
func (m *Message) IsCall() bool { return m.Method != nil && m.ID != nil && string(m.ID) != "null" }

// MethodName is m's method ("" when it has none or it is not a string).
func (m *Message) MethodName() string {
	var s string
	_ = json.Unmarshal(m.Method, &s)
	return s
}

// Check reads one JSON object (valid JSON, checked by the caller) as a
// JSON-RPC message and returns what it read, and a Reject when it must be
// refused: a request whose id is null, a number the SDK would not echo
// exactly (a fraction, an exponent, -0, beyond ±MaxSafeID), or a message
// with an id but neither a method (a request) nor a result or error (a
// response). A notification, which gets no answer, is never refused here.
func Check(frame []byte) (*Message, *Reject) {
	var m Message
	// One pass over the top-level members (gjson skips the values without
	// decoding them: about 20 times faster than encoding/json here).
	gjson.ParseBytes(frame).ForEach(func(key, value gjson.Result) bool {
		switch key.Str {
		case "id":
			m.ID = json.RawMessage(value.Raw)
		case "method":
			m.Method = json.RawMessage(value.Raw)
		case "result":
			m.Result = json.RawMessage(value.Raw)
		case "error":
			m.Error = json.RawMessage(value.Raw)
		}
		return true
	})
	if m.ID == nil {
		return &m, nil
	}
	if string(m.ID) == "null" {
		if m.Method != nil {
			return &m, &Reject{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: the id is null: a request's id is a string or an integer (leave the id out for a notification, which gets no answer)"}
		}
		return &m, nil // a response with id null: the SDK refuses it
	}
	if m.ID[0] == '"' && loneSurrogate(m.ID) {
		return &m, &Reject{ID: m.ID, Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
			"invalid request: id %s cannot be echoed exactly: it holds a lone UTF-16 surrogate (\\uD800 to \\uDFFF not in a pair), which is no character; use another string id",
			clip(string(m.ID)))}
	}
	if c := m.ID[0]; c == '-' || (c >= '0' && c <= '9') {
		if !safeInteger(string(m.ID)) {
			return &m, &Reject{ID: m.ID, Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
				"invalid request: id %s cannot be echoed exactly: a numeric id must be an integer from -%d to %d, written without fraction or exponent; or use a string id",
				clip(string(m.ID)), int64(MaxSafeID), int64(MaxSafeID))}
		}
	}
	if m.Method == nil && m.Result == nil && m.Error == nil {
		return &m, &Reject{ID: m.ID, Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: no method: a request needs \"method\" (a response to the server needs \"result\" or \"error\")"}
	}
	return &m, nil
}

// loneSurrogate reports whether the JSON string s (raw, quoted) escapes a
// UTF-16 surrogate that is not half of a pair: decoded, it becomes U+FFFD,
// and the SDK echoes that instead of the id sent.
func loneSurrogate(s []byte) bool {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32)
		return rune(n), err == nil
	}
	for i := 1; i < len(s)-1; i++ {
		if s[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // another escape: skip its character
			continue
		}
		switch {
		case r >= 0xD800 && r < 0xDC00: // high: a low one must follow
			if lo, ok := hex4(i + 6); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 11
		case r >= 0xDC00 && r <= 0xDFFF:
			return true
		default:
			i += 5
		}
	}
	return false
}

// safeInteger reports whether s is an integer written plainly (no
// fraction, exponent, leading zero or -0) within ±MaxSafeID.
func safeInteger(s string) bool {
	n, err := strconv.ParseInt(s, 10, 64)
	return err == nil && n >= -MaxSafeID && n <= MaxSafeID && strconv.FormatInt(n, 10) == s
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// FirstSessionlessVersion is the first MCP protocol version whose requests
// carry their protocol version in _meta and need no initialize (SEP-2575).
const FirstSessionlessVersion = "2026-07-28"

// Sessionless reports whether the call frame carries a protocol version of
// FirstSessionlessVersion or later in its _meta: such a request needs no
// initialize.
func Sessionless(frame []byte) bool {
	v := gjson.GetBytes(frame, `params._meta.io\.modelcontextprotocol/protocolVersion`)
	return v.Type == gjson.String && v.Str >= FirstSessionlessVersion
}

// beforeInitialize are the methods the SDK answers before initialize.
var beforeInitialize = map[string]bool{"initialize": true, "ping": true, "logging/setLevel": true, "resources/subscribe": true, "resources/unsubscribe": true}

// BeforeInitialize returns the Reject for a call m (frame) that arrives
// before the session was initialized, which the SDK answers with error
// code 0; nil for the calls it serves then (initialize, ping, …, and
// sessionless requests).
func BeforeInitialize(m *Message, frame []byte) *Reject {
	if !m.IsCall() || beforeInitialize[m.MethodName()] || Sessionless(frame) {
		return nil
	}
	return &Reject{ID: m.ID, Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
		"invalid request: %q before initialize: the session is not initialized; send initialize (and notifications/initialized) first", clip(m.MethodName()))}
}
