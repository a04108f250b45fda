package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/sqlite"
	"github.com/thinkgraph/thinkgraph/sqlstore"
)

// open loads the configuration and opens the store.
func (e *env) open(ctx context.Context, dbFlag string) (*config, *sqlstore.DB, string, error) {
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return nil, nil, "", usageError{err}
	}
	path, err := cfg.databasePath(dbFlag)
	if err != nil {
		return nil, nil, "", err
	}
	store, err := sqlite.Open(ctx, path, cfg.sqlite)
	if err != nil {
		return nil, nil, "", err
	}
	return cfg, store, path, nil
}

func (e *env) serve(ctx context.Context, argv []string) error {
	fs := e.flagSet("serve", "serve [--db PATH] [--http ADDR]")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
	httpAddr := fs.String("http", "", "serve streamable HTTP at ADDR/mcp instead of stdio, e.g. 127.0.0.1:8080 (a bare :PORT binds loopback)")
	if err := parseFlags(fs, argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("serve takes no arguments, got %q", fs.Arg(0))}
	}
	cfg, store, path, err := e.open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	log := cfg.logger(e.stderr)
	svc := reasoning.New(store, cfg.reasoning)
	srv := mcpserver.New(svc, mcpserver.Options{Version: buildVersion(), Logger: log})

	if *httpAddr == "" {
		log.Info("serving MCP over stdio", "db", path, "version", buildVersion())
		err := srv.MCP().Run(ctx, &mcp.IOTransport{Reader: readCloser{e.stdin}, Writer: nopWriteCloser{e.stdout}})
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	return serveHTTP(ctx, log, srv, *httpAddr, path)
}

// serveHTTP serves streamable HTTP at /mcp until ctx is done, then shuts down
// gracefully, letting in-flight calls finish.
func serveHTTP(ctx context.Context, log *slog.Logger, srv *mcpserver.Server, addr, dbPath string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{fmt.Errorf("--http: %q is not HOST:PORT: %v", addr, err)}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	addr = net.JoinHostPort(host, port)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, &mcp.StreamableHTTPOptions{Logger: log}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "db", dbPath, "version", buildVersion())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	log.Info("shutting down")
	return hs.Shutdown(shutdown)
}
