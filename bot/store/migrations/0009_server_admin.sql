-- Who may start encounters in a server, and how many live encounters one member may run (issue 9
-- §8). ``start_policy``: 'everyone' (anyone may start one; the behaviour before this migration)
-- or 'gms' (server GMs — Manage Server, Manage Channels or the GM role — and members with
-- ``starter_role_id`` if set). ``max_live_encounters``: how many live encounters one member may
-- be the GM of at once (server GMs are exempt); 0 means no cap.
ALTER TABLE guild_settings ADD COLUMN start_policy TEXT NOT NULL DEFAULT 'everyone'
    CHECK (start_policy IN ('everyone', 'gms'));
ALTER TABLE guild_settings ADD COLUMN starter_role_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN max_live_encounters INTEGER NOT NULL DEFAULT 3
    CHECK (max_live_encounters >= 0);

-- The cap is counted when an encounter starts: a member's live encounters in one server.
CREATE INDEX encounters_live_by_gm ON encounters (guild_id, gm_id) WHERE status = 'live';

-- A member's own data (issue 9 §9): the log entries a member issued, found without reading every
-- state snapshot of the server.
CREATE INDEX encounter_log_by_actor ON encounter_log (actor_id);
