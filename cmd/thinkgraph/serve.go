package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph"
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
	where, err := cfg.storeLocation(dbFlag)
	if err != nil {
		return nil, nil, "", err
	}
	store, err := cfg.openStore(ctx, dbFlag)
	if err != nil {
		return nil, nil, "", err
	}
	return cfg, store, where, nil
}

// noDatabase is the answer of a read-only command when the SQLite file
// does not exist: nothing has been stored there yet.
type noDatabase struct{ path string }

func (n noDatabase) Error() string {
	return fmt.Sprintf("no database at %s yet (nothing stored; set DATABASE_PATH or --db to read another)", n.path)
}

// openExisting is open for the commands that only read: a SQLite file that
// does not exist is a noDatabase error, and neither it nor its directory
// is created.
func (e *env) openExisting(ctx context.Context, dbFlag string) (*config, *sqlstore.DB, error) {
	cfg, err := loadConfig(e.getenv)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if cfg.databaseURL == "" || dbFlag != "" {
		path, err := cfg.databasePath(dbFlag)
		if err != nil {
			return nil, nil, err
		}
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, noDatabase{path}
		}
	}
	store, err := cfg.openStore(ctx, dbFlag)
	if err != nil {
		return nil, nil, err
	}
	return cfg, store, nil
}

// storeLocation names the database the configuration selects, for logs: the
// PostgreSQL URL without its password, or the SQLite file.
func (c *config) storeLocation(dbFlag string) (string, error) {
	if c.databaseURL != "" && dbFlag == "" {
		return redactURL(c.databaseURL), nil
	}
	return c.databasePath(dbFlag)
}

// openStore opens (and migrates) the database the configuration selects.
func (c *config) openStore(ctx context.Context, dbFlag string) (*sqlstore.DB, error) {
	if c.databaseURL != "" && dbFlag == "" {
		return postgres.Open(ctx, c.databaseURL, postgres.Options{MaxConns: c.sqlite.MaxReaders})
	}
	path, err := c.databasePath(dbFlag)
	if err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, path, c.sqlite)
}

func (e *env) serve(ctx context.Context, argv []string) error {
	fs := e.flagSet("serve", "serve [--db PATH] [--http ADDR] [--toolsets LIST]")
	db := fs.String("db", "", "SQLite database file (overrides DATABASE_PATH)")
	httpAddr := fs.String("http", "", "serve streamable HTTP at ADDR/mcp instead of stdio, e.g. 127.0.0.1:8080 (a bare :PORT binds loopback)")
	stateless := fs.Bool("stateless", false, "HTTP: serve every request on a fresh MCP session, so replicas behind a load balancer need no sticky sessions (calls must pass session_id to continue a session; also THINKGRAPH_HTTP_STATELESS=true)")
	toolsets := fs.String("toolsets", "", "comma-separated toolsets to offer: "+strings.Join(mcpserver.ToolsetNames(), ", ")+" (default all; overrides THINKGRAPH_TOOLSETS)")
	if err := e.parse(fs, argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("serve takes no arguments, got %q", fs.Arg(0))}
	}
	// Checked before anything opens, so that a wrong name stops at once.
	if _, err := mcpserver.ParseToolsets(*toolsets); err != nil {
		return usageError{fmt.Errorf("--toolsets: %w", err)}
	}
	// Plain order for both transports: open the store, build the server,
	// serve. A database that cannot be opened stops serve with its error
	// before anything is served.
	cfg, store, path, err := e.open(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := cfg.toolsetsFlag(*toolsets); err != nil {
		return err
	}
	if *httpAddr == "" {
		return e.serveWith(ctx, cfg, store, func(srv *mcpserver.Server, log *slog.Logger, _ *reasoning.Service, _ *metrics.Registry) error {
			log.Info("serving MCP over stdio", "db", path, "version", buildVersion())
			// The filter bounds frames itself (the SDK's own limit would end the session).
			f := newStdioFilter(e.stdin, e.stdout, log)
			err := srv.MCP().Run(ctx, &mcp.IOTransport{Reader: f, Writer: f, MaxLineLength: -1})
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		})
	}
	if *stateless {
		cfg.stateless = true
	}
	return e.serveWith(ctx, cfg, store, func(srv *mcpserver.Server, log *slog.Logger, svc *reasoning.Service, reg *metrics.Registry) error {
		return serveHTTP(ctx, cfg, log, srv, reg, store, *httpAddr, path, viewer(svc, log, "", cfg, srv))
	})
}

