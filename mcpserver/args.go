package mcpserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/thinkgraph/thinkgraph"
)

// args holds a tool call's arguments by name, for branch-thinking, whose
// command form has a parser of its own; every other tool's arguments are a
// struct (input.go). Getters read a field as the argument structs do
// (args.value): numbers and booleans may come as strings, JSON null counts
// as absent, and a value that cannot be read is an error naming the field.
type args struct {
	raw map[string]json.RawMessage
}

// parseArgs decodes a tool call's arguments and rejects fields the tool does
// not know, listing the ones it does.
func parseArgs(raw json.RawMessage, known []string) (*args, error) {
	return decodeArgs(raw, known, false)
}

// decodeArgs is parseArgs; with ignoreUnknown, fields the tool does not know
// are dropped instead of refused.
func decodeArgs(raw json.RawMessage, known []string, ignoreUnknown bool) (*args, error) {
	a := &args{raw: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return a, nil
	}
	if err := json.Unmarshal(raw, &a.raw); err != nil {
		return nil, thinkgraph.Invalid("arguments", "a JSON object", clip(string(raw), 80), "arguments must be a JSON object: %v", err)
	}
	var unknown []string
	for k := range a.raw {
		if !slices.Contains(known, k) {
			if ignoreUnknown {
				delete(a.raw, k)
				continue
			}
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, thinkgraph.Invalid(unknown[0], "one of: "+strings.Join(known, ", "), unknown[0],
			"unknown field '%s'; this tool takes: %s", unknown[0], strings.Join(known, ", "))
	}
	return a, nil
}

func (a *args) get(name string) (json.RawMessage, bool) {
	v, ok := a.raw[name]
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	return v, true
}

func typeOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// str returns a string field ("" and false when absent).
func (a *args) str(name string) (string, bool, error) {
	var s string
	if given, err := a.value(name, &s); err != nil || !given {
		return "", false, err
	}
	return s, true, nil
}

// number returns a number field, accepting numeric strings (type number).
func (a *args) number(name string) (*float64, error) {
	var n *number
	_, err := a.value(name, &n)
	return (*float64)(n), err
}

// integer returns an integer field, accepting integral numbers and numeric
// strings ("2", 2.0; type integer).
func (a *args) integer(name string) (*int, error) {
	var n *integer
	_, err := a.value(name, &n)
	return (*int)(n), err
}

// boolean returns a boolean field, accepting "true" and "false" strings
// (type boolean).
func (a *args) boolean(name string) (*bool, error) {
	var b *boolean
	_, err := a.value(name, &b)
	return (*bool)(b), err
}

// decode unmarshals a field into v (for arrays and objects).
func (a *args) decode(name, expected string, v any) (bool, error) {
	raw, ok := a.get(name)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, thinkgraph.Invalid(name, expected, typeOf(raw), "'%s' must be %s, got %s", name, expected, typeOf(raw))
	}
	return true, nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
