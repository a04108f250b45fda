-- Embeddings of thoughts for the semantic engine: one vector per thought,
-- float32 little-endian in vec (dim values).
CREATE TABLE vectors (
	thought_id TEXT PRIMARY KEY REFERENCES thoughts (id),
	session_id TEXT NOT NULL REFERENCES sessions (id),
	model      TEXT NOT NULL,
	dim        INTEGER NOT NULL,
	vec        BYTEA NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX vectors_session_model ON vectors (session_id, model);
