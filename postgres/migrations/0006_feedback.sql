-- As in sqlite/migrations/0006_feedback.sql: what a person said about a
-- thought in the viewer (refute, confirm or comment). delivered_at is set
-- when a tool result of the session carried it to the model (NULL until
-- then); the partial index finds what is left to deliver.
CREATE TABLE feedback (
	id           TEXT PRIMARY KEY,
	session_id   TEXT NOT NULL REFERENCES sessions (id),
	thought_id   TEXT NOT NULL,
	kind         TEXT NOT NULL,
	text         TEXT NOT NULL,
	author       TEXT NOT NULL DEFAULT 'human',
	created_at   BIGINT NOT NULL,
	delivered_at BIGINT
);
CREATE INDEX feedback_session ON feedback (session_id, created_at);
CREATE INDEX feedback_undelivered ON feedback (session_id) WHERE delivered_at IS NULL;
