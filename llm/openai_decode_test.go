package llm

import (
	"reflect"
	"testing"
)

// decodeChatCompletion must give what the SDK's decoder gives, for
// well-formed responses (decoded by encoding/json) and odd ones alike.
func TestDecodeChatCompletionAgreesWithSDK(t *testing.T) {
	for _, body := range []string{
		`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"hi"}}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		`{"model":"m","choices":[{"message":{"content":"a"},"logprobs":{"content":[{"token":"a","logprob":-0.5,"bytes":[97],"top_logprobs":[{"token":"a","logprob":-0.5,"bytes":null},{"token":"b","logprob":-1.5,"bytes":null}]}]}}]}`,
		`{"model":"m","choices":[{"message":{"content":null}}],"usage":null}`,
		`{"model":5,"choices":[{"message":{"content":7}}],"usage":"x"}`,
		`{"choices":"abc"}`,
		`{"choices":[{"message":{"content":"a"},"logprobs":{"content":[{"token":"a","logprob":"x","top_logprobs":[{"token":1,"logprob":-1}]}]}}],"usage":{"prompt_tokens":"3"}}`,
		`{"choices":[{"message":{"content":"a"},"logprobs":null}]}`,
		`{"choices":[{"message":{"content":"a"},"logprobs":{"content":null}}]}`,
		`{"choices":[null,{"message":{"content":"b"}}]}`,
		`{"choices":[{"message":{"content":"a","refusal":"no"},"logprobs":{"content":[{"token":"a","logprob":-1,"top_logprobs":null}]}}],"usage":{"prompt_tokens":1.5}}`,
		`{"choices":[{"message":{"content":"caf\u00e9 \ud83d\ude00"}}]} trailing`,
		"{\"choices\":[{\"message\":{\"content\":\"bad \xff utf-8\"}}]}",
		`[]`, `"x"`, `{"choices":[`,
	} {
		want, wantErr := sdkChatCompletion([]byte(body))
		got, err := decodeChatCompletion(nil, []byte(body))
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %+v, %v\n want %+v, %v", body, got, err, want, wantErr)
		}
	}
}
