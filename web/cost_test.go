package web

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
)

// costServer serves svc over HTTP as thinkgraph serve --http does (MCP and
// the viewer sharing one render limiter) for the tenants alice and bob
// (and any others named), and returns its URL and their tokens.
func costServer(t *testing.T, svc *reasoning.Service, opts mcpserver.Options, vopts Options, others ...string) (url string, tokens map[string]string) {
	t.Helper()
	return costServerOn(t, nil, svc, opts, vopts, others...)
}

// costServerOn is costServer with the listener's connections changed by
// conn (when set).
func costServerOn(t *testing.T, conn func(net.Conn), svc *reasoning.Service, opts mcpserver.Options, vopts Options, others ...string) (url string, tokens map[string]string) {
	t.Helper()
	tokens = map[string]string{}
	var lines []string
	for _, tenant := range append([]string{"alice", "bob"}, others...) {
		tok, line, _ := httpserver.NewToken(tenant)
		tokens[tenant] = tok
		lines = append(lines, line)
	}
	parsed, err := httpserver.ParseTokens(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if opts.Limiter == nil {
		opts.Limiter = render.NewLimiter()
	}
	vopts.Limiter = opts.Limiter
	viewer := New(svc, vopts)
	h := httpserver.New(mcpserver.New(svc, opts).ForTenant, true, httpserver.Options{Tokens: parsed, Viewer: viewer}).Handler()
	srv := httptest.NewUnstartedServer(h)
	if conn != nil {
		srv.Listener = connListener{srv.Listener, conn}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), tokens
}

// connListener calls conn on each connection it accepts.
type connListener struct {
	net.Listener
	conn func(net.Conn)
}

func (l connListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.conn(c)
	}
	return c, err
}

// importDoc imports doc through branch-thinking's import over MCP and
// returns the new session's id, or the tool error's text.
func importDoc(t *testing.T, cs *mcp.ClientSession, doc map[string]any) (string, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "branch-thinking",
		Arguments: map[string]any{"command": map[string]any{"type": "import", "data": doc}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		return "", res.Content[0].(*mcp.TextContent).Text
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.SessionID == "" {
		t.Fatalf("import: %s", b)
	}
	return out.SessionID, ""
}

// chainDoc is an exchange document of n thoughts in one branch, each a
// child of the one before, with the content and metadata given.
func chainDoc(n int, content func(i int) string, metadata json.RawMessage) map[string]any {
	var ths []map[string]any
	parent := ""
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("t%d", i)
		th := map[string]any{"id": id, "step": i, "branchId": "main", "parentId": parent, "content": content(i)}
		if metadata != nil {
			th["metadata"] = metadata
		}
		ths = append(ths, th)
		parent = id
	}
	return map[string]any{"format": reasoning.ExchangeFormat, "version": reasoning.ExchangeVersion,
		"session":  map[string]any{"id": "doc", "activeBranch": "main", "stepCount": n, "currentThoughtId": parent},
		"branches": []map[string]any{{"id": "main", "state": "active", "priority": 1}},
		"thoughts": ths}
}

// nested is JSON of arrays nested depth deep, the innermost holding n
// numbers.
func nested(depth, n int) json.RawMessage {
	inner := "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]"
	return json.RawMessage(strings.Repeat("[1,", depth-1) + inner + strings.Repeat("]", depth-1))
}

