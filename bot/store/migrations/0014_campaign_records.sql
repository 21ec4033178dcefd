-- Campaign records (issue 10, decision A): each character's state between fights — Health that
-- heals over weeks, disabled limbs, rests, conditions that outlast a fight — per server, keyed
-- by the character's sheet (a sheet belongs to one member in one server). ``record`` is the
-- ruleset's record model as JSON; a record of another ruleset than the sheet's is ignored.
-- ``campaign_time_s`` is the server's campaign clock (in-game seconds): an encounter starts
-- from it and moves it on when it ends, so rests are counted across fights.
CREATE TABLE campaign_records (
    character_id INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    ruleset      TEXT    NOT NULL,
    record       TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
);

CREATE INDEX campaign_records_by_guild ON campaign_records (guild_id);

ALTER TABLE guild_settings ADD COLUMN campaign_time_s INTEGER NOT NULL DEFAULT 0;
