-- GM moderation (issue 6): a server's GM role, pausing an encounter, and undo/redo over the log.

-- Per-server settings: the role whose members are GMs of every encounter in that server.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    gm_role_id INTEGER,
    updated_at TEXT    NOT NULL
);

-- A paused encounter refuses its players' commands (the GM's still work). Not part of the
-- engine state, so undo never pauses or resumes a fight.
ALTER TABLE encounters ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;

-- Undo bookkeeping on the log. ``undone_by``: the version of the undo that took this entry back
-- (NULL while it stands). ``redo_cleared_by``: the version of the new command that made an undone
-- entry impossible to redo (a new command after an undo clears the redo history).
ALTER TABLE encounter_log ADD COLUMN undone_by INTEGER;
ALTER TABLE encounter_log ADD COLUMN redo_cleared_by INTEGER;
