package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// A tool's arguments are one Go struct (thinkArgs, ...): each field is named
// once, in its json tag, and described in its jsonschema tag; decodeInput
// reads a call's arguments into it and inputSchema derives the tool's input
// schema from it. Decoding is lenient where models are sloppy and strict
// where it matters: numbers and booleans may come as strings ("2", "0.8",
// "true") through the types number, integer and boolean; JSON null counts as
// absent; a value that cannot be read as its field's type is a validation
// error naming the field; a field the struct does not have is refused,
// naming the ones it has.

// number is a number argument; a numeric string is read as its number, and
// NaN and ±Inf are refused.
type number float64

func (n *number) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return &fieldError{"a number", typeOf(b), " must be a number, got " + typeOf(b)}
		}
		f, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return &fieldError{"a number", reasoning.Clip(s, 40), fmt.Sprintf(" must be a number, got the string %q", reasoning.Clip(s, 40))}
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &fieldError{"a finite number", fmt.Sprint(f), " must be a finite number"}
	}
	*n = number(f)
	return nil
}

// integer is a whole-number argument from -2147483648 to 2147483647, given
// as a number (2, 2.0) or a numeric string ("2").
type integer int

func (n *integer) UnmarshalJSON(b []byte) error {
	var v number
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	f := float64(v)
	if f != math.Trunc(f) {
		return &fieldError{"an integer", fmt.Sprint(f), fmt.Sprintf(" must be a whole number, got %v", f)}
	}
	if f > math.MaxInt32 || f < math.MinInt32 {
		return &fieldError{"an integer from -2147483648 to 2147483647", fmt.Sprint(f),
			fmt.Sprintf(" must be a whole number from -2147483648 to 2147483647, got %v", f)}
	}
	*n = integer(f)
	return nil
}

// boolean is a boolean argument, given as true and false or as the strings
// "true" and "false".
type boolean bool

func (v *boolean) UnmarshalJSON(b []byte) error {
	var x bool
	if json.Unmarshal(b, &x) == nil {
		*v = boolean(x)
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			*v = true
			return nil
		case "false":
			*v = false
			return nil
		}
	}
	return &fieldError{"true or false", typeOf(b), " must be true or false, got " + typeOf(b)}
}

// thoughtArg names a thought of the session: its id, or its step as "#8",
// "8" or the number 8 (reasoning.Service.Thought resolves it).
type thoughtArg string

func (v *thoughtArg) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*v = thoughtArg(s)
		return nil
	}
	var n integer
	if err := n.UnmarshalJSON(b); err != nil || n < 1 {
		return &fieldError{`a thought id, or its step as "#8" or 8`, typeOf(b), ` must be a thought id or its step ("#8" or 8), got ` + typeOf(b)}
	}
	*v = thoughtArg(strconv.Itoa(int(n)))
	return nil
}

// fieldError is why a value cannot be read as its type; the decoder names
// the field (named).
type fieldError struct {
	expected, received string
	// problem follows the quoted field name in the message
	// (" must be a number, got a string").
	problem string
}

func (e *fieldError) Error() string { return "the value" + e.problem }

func (e *fieldError) named(field string) error {
	return thinkgraph.Invalid(field, e.expected, e.received, "'%s'%s", field, e.problem)
}

// sessionField is the session_id of the tools that take one as it is.
type sessionField struct {
	SessionID *string `json:"session_id,omitempty" jsonschema:"An earlier result's session_id, to continue it; default: this connection's session."`
}

// inputField is a field of a tool's argument struct.
type inputField struct {
	name  string
	index []int
	// required: its json tag has no omitempty, so the schema requires it.
	required bool
}

type inputFields struct {
	list  []inputField // in struct order
	known []string     // their names, sorted
}

// fieldsOf lists the fields of the argument struct t.
func fieldsOf(t reflect.Type) *inputFields {
	fs := &inputFields{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		optional := slices.Contains(strings.Split(opts, ","), "omitempty")
		fs.list = append(fs.list, inputField{name: name, index: f.Index, required: !optional})
		fs.known = append(fs.known, name)
	}
	slices.Sort(fs.known)
	return fs
}

