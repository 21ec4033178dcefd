-- Encounters: at most one live encounter per channel; the engine's state is a JSON document
-- guarded by an optimistic version number (UPDATE ... WHERE version = ?).
CREATE TABLE encounters (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    name               TEXT    NOT NULL,
    ruleset            TEXT    NOT NULL,
    started_by         INTEGER NOT NULL,
    gm_id              INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('live', 'archived')),
    state              TEXT    NOT NULL,
    version            INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    tracker_message_id INTEGER,
    created_at         TEXT    NOT NULL,
    updated_at         TEXT    NOT NULL,
    ended_at           TEXT
);

CREATE UNIQUE INDEX encounters_one_live_per_channel
    ON encounters (channel_id) WHERE status = 'live';

CREATE INDEX encounters_by_guild ON encounters (guild_id, status);

-- Every applied command, with the state it produced, so the log can be exported and undone.
CREATE TABLE encounter_log (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    actor_id     INTEGER NOT NULL,
    command      TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    result       TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (encounter_id, version)
);

-- Small key/value facts about this installation (e.g. the hash of the last command sync).
CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
