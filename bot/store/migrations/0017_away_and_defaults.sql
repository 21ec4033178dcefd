-- Away players (issue 17, "Away players"). A member who said `/away` in a server has one row
-- here: while it lasts (``until`` NULL: until `/back`; else until that moment, UTC ISO text),
-- the GM — or ``delegate_id``, a member they named (NULL: the GM only) — may act and react for
-- their combatants, and reminders and turn pings go to the delegate (or the GM) instead.
-- A row whose ``until`` has passed counts for nothing (it ended by itself); `/away` and
-- `/back` replace or delete it.
CREATE TABLE away_members (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    delegate_id INTEGER,
    since TEXT NOT NULL,
    until TEXT,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX away_members_by_delegate ON away_members (guild_id, delegate_id);

-- A combatant's default action for a passed turn deadline (issue 17, "Turn deadlines"), set
-- by the GM (`/gm settings combatant: default_action:`): the ``/act`` key of one of its
-- ruleset's ``deadline_actions`` (UTTAS: ``breather``). Used when the encounter's
-- ``turn_deadline_action`` is ``default_action``.
CREATE TABLE default_actions (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    combatant_id TEXT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (encounter_id, combatant_id)
);
