package mcpserver

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// TestAfterHandshake: Options.AfterHandshake runs once, after the first
// client's handshake was answered, whichever handshake the client uses: the
// Go SDK's client uses server/discover (no notification follows), a client
// of an older protocol initialize and notifications/initialized.
func TestAfterHandshake(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(t *testing.T, e *testEnv)
	}{
		{"discover, then a call", func(t *testing.T, e *testEnv) {
			cs := e.connect()
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"initialize and initialized", func(t *testing.T, e *testEnv) {
			st, ct := mcp.NewInMemoryTransports()
			ss, err := e.srv.MCP().Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			conn, err := ct.Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close(); ss.Wait() })
			ctx := context.Background()
			for _, msg := range []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			} {
				m, err := jsonrpc.DecodeMessage([]byte(msg))
				if err != nil {
					t.Fatal(err)
				}
				if err := conn.Write(ctx, m); err != nil {
					t.Fatal(err)
				}
				if _, ok := m.(*jsonrpc.Request); ok && m.(*jsonrpc.Request).IsCall() {
					if _, err := conn.Read(ctx); err != nil { // the initialize result
						t.Fatal(err)
					}
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			var n atomic.Int32
			seen := make(chan struct{}, 4)
			e := &testEnv{t: t, store: store, srv: New(reasoning.New(store, reasoning.Config{}), Options{Version: "test", AfterHandshake: func() {
				n.Add(1)
				seen <- struct{}{}
			}})}
			if n.Load() != 0 {
				t.Fatal("AfterHandshake ran before any client connected")
			}
			tc.connect(t, e)
			select {
			case <-seen:
			case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
				t.Fatal("AfterHandshake was not called")
			}
			tc.connect(t, e) // a second client: no second call
			if _, err := e.connect().ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if got := n.Load(); got != 1 {
				t.Fatalf("AfterHandshake ran %d times, want once", got)
			}
		})
	}
}
