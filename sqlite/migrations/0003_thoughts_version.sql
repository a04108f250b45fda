-- thoughts_version counts the changes to a session's existing thoughts
-- (updates and deletes; appending a thought changes none). The store caches
-- the paths it reads (Tx.Ancestors) per session and uses a cached path only
-- while this count is what it was when the path was read, so a change made
-- through any process sharing the database invalidates every cache.
ALTER TABLE sessions ADD COLUMN thoughts_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER thoughts_version_update AFTER UPDATE ON thoughts
BEGIN
	UPDATE sessions SET thoughts_version = thoughts_version + 1 WHERE id = OLD.session_id OR id = NEW.session_id;
END;

CREATE TRIGGER thoughts_version_delete AFTER DELETE ON thoughts
BEGIN
	UPDATE sessions SET thoughts_version = thoughts_version + 1 WHERE id = OLD.session_id;
END;
