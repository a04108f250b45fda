package sqlstore

import (
	"sync"

	"github.com/thinkgraph/thinkgraph"
)

// DefaultPathCacheBytes is the default budget of the path cache.
const DefaultPathCacheBytes = 64 << 20

// maxPathWalk bounds how many thoughts appended since a path was cached
// Ancestors reads to extend it, before it reads the whole path again
// instead.
const maxPathWalk = 256

// pathCache keeps, per session, the last root-to-thought path read-only
// transactions read with Ancestors, so that the next call reads only the
// thoughts appended since (a session's path grows by one thought per step,
// and show_current_path would otherwise read all of it every time).
//
// A cached path is used only while the session's thoughts_version (bumped
// by a trigger on every update or delete of one of its thoughts, committed
// with it; see the migrations) is what it was when the path was read:
// thoughts are then exactly as cached, whichever process changed them.
// Appended thoughts change no cached one, so the path of a thought is the
// cached path up to the nearest cached ancestor, then the thoughts read
// from there.
//
// Write transactions neither use nor fill the cache: what they read may
// include their own uncommitted changes.
type pathCache struct {
	mu       sync.Mutex
	budget   int64
	size     int64
	clock    uint64
	gens     uint64 // the last generation given to an entry
	sessions map[thinkgraph.SessionKey]*cachedPath
	hits     int64
	misses   int64
}

type cachedPath struct {
	version int64
	path    []thinkgraph.Thought
	index   map[string]int // thought id -> position in path
	size    int64
	used    uint64
	// gen changes whenever path changes (generations are never reused,
	// across entries too), so a reader that let go of the lock can tell
	// whether what it saw is still there.
	gen uint64
}

func newPathCache(budget int64) *pathCache {
	if budget <= 0 {
		return nil
	}
	return &pathCache{budget: budget, sessions: map[thinkgraph.SessionKey]*cachedPath{}}
}

// thoughtSize estimates the memory a cached thought holds.
func thoughtSize(th *thinkgraph.Thought) int64 {
	n := 320 + len(th.ID) + len(th.Session) + len(th.BranchID) + len(th.ParentID) + len(th.Content) + len(th.Type) +
		len(th.RevisesID) + len(th.Author) + len(th.Tool) + len(th.Metadata)
	for _, k := range th.KeyPoints {
		n += 16 + len(k)
	}
	return int64(n)
}

// leafStep returns the step of the last thought of session's cached path;
// ok is false when the session has none cached.
func (c *pathCache) leafStep(session thinkgraph.SessionKey) (step int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.sessions[session]; e != nil && len(e.path) > 0 {
		return e.path[len(e.path)-1].Step, true
	}
	return 0, false
}

// lookup returns where id is in the cached path of session at version, and
// the entry's generation; ok is false when the session has no path cached
// at that version, or id is not on it.
func (c *pathCache) lookup(session thinkgraph.SessionKey, version int64, id string) (pos int, gen uint64, found, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.sessions[session]
	if e == nil || e.version != version {
		return 0, 0, false, false
	}
	pos, found = e.index[id]
	return pos, e.gen, found, true
}

// assemble returns a copy of the cached path of session up to position pos,
// followed by tail (root first), if the entry is still at generation gen;
// it then extends the cached path by tail. ok is false when the entry
// changed meanwhile.
func (c *pathCache) assemble(session thinkgraph.SessionKey, gen uint64, pos int, tail []thinkgraph.Thought) ([]thinkgraph.Thought, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.sessions[session]
	if e == nil || e.gen != gen {
		return nil, false
	}
	out := make([]thinkgraph.Thought, pos+1+len(tail))
	copy(out, e.path[:pos+1])
	copy(out[pos+1:], tail)
	c.hits++
	c.clock++
	e.used = c.clock
	if len(tail) > 0 {
		// The path now ends elsewhere: drop what followed pos, append tail.
		before := e.size
		for i := pos + 1; i < len(e.path); i++ {
			delete(e.index, e.path[i].ID)
			e.size -= thoughtSize(&e.path[i])
		}
		clear(e.path[pos+1:])
		e.path = e.path[:pos+1]
		for i := range tail {
			e.index[tail[i].ID] = len(e.path)
			e.path = append(e.path, tail[i])
			e.size += thoughtSize(&tail[i])
		}
		c.gens++
		e.gen = c.gens
		c.size += e.size - before
		if e.size > c.budget/4 {
			c.size -= e.size
			delete(c.sessions, session)
		}
		c.evict(session)
	}
	return out, true
}

// store caches a copy of path as session's path at version.
func (c *pathCache) store(session thinkgraph.SessionKey, version int64, path []thinkgraph.Thought) {
	e := &cachedPath{version: version, path: make([]thinkgraph.Thought, len(path)), index: make(map[string]int, len(path))}
	copy(e.path, path)
	for i := range e.path {
		e.index[e.path[i].ID] = i
		e.size += thoughtSize(&e.path[i])
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.misses++
	c.clock++
	e.used = c.clock
	old := c.sessions[session]
	if old != nil && old.version > version {
		return // read at an older version than the cached path
	}
	c.gens++
	e.gen = c.gens
	if old != nil {
		c.size -= old.size
		delete(c.sessions, session)
	}
	if e.size > c.budget/4 {
		return // one session must not flush all the others
	}
	c.size += e.size
	c.sessions[session] = e
	c.evict(session)
}

// evict drops the least recently used paths until the cache fits its
// budget, sparing keep.
func (c *pathCache) evict(keep thinkgraph.SessionKey) {
	for c.size > c.budget && len(c.sessions) > 1 {
		var victim thinkgraph.SessionKey
		var oldest uint64
		for id, e := range c.sessions {
			if id != keep && (victim == "" || e.used < oldest) {
				victim, oldest = id, e.used
			}
		}
		c.size -= c.sessions[victim].size
		delete(c.sessions, victim)
	}
}

// stats returns the hits and misses so far.
func (c *pathCache) stats() (hits, misses int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
