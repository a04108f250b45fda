package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/metrics"
	"github.com/thinkgraph/thinkgraph/postgres"
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
	if cfg.databaseURL != "" && dbFlag == "" {
		store, err := postgres.Open(ctx, cfg.databaseURL, postgres.Options{MaxConns: cfg.sqlite.MaxReaders})
		if err != nil {
			return nil, nil, "", err
		}
		return cfg, store, redactURL(cfg.databaseURL), nil
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
	stateless := fs.Bool("stateless", false, "HTTP: serve every request on a fresh MCP session, so replicas behind a load balancer need no sticky sessions (calls must pass session_id to continue a session; also THINKGRAPH_HTTP_STATELESS=true)")
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
	emb, err := cfg.embedder()
	if err != nil {
		return err
	}
	if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Logger: log, Warm: cfg.embeddings.URL == ""}); err != nil {
		return err
	}
	defer svc.Close()
	svc.EnableLLM(cfg.llm, log)
	reg := metrics.New()
	srv := mcpserver.New(svc, mcpserver.Options{Version: buildVersion(), Logger: log, Metrics: reg})

	if *httpAddr == "" {
		log.Info("serving MCP over stdio", "db", path, "version", buildVersion())
		err := srv.MCP().Run(ctx, &mcp.IOTransport{Reader: readCloser{e.stdin}, Writer: nopWriteCloser{e.stdout}})
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	if *stateless {
		cfg.stateless = true
	}
	return serveHTTP(ctx, cfg, log, srv, reg, store, *httpAddr, path, viewer(svc, log, ""))
}

// serveHTTP serves streamable HTTP at /mcp (with /healthz, /readyz and
// /metrics) until ctx is done, then shuts down gracefully, letting in-flight
// calls finish. Listening beyond loopback requires bearer tokens.
func serveHTTP(ctx context.Context, cfg *config, log *slog.Logger, srv *mcpserver.Server, reg *metrics.Registry, store *sqlstore.DB, addr, dbPath string, viewer http.Handler) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{fmt.Errorf("--http: %q is not HOST:PORT: %v", addr, err)}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	addr = net.JoinHostPort(host, port)
	loopback := httpserver.IsLoopback(host)
	opts := httpserver.Options{
		AllowedHosts: cfg.allowedHosts, AllowedOrigins: cfg.allowedOrigins, MaxBodyBytes: cfg.maxBodyBytes, Stateless: cfg.stateless,
		Metrics: reg, Logger: log, Viewer: viewer,
		Ready: store.Ping,
	}
	if cfg.tokensFile != "" {
		if opts.Tokens, err = httpserver.LoadTokens(cfg.tokensFile); err != nil {
			return err
		}
	} else if !loopback {
		return usageError{fmt.Errorf("refusing to listen on %s without authentication: create tokens with "+
			"\"thinkgraph token new TENANT\", put the printed lines in a file and set THINKGRAPH_TOKENS_FILE to it "+
			"(or listen on 127.0.0.1)", addr)}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "auth", opts.Tokens != nil,
		"db", dbPath, "version", buildVersion())
	return httpserver.New(srv.MCP(), loopback, opts).Serve(ctx, ln)
}

// redactURL drops the password of a database URL for logs.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
