package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestViewCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	seedExportSession(t, db, "view-1", "local")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"view", "--db", db}, strings.NewReader(""), pw, io.Discard, func(string) string { return "" })
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("url %q", url)
	}
	res, err := http.Get(url + "sessions/view-1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), `data-session="view-1"`) || !strings.Contains(string(b), "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatalf("session page: %d", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("view did not stop")
	}
	if err := run(context.Background(), []string{"view", "--addr", "0.0.0.0:0"}, strings.NewReader(""), io.Discard, io.Discard, func(string) string { return "" }); err == nil || exitCode(err) != 2 {
		t.Errorf("non-loopback addr: %v", err)
	}
}