// Case 1 of issue 38: metadata nested beyond MaxMetadataDepth is refused
// at import, naming the field; metadata nested as deep as allowed exports
// (the viewer's download and the /json resource) within 10 times the
// bytes the session stores, where indenting every level made it 35 times.
func TestNestedMetadataExportsInProportion(t *testing.T) {
	svc := semanticService(t)
	url, tokens := costServer(t, svc, mcpserver.Options{}, Options{})
	cs := mcpClient(t, url, tokens["alice"])
	text := func(i int) string { return fmt.Sprintf("Thought %d on the cache.", i) }

	_, msg := importDoc(t, cs, chainDoc(10, text, nested(reasoning.MaxMetadataDepth+1, 1)))
	if !strings.Contains(msg, "data.thoughts[0].metadata") || !strings.Contains(msg, fmt.Sprint(reasoning.MaxMetadataDepth)) {
		t.Fatalf("metadata nested %d deep: %q, want a ValidationError naming data.thoughts[0].metadata and the bound", reasoning.MaxMetadataDepth+1, msg)
	}
	id, msg := importDoc(t, cs, chainDoc(100, text, nested(reasoning.MaxMetadataDepth, 3000)))
	if msg != "" {
		t.Fatal(msg)
	}
	var size thinkgraph.SessionSize
	err := svc.View(context.Background(), reasoning.SessionRef{ID: id, Explicit: true, Tenant: "alice"}, func(tx thinkgraph.Tx, s *thinkgraph.Session) error {
		var err error
		size, err = tx.SessionSize(context.Background(), s.Key)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	code, _, export := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/"+id+"/export/json")
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/" + id + "/json"})
	if err != nil || code != 200 {
		t.Fatalf("export %d, resource %v", code, err)
	}
	t.Logf("stored %d bytes; export %d bytes (%.2f×), resource %d", size.Bytes, len(export), float64(len(export))/float64(size.Bytes), len(res.Contents[0].Text))
	for what, n := range map[string]int{"the JSON download": len(export), "the /json resource": len(res.Contents[0].Text)} {
		if int64(n) > 10*size.Bytes {
			t.Errorf("%s is %d bytes, more than 10 times the %d bytes stored", what, n, size.Bytes)
		}
	}
	var doc reasoning.Exchange
	if err := json.Unmarshal([]byte(export), &doc); err != nil || len(doc.Thoughts) != 100 {
		t.Fatalf("the export: %v", err)
	}
	var meta bytes.Buffer
	if err := json.Compact(&meta, doc.Thoughts[0].Metadata); err != nil || meta.String() != string(nested(reasoning.MaxMetadataDepth, 3000)) {
		t.Fatalf("the export does not give the metadata back: %v %.100s", err, meta.String())
	}
}

// longWords is n characters of words without a sentence's end: one claim
// as long as the text, the analyses' worst case.
func longWords(n int) string {
	words := []string{"the", "cache", "latency", "grows", "when", "queue", "depth", "passes", "limit", "and", "requests", "retry"}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[(i*7)%len(words)] + " ")
	}
	return strings.TrimSpace(b.String()[:n])
}

