-- Standing reactions (issue 17, "Standing reactions"): what a player's combatant does when a
-- reaction window would otherwise run out unanswered. One row per combatant of an encounter
-- (``combatant_id`` is the id in the encounter's state); ``member_id`` is the member who set
-- it (its controller, or the GM); ``rule`` the text as typed and ``steps`` the parsed steps as
-- JSON (bot.engine.core.standing.StandingRule). The expiry loop reads them in the same change
-- that lapses the window, so a standing choice is applied exactly once.
CREATE TABLE standing_reactions (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id),
    combatant_id TEXT    NOT NULL,
    member_id    INTEGER NOT NULL,
    rule         TEXT    NOT NULL,
    steps        TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (encounter_id, combatant_id)
);

CREATE INDEX standing_reactions_by_member ON standing_reactions (member_id);
