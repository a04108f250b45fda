package review

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// The language-model judge (THINKGRAPH_JUDGE=llm) answers the same group
// questions as the calling model: the group's claims numbered, the answer
// JSON naming the conflicting pairs by number.

// MaxReason bounds a verdict's reason.
const MaxReason = 1000

// Prompt is the system prompt of a group question.
const Prompt = `You check numbered statements taken from one line of reasoning: can they all be true at once, read in the same context?
Answer with JSON only: {"verdict": "consistent"} when they can, else {"verdict": "contradiction", "conflicts": [[i, j]], "reason": "<one sentence>"} where each pair names two statements, by number, that cannot both be true.`

// Numbered is the user message of a group question: its claims, numbered
// from 1.
func Numbered(claims []string) string {
	var b strings.Builder
	for i, c := range claims {
		fmt.Fprintf(&b, "%d. %s\n", i+1, c)
	}
	return b.String()
}

// Reply is the model's answer on a group: Conflicts as pairs of indexes
// into the group's claims (none: consistent).
type Reply struct {
	Conflicts [][2]int
	Reason    string
}

// ReadReply reads the model's answer on a group of n claims.
func ReadReply(content string, n int) (Reply, error) {
	var out struct {
		Verdict   string  `json:"verdict"`
		Conflicts [][]int `json:"conflicts"`
		Reason    string  `json:"reason"`
	}
	if err := llm.ExtractJSON(content, &out); err != nil {
		return Reply{}, fmt.Errorf("the model's answer is not JSON: %q", reasoning.Clip(content, 80))
	}
	v := Reply{Reason: reasoning.Clip(strings.TrimSpace(out.Reason), MaxReason-100)}
	switch out.Verdict {
	case "consistent":
		return v, nil
	case "contradiction":
		for _, c := range out.Conflicts {
			if len(c) != 2 || c[0] < 1 || c[1] < 1 || c[0] > n || c[1] > n || c[0] == c[1] {
				return Reply{}, fmt.Errorf("the model named a conflict %v outside the group's %d statements", c, n)
			}
			v.Conflicts = append(v.Conflicts, [2]int{c[0] - 1, c[1] - 1})
		}
		if len(v.Conflicts) == 0 {
			return Reply{}, fmt.Errorf("the model said contradiction but named no conflicting pair")
		}
		return v, nil
	}
	return Reply{}, fmt.Errorf("the model's answer is not a verdict: %q", reasoning.Clip(content, 80))
}

// maxReplies bounds the answers remembered by group text (emptied when
// full; the verdicts stay stored as links).
const maxReplies = 4096

// Replies remembers the model's answers per group of claim texts, so the
// same claims (in this session or another) are never asked twice. Safe
// for concurrent use.
type Replies struct {
	mu sync.Mutex
	m  map[[32]byte]Reply
}

// key is the key of a group's claim texts, in order.
func key(claims []string) [32]byte {
	return sha256.Sum256([]byte(strings.Join(claims, "\x00")))
}

// Get returns the answer remembered for the claims.
func (c *Replies) Get(claims []string) (Reply, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key(claims)]
	return v, ok
}

// Put remembers the answer for the claims.
func (c *Replies) Put(claims []string, v Reply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxReplies {
		c.m = map[[32]byte]Reply{}
	}
	c.m[key(claims)] = v
}
