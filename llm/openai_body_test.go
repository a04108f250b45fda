package llm

import (
	"math"
	"strings"
	"testing"
)

// TestChatRequestBodyMatchesSDK: the requests Complete encodes itself are
// byte for byte what the SDK would send.
func TestChatRequestBodyMatchesSDK(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	texts := []string{"plain", "<b>&amp;</b> \u2028\u2029 é ü 日本", "quote \" backslash \\ tab \t nl \n cr \r nul \x00 esc \x1b", "invalid \xff\xfe utf-8 \xc3",
		strings.Repeat("long ", 2000), "emoji 🙂 and \U0010FFFF", "\u007f\u0080\u00a0"}
	var reqs []Request
	for _, text := range texts {
		for _, temp := range []*float64{nil, f(0), f(0.7), f(1), f(2), f(1e-7), f(0.30000000000000004), f(1.0 / 3)} {
			reqs = append(reqs,
				Request{Messages: []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: text}}, Temperature: temp},
				Request{Model: "m-" + text, Messages: []Message{{Role: RoleUser, Content: text}, {Role: RoleAssistant, Content: text}, {Role: "other", Content: "x"}},
					Temperature: temp, MaxTokens: 1000, Logprobs: true},
				Request{Messages: []Message{{Role: RoleUser, Content: text}}, MaxTokens: math.MaxInt32, Logprobs: true, TopLogprobs: 40},
				Request{Messages: []Message{{Role: RoleUser, Content: text}}, Logprobs: true, TopLogprobs: 7},
			)
		}
	}
	reqs = append(reqs, Request{}, Request{Model: "only-model"})
	for _, official := range []bool{false, true} {
		o := &OpenAI{model: "default-model", official: official}
		for i, req := range reqs {
			model := req.Model
			if model == "" {
				model = o.model
			}
			want, err := o.chatParams(model, req).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got, ok := o.chatRequestBody(model, req)
			if !ok {
				t.Fatalf("request %d: not encoded", i)
			}
			if string(got) != string(want) {
				t.Fatalf("request %d (official %v):\n got %s\nwant %s", i, official, got, want)
			}
		}
	}
	// A message without content is left to the SDK.
	if _, ok := (&OpenAI{}).chatRequestBody("m", Request{Messages: []Message{{Role: RoleUser}}}); ok {
		t.Fatal("an empty message was encoded")
	}
}
