package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
)

// TestFeedbackOverHTTP: over the real HTTP server with bearer tokens and
// the viewer mounted, alice refutes a thought of her session; the request
// is refused from another site, for bob (alice's session is no more his
// than an unused id is) and with bad bodies (400 naming the field); the
// next tool result of alice's session carries the feedback, over MCP, and
// the one after does not.
func TestFeedbackOverHTTP(t *testing.T) {
	svc := semanticService(t)
	url, tokA, tokB := twoTenants(t, svc)
	alice := mcpClient(t, url, tokA)

	var first, second struct {
		Node string `json:"current_node_id"`
	}
	_ = json.Unmarshal([]byte(mustTool(t, alice, "think", map[string]any{"thought": "Profile the slow query first", "session_id": "plan"})), &first)
	_ = json.Unmarshal([]byte(mustTool(t, alice, "think", map[string]any{"thought": "The index on orders is missing", "session_id": "plan"})), &second)
	if first.Node == "" || second.Node == "" {
		t.Fatal("think returned no current_node_id")
	}

	post := func(token, session, origin, contentType, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+"/sessions/"+session+"/feedback", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", contentType)
		switch {
		case origin == "cross-site":
			req.Header.Set("Sec-Fetch-Site", origin)
		case origin != "":
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	refute := `{"thought_id": "` + second.Node + `", "kind": "refute", "text": "The index exists; the planner ignores it"}`

	// Refused: another site, another tenant, bad bodies.
	if code, body := post(tokA, "plan", "https://evil.example", "application/json", refute); code != http.StatusForbidden {
		t.Errorf("from another site: %d %s, want 403", code, body)
	}
	if code, body := post(tokA, "plan", "cross-site", "application/json", refute); code != http.StatusForbidden {
		t.Errorf("Sec-Fetch-Site cross-site: %d %s, want 403", code, body)
	}
	bobTaken, bobBodyTaken := post(tokB, "plan", "", "application/json", refute)
	bobUnused, bobBodyUnused := post(tokB, "nobody-uses-this", "", "application/json", refute)
	if bobTaken != http.StatusNotFound || bobTaken != bobUnused || bobBodyTaken != bobBodyUnused {
		t.Errorf("bob on alice's session: %d %q; on an unused id: %d %q; want the same 404", bobTaken, bobBodyTaken, bobUnused, bobBodyUnused)
	}
	for _, c := range []struct{ body, field string }{
		{`{"thought_id": "` + second.Node + `", "kind": "reject", "text": "x"}`, "kind"},
		{`{"kind": "refute", "text": "x"}`, "thought_id"},
		{`{"thought_id": "no-such-thought", "kind": "refute", "text": "x"}`, "thought_id"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": ""}`, "text"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": "` + strings.Repeat("x", 2001) + `"}`, "text"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": 5}`, "text"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": "a\u0000b"}`, "text"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": " \t\n\u00a0 "}`, "text"},
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "text": "\u200b\u200c\u200d\u2060\ufeff\u00ad"}`, "text"}, // only zero-width characters (issue 38)
		{`{"thought_id": "` + second.Node + `", "kind": "comment", "txt": "x"}`, "txt"},
		{`{"thought_id": `, ""},
	} {
		code, body := post(tokA, "plan", "", "application/json", c.body)
		var e struct{ Error, Field string }
		if err := json.Unmarshal([]byte(body), &e); code != http.StatusBadRequest || err != nil || e.Field != c.field || e.Error == "" {
			t.Errorf("%.80s: %d %s, want 400 naming field %q", c.body, code, body, c.field)
		}
	}
	if code, body := post(tokA, "plan", "", "text/plain", refute); code != http.StatusUnsupportedMediaType {
		t.Errorf("as text/plain: %d %s, want 415", code, body)
	}

	// Accepted, from the viewer's own origin.
	code, body := post(tokA, "plan", url, "application/json", refute)
	var stored struct{ ID, Author, Kind, ThoughtID string }
	if err := json.Unmarshal([]byte(body), &stored); code != http.StatusCreated || err != nil || stored.Author != "human" || stored.Kind != "refute" {
		t.Fatalf("feedback: %d %s", code, body)
	}

	// Delivered once, on the next tool result of the session.
	res, err := alice.CallTool(context.Background(), &mcp.CallToolParams{Name: "show_current_path", Arguments: map[string]any{"session_id": "plan"}})
	if err != nil || res.IsError {
		t.Fatalf("show_current_path: %v %+v", err, res)
	}
	var got struct {
		Feedback []struct {
			ThoughtID string `json:"thought_id"`
			Kind      string `json:"kind"`
			Text      string `json:"text"`
			At        string `json:"at"`
			Advice    string `json:"advice"`
		} `json:"human_feedback"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &got); err != nil || len(got.Feedback) != 1 {
		t.Fatalf("next result: %s", b)
	}
	if f := got.Feedback[0]; f.ThoughtID != second.Node || f.Kind != "refute" || f.Text != "The index exists; the planner ignores it" ||
		f.At == "" || !strings.Contains(f.Advice, "backtrack") {
		t.Errorf("human_feedback: %+v", f)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	// The text is the structured content's JSON, feedback included (once).
	var fromText, structured any
	if len(text) != 1 || json.Unmarshal([]byte(text[0]), &fromText) != nil || json.Unmarshal(b, &structured) != nil || !reflect.DeepEqual(fromText, structured) {
		t.Errorf("text content: %q, want the structured content %s", text, b)
	}
	if again := mustTool(t, alice, "show_current_path", map[string]any{"session_id": "plan"}); strings.Contains(again, "human_feedback") {
		t.Errorf("delivered twice: %s", again)
	}

	// The viewer shows it: the thought flagged refuted, with its feedback,
	// and the feedback in the session overview, marked delivered.
	var g struct {
		Data struct {
			Thoughts []struct {
				ID       string   `json:"id"`
				Flags    []string `json:"flags"`
				Feedback []struct {
					Kind      string `json:"kind"`
					Delivered bool   `json:"delivered"`
				} `json:"feedback"`
			} `json:"thoughts"`
			Overview struct {
				Feedback []struct {
					Step int    `json:"step"`
					Kind string `json:"kind"`
					Text string `json:"text"`
				} `json:"feedback"`
			} `json:"overview"`
		} `json:"data"`
	}
	gp := page(t, url, tokA, "/sessions/plan/graph")
	if err := json.Unmarshal([]byte(strings.TrimPrefix(gp, "200 ")), &g); err != nil {
		t.Fatalf("graph: %v: %.200s", err, gp)
	}
	for _, th := range g.Data.Thoughts {
		refuted := strings.Contains(strings.Join(th.Flags, ","), "refuted")
		if refuted != (th.ID == second.Node) || (th.ID == second.Node && (len(th.Feedback) != 1 || !th.Feedback[0].Delivered)) {
			t.Errorf("thought %s: flags %v, feedback %+v", th.ID, th.Flags, th.Feedback)
		}
	}
	if ov := g.Data.Overview.Feedback; len(ov) != 1 || ov[0].Step != 2 || ov[0].Kind != "refute" {
		t.Errorf("overview feedback: %+v", ov)
	}
	if p := page(t, url, tokA, "/sessions/plan"); !strings.Contains(p, `id="tg-feedback-form"`) || !strings.Contains(p, `data-kind="refute"`) {
		t.Errorf("the session page has no feedback form")
	}

	// The session's resources list it too.
	ov := readResource(alice, "thinkgraph://sessions/plan")
	if !strings.Contains(ov, `\"refuted_thoughts\": [\n    \"`+second.Node) || !strings.Contains(ov, `\"delivered\": true`) {
		t.Errorf("overview resource: %s", clipText(ov))
	}
	if sum := readResource(alice, "thinkgraph://sessions/plan/summary"); !strings.Contains(sum, `\"refute\": 1`) || !strings.Contains(sum, `\"undelivered\": 0`) {
		t.Errorf("summary resource: %s", sum)
	}
}

