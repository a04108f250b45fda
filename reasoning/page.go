package reasoning

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/thinkgraph/thinkgraph"
)

// A list in a tool result is cut to what a model should read at once: the
// most relevant items first (the family orders them), at most a limit of
// them from a cursor on, within a number of bytes, and a Page that says
// what was left out and how to get it. Every result stays within its budget
// (docs/contracts.md, "Result budgets") whatever the session's size.

// EchoClip is how much of the thought a call wrote its result repeats (the
// caller has the whole text).
const EchoClip = 300

// Page says which part of a list a result carries. A result has one only
// when it leaves something out or was asked for a later part.
type Page struct {
	Total   int    `json:"total" jsonschema:"items in the whole list"`
	Omitted int    `json:"omitted" jsonschema:"items of the list that are not in this result"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"pass it as cursor (with the same other arguments) for the next items"`
}

// PageArgs are a call's limit and cursor for a list.
type PageArgs struct {
	Limit  *int
	Cursor string
}

// PageSize bounds one list of a result: Default items when the call gives
// no limit, at most Max, and at most Bytes of JSON (one item at least).
type PageSize struct {
	Default, Max, Bytes int
}

// Paginate returns the part of items a result carries, from the cursor on,
// and its Page (nil when the result carries all of items). A limit outside
// 1..size.Max or a cursor that is not one a result gave is a
// ValidationError naming it.
func Paginate[T any](items []T, in PageArgs, size PageSize) ([]T, *Page, error) {
	limit := size.Default
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > size.Max {
			return nil, nil, thinkgraph.Invalid("limit", fmt.Sprintf("an integer from 1 to %d", size.Max), strconv.Itoa(*in.Limit),
				"'limit' must be from 1 to %d, got %d", size.Max, *in.Limit)
		}
		limit = *in.Limit
	}
	start := 0
	if in.Cursor != "" {
		n, err := strconv.Atoi(in.Cursor)
		if err != nil || n < 0 || n > len(items) {
			return nil, nil, thinkgraph.Invalid("cursor", "the cursor of an earlier result's page", Clip(in.Cursor, 40),
				"'cursor' %q is not a position in this list of %d items: pass the page.cursor of an earlier result, or omit it to start at the first item", Clip(in.Cursor, 40), len(items))
		}
		start = n
	}
	end, bytes := start, 0
	for end < len(items) && end-start < limit {
		b, err := json.Marshal(items[end])
		if err != nil {
			return nil, nil, err
		}
		if end > start && bytes+len(b)+1 > size.Bytes {
			break
		}
		bytes += len(b) + 1
		end++
	}
	out := items[start:end]
	if start == 0 && end == len(items) {
		return out, nil, nil
	}
	p := &Page{Total: len(items), Omitted: len(items) - len(out)}
	if end < len(items) {
		p.Cursor = strconv.Itoa(end)
	}
	return out, p, nil
}

// Latest is Paginate over the last items first (a history, a path): the
// page holds the latest items, in their order, and the cursor goes back in
// time.
func Latest[T any](items []T, in PageArgs, size PageSize) ([]T, *Page, error) {
	rev := make([]T, len(items))
	for i, it := range items {
		rev[len(items)-1-i] = it
	}
	out, p, err := Paginate(rev, in, size)
	if err != nil {
		return nil, nil, err
	}
	page := make([]T, len(out))
	for i, it := range out {
		page[len(out)-1-i] = it
	}
	return page, p, nil
}

// Head returns at most n items of a secondary list of a result (the
// evidence of a claim, the thoughts of a long path), and how many it left
// out.
func Head[T any](items []T, n int) ([]T, int) {
	if len(items) <= n {
		return items, 0
	}
	return items[:n], len(items) - n
}
