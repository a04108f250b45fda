package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/mcpserver"
	"github.com/thinkgraph/thinkgraph/postgres"
	"github.com/thinkgraph/thinkgraph/reasoning"
	"github.com/thinkgraph/thinkgraph/render"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/contradict"
	"github.com/thinkgraph/thinkgraph/sqlite"
)

// envVar documents one environment variable; the list drives both parsing
// and --help, so the two cannot disagree.
type envVar struct {
	name, def, help string
}

var envVars = []envVar{
	{"DATABASE_PATH", "$XDG_DATA_HOME/thinkgraph/thinkgraph.db (else ~/.local/share/thinkgraph/thinkgraph.db)", "SQLite database file; created with its directory on first run. --db overrides it."},
	{"DATABASE_URL", "none", "postgres://user@host:5432/db: use PostgreSQL instead of SQLite (for several replicas sharing one database). --db overrides it."},
	{"DATABASE_MAX_CONNECTIONS", "5", "Size of the database connection pool (SQLite: readers)."},
	{"LOG_LEVEL", "info", "trace, debug, info, warn or error. Logs go to stderr only."},
	{"LOG_FORMAT", "pretty", "pretty (human-readable text) or json."},
	{"THINK_MAX_THOUGHTS", "100", "Size of the think log's context window (context_size); older thoughts leave the window but stay stored."},
	{"THINKGRAPH_MAX_THOUGHT_LENGTH", "10000", "Longest thought accepted, in characters."},
	{"THINKGRAPH_CONFIDENCE_THRESHOLD", "0.6", "Below it a thought is a branch point; backtrack returns to the nearest thought at or above it."},
	{"THINKGRAPH_MAX_ANALYSED_THOUGHTS", "3000", "Largest session whose contradictions, circular reasoning and branch evaluations the server computes for a view, a viewer download or a session resource (a larger one's, or one's whose long thoughts would take seconds to analyse, says why it has none; the branch-thinking commands and thinkgraph export analyse any size); 0: no bound on either. Analysing 12,000 thoughts takes about 12 s and 560 MiB."},
	{"THINKGRAPH_SQLITE_SYNCHRONOUS", "NORMAL", "NORMAL: acknowledged writes survive a crash or kill of the server; FULL: they also survive power loss (an fsync per write)."},
	{"THINKGRAPH_BUSY_TIMEOUT_MS", "10000", "How long a write waits for another process's write lock on the same database file."},
	{"THINKGRAPH_EMBEDDINGS_URL", "none (the offline lexical embedder)", "Base URL of an OpenAI-compatible /v1/embeddings endpoint (Ollama, vLLM, LM Studio, OpenAI)."},
	{"THINKGRAPH_EMBEDDINGS_MODEL", "none", "Embedding model name; required with THINKGRAPH_EMBEDDINGS_URL."},
	{"THINKGRAPH_EMBEDDINGS_API_KEY", "none", "Bearer key for the embeddings endpoint, if it needs one."},
	{"THINKGRAPH_TOOLSETS", "all", "Comma-separated toolsets to offer: think, graph, sequential, branch, reasoning, lux or all. --toolsets overrides it."},
	{"THINKGRAPH_TOOL_NAMES", "default", "seed: publish the reasoning tools under mcp-langbase-reasoning's names (reasoning.linear, ...), for clients written against mcp-langbase-reasoning 0.1; some clients reject those names."},
	{"THINKGRAPH_LLM_PROVIDER", "the first configured of openai, anthropic, langbase; else MCP sampling", "LLM provider for tools that call a model: openai, anthropic, langbase or sampling. The reasoning tools use Langbase whenever LANGBASE_API_KEY is set."},
	{"THINKGRAPH_JUDGE", "offline", "offline: findContradictions asserts what the offline judge is certain of and the calling model answers the review groups (branch-thinking judge); llm: findContradictions also answers up to 5 review groups per call with the configured LLM provider (each call an invocation, answers stored as verdicts and cached per group of texts, a failed call leaves the group open)."},
	{"OPENAI_API_KEY", "none", "OpenAI (or OpenAI-compatible) API key."},
	{"OPENAI_BASE_URL", "https://api.openai.com/v1", "OpenAI-compatible endpoint: OpenRouter, Ollama (http://localhost:11434/v1), vLLM, LM Studio."},
	{"OPENAI_MODEL", "gpt-4o-mini", "Default OpenAI-compatible model."},
	{"ANTHROPIC_API_KEY", "none", "Anthropic API key."},
	{"ANTHROPIC_BASE_URL", "https://api.anthropic.com", "Anthropic endpoint."},
	{"ANTHROPIC_MODEL", "claude-sonnet-4-5", "Default Anthropic model."},
	{"THINKGRAPH_MODEL_ALIASES", "Lux MCP's aliases", "Comma-separated alias=model pairs (opus=claude-opus-4-1,mini=gpt-4o-mini) mapping a tool's model argument to the provider's model name; added to, or replacing, Lux MCP's aliases (gpt4, mini, 4omini, claude, opus, sonnet, gemini, ...)."},
	{"LANGBASE_API_KEY", "none", "Langbase API key: the reasoning tools then run Langbase pipes (mcp-langbase-reasoning)."},
	{"LANGBASE_BASE_URL", "https://api.langbase.com", "Langbase endpoint."},
	{"PIPE_LINEAR", "linear-reasoning-v1", "Langbase pipe of reasoning_linear (also PIPE_TREE, PIPE_DIVERGENT, PIPE_REFLECTION)."},
	{"REQUEST_TIMEOUT_MS", "30000", "Timeout of each LLM request attempt."},
	{"MAX_RETRIES", "3", "Retries after a timeout, 429 or 5xx (exponential backoff with jitter; Retry-After honoured; no retry on other 4xx)."},
	{"RETRY_DELAY_MS", "1000", "First retry delay, doubled per retry."},
	{"THINKGRAPH_TOKENS_FILE", "none", "HTTP only: file of \"<sha256 hex of token> <tenant>\" lines (see \"thinkgraph token new\"); required to listen beyond loopback."},
	{"THINKGRAPH_ALLOWED_HOSTS", "localhost,127.0.0.1,::1 on loopback; any otherwise", "HTTP only: comma-separated Host names accepted (DNS-rebinding protection); * accepts any."},
	{"THINKGRAPH_ALLOWED_ORIGINS", "none", "HTTP only: comma-separated extra Origin values accepted (an Origin on an allowed host is always accepted)."},
	{"THINKGRAPH_HTTP_STATELESS", "false", "HTTP: true serves every request on a fresh MCP session (no sticky sessions needed across replicas); clients then pass session_id."},
	{"THINKGRAPH_HTTP_MAX_BODY_BYTES", "4194304", "HTTP only: largest request body accepted."},
	{"THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT", "30m", "HTTP only: an MCP session with no request for this long is closed (its client gets 404 and starts a new one); 0 keeps sessions until the client ends them."},
	{"THINKGRAPH_HTTP_MAX_SESSIONS", "10000", "HTTP only: most MCP sessions open at once over all tenants (each about 15 KiB, 75 KiB while its client holds its event stream open); an initialize beyond it gets 503 until sessions end. The same bound, counted apart, holds the open subscriptions/listen streams (protocol 2026-07-28)."},
	{"THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT", "1000", "HTTP only: most MCP sessions one tenant may have open; an initialize beyond it gets 429 until the tenant's sessions end (DELETE /mcp, or the idle timeout). The same bound, counted apart, holds the tenant's open subscriptions/listen streams."},
	{"THINKGRAPH_METRICS_TENANTS", "none", "HTTP with tokens: comma-separated tenants whose tokens may read /metrics, which counts every tenant's calls."},
	{"THINKGRAPH_TRUSTED_PROXIES", "none", "HTTP only: comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-Proto is believed (the viewer's cookie is Secure behind one that terminates TLS)."},
}

