-- A member's own settings in a server (issue 17, "Reminders"): their IANA time zone and quiet
-- hours (minutes after local midnight; a span may wrap past midnight, 22:00-08:00). A reminder
-- that falls inside them waits until they end, and never fires after its deadline. Set with
-- ``/me settings``; exported and erased with ``/me export`` and ``/me delete``.
-- The ``reminded`` column of ``decisions`` now counts the reminder points already sent for the
-- row's window (turn or reaction; 0016 used it as a 0/1 flag, which reads the same).
CREATE TABLE member_settings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    timezone    TEXT,
    quiet_start INTEGER,
    quiet_end   INTEGER,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
