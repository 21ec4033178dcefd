-- Character sheets and NPC templates, one table for both (``kind``). A sheet belongs to a member
-- (``owner_id``) in a server; an NPC template belongs to the server (``owner_id`` is the GM who
-- made it). ``name_key`` is the case-folded, whitespace-collapsed name: names are unique per
-- member for characters and per server for NPC templates, and are matched exactly on this key.
-- ``sheet`` is the ruleset's sheet model as JSON (natural values only; derived values are
-- computed, never stored).
CREATE TABLE sheets (
    id         INTEGER PRIMARY KEY,
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

CREATE UNIQUE INDEX sheets_character_name
    ON sheets (guild_id, owner_id, name_key) WHERE kind = 'character';

CREATE UNIQUE INDEX sheets_npc_name
    ON sheets (guild_id, name_key) WHERE kind = 'npc';

CREATE INDEX sheets_by_owner ON sheets (guild_id, kind, owner_id);
