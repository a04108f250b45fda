-- The reasoning graph, as in sqlite/migrations/0001_init.sql. Timestamps are
-- Unix microseconds (UTC) in BIGINT; JSON is stored as TEXT, exactly as the
-- tools wrote it.
CREATE TABLE sessions (
	id                 TEXT PRIMARY KEY,
	tenant             TEXT NOT NULL DEFAULT 'local',
	goal               TEXT NOT NULL DEFAULT '',
	mode               TEXT NOT NULL DEFAULT '',
	created_at         BIGINT NOT NULL,
	updated_at         BIGINT NOT NULL,
	metadata           TEXT,
	settings           TEXT,
	current_thought_id TEXT NOT NULL DEFAULT '',
	active_branch      TEXT NOT NULL DEFAULT 'main',
	step_count         INTEGER NOT NULL DEFAULT 0,
	context_start      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_tenant_updated ON sessions (tenant, updated_at);

CREATE TABLE branches (
	session_id       TEXT NOT NULL REFERENCES sessions (id),
	id               TEXT NOT NULL,
	state            TEXT NOT NULL DEFAULT 'active',
	priority         DOUBLE PRECISION NOT NULL DEFAULT 1.0,
	parent_branch_id TEXT NOT NULL DEFAULT '',
	fork_thought_id  TEXT NOT NULL DEFAULT '',
	created_at       BIGINT NOT NULL,
	updated_at       BIGINT NOT NULL,
	PRIMARY KEY (session_id, id)
);

CREATE TABLE thoughts (
	id           TEXT PRIMARY KEY,
	session_id   TEXT NOT NULL REFERENCES sessions (id),
	branch_id    TEXT NOT NULL,
	parent_id    TEXT NOT NULL DEFAULT '',
	step         INTEGER NOT NULL,
	content      TEXT NOT NULL,
	type         TEXT NOT NULL DEFAULT '',
	confidence   DOUBLE PRECISION,
	key_points   TEXT,
	branch_point BOOLEAN NOT NULL DEFAULT FALSE,
	alternative  BOOLEAN NOT NULL DEFAULT FALSE,
	selected     BOOLEAN NOT NULL DEFAULT FALSE,
	revises_id   TEXT NOT NULL DEFAULT '',
	author       TEXT NOT NULL DEFAULT 'client',
	tool         TEXT NOT NULL DEFAULT '',
	metadata     TEXT,
	created_at   BIGINT NOT NULL,
	UNIQUE (session_id, step)
);
CREATE INDEX thoughts_parent ON thoughts (session_id, parent_id);
CREATE INDEX thoughts_branch ON thoughts (session_id, branch_id, step);

CREATE TABLE links (
	id           TEXT PRIMARY KEY,
	session_id   TEXT NOT NULL REFERENCES sessions (id),
	from_branch  TEXT NOT NULL DEFAULT '',
	to_branch    TEXT NOT NULL DEFAULT '',
	from_thought TEXT NOT NULL DEFAULT '',
	to_thought   TEXT NOT NULL DEFAULT '',
	type         TEXT NOT NULL,
	reason       TEXT NOT NULL DEFAULT '',
	strength     DOUBLE PRECISION NOT NULL DEFAULT 0,
	created_at   BIGINT NOT NULL
);
CREATE INDEX links_session ON links (session_id);

CREATE TABLE invocations (
	id                TEXT PRIMARY KEY,
	session_id        TEXT NOT NULL DEFAULT '',
	tool_name         TEXT NOT NULL,
	input             TEXT,
	output            TEXT,
	provider          TEXT NOT NULL DEFAULT '',
	pipe_name         TEXT NOT NULL DEFAULT '',
	model             TEXT NOT NULL DEFAULT '',
	latency_ms        BIGINT NOT NULL DEFAULT 0,
	success           BOOLEAN NOT NULL,
	error             TEXT NOT NULL DEFAULT '',
	prompt_tokens     INTEGER NOT NULL DEFAULT 0,
	completion_tokens INTEGER NOT NULL DEFAULT 0,
	total_tokens      INTEGER NOT NULL DEFAULT 0,
	created_at        BIGINT NOT NULL
);
CREATE INDEX invocations_session ON invocations (session_id, created_at);