// appsClient connects to /mcp as a host that shows MCP Apps (so
// graph_view is listed).
func appsClient(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		Extensions: map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, opts).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Case 2 of issue 38: ten thoughts of 10,000 characters (their analyses
// take about 10 s, growing with the square of a thought's length) are
// drawn by graph_view and the viewer's page without the analyses, which
// say why; two of 8,000 are analysed, and take a render slot, so that a
// tenant's second such view waits for the first (503 with Retry-After
// when it does not free in time).
func TestLongThoughtsViewsBounded(t *testing.T) {
	svc := semanticService(t)
	lim := &render.Limiter{Wait: 300 * time.Millisecond}
	url, tokens := costServer(t, svc, mcpserver.Options{Limiter: lim}, Options{})
	cs := appsClient(t, url, tokens["alice"])
	for i := 0; i < 10; i++ {
		mustTool(t, cs, "think", map[string]any{"session_id": "long", "thought": fmt.Sprint(i, " ", longWords(9990))})
	}
	for i := 0; i < 2; i++ {
		mustTool(t, cs, "think", map[string]any{"session_id": "two", "thought": fmt.Sprint(i, " ", longWords(7990))})
	}
	srv := &httptest.Server{URL: url}
	start := time.Now()
	out := mustTool(t, cs, "graph_view", map[string]any{"session_id": "long"})
	took := time.Since(start)
	if strings.Count(out, `data-step=\"`) != 10 {
		t.Fatalf("graph_view: %.300s", out)
	}
	start = time.Now()
	code, _, page := get(t, srv, tokens["alice"], "/sessions/long")
	t.Logf("ten thoughts of 10,000 characters: graph_view %v, the viewer's page %v", took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	if code != 200 || !strings.Contains(page, "not analysed: the session&#39;s long thoughts take too long to analyse") {
		t.Fatalf("the page of ten long thoughts: %d, %.200s", code, page[strings.Index(page, `id="tg-analysis"`):])
	}
	if md := readResource(cs, "thinkgraph://sessions/long/markdown"); !strings.Contains(md, "long thoughts take too long to analyse") {
		t.Errorf("the markdown resource does not say why it has no analyses: %.300s", md)
	}
	if code, _, page := get(t, srv, tokens["alice"], "/sessions/two"); code != 200 || strings.Contains(page, "not analysed") {
		t.Errorf("two thoughts of 8,000 characters are not analysed: %d", code)
	}
	// The analysed one takes a slot: with alice's taken, her view waits,
	// then is refused; bob's is served.
	loader := &render.Loader{Svc: svc, Limiter: lim}
	release, err := loader.Heavy(context.Background(), reasoning.SessionRef{ID: "two", Explicit: true, Tenant: "alice"}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	code, hdr, body := get(t, srv, tokens["alice"], "/sessions/two/export/markdown")
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(body, "thoughts long enough that analysing them takes seconds") {
		t.Errorf("alice's second analysed view of long thoughts: %d %q %s", code, hdr.Get("Retry-After"), body)
	}
	if code, _, _ := get(t, srv, tokens["alice"], "/sessions/long/export/svg"); code != 200 {
		t.Errorf("a view of long thoughts not analysed takes no slot: %d", code)
	}
}

// Case 3 of issue 38: a session of 1,000 thoughts and 14,500 links takes a
// render slot (it has more than HeavyLinks links); 32 concurrent SVG
// downloads of it are each answered, 200 with the latest 500 curves and a
// line saying so, or 503 with Retry-After; another tenant's think goes on
// meanwhile (its latencies are logged).
func TestManyLinksRendersBounded(t *testing.T) {
	svc := semanticService(t)
	lim := &render.Limiter{Wait: time.Second}
	url, tokens := costServer(t, svc, mcpserver.Options{Limiter: lim}, Options{}, "carol")
	cs := mcpClient(t, url, tokens["alice"])
	doc := chainDoc(1000, func(i int) string { return fmt.Sprintf("Step %d: the queue holds %d jobs at peak.", i, i*7%900) }, nil)
	var links []map[string]any
	for i := 0; len(links) < 14500; i++ {
		a, b := i%1000+1, (i*37+11)%1000+1
		if a != b {
			links = append(links, map[string]any{"id": fmt.Sprint("l", len(links)), "fromThoughtId": fmt.Sprint("t", a), "toThoughtId": fmt.Sprint("t", b), "type": "builds_upon"})
		}
	}
	doc["links"] = links
	id, msg := importDoc(t, cs, doc)
	if msg != "" {
		t.Fatal(msg)
	}
	bob := mcpClient(t, url, tokens["bob"])
	mustTool(t, bob, "think", map[string]any{"session_id": "b", "thought": "Bob's first step."})
	stop := make(chan struct{})
	thinks := make(chan []time.Duration)
	go func() {
		var lat []time.Duration
		for {
			select {
			case <-stop:
				thinks <- lat
				return
			default:
			}
			start := time.Now()
			mustTool(t, bob, "think", map[string]any{"session_id": "b", "thought": "Bob goes on."})
			lat = append(lat, time.Since(start))
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[string]int{}
	for range 32 {
		wg.Go(func() {
			code, hdr, body := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/"+id+"/export/svg")
			key := fmt.Sprint(code)
			switch {
			case code == 200 && strings.Count(body, `<g class="link"`) == 500 && strings.Contains(body, "The latest 500 of 14500 cross-references"):
			case code == 503 && hdr.Get("Retry-After") != "":
			default:
				key += fmt.Sprintf(" (%d curves, Retry-After %q)", strings.Count(body, `<g class="link"`), hdr.Get("Retry-After"))
			}
			mu.Lock()
			answers[key]++
			mu.Unlock()
		})
	}
	wg.Wait()
	close(stop)
	lat := <-thinks
	slices.Sort(lat)
	t.Logf("32 SVG downloads: %v; bob's %d thinks meanwhile: p50 %v, max %v", answers, len(lat), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	if answers["200"]+answers["503"] != 32 || answers["200"] == 0 {
		t.Errorf("answers: %v, want each 200 with the bounded drawing or 503 with Retry-After, and some 200", answers)
	}
}

// stalledBody is an event stream's body that its client never reads.
type stalledBody struct {
	io.ReadCloser
	closed chan struct{}
}

func (b stalledBody) Read([]byte) (int, error) {
	<-b.closed
	return 0, io.EOF
}

// stallingTransport is a client's HTTP transport whose event streams (GET)
// are never read, over connections with a small receive buffer, so that
// the server's writes to them block soon.
type stallingTransport struct {
	token  string
	rt     *http.Transport
	closed chan struct{}
}

func newStallingTransport(token string) *stallingTransport {
	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048) })
	}}
	return &stallingTransport{token: token, rt: &http.Transport{DialContext: d.DialContext}, closed: make(chan struct{})}
}

func (s *stallingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+s.token)
	res, err := s.rt.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet {
		res.Body = stalledBody{res.Body, s.closed}
	}
	return res, err
}

