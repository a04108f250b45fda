package claims

import (
	"hash/maphash"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// retraction matches a sentence that takes back an earlier step of the
// writer's own reasoning: "We made an error", "I have a mistake in step 3",
// "That was wrong", "My mistake", "Correction:", "I miscounted", "we should
// have said …". A sentence about an error in something else ("the error is a
// timeout", "the test is wrong") does not: the writer names their own step.
var retraction = regexp.MustCompile(`(?i)(?:` +
	`\b(?:we|i)(?:'ve| have| had)? (?:made|make|have|had|found) (?:an?|one|another) (?:error|mistake|slip)(?:[,.;:!?]|\s+(?:in|at|on|when|while|with|somewhere|here|there|above|earlier|before)\b|\s*$)|` +
	`\b(?:my|our) (?:mistake|bad)\b|` +
	`\b(?:we|i) (?:was|were) wrong\b|` +
	`\b(?:we|i) (?:mis(?:read|counted|calculated|computed|typed|applied|understood|remembered))\b|` +
	`\b(?:we|i) should have (?:said|written|used|computed|counted|taken|added|subtracted|divided|multiplied)\b|` +
	// At a sentence's start: "No, that's wrong.", "Correction: …".
	`(?:^|[.!?]\s+|\n\s*)(?:no,? |wait,? |oops,? |hmm,? )*(?:that|this)(?:'s| is| was) (?:wrong|incorrect|not right|a mistake)\b|` +
	`(?:^|[.!?]\s+|\n\s*)(?:correction|scratch that|oops)\b)`)

// retractionWords are parts of the words every retraction has one of: a
// text without any is read no further.
var retractionWords = []string{"rror", "istake", "rong", "Mis", "mis", "orrection", "Oops", "oops", "cratch", "hould have", "y bad", "ncorrect"}

// Retracts reports whether a sentence of text's prose takes back an
// earlier step of the writer's own reasoning (see retraction): what it
// said before that step was corrected, not contradicted. The answers are
// remembered (by a hash of the text, at most retractsMax): a session's
// thoughts are asked again at every review.
func Retracts(text string) bool {
	h := maphash.String(retractsSeed, text)
	retractsMu.Lock()
	v, ok := retractsMemo[h]
	retractsMu.Unlock()
	if ok {
		return v
	}
	v = retracts(text)
	retractsMu.Lock()
	if len(retractsMemo) >= retractsMax {
		clear(retractsMemo)
	}
	retractsMemo[h] = v
	retractsMu.Unlock()
	return v
}

const retractsMax = 1 << 16

var (
	retractsSeed = maphash.MakeSeed()
	retractsMu   sync.Mutex
	retractsMemo = map[uint64]bool{}
)

func retracts(text string) bool {
	if !slices.ContainsFunc(retractionWords, func(w string) bool { return strings.Contains(text, w) }) || !retraction.MatchString(text) {
		return false // the sentences are read only where the text has a retraction's words
	}
	for _, s := range Sentences(text) {
		if retraction.MatchString(strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}
