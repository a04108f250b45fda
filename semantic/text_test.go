package semantic

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := map[string][]string{
		"A man isn't playing the guitar.": {"a", "man", "is", "not", "playing", "the", "guitar"},
		"We can't, won't and don't.":      {"we", "can", "not", "will", "not", "and", "do", "not"},
		"Latency is 3.5 ms, not 1,000 ms": {"latency", "is", "3.5", "ms", "not", "1000", "ms"},
		"The dog's T-shirt":               {"the", "dog", "t", "shirt"},
		"Café “naïve” résumé":             {"café", "naïve", "résumé"},
		"We’re done":                      {"we", "done"},
		"":                                {},
		"version 2. Next":                 {"version", "2", "next"},
	}
	for in, want := range cases {
		got := Tokenize(in)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStem(t *testing.T) {
	// Reference outputs of Porter's algorithm (from the published vocabulary).
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled",
		"motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
		"sized": "size", "hopping": "hop", "tanned": "tan", "falling": "fall",
		"hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
		"happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit",
		"rational": "ration", "valenci": "valenc", "digitizer": "digit",
		"conformabli": "conform", "radicalli": "radic", "differentli": "differ",
		"vileli": "vile", "analogousli": "analog", "vietnamization": "vietnam",
		"predication": "predic", "operator": "oper", "feudalism": "feudal",
		"decisiveness": "decis", "hopefulness": "hope", "callousness": "callous",
		"formaliti": "formal", "sensitiviti": "sensit", "sensibiliti": "sensibl",
		"triplicate": "triplic", "formative": "form", "formalize": "formal",
		"electriciti": "electr", "electrical": "electr", "hopeful": "hope",
		"goodness": "good", "revival": "reviv", "allowance": "allow",
		"inference": "infer", "airliner": "airlin", "gyroscopic": "gyroscop",
		"adjustable": "adjust", "defensible": "defens", "irritant": "irrit",
		"replacement": "replac", "adjustment": "adjust", "dependent": "depend",
		"adoption": "adopt", "homologou": "homolog", "communism": "commun",
		"activate": "activ", "angulariti": "angular", "homologous": "homolog",
		"effective": "effect", "bowdlerize": "bowdler", "probate": "probat",
		"rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
		"generalizations": "gener", "oscillators": "oscil", "running": "run",
		"is": "is", "42": "42",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStopAndNegators(t *testing.T) {
	for _, w := range []string{"not", "no", "never", "nobody", "nothing", "none"} {
		if !IsNegator(w) {
			t.Errorf("IsNegator(%q) = false", w)
		}
	}
	if IsStopWord("guitar") || !IsStopWord("the") {
		t.Error("stop words wrong")
	}
	if !IsNumber("3.5") || IsNumber("v2") || IsNumber("") {
		t.Error("IsNumber wrong")
	}
}

func BenchmarkTokenize(b *testing.B) {
	for b.Loop() {
		Tokenize("We should not use PostgreSQL for the session store because latency isn't 20 ms.")
	}
}