// Case 5 of issue 38: a subscriber that never reads its event stream holds
// up no other client's write to the session (they waited for its
// notifications to be written, up to minutes), and the session's other
// subscribers are still told of changes.
func TestStalledSubscriberHoldsUpNobody(t *testing.T) {
	svc := semanticService(t)
	// Small socket buffers on both sides, so that a stream nobody reads
	// is full after a few dozen notifications, not a few megabytes.
	url, tokens := costServerOn(t, func(c net.Conn) { _ = c.(*net.TCPConn).SetWriteBuffer(4096) }, svc, mcpserver.Options{}, Options{})
	writer := mcpClient(t, url, tokens["alice"])
	mustTool(t, writer, "think", map[string]any{"session_id": "s", "thought": "The first step."})
	views := []string{"", "/markdown", "/mermaid", "/svg", "/json", "/context", "/summary"}

	st := newStallingTransport(tokens["alice"])
	defer close(st.closed)
	stalled, err := mcp.NewClient(&mcp.Implementation{Name: "stalled", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: st}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	told := make(chan string, 10000)
	healthy, err := mcp.NewClient(&mcp.Implementation{Name: "healthy", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { told <- r.Params.URI }}).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: bearer{tokens["alice"]}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Close()
	for _, v := range views {
		for _, cs := range []*mcp.ClientSession{stalled, healthy} {
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "thinkgraph://sessions/s" + v}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var longest time.Duration
	const writes = 300
	for i := range writes {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard, not a timing assertion
		start := time.Now()
		_, err := writer.CallTool(ctx, &mcp.CallToolParams{Name: "think", Arguments: map[string]any{"session_id": "s", "thought": fmt.Sprintf("Step %d of the plan.", i)}})
		cancel()
		if err != nil {
			t.Fatalf("write %d with a stalled subscriber: %v", i, err)
		}
		longest = max(longest, time.Since(start))
	}
	t.Logf("%d writes with a stalled subscriber: the longest took %v", writes, longest.Round(time.Millisecond))
	// The healthy subscriber hears of the last write: once the
	// notifications of the others are in, one comes after it.
	quiet := func() {
		for {
			select {
			case <-told:
			case <-time.After(time.Second):
				return
			}
		}
	}
	quiet()
	mustTool(t, writer, "think", map[string]any{"session_id": "s", "thought": "The last step."})
	select {
	case <-told:
	case <-time.After(30 * time.Second):
		t.Fatal("the healthy subscriber heard nothing of the last write")
	}
}

// Case 6 of issue 38 over HTTP: with every control character but NUL (which
// no tool takes) in a thought, graph_view, the /svg resource and the SVG
// download are well-formed XML (an ANSI colour code made them unreadable).
func TestSVGWellFormedOverHTTP(t *testing.T) {
	svc := semanticService(t)
	url, tokens := costServer(t, svc, mcpserver.Options{}, Options{})
	cs := appsClient(t, url, tokens["alice"])
	var all strings.Builder
	for r := rune(1); r <= 0x9F; r++ {
		if r < 0x20 || r >= 0x7F {
			all.WriteRune(r)
		}
	}
	mustTool(t, cs, "think", map[string]any{"session_id": "ctl", "thought": "\x1b[31mred\x1b[0m " + all.String() + "\uFFFE\uFFFF"})
	mustTool(t, cs, "think", map[string]any{"session_id": "ctl", "thought": "A plain step."})
	var view struct {
		SVG string `json:"svg"`
	}
	if err := json.Unmarshal([]byte(mustTool(t, cs, "graph_view", map[string]any{"session_id": "ctl"})), &view); err != nil {
		t.Fatal(err)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/ctl/svg"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, export := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/ctl/export/svg")
	for what, doc := range map[string]string{"graph_view": view.SVG, "the /svg resource": res.Contents[0].Text, "the SVG download": export} {
		d := xml.NewDecoder(strings.NewReader(doc))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s is not well-formed XML: %v", what, err)
				break
			}
		}
		if !strings.Contains(doc, "␛[31mred") {
			t.Errorf("%s does not show ESC as ␛", what)
		}
	}
}

