package testdeps

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README's "What the tests need" lists every need, with how to get it,
// as this package says them.
func TestReadmeListsNeeds(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "### What the tests need")
	if !ok {
		t.Fatal("the README has no section \"What the tests need\"")
	}
	section, _, _ = strings.Cut(section, "\n#")
	// The README quotes commands, variables and paths in backticks, and
	// links.
	plain := regexp.MustCompile(`\[([^]]*)\]\([^)]*\)`).ReplaceAllString(strings.ReplaceAll(section, "`", ""), "$1")
	for _, n := range All {
		want := "| " + n.Name + " | " + n.Get
		if !strings.Contains(plain, want) {
			t.Errorf("the README's table has no row starting %q", want)
		}
	}
}
