-- Session ids are chosen by clients and unique only within a tenant: two
-- tenants may both use "s1" without meeting. sessions.id stays the store's
-- own key of a session (what branches, thoughts, links and vectors point
-- to); the id clients use moves to sessions.name, unique per tenant.
-- Sessions stored before keep their id as their key and their name, and
-- keep their tenant.
ALTER TABLE sessions ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE sessions SET name = id;
CREATE UNIQUE INDEX sessions_tenant_name ON sessions (tenant, name);

-- An invocation names its session by tenant and id. Invocations stored
-- before take the tenant of their session (local when it is gone).
ALTER TABLE invocations ADD COLUMN tenant TEXT NOT NULL DEFAULT 'local';
UPDATE invocations SET tenant = COALESCE((SELECT s.tenant FROM sessions s WHERE s.id = invocations.session_id), 'local');
DROP INDEX invocations_session;
CREATE INDEX invocations_session ON invocations (tenant, session_id, created_at);
