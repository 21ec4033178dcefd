-- PostgreSQL twin of bot/store/migrations/0021_event_log.sql (issue 15): the log keeps events
-- and sparse snapshots, so ``state`` becomes optional and the snapshots get an index of their
-- own. PostgreSQL drops NOT NULL in place (SQLite rebuilds the table); the rows, the other
-- columns and their order stay as they were.
ALTER TABLE encounter_log ALTER COLUMN state DROP NOT NULL;

-- The snapshots alone, so the nearest one before a version is found without reading the rows
-- between.
CREATE INDEX encounter_log_snapshots ON encounter_log (encounter_id, version)
    WHERE state IS NOT NULL;