// Case 4 of issue 38: an import of more feedback than a session keeps is
// refused, naming data.feedback (30,000 pieces were stored); and no
// session makes the overview resource larger than 64 KiB or the viewer's
// page larger than 1 MiB (a 3-thought session with 30,000 pieces of
// feedback made them 6.6 and 5.4 MB): here texts of characters that every
// format escapes, at their longest, in a goal, 1,000 thoughts, a path of
// 200, 120 branches, 1,000 pieces of feedback and 600 links.
func TestOverviewAndPageBounded(t *testing.T) {
	svc := semanticService(t)
	url, tokens := costServer(t, svc, mcpserver.Options{}, Options{})
	cs := mcpClient(t, url, tokens["alice"])
	doc := chainDoc(3, func(i int) string { return fmt.Sprint("Thought ", i) }, nil)
	var fb []map[string]any
	for i := range reasoning.MaxSessionFeedback + 1 {
		fb = append(fb, map[string]any{"thoughtId": "t2", "kind": "comment", "text": fmt.Sprint("Comment ", i)})
	}
	doc["feedback"] = fb
	if _, msg := importDoc(t, cs, doc); !strings.Contains(msg, "data.feedback") || !strings.Contains(msg, "1000") {
		t.Fatalf("an import of 1,001 pieces of feedback: %q", msg)
	}
	// The session of the issue: 3 thoughts, the most feedback, and the
	// largest of everything.
	long := func(n int) string { return strings.Repeat("&\x1b<\"", n/4) }
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	three := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion,
		Session:  reasoning.ExchangeSession{ID: "three", Goal: long(10000), ActiveBranch: "main", StepCount: 3, CurrentThoughtID: "t3", CreatedAt: at, UpdatedAt: at},
		Branches: []reasoning.ExchangeBranch{{ID: "main", State: "active", Priority: 1}}}
	for i := 1; i <= 3; i++ {
		three.Thoughts = append(three.Thoughts, reasoning.ExchangeThought{ID: fmt.Sprint("t", i), Step: i, BranchID: "main", ParentID: fmt.Sprint("t", i-1)[:min(i-1, 1)*2], Content: long(10000), CreatedAt: at})
	}
	three.Thoughts[2].ParentID = "t2"
	for i := range reasoning.MaxSessionFeedback {
		three.Feedback = append(three.Feedback, reasoning.ExchangeFeedback{ThoughtID: fmt.Sprint("t", 2+i%2), Kind: "comment", Text: long(2000), At: at})
	}
	if _, err := svc.RestoreSession(context.Background(), three, "alice"); err != nil {
		t.Fatal(err)
	}
	small := "three"

	big := &reasoning.Exchange{Format: reasoning.ExchangeFormat, Version: reasoning.ExchangeVersion,
		Session: reasoning.ExchangeSession{ID: "big", Goal: long(10000), ActiveBranch: "main", StepCount: 1000, CreatedAt: at, UpdatedAt: at}}
	for b := range 120 {
		big.Branches = append(big.Branches, reasoning.ExchangeBranch{ID: fmt.Sprintf("%03d-%s", b, strings.Repeat("b", 60)), State: "active", Priority: 1})
	}
	big.Branches[0].ID = "main"
	parent := ""
	for i := 1; i <= 1000; i++ {
		th := reasoning.ExchangeThought{ID: fmt.Sprint("t", i), Step: i, BranchID: "main", ParentID: parent, Content: fmt.Sprint(i, long(2000)), CreatedAt: at}
		if i > 200 {
			th.BranchID, th.ParentID = big.Branches[i%120].ID, "t1"
		} else {
			parent = th.ID
		}
		big.Thoughts = append(big.Thoughts, th)
		big.Feedback = append(big.Feedback, reasoning.ExchangeFeedback{ThoughtID: th.ID, Kind: "refute", Text: long(2000), At: at})
	}
	for i := range 600 {
		big.Links = append(big.Links, reasoning.ExchangeLink{ID: fmt.Sprint("l", i), FromThought: fmt.Sprint("t", i+1), ToThought: fmt.Sprint("t", 1000-i),
			Type: "builds_upon", Reason: long(2000), CreatedAt: at})
	}
	big.Session.CurrentThoughtID = "t200"
	if _, err := svc.RestoreSession(context.Background(), big, "alice"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{small, "big"} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "thinkgraph://sessions/" + id})
		if err != nil {
			t.Fatal(err)
		}
		ov := res.Contents[0].Text
		code, _, page := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/"+id)
		t.Logf("session %s: overview %d bytes, page %d bytes", id, len(ov), len(page))
		if len(ov) > 64<<10 || !strings.Contains(ov, `"human_feedback_total": 1000`) {
			t.Errorf("the overview of %s is %d bytes (at most 64 KiB, with the totals): %.300s", id, len(ov), ov)
		}
		if code != 200 || len(page) > 1<<20 {
			t.Errorf("the page of %s: %d, %d bytes (at most 1 MiB)", id, code, len(page))
		}
	}
	// The page's data, fetched after the first paint when it is not in the
	// page, lists the latest feedback and counts the rest.
	_, _, js := get(t, &httptest.Server{URL: url}, tokens["alice"], "/sessions/"+small+"/graph")
	if !strings.Contains(js, `"feedbackMore":980`) || !strings.Contains(js, `"feedbackMore":490`) {
		t.Errorf("the panel's data does not count the feedback it leaves out: %d bytes", len(js))
	}
}