// names lists the fields of t in struct order, for messages.
func (f *inputFields) names() string {
	names := make([]string, len(f.list))
	for i, fl := range f.list {
		names[i] = fl.name
	}
	return strings.Join(names, ", ")
}

// missingChecker is an argument struct that refuses a call leaving out a
// field its schema requires: missing returns the error for the field name
// (v is the field's zero value), or nil to leave the check to the service.
type missingChecker interface {
	missing(name string, v any) error
}

// decodeInput reads a tool call's arguments into the struct dst points to,
// field by field in struct order. With ignoreUnknown, fields the struct
// does not have are dropped instead of refused.
func decodeInput(raw json.RawMessage, dst any, ignoreUnknown bool) error {
	v := reflect.ValueOf(dst).Elem()
	fields := fieldsOf(v.Type())
	a, err := decodeArgs(raw, fields.known, ignoreUnknown)
	if err != nil {
		return err
	}
	mc, _ := dst.(missingChecker)
	for _, f := range fields.list {
		fv := v.FieldByIndex(f.index)
		given, err := a.value(f.name, fv.Addr().Interface())
		if err != nil {
			return err
		}
		if !given && f.required && mc != nil {
			if err := mc.missing(f.name, fv.Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}

// value reads the field name into dst, a pointer, and reports whether it
// was given. A struct is read as an argument struct, its errors naming
// name.field, and a list of structs item by item, an item's error naming
// name[i].field; a type that reads itself (json.Unmarshaler) may return a
// *thinkgraph.Error naming the field as it should be named.
func (a *args) value(name string, dst any) (bool, error) {
	raw, ok := a.get(name)
	if !ok {
		return false, nil
	}
	rv := reflect.ValueOf(dst).Elem()
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Struct {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			expected := "an array of {" + fieldsOf(rv.Type().Elem()).names() + "} objects"
			return true, thinkgraph.Invalid(name, expected, typeOf(raw), "'%s' must be %s, got %s", name, expected, typeOf(raw))
		}
		list := reflect.MakeSlice(rv.Type(), len(items), len(items))
		for i, item := range items {
			if err := decodeInput(item, list.Index(i).Addr().Interface(), false); err != nil {
				return true, nested(fmt.Sprintf("%s[%d]", name, i), item, rv.Type().Elem(), err)
			}
		}
		rv.Set(list)
		return true, nil
	}
	if t := rv.Type(); t.Kind() == reflect.Struct || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if !reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
			v := reflect.New(t)
			if err := decodeInput(raw, v.Interface(), false); err != nil {
				return true, nested(name, raw, t, err)
			}
			if rv.Kind() == reflect.Pointer {
				rv.Set(v)
			} else {
				rv.Set(v.Elem())
			}
			return true, nil
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return true, fe.named(name)
		}
		if te := (*thinkgraph.Error)(nil); errors.As(err, &te) {
			return true, err // a type that reads itself names its fields (commandArg)
		}
		expected := expectedOf(rv.Type())
		return true, thinkgraph.Invalid(name, expected, typeOf(raw), "'%s' must be %s, got %s", name, expected, typeOf(raw))
	}
	return true, nil
}

// expectedOf names what a value of a plain type t looks like in JSON.
func expectedOf(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// schemaHook is an argument struct that adds to its derived schema what
// struct tags cannot say: bounds, lengths, item counts, and what depends on
// the configuration.
type schemaHook interface {
	constrain(s *jsonschema.Schema, cfg reasoning.Config)
}

// lenientSchemas are the schemas of the lenient types: what a client should
// send.
var lenientSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[number]():     {Type: "number"},
	reflect.TypeFor[integer]():    {Type: "integer"},
	reflect.TypeFor[boolean]():    {Type: "boolean"},
	reflect.TypeFor[thoughtArg](): {Type: "string"},
}

// inputSchema derives the input schema of the argument struct t.
func inputSchema(t reflect.Type, cfg reasoning.Config) *jsonschema.Schema {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: lenientSchemas})
	if err != nil {
		panic(err) // a programming error: the argument struct has no schema
	}
	plainSchema(s)
	if h, ok := reflect.Zero(t).Interface().(schemaHook); ok {
		h.constrain(s, cfg)
	}
	return s
}

