package thinkgraph_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// TestValidNameMatchesPatterns: ValidName accepts exactly what the
// documented patterns of session, branch and tenant names accept.
func TestValidNameMatchesPatterns(t *testing.T) {
	session := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$`)
	branch := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@/ -]{0,63}$`)
	tenant := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	cases := []string{"", "a", "A9", "9", "-a", ".a", " a", "a b", "a/b", "a\n", "a\x00", "é", "aé", "a_b.c:d@e-f",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("b", 128), strings.Repeat("b", 129), "a$", "a\tb", "a+b"}
	for c := 0; c < 256; c++ {
		cases = append(cases, "x"+string(rune(c)), string([]byte{byte(c)}), "x"+string([]byte{byte(c)}))
	}
	for _, s := range cases {
		if got, want := reasoning.ValidateSessionID(s) == nil, session.MatchString(s); got != want {
			t.Errorf("session id %q: valid %v, pattern says %v", s, got, want)
		}
		if got, want := reasoning.ValidateBranchID("branch_id", s) == nil, branch.MatchString(s); got != want {
			t.Errorf("branch id %q: valid %v, pattern says %v", s, got, want)
		}
		if got, want := thinkgraph.ValidName(s, 64, "._-"), tenant.MatchString(s); got != want {
			t.Errorf("tenant %q: valid %v, pattern says %v", s, got, want)
		}
	}
}
