package sqlstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

func chain(prefix string, n int) []thinkgraph.Thought {
	out := make([]thinkgraph.Thought, n)
	for i := range out {
		out[i] = thinkgraph.Thought{ID: fmt.Sprintf("%s%d", prefix, i), Content: "x"}
		if i > 0 {
			out[i].ParentID = out[i-1].ID
		}
	}
	return out
}

func ids(ths []thinkgraph.Thought) string {
	var s []string
	for _, th := range ths {
		s = append(s, th.ID)
	}
	return strings.Join(s, " ")
}

func TestPathCacheExtend(t *testing.T) {
	c := newPathCache(1 << 20)
	c.store("s", 3, chain("a", 3)) // a0 a1 a2
	if _, _, _, ok := c.lookup("s", 4, "a2"); ok {
		t.Fatal("lookup at another version: found an entry")
	}
	if _, _, _, ok := c.lookup("t", 3, "a2"); ok {
		t.Fatal("lookup of another session: found an entry")
	}
	pos, gen, found, ok := c.lookup("s", 3, "a1")
	if !ok || !found || pos != 1 {
		t.Fatalf("lookup(a1) = %d, %v, %v", pos, found, ok)
	}
	// A branch from a1: the cached path becomes a0 a1 b0.
	got, ok := c.assemble("s", gen, pos, []thinkgraph.Thought{{ID: "b0", ParentID: "a1"}})
	if !ok || ids(got) != "a0 a1 b0" {
		t.Fatalf("assemble = %q, %v", ids(got), ok)
	}
	// The generation changed: a reader that saw the old one must read again.
	if _, ok := c.assemble("s", gen, 2, nil); ok {
		t.Error("assemble with a stale generation succeeded")
	}
	if _, _, found, _ := c.lookup("s", 3, "a2"); found {
		t.Error("a2 is still cached after the path moved to b0")
	}
	pos, gen, found, _ = c.lookup("s", 3, "b0")
	if !found || pos != 2 {
		t.Fatalf("lookup(b0) = %d, %v", pos, found)
	}
	// A path inside the cached one leaves it as it is.
	got, ok = c.assemble("s", gen, 0, nil)
	if !ok || ids(got) != "a0" {
		t.Fatalf("assemble(a0) = %q, %v", ids(got), ok)
	}
	if _, _, found, _ := c.lookup("s", 3, "b0"); !found {
		t.Error("reading an ancestor's path shortened the cached path")
	}
	// The copy is the caller's.
	got[0].Content = "changed"
	if got, _ := c.assemble("s", gen, 2, nil); got[0].Content != "x" {
		t.Error("a caller's change reached the cache")
	}
	// An older version does not replace a newer one; a newer one does.
	c.store("s", 2, chain("o", 1))
	if _, _, found, _ := c.lookup("s", 3, "b0"); !found {
		t.Error("a path read at an older version replaced the cached one")
	}
	c.store("s", 5, chain("n", 2))
	if _, _, found, _ := c.lookup("s", 5, "n1"); !found {
		t.Error("a path read at a newer version was not cached")
	}
	if hits, misses := c.stats(); hits != 3 || misses != 3 {
		t.Errorf("stats = %d hits, %d misses; want 3, 3", hits, misses)
	}
}

func TestPathCacheBudget(t *testing.T) {
	one := thoughtSize(&chain("s0-", 1)[0])
	c := newPathCache(40 * one)
	for i := range 5 {
		c.store(thinkgraph.SessionKey(fmt.Sprintf("s%d", i)), 0, chain(fmt.Sprintf("s%d-", i), 9))
	}
	// 45 thoughts do not fit in 40: the least recently used session went.
	if _, _, _, ok := c.lookup("s0", 0, "s0-0"); ok {
		t.Error("the least recently used session was kept")
	}
	for i := 1; i < 5; i++ {
		if _, _, _, ok := c.lookup(thinkgraph.SessionKey(fmt.Sprintf("s%d", i)), 0, "x"); !ok {
			t.Errorf("session s%d was evicted", i)
		}
	}
	if c.size > c.budget {
		t.Errorf("size %d over the budget %d", c.size, c.budget)
	}
	// Using s1 makes s2 the next to go.
	_, gen, _, _ := c.lookup("s1", 0, "s1-8")
	c.assemble("s1", gen, 8, nil)
	c.store("s5", 0, chain("s5-", 9))
	if _, _, _, ok := c.lookup("s1", 0, "x"); !ok {
		t.Error("the session just used was evicted")
	}
	if _, _, _, ok := c.lookup("s2", 0, "x"); ok {
		t.Error("the least recently used session was kept")
	}
	// A path larger than a quarter of the budget is not cached.
	c.store("big", 0, chain("big", 11))
	if _, _, _, ok := c.lookup("big", 0, "x"); ok {
		t.Error("a path of more than a quarter of the budget was cached")
	}
	// Nor is one that grows past it.
	_, gen, _, _ = c.lookup("s5", 0, "s5-8")
	if _, ok := c.assemble("s5", gen, 8, chain("g", 2)); !ok {
		t.Fatal("assemble failed")
	}
	if _, _, _, ok := c.lookup("s5", 0, "x"); ok {
		t.Error("a path grown past a quarter of the budget stayed cached")
	}
	var total int64
	for _, e := range c.sessions {
		total += e.size
	}
	if total != c.size {
		t.Errorf("entries add up to %d, size says %d", total, c.size)
	}
	if newPathCache(0) != nil {
		t.Error("a zero budget made a cache")
	}
}
