-- thoughts_version counts the changes to a session's existing thoughts
-- (updates and deletes; appending a thought changes none). The store caches
-- the paths it reads (Tx.Ancestors) per session and uses a cached path only
-- while this count is what it was when the path was read, so a change made
-- through any replica sharing the database invalidates every replica's cache.
ALTER TABLE sessions ADD COLUMN thoughts_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION thoughts_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		UPDATE sessions SET thoughts_version = thoughts_version + 1 WHERE id = OLD.session_id;
		RETURN OLD;
	END IF;
	UPDATE sessions SET thoughts_version = thoughts_version + 1 WHERE id = OLD.session_id OR id = NEW.session_id;
	RETURN NEW;
END
$$;

CREATE TRIGGER thoughts_version AFTER UPDATE OR DELETE ON thoughts
	FOR EACH ROW EXECUTE FUNCTION thoughts_version_bump();
