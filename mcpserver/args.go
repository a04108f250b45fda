package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/thinkgraph/thinkgraph"
)

// args holds a tool call's arguments. Getters are lenient where models are
// sloppy and strict where it matters: numbers and booleans may come as
// strings ("2", "0.8", "true"), JSON null counts as absent, and anything that
// cannot be read as the expected type is a validation error naming the field.
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
	v, ok := a.get(name)
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false, thinkgraph.Invalid(name, "a string", typeOf(v), "'%s' must be a string, got %s", name, typeOf(v))
	}
	return s, true, nil
}

// number returns a number field, accepting numeric strings.
func (a *args) number(name string) (*float64, error) {
	v, ok := a.get(name)
	if !ok {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, thinkgraph.Invalid(name, "a number", typeOf(v), "'%s' must be a number, got %s", name, typeOf(v))
		}
		f, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, thinkgraph.Invalid(name, "a number", clip(s, 40), "'%s' must be a number, got the string %q", name, clip(s, 40))
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, thinkgraph.Invalid(name, "a finite number", fmt.Sprint(f), "'%s' must be a finite number", name)
	}
	return &f, nil
}

// integer returns an integer field, accepting integral numbers and numeric
// strings ("2", 2.0).
func (a *args) integer(name string) (*int, error) {
	f, err := a.number(name)
	if err != nil || f == nil {
		return nil, err
	}
	if *f != math.Trunc(*f) {
		return nil, thinkgraph.Invalid(name, "an integer", fmt.Sprint(*f), "'%s' must be a whole number, got %v", name, *f)
	}
	if *f > math.MaxInt32 || *f < math.MinInt32 {
		return nil, thinkgraph.Invalid(name, "an integer from -2147483648 to 2147483647", fmt.Sprint(*f),
			"'%s' must be a whole number from -2147483648 to 2147483647, got %v", name, *f)
	}
	n := int(*f)
	return &n, nil
}

// boolean returns a boolean field, accepting "true" and "false" strings.
func (a *args) boolean(name string) (*bool, error) {
	v, ok := a.get(name)
	if !ok {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		var s string
		if json.Unmarshal(v, &s) == nil {
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "true":
				b = true
				return &b, nil
			case "false":
				return &b, nil
			}
		}
		return nil, thinkgraph.Invalid(name, "true or false", typeOf(v), "'%s' must be true or false, got %s", name, typeOf(v))
	}
	return &b, nil
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
