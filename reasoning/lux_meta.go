package reasoning

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
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
	raw, found := luxMetaRaw(sess, key)
	if !found {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("session %q: metadata %q: %w", sess.ID, key, err)
	}
	return true, nil
}

// luxMetaCache remembers, per session and key, the last value a Lux tool
// wrote into the session metadata with the JSON it wrote, so that reading
// those same bytes back (the step after the model call reads what the step
// before it wrote; the next call what the last one wrote) costs a copy of
// the value instead of decoding it: with traced_reasoning's record of a
// run, the decoding was a tenth of the call. The bytes are the key: a value
// changed by another process, or not committed, is decoded as before.
type luxMetaCache struct {
	mu    sync.Mutex
	m     map[luxMetaCacheKey]luxMetaCached
	bytes int // of the JSON of the values in m (their decoded size is of that order)
}

type luxMetaCacheKey struct {
	session thinkgraph.SessionKey
	key     string
}

type luxMetaCached struct {
	raw string
	v   any // a *T of luxGetMetaCached's T, never modified
}

// luxMetaCacheMax bounds the entries (sessions × keys) and
// luxMetaCacheBytes their JSON: past either, the cache starts over.
const (
	luxMetaCacheMax   = 1024
	luxMetaCacheBytes = 8 << 20
)

// luxGetMetaCached is luxGetMeta for the values luxSetMetaCached writes;
// clone returns a deep copy of its argument (one that shares nothing the
// caller may modify).
func luxGetMetaCached[T any](c *luxMetaCache, sess *thinkgraph.Session, key string, v *T, clone func(*T) T) (bool, error) {
	raw, found := luxMetaRaw(sess, key)
	if !found {
		return false, nil
	}
	c.mu.Lock()
	e, ok := c.m[luxMetaCacheKey{sess.Key, key}]
	c.mu.Unlock()
	if ok && e.raw == string(raw) {
		*v = clone(e.v.(*T))
		return true, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("session %q: metadata %q: %w", sess.ID, key, err)
	}
	return true, nil
}

// luxSetMetaCached is luxSetMeta, remembering v with the JSON written.
func luxSetMetaCached[T any](c *luxMetaCache, sess *thinkgraph.Session, key string, v T, clone func(*T) T) error {
	b, err := luxSetMetaRaw(sess, key, v)
	if err != nil {
		return err
	}
	kept := clone(&v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= luxMetaCacheMax || c.bytes+len(b) > luxMetaCacheBytes {
		c.m, c.bytes = map[luxMetaCacheKey]luxMetaCached{}, 0
	}
	k := luxMetaCacheKey{sess.Key, key}
	if old, ok := c.m[k]; ok {
		c.bytes -= len(old.raw)
	}
	c.m[k] = luxMetaCached{raw: string(b), v: &kept}
	c.bytes += len(b)
	return nil
}

// luxMetaRaw returns the raw value of the session metadata key, as
// luxGetMeta finds it; found is false for a missing key or null.
func luxMetaRaw(sess *thinkgraph.Session, key string) (raw []byte, found bool) {
	for _, f := range luxMetaFields(sess.Metadata) {
		if f.key == key {
			raw, found = f.val, true
		}
	}
	if !found || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

// luxSetMeta sets the session metadata key to v, as setSessionMeta does:
// the members in key order, each value compacted and HTML-escaped as
// json.Marshal writes a json.RawMessage.
func luxSetMeta(sess *thinkgraph.Session, key string, v any) error {
	_, err := luxSetMetaRaw(sess, key, v)
	return err
}

// luxSetMetaRaw is luxSetMeta, returning the JSON of v written.
func luxSetMetaRaw(sess *thinkgraph.Session, key string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
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
			return nil, fmt.Errorf("session metadata: %w", err)
		}
		out.Write(kb)
		out.WriteByte(':')
		if k == key {
			out.Write(b)
			continue
		}
		if err := luxCompact(out, vals[k]); err != nil {
			return nil, fmt.Errorf("session metadata: %w", err)
		}
	}
	out.WriteByte('}')
	sess.Metadata = out.Bytes()
	return b, nil
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