// config is the resolved configuration of a run.
type config struct {
	dbPath      string
	databaseURL string
	sqlite      sqlite.Options
	reasoning   reasoning.Config
	logLevel    slog.Level
	logFormat   string
	getenv      func(string) string

	embeddings semantic.OpenAIConfig
	llm        llm.Config

	tokensFile     string
	allowedHosts   []string
	allowedOrigins []string
	maxBodyBytes   int64
	stateless      bool
	maxSessions    int
	maxSessionsPer int
	maxAnalysed    int // negative: no bound

	toolsets       []string // nil: all
	seedToolNames  bool
	sessionIdle    time.Duration // negative: never
	metricsTenants []string
	trustedProxies []netip.Prefix
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// LevelTrace is below debug, for LOG_LEVEL=trace.
const LevelTrace = slog.Level(-8)

func loadConfig(getenv func(string) string) (*config, error) {
	c := &config{getenv: getenv, reasoning: reasoning.DefaultConfig()}
	var errs []error
	intVar := func(name string, def, min int) int {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			errs = append(errs, fmt.Errorf("%s must be a whole number ≥ %d, got %q", name, min, v))
			return def
		}
		return n
	}
	c.dbPath = getenv("DATABASE_PATH")
	if u := strings.TrimSpace(getenv("DATABASE_URL")); u != "" {
		if !postgres.IsURL(u) {
			errs = append(errs, fmt.Errorf("DATABASE_URL must start with postgres:// or postgresql://"))
		}
		c.databaseURL = u
	}
	c.embeddings = semantic.OpenAIConfig{
		URL:    strings.TrimSpace(getenv("THINKGRAPH_EMBEDDINGS_URL")),
		Model:  strings.TrimSpace(getenv("THINKGRAPH_EMBEDDINGS_MODEL")),
		APIKey: strings.TrimSpace(getenv("THINKGRAPH_EMBEDDINGS_API_KEY")),
		// Mozilla's CA roots where the system has none (see providerClient).
		HTTPClient: providerClient,
	}
	if c.embeddings.URL != "" && c.embeddings.Model == "" {
		errs = append(errs, fmt.Errorf("THINKGRAPH_EMBEDDINGS_MODEL is required with THINKGRAPH_EMBEDDINGS_URL (e.g. nomic-embed-text)"))
	}
	if lc, err := llm.ConfigFromEnv(getenv); err != nil {
		errs = append(errs, err)
	} else {
		c.llm = lc
		c.llm.HTTPClient = providerClient
	}
	if ts, err := mcpserver.ParseToolsets(getenv("THINKGRAPH_TOOLSETS")); err != nil {
		errs = append(errs, fmt.Errorf("THINKGRAPH_TOOLSETS: %w", err))
	} else {
		c.toolsets = ts
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("THINKGRAPH_TOOL_NAMES"))); v {
	case "", "default":
	case "seed":
		c.seedToolNames = true
	default:
		errs = append(errs, fmt.Errorf("THINKGRAPH_TOOL_NAMES must be default or seed (mcp-langbase-reasoning's dotted names), got %q", v))
	}
	c.tokensFile = strings.TrimSpace(getenv("THINKGRAPH_TOKENS_FILE"))
	c.allowedHosts = splitList(getenv("THINKGRAPH_ALLOWED_HOSTS"))
	c.allowedOrigins = splitList(getenv("THINKGRAPH_ALLOWED_ORIGINS"))
	switch v := strings.ToLower(strings.TrimSpace(getenv("THINKGRAPH_HTTP_STATELESS"))); v {
	case "", "false", "0":
	case "true", "1":
		c.stateless = true
	default:
		errs = append(errs, fmt.Errorf("THINKGRAPH_HTTP_STATELESS must be true or false, got %q", v))
	}
	c.maxBodyBytes = int64(intVar("THINKGRAPH_HTTP_MAX_BODY_BYTES", 4<<20, 1024))
	c.maxSessions = intVar("THINKGRAPH_HTTP_MAX_SESSIONS", 10000, 1)
	c.maxSessionsPer = intVar("THINKGRAPH_HTTP_MAX_SESSIONS_PER_TENANT", 1000, 1)
	if c.maxAnalysed = intVar("THINKGRAPH_MAX_ANALYSED_THOUGHTS", render.DefaultMaxAnalysed, 0); c.maxAnalysed == 0 {
		c.maxAnalysed = -1
	}
	if v := strings.TrimSpace(getenv("THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT")); v != "" {
		d, err := time.ParseDuration(v)
		switch {
		case err == nil && d == 0:
			c.sessionIdle = -1
		case err != nil || d < time.Second:
			errs = append(errs, fmt.Errorf("THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT must be a duration of at least 1s (e.g. 30m, 2h) or 0 for never, got %q", v))
		default:
			c.sessionIdle = d
		}
	}
	c.metricsTenants = splitList(getenv("THINKGRAPH_METRICS_TENANTS"))
	for _, v := range splitList(getenv("THINKGRAPH_TRUSTED_PROXIES")) {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				errs = append(errs, fmt.Errorf("THINKGRAPH_TRUSTED_PROXIES: %q is neither an IP address nor a CIDR (e.g. 10.0.0.0/8)", v))
				continue
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		c.trustedProxies = append(c.trustedProxies, p.Masked())
	}
	c.sqlite.MaxReaders = intVar("DATABASE_MAX_CONNECTIONS", 5, 1)
	c.sqlite.BusyTimeout = time.Duration(intVar("THINKGRAPH_BUSY_TIMEOUT_MS", 10000, 0)) * time.Millisecond
	c.reasoning.MaxContextThoughts = intVar("THINK_MAX_THOUGHTS", 100, 1)
	c.reasoning.MaxThoughtLength = intVar("THINKGRAPH_MAX_THOUGHT_LENGTH", 10000, 1)
	if v := strings.TrimSpace(getenv("THINKGRAPH_CONFIDENCE_THRESHOLD")); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0 && f <= 1) { // NaN is neither
			errs = append(errs, fmt.Errorf("THINKGRAPH_CONFIDENCE_THRESHOLD must be a number in (0, 1], got %q", v))
		} else {
			c.reasoning.ConfidenceThreshold = f
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("THINKGRAPH_JUDGE"))); v {
	case "", "offline":
	case reasoning.JudgeLLM:
		c.reasoning.Judge = reasoning.JudgeLLM
	default:
		errs = append(errs, fmt.Errorf("THINKGRAPH_JUDGE must be offline or llm, got %q", v))
	}
	switch v := strings.ToUpper(strings.TrimSpace(getenv("THINKGRAPH_SQLITE_SYNCHRONOUS"))); v {
	case "", "NORMAL":
		c.sqlite.Synchronous = "NORMAL"
	case "FULL":
		c.sqlite.Synchronous = "FULL"
	default:
		errs = append(errs, fmt.Errorf("THINKGRAPH_SQLITE_SYNCHRONOUS must be NORMAL or FULL, got %q", v))
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("LOG_LEVEL"))); v {
	case "trace":
		c.logLevel = LevelTrace
	case "debug":
		c.logLevel = slog.LevelDebug
	case "", "info":
		c.logLevel = slog.LevelInfo
	case "warn", "warning":
		c.logLevel = slog.LevelWarn
	case "error":
		c.logLevel = slog.LevelError
	default:
		errs = append(errs, fmt.Errorf("LOG_LEVEL must be trace, debug, info, warn or error, got %q", v))
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("LOG_FORMAT"))); v {
	case "", "pretty":
		c.logFormat = "pretty"
	case "json":
		c.logFormat = "json"
	default:
		errs = append(errs, fmt.Errorf("LOG_FORMAT must be pretty or json, got %q", v))
	}
	return c, errors.Join(errs...)
}

