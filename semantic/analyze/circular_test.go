package analyze

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// tstChain returns thoughts written one after another on one branch, each
// the child of the previous one, all of type analysis.
func tstChain(texts ...string) []Doc {
	docs := make([]Doc, len(texts))
	for i, c := range texts {
		docs[i] = Doc{ID: fmt.Sprintf("t%d", i), Branch: "main", Step: i + 1, Type: "analysis", Content: c}
		if i > 0 {
			docs[i].ParentID = docs[i-1].ID
		}
	}
	return docs
}

// tstCircularIDs returns the thoughts named by circular-support findings.
func tstCircularIDs(found []CircularReasoning) []string {
	var ids []string
	for _, f := range found {
		if f.Kind != CircularSupport {
			continue
		}
		for _, t := range f.Thoughts {
			if !slices.Contains(ids, t.ID) {
				ids = append(ids, t.ID)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

func TestDetectCircularArguments(t *testing.T) {
	for _, tc := range []struct {
		name     string
		thoughts []string
		involved string // "" when the argument is not circular
	}{
		{"law: guilt and the act support each other", []string{
			"The defendant is guilty of the theft.",
			"He took the car because he is guilty.",
			"We know he is guilty since he took the car.",
		}, "t0,t1,t2"},
		{"law: evidence, then the conclusion repeated", []string{
			"The contract is void.",
			"It was signed by a minor, and the statute voids contracts signed by minors.",
			"So the contract is void.",
		}, ""},
		{"biology: survival of the fittest", []string{
			"This species survives because it is the fittest.",
			"It is the fittest, as shown by the fact that it survives.",
		}, "t0,t1"},
		{"biology: measured", []string{
			"The enzyme is denatured above 60 degrees.",
			"In our assay its activity dropped to zero after heating to 65 degrees.",
			"Therefore the enzyme is denatured above 60 degrees.",
		}, ""},
		{"cooking: the best recipe", []string{
			"This recipe is the best one for the party.",
			"Everyone will love it because it is the best recipe.",
			"It is the best recipe, since everyone will love it.",
		}, "t0,t1,t2"},
		{"cooking: an explanation given twice is not a loop", []string{
			"The souffle collapsed because the oven door was opened too early.",
			"Opening the oven door early lets the hot air escape, so the souffle collapses.",
		}, ""},
		{"finance: the fund and its safety", []string{
			"The bond fund is a safe investment.",
			"Its returns are stable because it is a safe investment.",
			"It is safe, which is why its returns are stable.",
		}, "t0,t1,t2"},
		{"maths: induction on n", []string{
			"The formula holds for every n.",
			"It holds for n = 1 by direct computation.",
			"If it holds for n, it holds for n + 1, by the algebra of the previous step.",
			"So by induction the formula holds for every n.",
		}, ""},
		{"a self-defining requirement", []string{
			"Understanding recursion requires understanding recursion.",
		}, "t0"},
		{"to X you must X", []string{
			"To understand recursion, you must understand recursion.",
		}, "t0"},
		{"a fact, then what it explains", []string{
			"The oven runs twenty degrees hot.",
			"The crust burns because the oven runs twenty degrees hot.",
		}, ""},
		{"finance: a fact, then a consequence argued from it", []string{
			"The bond pays a fixed coupon.",
			"Its price falls when rates rise because the coupon is fixed.",
		}, ""},
		{"a claim supported by independent facts", []string{
			"The bridge needs repair.",
			"Inspectors found cracks in two support beams last month.",
			"The load rating was also lowered by the county engineer.",
		}, ""},
		// A chain of computation derives; it does not argue (see also
		// TestDerivationsAreNotCircular).
		{"a largest value found, then described", []string{
			"The candidates below 2000 are 1385 and 1440.",
			"The larger of these is 1440.",
			"So 1440 is the largest number below 2000 that leaves a remainder of 5 when divided by 7.",
		}, ""},
		{"a pronoun does not stand for what follows it", []string{
			"The equation is $x^2 - 5x + 6 = 0$.",
			"That's a quadratic, so we can use the quadratic formula.",
			"The quadratic formula gives the roots 2 and 3.",
		}, ""},
		{"a circular argument that states figures is still one", []string{
			"We should hire 3 engineers this quarter.",
			"The team needs 3 more engineers because we should hire 3 engineers.",
			"We should hire 3 engineers since the team needs 3 more engineers.",
		}, "t0,t1,t2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DetectCircular(tstChain(tc.thoughts...), CircularOptions{})
			ids := strings.Join(tstCircularIDs(got), ",")
			if ids != tc.involved {
				var reasons []string
				for _, g := range got {
					reasons = append(reasons, g.Reason)
				}
				t.Fatalf("circular thoughts = %q, want %q\n%s", ids, tc.involved, strings.Join(reasons, "\n"))
			}
		})
	}
}

// A chain of computation derives ("so", "then", a result restated, an
// assent between steps); it is no argument, circular or not. The same
// reading of the argument finds the circular ones above.
func TestDerivationsAreNotCircular(t *testing.T) {
	for name, texts := range map[string][]string{
		"two extrema, each with its own reason": {
			"The slope is zero at 2 and at 5.",
			"The reading at 2 is a maximum because the slope changes from positive to negative at 2.",
			"The reading at 5 is a minimum because the slope changes from negative to positive at 5.",
		},
		"a sum simplified step by step": {
			"We need the sum S_{12} of the first twelve terms.",
			"Now let's simplify. \\frac{12}{2} is 6, and (12-1)*3 is 33, so we now have S_{12} = 6(10 + 33).",
			"Yes, and 10 + 33 is 43. So S_{12} = 6 * 43.",
			"And 6 * 43 is 258.",
		},
		"a load worked out with assents between the steps": {
			"Let's find how much each shelf carries.",
			"Right.",
			"The warehouse holds 120 crates on 4 shelves.",
			"That's correct, so each shelf holds 30 crates.",
			"Right.",
			"So each shelf holds 30 crates, and each crate weighs 20 kg.",
			"That's correct, so each shelf carries 600 kg.",
		},
	} {
		for _, f := range DetectCircular(tstChain(texts...), CircularOptions{}) {
			t.Errorf("%s: %s: %s", name, f.Kind, f.Reason)
		}
	}
}

// A circular argument earns no coherence in the branch evaluation, which
// names it; a chain with independent support keeps its coherence (the
// strongest paths: semantic/advice's TestRankPathsCircularArgument).
func TestCircularSupportEarnsNoCoherence(t *testing.T) {
	withVectors := func(docs []Doc) []Doc {
		for i := range docs {
			docs[i].Vector = tstEmbed(docs[i].Content)
		}
		return docs
	}
	circ := withVectors(tstChain(
		"The defendant is guilty of the theft.",
		"He took the car because he is guilty.",
		"We know he is guilty since he took the car.",
	))
	ev := EvaluateBranch(circ, nil, nil, Thresholds{})
	if len(ev.Circular) != 1 || ev.CoherenceScore == nil || *ev.CoherenceScore != 0 || !strings.Contains(strings.Join(ev.Issues, "\n"), "circular argument") {
		t.Fatalf("evaluation of a circular argument: %+v", ev)
	}

	sound := withVectors(tstChain(
		"The defendant is guilty of the theft.",
		"Cameras recorded him taking the car.",
		"His fingerprints were on the steering wheel.",
	))
	ev = EvaluateBranch(sound, nil, nil, Thresholds{})
	if len(ev.Circular) != 0 || *ev.CoherenceScore <= 0 {
		t.Fatalf("independent support: evaluation %+v", ev)
	}
}

// The same argument offered again in other words is reported as a restated
// argument; an argument followed by new evidence for its premise is not.
func TestDetectCircularRestatedArgument(t *testing.T) {
	kinds := func(texts ...string) []string {
		var ks []string
		for _, f := range DetectCircular(tstChain(texts...), CircularOptions{}) {
			ks = append(ks, f.Kind)
		}
		return ks
	}
	got := kinds("We should adopt microservices because they scale better.",
		"Microservices scale better, which is why we should adopt microservices.")
	if !slices.Contains(got, CircularRestatedArgument) {
		t.Errorf("microservices restated: %v", got)
	}
	got = kinds("The court should dismiss the claim because it was filed too late.",
		"The claim was filed too late, so the court should dismiss it.")
	if !slices.Contains(got, CircularRestatedArgument) {
		t.Errorf("claim restated: %v", got)
	}
	// Each part said in other words, some words left over on either side:
	// nearly restated (as mutual support reads it) is enough when both
	// the premise and the conclusion are.
	got = kinds("I think our team should adopt Rust overall, because it is clearly the safer language of the three we tried.",
		"It is clearly the safer language, which is exactly why adopting it stands out as the right call for our team.")
	if !slices.Contains(got, CircularRestatedArgument) {
		t.Errorf("Rust restated loosely: %v", got)
	}
	// The same conclusion from a premise the parent did not give is an
	// argument of its own.
	if got = kinds("I think our team should adopt Rust overall, because it is clearly the safer language of the three we tried.",
		"Its compiler also caught two data races in our prototype, which is why adopting it is the right call for our team."); slices.Contains(got, CircularRestatedArgument) {
		t.Errorf("a new premise: %v", got)
	}
	if got = kinds("We should switch to the gas stove because it heats faster.",
		"In our test the gas stove boiled a litre of water in four minutes, the electric one in seven."); len(got) != 0 {
		t.Errorf("new evidence: %v", got)
	}
}

// An ArgCache changes nothing: DetectCircular finds the same with a cache
// kept across calls, on a session growing one thought at a time (and read
// again from the start), as without one.
func TestDetectCircularCache(t *testing.T) {
	docs := tstChain(
		"The defendant is guilty of the theft.",
		"He took the car because he is guilty.",
		"We know he is guilty since he took the car.",
		"We should adopt microservices because they scale better.",
		"Microservices scale better, which is why we should adopt microservices.",
		"The bond fund is a safe investment.",
		"Its returns are stable because it is a safe investment.",
		"It is safe, which is why its returns are stable.",
		"He left the car on the left side of the road.",
		"He took the car because he is guilty.",
		"To understand recursion, you must understand recursion.",
	)
	docs[6].DependsOn = []string{"t3"}
	cache := NewArgCache()
	found := 0
	for _, k := range []int{1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 4, 11} {
		want := DetectCircular(docs[:k], CircularOptions{})
		got := DetectCircular(docs[:k], CircularOptions{Cache: cache})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d thoughts: with the cache\n%+v\nwithout\n%+v", k, got, want)
		}
		found += len(got)
	}
	if found == 0 {
		t.Fatal("no circular argument found: the test compares nothing")
	}
}
