-- Sheet ids are never reused, and Confirm/Cancel prompts are recorded.
--
-- ``sheets.id`` was ``INTEGER PRIMARY KEY`` without AUTOINCREMENT, so SQLite handed a deleted
-- top id to the next sheet and anything still holding the old id (a delete prompt on screen)
-- reached the new, unrelated sheet. SQLite cannot add AUTOINCREMENT to a column, so the table
-- is rebuilt: rows are copied with their ids, the old table dropped (nothing references
-- ``sheets`` by foreign key, so this needs no PRAGMA foreign_keys change, which SQLite ignores
-- inside the runner's transaction anyway), the copy renamed, and the indexes of 0002 recreated.
CREATE TABLE sheets_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    owner_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('character', 'npc')),
    ruleset    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL,
    sheet      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);

INSERT INTO sheets_new (id, guild_id, owner_id, kind, ruleset, name, name_key, sheet,
                        created_at, updated_at)
    SELECT id, guild_id, owner_id, kind, ruleset, name, name_key, sheet, created_at, updated_at
    FROM sheets ORDER BY id;

DROP TABLE sheets;

ALTER TABLE sheets_new RENAME TO sheets;

CREATE UNIQUE INDEX sheets_character_name
    ON sheets (guild_id, owner_id, name_key) WHERE kind = 'character';

CREATE UNIQUE INDEX sheets_npc_name
    ON sheets (guild_id, name_key) WHERE kind = 'npc';

CREATE INDEX sheets_by_owner ON sheets (guild_id, kind, owner_id);

-- A Confirm / Cancel prompt (delete a sheet, end an encounter). Its buttons carry the prompt's
-- id; the first answer moves ``status`` off 'open' (UPDATE … WHERE status = 'open') in the same
-- transaction as the change it confirms, so a prompt is answered once: a Confirm after Cancel,
-- or a second simultaneous click, finds it answered and changes nothing. ``kind`` names what
-- the prompt asks (see bot/store/prompts.py); ``target_id`` is the sheet or encounter it is
-- about. AUTOINCREMENT: a prompt id is never reused either.
CREATE TABLE prompts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    target_id   INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER,
    opened_by   INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'confirmed', 'cancelled')),
    created_at  TEXT    NOT NULL,
    answered_at TEXT
);
