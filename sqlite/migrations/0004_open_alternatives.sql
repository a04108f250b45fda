-- get_unexplored_branches reads a session's open alternatives (never
-- selected): index just those, so that it reads them alone rather than
-- every thought of the session. The store's query repeats this WHERE
-- clause word for word, so that the planner can tell the index applies.
CREATE INDEX thoughts_open_alternatives ON thoughts (session_id, step) WHERE alternative = TRUE AND selected = FALSE;