// serveWith builds the reasoning service and the MCP server on store and
// hands them to run. The offline semantic engine is warmed up in the
// background meanwhile.
func (e *env) serveWith(ctx context.Context, cfg *config, store thinkgraph.Store, run func(*mcpserver.Server, *slog.Logger, *reasoning.Service, *metrics.Registry) error) error {
	log := cfg.logger(e.stderr)
	if ro, ok := store.(interface{ ReadOnly() string }); ok && ro.ReadOnly() != "" {
		// Served anyway: reads work; every write says why it cannot be
		// stored, and /readyz says so too.
		log.Error("the database cannot be written: " + ro.ReadOnly() + "; serving reads only, every write fails until it is writable and the server restarted")
	}
	svc := reasoning.New(store, cfg.reasoning)
	sem, err := cfg.semanticEngine(log)
	if err != nil {
		return err
	}
	// The offline engine (no network) is warmed up in the background at
	// once, so that the first call usually does not wait for its lexicon;
	// svc.Close waits for it when serving ends.
	sem.Warm = cfg.embeddings.URL == ""
	if err := svc.EnableSemantic(sem); err != nil {
		return err
	}
	defer svc.Close()
	svc.EnableLLM(cfg.llm, log)
	if hidden := hiddenToolsets(cfg.toolsets, svc); len(hidden) > 0 {
		log.Info("no LLM provider configured: the "+strings.Join(hidden, " and ")+" tools are listed only to clients that declare sampling; "+
			"to list them to every client set OPENAI_API_KEY (or OPENAI_BASE_URL for Ollama, vLLM, LM Studio and other OpenAI-compatible servers), ANTHROPIC_API_KEY or LANGBASE_API_KEY",
			"toolsets", strings.Join(hidden, ","))
	}
	reg := metrics.New()
	srv := mcpserver.New(svc, mcpserver.Options{Version: buildVersion(), Logger: log, Metrics: reg, Toolsets: cfg.toolsets, SeedToolNames: cfg.seedToolNames,
		MaxAnalysed: cfg.maxAnalysed})
	return run(srv, log, svc, reg)
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
		SessionIdleTimeout: cfg.sessionIdle, MetricsTenants: cfg.metricsTenants, TrustedProxies: cfg.trustedProxies,
		MaxSessions: cfg.maxSessions, MaxSessionsPerTenant: cfg.maxSessionsPer,
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
	if viewer != nil {
		how := "open it in a browser"
		if opts.Tokens != nil {
			how = "open /?token=<token> once to log in"
		}
		log.Info("the reasoning viewer", "url", "http://"+ln.Addr().String()+"/", "login", how)
	}
	return httpserver.New(srv.ForTenant, loopback, opts).Serve(ctx, ln)
}

// hiddenToolsets names the LLM-backed toolsets of the server (nil: all)
// whose tools no provider can run: they are listed only to clients that
// declare sampling.
func hiddenToolsets(toolsets []string, svc *reasoning.Service) []string {
	var hidden []string
	for _, name := range []string{"reasoning", "lux"} {
		if (toolsets == nil || slices.Contains(toolsets, name)) && !svc.ModelAvailable(name == "reasoning", false) {
			hidden = append(hidden, name)
		}
	}
	return hidden
}

// redactURL drops the password of a database URL for logs.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
