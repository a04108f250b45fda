package reasoning

import (
	"slices"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

func TestPaginate(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e"}
	size := PageSize{Default: 2, Max: 4, Bytes: 1 << 10}
	two := 2
	var got []string
	cursor := ""
	for {
		page, p, err := Paginate(items, PageArgs{Cursor: cursor}, size)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if p == nil || p.Total != 5 || p.Omitted != 5-len(page) {
			t.Fatalf("page %v after %q: %+v", page, cursor, p)
		}
		if p.Cursor == "" {
			break
		}
		cursor = p.Cursor
	}
	if !slices.Equal(got, items) {
		t.Errorf("pages gave %v", got)
	}
	// All of a short list: no page.
	if page, p, err := Paginate(items[:2], PageArgs{Limit: &two}, size); err != nil || p != nil || len(page) != 2 {
		t.Errorf("a list that fits: %v %+v %v", page, p, err)
	}
	// Bytes bound the page, one item at least.
	long := []string{strings.Repeat("x", 600), strings.Repeat("y", 600), "z"}
	if page, p, _ := Paginate(long, PageArgs{}, PageSize{Default: 3, Max: 3, Bytes: 1000}); len(page) != 1 || p.Cursor != "1" {
		t.Errorf("byte bound: %d items, %+v", len(page), p)
	}
	if page, _, _ := Paginate(long, PageArgs{}, PageSize{Default: 3, Max: 3, Bytes: 10}); len(page) != 1 {
		t.Errorf("one item at least: %d", len(page))
	}
	// The latest first, in their order.
	if page, p, _ := Latest(items, PageArgs{}, size); !slices.Equal(page, []string{"d", "e"}) || p.Cursor != "2" {
		t.Errorf("Latest: %v %+v", page, p)
	}
	if page, _, _ := Latest(items, PageArgs{Cursor: "2"}, size); !slices.Equal(page, []string{"b", "c"}) {
		t.Errorf("Latest from 2: %v", page)
	}
	zero, big := 0, 5
	for _, c := range []struct {
		in    PageArgs
		field string
	}{{PageArgs{Limit: &zero}, "limit"}, {PageArgs{Limit: &big}, "limit"}, {PageArgs{Cursor: "x"}, "cursor"}, {PageArgs{Cursor: "-1"}, "cursor"}, {PageArgs{Cursor: "6"}, "cursor"}} {
		if _, _, err := Paginate(items, c.in, size); thinkgraph.AsError(err).Field != c.field || thinkgraph.AsError(err).Code != thinkgraph.CodeValidation {
			t.Errorf("%+v: %v, want a ValidationError on %s", c.in, err, c.field)
		}
	}
}