// toolsetsFlag applies --toolsets (when given) over THINKGRAPH_TOOLSETS.
func (c *config) toolsetsFlag(value string) error {
	if value == "" {
		return nil
	}
	ts, err := mcpserver.ParseToolsets(value)
	if err != nil {
		return usageError{fmt.Errorf("--toolsets: %w", err)}
	}
	c.toolsets = ts
	return nil
}

// databasePath returns the database file to use: --db, else DATABASE_PATH,
// else a file in the user's data directory (never the working directory,
// which is arbitrary when an MCP client spawns the server).
func (c *config) databasePath(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if c.dbPath != "" {
		return c.dbPath, nil
	}
	if x := c.getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "thinkgraph", "thinkgraph.db"), nil
	}
	home := c.getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot find a data directory (no XDG_DATA_HOME or HOME): set DATABASE_PATH or --db")
		}
		home = h
	}
	return filepath.Join(home, ".local", "share", "thinkgraph", "thinkgraph.db"), nil
}

// embedder returns the configured embedder: an OpenAI-compatible endpoint
// when THINKGRAPH_EMBEDDINGS_URL is set, else the offline lexical embedder.
func (c *config) embedder() (semantic.Embedder, error) {
	if c.embeddings.URL != "" {
		return semantic.NewOpenAIEmbedder(c.embeddings)
	}
	return semantic.NewLexical(semantic.LexicalOptions{})
}

// semanticEngine is the semantic engine the server runs: the configured embedder
// and the offline contradiction judge. serve and eval build it here, so
// eval measures what serve runs.
func (c *config) semanticEngine(log *slog.Logger) (reasoning.SemanticConfig, error) {
	emb, err := c.embedder()
	if err != nil {
		return reasoning.SemanticConfig{}, err
	}
	// The offline engine validates its lexicon image and fills its caches
	// on first use (a few ms of CPU).
	contra, err := contradict.NewContradictor(nil)
	if err != nil {
		return reasoning.SemanticConfig{}, err
	}
	return reasoning.SemanticConfig{Embedder: emb, Contradictor: contra, Logger: log}, nil
}

func (c *config) logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{
		Level: c.logLevel,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.LevelKey {
				if l, ok := a.Value.Any().(slog.Level); ok && l == LevelTrace {
					a.Value = slog.StringValue("TRACE")
				}
			}
			return a
		},
	}
	if c.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
