-- The log keeps what happened, not a copy of every state (issue 15): ``state`` becomes optional.
-- A row keeps its command, options and result (the engine commands applied, every die rolled,
-- the events, when it ran and the issue mark it dated what began with); ``state`` holds a full
-- snapshot only every N versions, when a fight ends and for changes that cannot be replayed
-- (start, undo, redo, a member's erasure…). Any other version's state is the nearest earlier
-- snapshot with the commands after it replayed with their recorded dice
-- (bot.services.replay). Rows written before keep their state copies: each is a snapshot.
-- SQLite cannot drop NOT NULL in place, so the table is rebuilt (same rows, same indexes).
CREATE TABLE encounter_log_events (
    encounter_id    INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    version         INTEGER NOT NULL,
    actor_id        INTEGER NOT NULL,
    command         TEXT    NOT NULL,
    options         TEXT    NOT NULL,
    result          TEXT    NOT NULL,
    state           TEXT,
    created_at      TEXT    NOT NULL,
    undone_by       INTEGER,
    redo_cleared_by INTEGER,
    PRIMARY KEY (encounter_id, version)
);

INSERT INTO encounter_log_events (encounter_id, version, actor_id, command, options, result,
    state, created_at, undone_by, redo_cleared_by)
    SELECT encounter_id, version, actor_id, command, options, result, state, created_at,
        undone_by, redo_cleared_by FROM encounter_log;

DROP TABLE encounter_log;

ALTER TABLE encounter_log_events RENAME TO encounter_log;

CREATE INDEX encounter_log_redoable ON encounter_log (encounter_id, undone_by)
    WHERE undone_by IS NOT NULL AND redo_cleared_by IS NULL;

CREATE INDEX encounter_log_by_actor ON encounter_log (actor_id);

-- The snapshots alone, so the nearest one before a version is found without reading the rows
-- between.
CREATE INDEX encounter_log_snapshots ON encounter_log (encounter_id, version)
    WHERE state IS NOT NULL;
