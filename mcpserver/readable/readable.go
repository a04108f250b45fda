// Package readable makes a tool's result readable for a model, on the
// typed value before it is encoded: every number in it has at most 2
// decimals (a score of 0.7123456 reads 0.71), and a thought's text is
// quoted once: the first reference to a thought (an analyze.ThoughtRef)
// carries the start of its text, later ones its step and branch only.
package readable

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// Copy returns a copy of the result v in which every number has at most 2
// decimals and a thought's text is quoted by its first reference only,
// first in the order json.Marshal writes v (struct fields in order, map
// entries by key). v is left as it is: a tool family may keep what it
// returned. A value that encodes itself (a json.Marshaler) is kept as it
// is, except json.RawMessage, stored JSON such as a thought's metadata,
// whose numbers are rounded in its text.
func Copy(v any) any {
	if v == nil {
		return nil
	}
	w := copier{quoted: map[int]bool{}}
	return w.copy(reflect.ValueOf(v)).Interface()
}

// copier makes a value readable: quoted holds the steps of the thoughts
// whose text it has quoted.
type copier struct {
	quoted map[int]bool
}

var (
	thoughtRefType    = reflect.TypeFor[analyze.ThoughtRef]()
	rawJSONType       = reflect.TypeFor[json.RawMessage]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// copy returns v made readable: v itself when nothing in it changes,
// else a copy of the same type.
func (w *copier) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	switch {
	case !mayChange(t):
		return v
	case t == thoughtRefType:
		ref := v.Interface().(analyze.ThoughtRef)
		// A reference without a step or a text is written without them:
		// it quotes nothing.
		if ref.Step != 0 && ref.Content != "" {
			if w.quoted[ref.Step] {
				ref.Content = ""
			}
			w.quoted[ref.Step] = true
		}
		return reflect.ValueOf(ref)
	case t == rawJSONType:
		if v.IsNil() {
			return v
		}
		return reflect.ValueOf(json.RawMessage(roundNumbers(v.Bytes())))
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		out := reflect.New(t).Elem()
		out.SetFloat(round2(v.Float()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(w.copy(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		out.Set(w.copy(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for i := range t.NumField() {
			if f := t.Field(i); encoded(f) {
				out.Field(i).Set(w.copy(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(w.copy(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(w.copy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		for _, k := range sortedKeys(v) {
			out.SetMapIndex(k, w.copy(v.MapIndex(k)))
		}
		return out
	}
	return v
}

// encoded reports whether json.Marshal writes the struct field f (or the
// fields of f, embedded). An embedded struct of an unexported type is left
// as it is: its fields cannot be set through reflection (no result type
// has one).
func encoded(f reflect.StructField) bool {
	return f.IsExported() && f.Tag.Get("json") != "-"
}

// sortedKeys are the keys of the map v in the order json.Marshal writes
// them: by their text.
func sortedKeys(v reflect.Value) []reflect.Value {
	keys := v.MapKeys()
	text := func(k reflect.Value) string {
		switch k.Kind() {
		case reflect.String:
			return k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return strconv.FormatUint(k.Uint(), 10)
		}
		if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
			b, _ := tm.MarshalText()
			return string(b)
		}
		return ""
	}
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		ta, tb := text(a), text(b)
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
	return keys
}

// round2 is f with at most 2 decimals. A whole number is left as it is
// (json.Marshal writes it without decimals), and so is one of 1e15 or more
// (it has no decimals to round).
func round2(f float64) float64 {
	if f == math.Trunc(f) || math.Abs(f) >= 1e15 {
		return f
	}
	r := math.Round(f*100) / 100
	if r == 0 {
		return 0 // -0.001 reads 0, not -0
	}
	return r
}

// changing caches mayChange by type.
var changing sync.Map // reflect.Type -> bool

// mayChange reports whether Copy may change a value of type t: one that
// may hold a number with decimals, a thought reference, stored JSON, or
// an interface that may hold any of them. A type that encodes itself
// holds nothing Copy changes (json.RawMessage aside).
func mayChange(t reflect.Type) bool {
	if v, ok := changing.Load(t); ok {
		return v.(bool)
	}
	// A recursive type refers to itself while being looked at: it counts
	// as changing until it is known.
	changing.Store(t, true)
	holds := false
	switch {
	case t == thoughtRefType || t == rawJSONType:
		holds = true
	case t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)):
	default:
		switch t.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Interface:
			holds = true
		case reflect.Pointer, reflect.Slice, reflect.Array:
			holds = mayChange(t.Elem())
		case reflect.Map:
			holds = mayChange(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); encoded(f) && mayChange(f.Type) {
					holds = true
					break
				}
			}
		}
	}
	changing.Store(t, holds)
	return holds
}

// roundNumbers returns the JSON text b with every number that has a
// fraction or an exponent rounded to 2 decimals (round2). b is valid JSON:
// numbers are the runs of number characters outside strings. It is for
// stored JSON (json.RawMessage) only: typed numbers are rounded as values.
func roundNumbers(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
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
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			out = append(out, c)
			continue
		}
		j, plain := i, true
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] >= '0' && b[j] <= '9') {
			plain = plain && b[j] != '.' && b[j] != 'e' && b[j] != 'E'
			j++
		}
		num := b[i:j]
		if f, err := strconv.ParseFloat(string(num), 64); err == nil && !plain && math.Abs(f) < 1e15 {
			out = strconv.AppendFloat(out, round2(f), 'f', -1, 64)
		} else {
			out = append(out, num...)
		}
		i = j - 1
	}
	return out
}
