package lexicon

import (
	"slices"
	"testing"
)

func TestEachWord(t *testing.T) {
	im, err := Open(string(small(t)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	im.EachWord(func(l string) { got = append(got, l) })
	slices.Sort(got)
	if want := []string{"child", "cold", "hot", "kid", "run", "scorching"}; !slices.Equal(got, want) {
		t.Fatalf("EachWord = %q, want %q (every lemma with senses, exceptions excluded)", got, want)
	}
}
