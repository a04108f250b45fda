package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/httpserver"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/web"
)

// viewer returns the web viewer that "serve --http" mounts at / and "view"
// serves: the tenant comes from the request's bearer token, else tenant.
// It shares the MCP server's render limiter.
func viewer(svc *reasoning.Service, log *slog.Logger, tenant string, cfg *config, srv *mcpserver.Server) http.Handler {
	return web.New(svc, web.Options{Logger: log, Tenant: tenant, MaxAnalysed: cfg.maxAnalysed, Limiter: srv.Limiter(), Analyst: srv.Analyst()})
}

// view serves the viewer (and MCP at /mcp) on a free loopback port and
// prints its URL.
func (e *env) view(ctx context.Context, argv []string) error {
	fs := e.flagSet("view", "view [--db PATH] [--addr 127.0.0.1:0] [--tenant TENANT]")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on (port 0: a free port)")
	tenant := fs.String("tenant", thinkgraph.LocalTenant, "whose sessions to show (sessions made over stdio belong to \"local\")")
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("view takes no arguments, got %q", fs.Arg(0))}
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !httpserver.IsLoopback(host) {
		return usageError{fmt.Errorf("--addr: %q must be a loopback HOST:PORT (the viewer has no authentication; use \"serve --http\" with tokens to share it)", *addr)}
	}
	cfg, store, path, err := e.open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	log := cfg.logger(e.stderr)
	svc := reasoning.New(store, cfg.reasoning)
	if emb, err := cfg.embedder(); err != nil {
		log.Warn("viewer without semantic analyses", "err", err)
	} else if err := svc.EnableSemantic(reasoning.SemanticConfig{Embedder: emb, Logger: log}); err != nil {
		log.Warn("viewer without semantic analyses", "err", err)
	} else {
		defer svc.Close()
	}
	svc.EnableLLM(cfg.llm, log)
	srv := mcpserver.New(svc, mcpserver.Options{Version: buildVersion(), Logger: log, MaxAnalysed: cfg.maxAnalysed})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintln(e.stdout, url)
	log.Info("viewer", "url", url, "mcp", url+"mcp", "db", path, "tenant", *tenant)
	err = httpserver.New(srv.ForTenant, true, httpserver.Options{Logger: log, Ready: store.Ping, Viewer: viewer(svc, log, *tenant, cfg, srv)}).Serve(ctx, ln)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
