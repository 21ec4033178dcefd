-- One store for decisions and timers (issue 10, decision B). Until now an encounter's one
-- pending decision lived in three ``encounters`` columns; every kind of pending decision or
-- timer — reaction windows now; approvals, post-roll spends, turn deadlines and reminders in
-- later issues — is a row here instead, with its kind, its encounter, who has been asked, its
-- deadline, the message that shows it, and a claim marker for the process expiring it.
--
-- * ``kind``: what waits. ``reaction``: the ruleset's pending decision (an attack waiting for a
--   reaction, a surrender's complete-or-stop). Its buttons name it by (encounter,
--   ``opened_version``), which the partial unique index below makes one row.
-- * ``opened_version``: the encounter version it opened at; ``status`` 'open' until it is
--   settled, expires, is undone or its encounter ends ('closed', ``closed_at``).
-- * ``deadline``: when it closes by itself (NULL: never); the expiry loop asks for what is due.
-- * ``asked``: JSON list of the member ids told about it so far (a member newly asked is
--   pinged); NULL when not known (a decision that waited before this migration).
-- * ``prompt_message_id``: the message showing it; once it is closed the prompt must lose its
--   buttons: ``prompt_retired`` says it did, and ``retire_text``/``retire_embed`` (JSON) keep
--   what it should say when Discord refused the edit, so it is done later — across restarts.
-- * ``claim``: which process is expiring it (several bot processes, a later issue).
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    encounter_id INTEGER NOT NULL REFERENCES encounters (id),
    kind TEXT NOT NULL,
    opened_version INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    deadline TEXT,
    asked TEXT,
    prompt_message_id INTEGER,
    prompt_retired INTEGER NOT NULL DEFAULT 0,
    retire_text TEXT,
    retire_embed TEXT,
    claim TEXT,
    created_at TEXT NOT NULL,
    closed_at TEXT
);

CREATE UNIQUE INDEX decisions_one_open ON decisions (encounter_id, kind) WHERE status = 'open';
CREATE UNIQUE INDEX decisions_by_opening ON decisions (encounter_id, kind, opened_version);
CREATE INDEX decisions_due ON decisions (deadline) WHERE status = 'open' AND deadline IS NOT NULL;
CREATE INDEX decisions_by_prompt ON decisions (prompt_message_id)
    WHERE prompt_message_id IS NOT NULL;
CREATE INDEX decisions_to_retire ON decisions (encounter_id)
    WHERE status = 'closed' AND prompt_message_id IS NOT NULL AND prompt_retired = 0;

-- The decisions waiting today move over (those of live encounters; an archived encounter's
-- leftover marker is dropped with the columns).
INSERT INTO decisions (encounter_id, kind, opened_version, deadline, prompt_message_id, created_at)
    SELECT id, 'reaction', pending_version, pending_deadline, prompt_message_id, updated_at
    FROM encounters WHERE status = 'live' AND pending_version IS NOT NULL;

DROP INDEX encounters_pending_deadline;
ALTER TABLE encounters DROP COLUMN pending_version;
ALTER TABLE encounters DROP COLUMN pending_deadline;
ALTER TABLE encounters DROP COLUMN prompt_message_id;