// TestFeedbackBounds: 3,000 posts of feedback to one session, each of
// 2,000 characters: past 30 in a minute they are answered 429 with a
// Retry-After; the next tool result carries at most 5 pieces (fewer when
// they are long) and the count of the rest, within 16 KB, and the results
// after it carry the rest.
func TestFeedbackBounds(t *testing.T) {
	svc := semanticService(t)
	url, tokA, _ := twoTenants(t, svc)
	alice := mcpClient(t, url, tokA)
	var th struct {
		Node string `json:"current_node_id"`
	}
	_ = json.Unmarshal([]byte(mustTool(t, alice, "think", map[string]any{"thought": "Profile the slow query first", "session_id": "plan"})), &th)
	body := `{"thought_id": "` + th.Node + `", "kind": "comment", "text": "` + strings.Repeat("é", 2000) + `"}`
	accepted, limited := 0, 0
	for range 3000 {
		req, _ := http.NewRequest("POST", url+"/sessions/plan/feedback", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tokA)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		switch res.StatusCode {
		case http.StatusCreated:
			accepted++
		case http.StatusTooManyRequests:
			limited++
			if limited == 1 && (res.Header.Get("Retry-After") != "60" || !strings.Contains(string(b), "in the last minute")) {
				t.Errorf("429: Retry-After %q, %s", res.Header.Get("Retry-After"), b)
			}
		default:
			t.Fatalf("feedback: %d %s", res.StatusCode, b)
		}
	}
	if accepted != reasoning.MaxFeedbackPerMinute || limited != 3000-accepted {
		t.Fatalf("%d accepted, %d refused with 429; want %d accepted", accepted, limited, reasoning.MaxFeedbackPerMinute)
	}
	delivered := 0
	for i := 0; delivered < accepted; i++ {
		res, err := alice.CallTool(context.Background(), &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"thought": "Next step", "session_id": "plan"}})
		if err != nil || res.IsError {
			t.Fatalf("think: %v %+v", err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if len(b) > 16<<10 || len(res.Content[0].(*mcp.TextContent).Text) > 16<<10 {
			t.Errorf("think result after %d posts of feedback: %d bytes, budget 16 KB", 3000, len(b))
		}
		var got struct {
			Feedback []json.RawMessage `json:"human_feedback"`
			Waiting  int               `json:"human_feedback_waiting"`
		}
		_ = json.Unmarshal(b, &got)
		if i == 0 {
			t.Logf("think after %d posts of feedback: %d bytes, %d pieces, %d waiting", 3000, len(b), len(got.Feedback), got.Waiting)
		}
		delivered += len(got.Feedback)
		if len(got.Feedback) < 1 || len(got.Feedback) > reasoning.MaxFeedbackPerResult || got.Waiting != accepted-delivered {
			t.Fatalf("result %d: %d pieces, %d waiting; %d delivered of %d", i, len(got.Feedback), got.Waiting, delivered, accepted)
		}
	}
}
