package contradict

import (
	"math"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph/semantic"
)

func TestContradictionReasoningPairs(t *testing.T) {
	c, err := NewContradictor(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []contradictionCase{
		// Design decisions.
		{"Use PostgreSQL for the store", "Do not use PostgreSQL for the store", true, "negation"},
		{"We will cache the session list", "We won't cache the session list", true, "negation"},
		{"The API should never expose internal IDs", "The API should expose internal IDs", true, "negation"},
		{"Use PostgreSQL for the store", "Use SQLite for the store", false, ""},
		{"Do not use PostgreSQL for the store", "Do not use MySQL for the store", false, ""},
		{"We don't use PostgreSQL", "We never use PostgreSQL", false, ""},
		// Numbers.
		{"The p99 latency is 20 ms", "The p99 latency is 200 ms", true, "numbers"},
		{"The cluster has three replicas", "The cluster has five replicas", true, "numbers"},
		{"The p99 latency is 20 ms", "The p99 latency is 20 ms under load", false, ""},
		{"The p99 latency is 20 ms", "The build takes 200 seconds", false, ""},
		// Comparatives.
		{"Redis is faster than PostgreSQL", "Redis is slower than PostgreSQL", true, "antonym"},
		{"Redis is faster than PostgreSQL", "PostgreSQL is slower than Redis", false, ""},
		{"Redis is faster than PostgreSQL", "PostgreSQL is faster than Redis", true, "comparative"},
		{"Memory usage will increase after the change", "Memory usage will decrease after the change", true, "antonym"},
		{"Memory usage will increase after the change", "Memory usage will increase after the upgrade", false, ""},
		// Antonyms in predicate position.
		{"The queue is empty", "The queue is full", true, "antonym"},
		{"The cache is cold", "The cache is hot", true, "antonym"},
		{"The migration succeeded", "The migration failed", true, "antonym"},
		// Attributive adjectives pick out different things.
		{"A large table holds the logs", "A small table holds the logs", false, ""},
		// Negated paraphrases that are NOT contradictions.
		{"We should not ignore caching", "Caching matters", false, ""},
		{"There is no reason to doubt the benchmark", "The benchmark is reliable", false, ""},
		{"Nothing prevents us from sharding later", "We can shard later", false, ""},
		// Unrelated negations.
		{"The tests do not cover the parser", "The deployment uses Kubernetes", false, ""},
		{"There is no man playing a guitar", "A woman is slicing an onion", false, ""},
		// SICK-style.
		{"A man is playing a guitar", "There is no man playing a guitar", true, "negation"},
		{"A kid is playing in the yard", "No child is playing in the yard", true, "negation"},
		{"A man is running", "There is no man running down the road", false, ""},
		{"A man is riding a horse", "Nobody is riding a horse", true, "negation"},
		{"A man is riding a horse", "There is no person riding a horse", true, "negation"},
		{"A dog is running", "There is no puppy running", false, ""},
		{"A man is talking", "A woman is talking", false, ""},
		{"A man with no shirt is holding a football", "A man with a shirt is holding a football", false, ""},
	}
	checkVerdicts(t, c, cases)
}

// contradictionCase is a pair of texts, whether they contradict and the
// start of the verdict's reason when they do.
type contradictionCase struct {
	a, b   string
	want   bool
	reason string
}

// checkVerdicts judges each pair in both orders (the decision must not
// depend on argument order) and checks the reason and the confidence.
func checkVerdicts(t *testing.T, c *Contradictor, cases []contradictionCase) {
	t.Helper()
	for _, tc := range cases {
		v := c.Contradiction(tc.a, tc.b)
		if v.Contradicts != tc.want {
			t.Errorf("Contradiction(%q, %q) = %v (%s), want %v", tc.a, tc.b, v.Contradicts, v.Reason, tc.want)
			continue
		}
		if r := c.Contradiction(tc.b, tc.a); r.Contradicts != tc.want {
			t.Errorf("Contradiction(%q, %q) = %v (%s) in reverse order, want %v", tc.b, tc.a, r.Contradicts, r.Reason, tc.want)
		}
		if tc.want {
			if !strings.HasPrefix(v.Reason, tc.reason) {
				t.Errorf("Contradiction(%q, %q).Reason = %q, want prefix %q", tc.a, tc.b, v.Reason, tc.reason)
			}
			if v.Confidence <= 0.5 || v.Confidence > 1 {
				t.Errorf("Contradiction(%q, %q).Confidence = %v", tc.a, tc.b, v.Confidence)
			}
		} else if v.Confidence != 0 {
			t.Errorf("Contradiction(%q, %q): no contradiction but confidence %v", tc.a, tc.b, v.Confidence)
		}
	}
}

// TestContradictionRules holds each rule of the judge to general examples
// on other topics (cooking, law, biology, finance, travel): contradictions
// with the rule and words their reason must name, and the hard negatives
// next to them (different subjects, times or conditions, compatible
// numbers, hedges, negations that agree).
func TestContradictionRules(t *testing.T) {
	c, err := NewContradictor(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []contradictionCase{
		// Negation.
		{"The tenant renewed the lease.", "The tenant did not renew the lease.", true, `negation: B negates "tenant renew the lease" ("not")`},
		{"The bread contains no eggs.", "The bread contains eggs.", true, `negation: A negates "bread contains eggs" ("no")`},
		{"The bank does not charge overdraft fees.", "The bank charges overdraft fees.", true, "negation"},
		{"The patient is allergic to penicillin.", "The patient has no allergy to penicillin.", true, "negation"},
		{"The library no longer lends laptops.", "The library lends laptops.", true, `negation: A negates "library lends laptops" ("no")`},
		{"The contract lacks a termination clause.", "The contract has a termination clause.", true, `negation: A negates "contract has a termination clause" ("lacks")`},
		{"The settings form is missing CSRF protection.", "The settings form has CSRF protection.", true, "negation"},
		{"The contract lacks a termination clause.", "The contract has no termination clause.", false, ""},
		{"The report is missing two pages.", "The report has all its pages.", false, ""},
		{"The striker is missing the goal.", "The striker is scoring a goal.", false, ""},
		{"The recipe does not call for sugar.", "The recipe is sugar-free.", false, ""},
		{"The landlord did not keep the deposit.", "The landlord returned the deposit.", false, ""},
		{"The hypothesis was not confirmed by the trial.", "The trial failed to confirm the hypothesis.", false, ""},
		{"The fund charged a fee last year.", "The fund charges no fee this year.", false, ""},
		// Antonyms: WordNet pairs, cluster satellites, negative prefixes,
		// general opposing verbs.
		{"The court granted the motion to dismiss.", "The court denied the motion to dismiss.", true, `antonym: "granted" vs "denied"`},
		{"The statute is terse.", "The statute is verbose.", true, `antonym: "terse" vs "verbose"`},
		{"The contract clause is enforceable.", "The contract clause is unenforceable.", true, `antonym: "enforceable" vs "unenforceable"`},
		{"All tickets are refundable.", "Some tickets are non-refundable.", true, `quantifier: "all" vs "some" with "refundable" vs "nonrefundable"`},
		{"The bank approved the mortgage application.", "The bank rejected the mortgage application.", true, `antonym: "approved" vs "rejected"`},
		{"The enzyme speeds up the reaction.", "The enzyme slows down the reaction.", true, `antonym: "speeds" vs "slows"`},
		{"Our savings grew last quarter.", "Our savings shrank last quarter.", true, `antonym: "grew" vs "shrank"`},
		{"The left lung is healthy.", "The right lung is diseased.", false, ""},
		{"The red wine is dry.", "The white wine is sweet.", false, ""},
		{"In winter, the lake is frozen.", "In summer, the lake is liquid.", false, ""},
		{"Before the renovation, the kitchen was dark.", "The kitchen is bright.", false, ""},
		{"The seller accepts offers with a deposit.", "The seller rejects offers without a deposit.", false, ""},
		{"The soup is not spicy.", "The soup is mild.", false, ""},
		{"The judge didn't deny the request.", "The judge granted the request.", false, ""},
		{"Alice approved the budget.", "Bob rejected the budget.", false, ""},
		{"The defendant was acquitted of fraud.", "The defendant was convicted of perjury.", false, ""},
		{"The shop is open until 8 p.m.", "The shop closes at 8 p.m.", false, ""},
		{"The cat is older than the dog.", "The dog is younger than the cat.", false, ""},
		// Comparatives and superlatives.
		{"Gold is heavier than silver.", "Silver is heavier than gold.", true, `comparative: "heavier than silver" vs "heavier than gold"`},
		{"Bonds carry less risk than stocks.", "Bonds carry more risk than stocks.", true, `antonym: "less" vs "more"`},
		{"This is the cheapest dish on the menu.", "This is the most expensive dish on the menu.", true, `antonym: "cheapest" vs "expensive"`},
		{"Bonds carry less risk than stocks.", "Stocks carry more risk than bonds.", false, ""},
		{"The river is deeper than the lake in spring.", "The river is shallower than the lake in autumn.", false, ""},
		// Quantifiers.
		{"All of the cells in the sample divided.", "Not all of the cells in the sample divided.", true, `quantifier: "all" vs "not all"`},
		{"Every recipe in the book uses butter.", "Some recipes in the book use no butter.", true, `quantifier: "every" vs "some … not"`},
		{"The fund never charges an exit fee.", "The fund occasionally charges an exit fee.", true, `quantifier: "never" vs "occasionally"`},
		{"The tap water is always safe to drink.", "The tap water is sometimes unsafe to drink.", true, `quantifier: "always" vs "sometimes" with "safe" vs "unsafe"`},
		{"Every square is a rectangle.", "Not every rectangle is a square.", false, ""},
		{"Some samples tested negative.", "Some samples tested positive.", false, ""},
		{"Half of the class passed.", "Half of the class failed.", false, ""},
		{"None of the jars leaked.", "All of the jars stayed sealed.", false, ""},
		{"The morning train is always crowded.", "The evening train is sometimes empty.", false, ""},
		{"Every contract requires a signature.", "Every contract requires a date.", false, ""},
		{"Every witness identified the suspect.", "None of the witnesses identified the suspect.", true, `quantifier: "every" vs "none"`},
		// Numbers with units, ranges and comparators.
		{"The loan has a term of five years.", "The loan has a term of ten years.", true, `numbers: "five years" vs "ten years"`},
		{"The dough rises for about two hours.", "The dough rises for roughly 15 minutes.", true, `numbers: "about two hours" vs "roughly 15 minutes"`},
		{"The fee is capped at 2%.", "The fee can go up to 5%.", true, `numbers: "capped at 2 percent" vs "up to 5 percent"`},
		{"The hike is 12 km long.", "The hike is under 5 km.", true, `numbers: "12 km" vs "under 5 km"`},
		{"Between 10 and 20 percent of the harvest is exported.", "More than half of the harvest is exported.", true, "numbers"},
		{"The trial included 300 patients.", "The trial included more than 250 patients.", false, ""},
		{"The flight takes about three hours.", "The flight takes less than four hours.", false, ""},
		{"The bakery has about $2M in debt.", "The bakery has over a million dollars in debt.", false, ""},
		{"The stew simmers for 40 minutes.", "The stew simmers for under an hour.", false, ""},
		{"The shop opens at nine on weekdays.", "The shop opens at ten on Saturdays.", false, ""},
		{"Revenue grew 10% in the first quarter.", "Revenue grew 4% in the second quarter.", false, ""},
		{"The bill is due on the 5th.", "The bill is due on the 20th.", true, `numbers: "the 5th" vs "the 20th"`},
		{"The fund returned 7% last year.", "The fund charged a 1% fee last year.", false, ""},
		{"The account requires a minimum balance of $500.", "The account has a balance of $2,000.", false, ""},
		{"The package weighs 3 kg.", "The package weighs 3,000 grams.", false, ""},
		{"The medicine works within 30 minutes.", "The medicine takes at least two hours to work.", true, `numbers: "within 30 minutes" vs "at least two hours"`},
		{"At least 60% of voters approved.", "Most voters approved.", false, ""},
		{"Only 3 of the 20 samples failed.", "Most of the samples passed.", false, ""},
		// Requirement and modality.
		{"A permit is required to build a shed.", "You can build a shed without a permit.", true, `requirement: "required" vs "without"`},
		{"Wearing a helmet is optional on the trail.", "Riders must wear a helmet on the trail.", true, `requirement: "optional" vs "must"`},
		{"A prescription is needed for this drug.", "This drug is sold without a prescription.", true, "requirement"},
		{"You cannot enter the lab without a badge.", "A badge is optional for entering the lab.", true, `requirement: "cannot … without" vs "optional"`},
		{"There is no need to book a table.", "You must book a table.", true, `requirement: "not need" vs "must"`},
		{"You cannot enter the lab without a badge.", "A badge is required to enter the lab.", false, ""},
		{"A permit is required to build a shed.", "A permit is required to build a garage.", false, ""},
		{"The north entrance requires a badge.", "The south entrance works without a badge.", false, ""},
		// Order in time and tense.
		{"The appeal was filed before the deadline.", "The appeal was filed after the deadline.", true, `order: "appeal filed" before "deadline" vs "appeal filed" after "deadline"`},
		{"The eggs are added before the flour.", "The flour is added before the eggs.", true, "order"},
		{"The verdict was already announced.", "The verdict announcement is planned for next week.", true, `time: "already" vs "planned"`},
		{"The new law takes effect next year.", "The new law is already in effect.", true, `time: "next year" vs "already"`},
		{"The chef adds the salt before the butter.", "The chef adds the salt after the butter.", true, "order"},
		{"The chef adds the onions before the garlic.", "The chef adds the carrots after the garlic.", false, ""},
		{"The tenant paid rent before the deadline.", "The landlord received the rent after the deadline.", false, ""},
		{"The package was shipped before the holiday.", "The package arrived after the holiday.", false, ""},
		{"The backup finished before the outage.", "The backup was still running when the outage started.", true, `order: "backup finished" before "outage" vs "backup running" when "outage started"`},
		{"We will repaint the hall after the exhibition closes.", "The hall is being repainted during the exhibition.", true, "order"},
		{"The backup started before the outage.", "The backup was still running when the outage started.", false, ""},
		{"Guests arrive after the ceremony.", "Music plays during the ceremony.", false, ""},
		{"The treaty was signed in May.", "The treaty was signed in October.", true, `numbers: "in may" vs "in october"`},
		// A reason, consequence or relative clause attached to a claim: the
		// main clauses are compared, and the reason is a claim of its own;
		// the reason's negation is not the main clause's.
		{"JWT tokens enable horizontal scaling because no server keeps session state", "JWT tokens do not enable horizontal scaling", true, `negation: B negates "jwt tokens enable horizontal scaling" ("not"), which A asserts (A: "JWT tokens enable horizontal scaling"`},
		{"The soup thickens because the starch gelatinises.", "The soup does not thicken.", true, `negation: B negates "soup thicken"`},
		{"The soup thickens because the starch gelatinises.", "The starch does not gelatinise.", true, `negation: B negates "starch gelatinise"`},
		{"The court dismissed the case, since no witness came forward.", "The court did not dismiss the case.", true, "negation"},
		{"The loan was approved because the applicant has no debt.", "The loan was not approved.", true, "negation"},
		{"The shop had no customers, so the owner closed early.", "The owner did not close early.", true, "negation"},
		{"The patient takes aspirin, which thins the blood.", "Aspirin does not thin the blood.", true, "negation"},
		{"Given that no bank lends to the startup, it will run out of cash.", "Some banks lend to the startup.", true, `quantifier: "no" vs "some"`},
		{"The soup thickens because the starch gelatinises.", "The sauce does not thicken.", false, ""},
		{"We dropped the old boiler because it is not efficient.", "The new boiler is efficient.", false, ""},
		{"We sold the old car, which is not reliable.", "The new car is reliable.", false, ""},
		{"Enzymes speed up digestion because they lower the activation energy.", "Heat does not speed up digestion.", false, ""},
		{"The soup does not thicken because the starch is old.", "The soup stays thin.", false, ""},
		{"The museum has been closed since the flood.", "The museum is closed.", false, ""},
		// A condition said as the subject of a causative verb ("X makes Y
		// rise", "X causes Y to V", "X leads to Y") is the condition of
		// the claim; a number-prefix compound ("monorepo") or a clipped
		// word ("config") carries the condition its full words state.
		{"With one repository, CI build times will decrease", "A monorepo makes build times increase sharply", true, `antonym: "decrease" vs "increase"`},
		{"With higher interest rates, bond prices fall.", "Higher interest rates make bond prices rise.", true, `antonym: "fall" vs "rise"`},
		{"With more sunlight, the tomato plants grow.", "More sunlight causes the tomato plants to shrink.", true, `antonym: "grow" vs "shrink"`},
		{"After the merger, the bank raised its fees.", "The merger led to lower fees at the bank.", true, `antonym: "raised" vs "lower"`},
		{"With a single-tenant cluster, hosting costs rise.", "A monotenant cluster makes hosting costs fall.", true, `antonym: "rise" vs "fall"`},
		{"The new config speeds up startup.", "The new configuration slows startup down.", true, `antonym: "speeds" vs "slows"`},
		{"With many repositories, build times decrease.", "A monorepo makes build times increase.", false, ""},
		{"With a single-tenant cluster, hosting costs rise.", "A multitenant cluster makes hosting costs fall.", false, ""},
		{"With a warm cache, the query is fast.", "A cold cache makes the query slow.", false, ""},
		{"With higher interest rates, bond prices fall.", "Lower interest rates make bond prices rise.", false, ""},
		{"Stress makes the patient's blood pressure rise.", "Exercise makes the patient's blood pressure fall.", false, ""},
		{"In winter, the pond freezes.", "Summer sun makes the pond thaw.", false, ""},
		// Hedges never contradict a plain claim.
		{"The bakery might close early today.", "The bakery usually closes at six.", false, ""},
		{"Interest rates will probably rise.", "Interest rates are stable.", false, ""},
		{"The bank may raise its fees.", "The bank kept its fees unchanged.", false, ""},
	}
	checkVerdicts(t, c, cases)
}

// TestQuantities pins how numbers are read: units converted, comparators
// and ranges as intervals, limits as exact values.
func TestQuantities(t *testing.T) {
	c, _ := NewContradictor(nil)
	cases := []struct {
		text   string
		lo, hi float64
		unit   string
		limit  bool
	}{
		{"The file is 1.2 GB", 1.2e9, 1.2e9, "byte", false},
		{"It takes over 800 ms", 0.8, math.Inf(1), "s", false},
		{"at least 70% of cases", 70, math.Inf(1), "percent", false},
		{"takes at least two hours", 7200, math.Inf(1), "s", false},
		{"no more than 3 days", 0, 3 * 86400, "s", false},
		{"between 5 and 10 percent", 5, 10, "percent", false},
		{"capped at 20 connections", 0, 20, "connection", true},
		{"done in under half an hour", 0, 1800, "s", false},
		{"about $8,000", 6000, 10000, "usd", false},
		{"leaves at 4:40 p.m.", 16.4, 16.4, "clock", false},
		{"launched in March", 3, 3, "month of the year", false},
	}
	for _, tc := range cases {
		qs := c.quantitiesOf(tc.text)
		if len(qs) != 1 {
			t.Errorf("quantitiesOf(%q) = %+v, want one quantity", tc.text, qs)
			continue
		}
		q := qs[0]
		if math.Abs(q.lo-tc.lo) > 1e-6*math.Max(1, tc.lo) || (math.IsInf(tc.hi, 1) != math.IsInf(q.hi, 1)) ||
			!math.IsInf(tc.hi, 1) && math.Abs(q.hi-tc.hi) > 1e-6*math.Max(1, tc.hi) || q.unit != tc.unit || q.limit != tc.limit {
			t.Errorf("quantitiesOf(%q) = %+v, want [%v, %v] %s limit=%v", tc.text, q, tc.lo, tc.hi, tc.unit, tc.limit)
		}
	}
}

func TestContradictionReason(t *testing.T) {
	c, _ := NewContradictor(nil)
	v := c.Contradiction("A man is playing guitar", "There is no man playing guitar")
	want := `negation: B negates "man playing guitar" ("no"), which A asserts`
	if v.Reason != want {
		t.Fatalf("Reason = %q, want %q", v.Reason, want)
	}
}

func TestContradictionMultiSentence(t *testing.T) {
	c, _ := NewContradictor(nil)
	a := "We benchmarked three stores. Use PostgreSQL for the store. The p99 latency is 20 ms."
	b := "We reviewed it again. Do not use PostgreSQL for the store! SQLite is simpler."
	v := c.Contradiction(a, b)
	if !v.Contradicts || !strings.Contains(v.Reason, "negation") || !strings.Contains(v.Reason, "Use PostgreSQL for the store") {
		t.Fatalf("verdict = %+v", v)
	}
	if v := c.Contradiction(a, "We benchmarked three stores. SQLite is simpler."); v.Contradicts {
		t.Fatalf("false contradiction: %+v", v)
	}
	if got := semantic.SplitSentences("Latency is 3.5 ms. Fine!  Next; last"); len(got) != 4 || got[0] != "Latency is 3.5 ms" {
		t.Fatalf("splitSentences = %q", got)
	}
}

func BenchmarkContradiction(b *testing.B) {
	c, _ := NewContradictor(nil)
	for b.Loop() {
		c.Contradiction("We should not use PostgreSQL for the session store", "Use PostgreSQL for the session store because it is durable")
	}
}

// TestClusterAntonyms checks the antonymy derived from adjective cluster
// heads: satellites of opposed heads oppose, words of one cluster do not.
func TestClusterAntonyms(t *testing.T) {
	c, _ := NewContradictor(nil)
	cases := []struct {
		a, b string
		want bool
	}{
		{"terse", "verbose", true},   // concise / prolix
		{"concise", "verbose", true}, // head and satellite
		{"terse", "concise", false},  // one cluster
		{"terse", "table", false},    // not an adjective
	}
	for _, tc := range cases {
		x, y := c.wordOf(0, tc.a, false), c.wordOf(0, tc.b, false)
		if got := c.headsOpposed(x.heads, y.heads); got != tc.want {
			t.Errorf("headsOpposed(%q %v, %q %v) = %v, want %v", tc.a, x.heads, tc.b, y.heads, got, tc.want)
		}
	}
}

// Certain asserts only on text it can read: a formula without a stated
// subject, a variable's index or a figure inside inline math is no
// quantity of a subject, and a claim restricted to a part may count that
// part; the prose contradictions of the same shape are still asserted.
func TestCertainOnFormulas(t *testing.T) {
	c, _ := NewContradictor(nil)
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		// Steps of one derivation.
		{"We have z_1=x_1+i y_1, z_2=x_2+i y_2, and so on.", "Let's express x_1y_2-x_2y_1 in terms of z_1 and z_2.", false},
		{"We have 3p+e=1.24 and 5p+e=1.82.", "5p+e-3p-e=1.82-1.24.", false},
		{"So the direction vector is (1,\\frac{2}{3},-2).", "So the direction vector is (1, -6, -\\frac{3}{2}).", false},
		{"So the direction vector is $(1,\\frac{2}{3},-2)$.", "So the direction vector is $(1, -6, -\\frac{3}{2})$.", false},
		{"The value of S_14 is the sum of the first terms.", "The value of S_15 is the sum of the first terms.", false},
		{"The common difference is $7$ for this sequence.", "The common difference is $9$ for this sequence.", false},
		// A part of what the other counts.
		{"So there are 48 integer points inside the rectangle.", "So there are 63 integer points on the perimeter of the rectangle.", false},
		{"The hospital has 40 beds.", "The hospital has 12 beds in the intensive care unit.", false},
		// Prose of the same shape is still asserted.
		{"So there are 48 integer points inside the rectangle.", "So there are 63 integer points inside the rectangle.", true},
		{"The arithmetic sequence has 14 terms.", "The arithmetic sequence has 15 terms.", true},
		{"Ledley announced his retirement from professional football in November 2021.", "Ledley announced his retirement from professional football in August 2021.", true},
		{"The pencil costs $0.29 at the shop.", "The pencil costs $0.35 at the shop.", true},
	} {
		if v := c.Certain(tc.a, tc.b); v.Contradicts != tc.want {
			t.Errorf("Certain(%q, %q) = %v (%s), want %v", tc.a, tc.b, v.Contradicts, v.Reason, tc.want)
		}
	}
}

// The index of a variable is no figure, and the figures of inline math
// are a formula's: neither is a quantity.
func TestQuantitiesSkipFormulas(t *testing.T) {
	c, _ := NewContradictor(nil)
	for _, text := range []string{"We have z_1 = x_1 + i y_1", "S_{14} terms of the series", "the cost is $3p + e$ cents", "we get 2p=0.58 dollars"} {
		if qs := c.quantitiesOf(text); len(qs) != 0 {
			t.Errorf("quantitiesOf(%q) = %+v, want none", text, qs)
		}
	}
	if qs := c.quantitiesOf("the fee is $5 and the pool holds 20 connections"); len(qs) != 2 {
		t.Errorf("currency and counts outside formulas: %+v", qs)
	}
}