// plainSchema drops from a derived schema what the tools do not publish,
// which every model request would carry: "null" beside the type of an
// optional field (null is read as absent), "additionalProperties": false
// (an unknown field's error names the ones there are), and the property
// order (properties are listed by name).
func plainSchema(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	s.AdditionalProperties, s.PropertyOrder = nil, nil
	for _, p := range s.Properties {
		plainSchema(p)
	}
	plainSchema(s.Items)
}

// between sets the bounds of a number's or an integer's schema.
func between(s *jsonschema.Schema, lo, hi float64) { s.Minimum, s.Maximum = &lo, &hi }

// A handler runs a tool on its decoded arguments In: it returns the
// result, an Out, and the session the call touched (the one whose feedback
// the result carries and whose subscribers are told of the change).
type handler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in *In) (Out, reasoning.SessionRef, error)

// input is how a tool takes its arguments and what it returns: the schema
// of its arguments, the types of its result (its output schema is derived
// from them), and run, which decodes the arguments and calls the tool.
type input struct {
	schema  func(cfg reasoning.Config) *jsonschema.Schema
	results []reflect.Type
	run     func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage, ignoreUnknown bool) (any, reasoning.SessionRef, error)
}

// typed is the input of a tool whose arguments are the struct In and whose
// result is an Out, a struct or a pointer to one.
func typed[In, Out any](handle handler[In, Out]) input {
	return typedOneOf(func(ctx context.Context, req *mcp.CallToolRequest, in *In) (any, reasoning.SessionRef, error) {
		return handle(ctx, req, in)
	}, reflect.TypeFor[Out]())
}

// typedOneOf is the input of a tool whose arguments are the struct In and
// whose result is of one of the types results (branch-thinking: the
// result of the command it runs), each a struct or a pointer to one. A
// result of another type is an internal error: the output schema would
// not describe it.
func typedOneOf[In any](handle handler[In, any], results ...reflect.Type) input {
	for _, r := range results {
		if r.Kind() != reflect.Struct && (r.Kind() != reflect.Pointer || r.Elem().Kind() != reflect.Struct) {
			panic(fmt.Sprintf("a tool's result type %v is not a struct or a pointer to one", r)) // a programming error
		}
	}
	return input{
		schema:  func(cfg reasoning.Config) *jsonschema.Schema { return inputSchema(reflect.TypeFor[In](), cfg) },
		results: results,
		run: func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage, ignoreUnknown bool) (any, reasoning.SessionRef, error) {
			in := new(In)
			if err := decodeInput(raw, in, ignoreUnknown); err != nil {
				return nil, reasoning.SessionRef{}, err
			}
			out, ref, err := handle(ctx, req, in)
			if err != nil {
				return nil, ref, err
			}
			if t := reflect.TypeOf(out); !slices.Contains(results, t) {
				return nil, ref, fmt.Errorf("the tool returned a %v, which is not among its result types %v", t, results)
			}
			return out, ref, nil
		},
	}
}

// args holds a tool call's arguments by name, as decodeInput reads them
// (args.value).
type args struct {
	raw map[string]json.RawMessage
}

// decodeArgs decodes a tool call's arguments and refuses fields the tool
// does not know, listing the ones it does; with ignoreUnknown, they are
// dropped instead.
func decodeArgs(raw json.RawMessage, known []string, ignoreUnknown bool) (*args, error) {
	a := &args{raw: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return a, nil
	}
	if err := json.Unmarshal(raw, &a.raw); err != nil {
		return nil, thinkgraph.Invalid("arguments", "a JSON object", reasoning.Clip(string(raw), 80), "arguments must be a JSON object: %v", err)
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

// nested names the error err of field's value, v: the value itself when it is not an object (of t's fields).
func nested(field string, v json.RawMessage, t reflect.Type, err error) error {
	if got, want := typeOf(v), "an object {"+fieldsOf(t).names()+"}"; got != "an object" {
		return thinkgraph.Invalid(field, want, got, "'%s' must be %s, got %s", field, want, got)
	}
	return prefixed(field, err)
}

func (a *args) get(name string) (json.RawMessage, bool) {
	v, ok := a.raw[name]
	if !ok || isNull(v) {
		return nil, false
	}
	return v, true
}

// isNull reports whether v is JSON null, which counts as absent.
func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

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
