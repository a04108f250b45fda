package reasoning

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thinkgraph/thinkgraph"
)

// FuzzParseExchange feeds arbitrary documents to the import parser: it must
// never panic or hang, every rejection must be a validation error naming a
// field, and an accepted document must survive a marshal/parse round trip.
func FuzzParseExchange(f *testing.F) {
	f.Add([]byte(`{"format":"thinkgraph.session","version":1,"session":{"id":"s"},"branches":[{"id":"main","state":"active"}],"thoughts":[{"id":"t1","branchId":"main","step":1,"content":"a"}]}`))
	f.Add([]byte(`{"format":"thinkgraph.session","version":99}`))
	f.Add([]byte(`{"format":"other","version":1}`))
	f.Add([]byte(`{"format":"thinkgraph.session","version":1,"thoughts":[{"id":"t1","parentId":"t1","step":1,"content":"loop"}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"version":"1"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		doc, err := ParseExchange(raw, 10000)
		if err != nil {
			te := thinkgraph.AsError(err)
			if te.Code != thinkgraph.CodeValidation || te.Field == "" || strings.TrimSpace(te.Message) == "" {
				t.Fatalf("rejection without a named field: %+v (%v)", te, err)
			}
			return
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("accepted document does not marshal: %v", err)
		}
		if _, err := ParseExchange(b, 10000); err != nil {
			t.Fatalf("accepted document rejected after a round trip: %v\n%s", err, b)
		}
	})
}
