package reasoning

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/thinkgraph/thinkgraph"
)

// The Lux tools read and write one key of the session metadata object in
// every transaction. sessionMeta and setSessionMeta decode the whole object
// into a map and encode it back; the functions here give the same results
// (the same bytes) with one validation and one pass over the object.

// luxMetaField is one member of the metadata object.
type luxMetaField struct {
	key string
	val []byte // the raw value, without surrounding white space
}

// luxMetaFields returns the members of the metadata object in order, as
// json.Unmarshal into a map sees them (a later duplicate key wins there). A
// value that is not a valid JSON object has no members, as for sessionMeta.
func luxMetaFields(data []byte) []luxMetaField {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	i := luxSkipSpace(data, 0)
	if data[i] != '{' {
		return nil
	}
	var out []luxMetaField
	i = luxSkipSpace(data, i+1)
	if data[i] == '}' {
		return out
	}
	for {
		end := luxSkipString(data, i)
		key := data[i:end]
		var k string
		if bytes.IndexByte(key, '\\') < 0 && luxASCII(key) {
			k = string(key[1 : len(key)-1])
		} else if err := json.Unmarshal(key, &k); err != nil {
			return nil // not reached: data is valid JSON
		}
		i = luxSkipSpace(data, end)
		i = luxSkipSpace(data, i+1) // the colon
		end = luxSkipValue(data, i)
		out = append(out, luxMetaField{key: k, val: data[i:end]})
		i = luxSkipSpace(data, end)
		if data[i] != ',' {
			return out // the closing brace
		}
		i = luxSkipSpace(data, i+1)
	}
}

func luxASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func luxSkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// luxSkipString returns the index after the string starting at data[i].
func luxSkipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// luxSkipValue returns the index after the (valid) JSON value at data[i].
func luxSkipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return luxSkipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = luxSkipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) && !strings.ContainsRune(",}] \t\r\n", rune(data[i])) {
		i++
	}
	return i
}

// luxGetMeta decodes the session metadata key into v; it reports whether the
// key was there.
func luxGetMeta(sess *thinkgraph.Session, key string, v any) (bool, error) {
	var raw []byte
	found := false
	for _, f := range luxMetaFields(sess.Metadata) {
		if f.key == key {
			raw, found = f.val, true
		}
	}
	if !found || string(raw) == "null" {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("session %q: metadata %q: %w", sess.ID, key, err)
	}
	return true, nil
}

// luxSetMeta sets the session metadata key to v, as setSessionMeta does:
// the members in key order, each value compacted and HTML-escaped as
// json.Marshal writes a json.RawMessage.
func luxSetMeta(sess *thinkgraph.Session, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	fields := luxMetaFields(sess.Metadata)
	vals := make(map[string][]byte, len(fields)+1)
	for _, f := range fields {
		vals[f.key] = f.val
	}
	vals[key] = nil // b, written as it is: json.Marshal's output is compact and escaped
	keys := make([]string, 0, len(vals))
	size := len(b) + 2
	for k, val := range vals {
		keys = append(keys, k)
		size += len(k) + len(val) + 4
	}
	slices.Sort(keys)
	out := bytes.NewBuffer(make([]byte, 0, size))
	out.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			out.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return fmt.Errorf("session metadata: %w", err)
		}
		out.Write(kb)
		out.WriteByte(':')
		if k == key {
			out.Write(b)
			continue
		}
		if err := luxCompact(out, vals[k]); err != nil {
			return fmt.Errorf("session metadata: %w", err)
		}
	}
	out.WriteByte('}')
	sess.Metadata = out.Bytes()
	return nil
}

// luxCompact appends val compacted, with <, >, &, U+2028 and U+2029
// escaped in strings, as json.Marshal writes a json.RawMessage.
func luxCompact(out *bytes.Buffer, val []byte) error {
	if !bytes.ContainsAny(val, "<>&\u2028\u2029") {
		return json.Compact(out, val)
	}
	var tmp bytes.Buffer
	if err := json.Compact(&tmp, val); err != nil {
		return err
	}
	json.HTMLEscape(out, tmp.Bytes())
	return nil
}
