-- The turn each live fight's announcement was last posted for (fix20b). The bot commits a
-- change before it posts the result and the next turn's ping: killed in between, nobody was
-- pinged for the new turn, and nothing told a restarted bot so. Each posted result records the
-- ``turn_seq`` it showed; at start-up a live fight whose running turn is not the one recorded
-- (or that has no row: a fight begun since) gets its turn's ping (bot.ui.turn_pings).
-- Fights live before this migration get -1: "announced, turn unknown" — never pinged again.
CREATE TABLE turn_announced (
    encounter_id INTEGER PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
    turn_seq     INTEGER NOT NULL
);

INSERT INTO turn_announced (encounter_id, turn_seq)
    SELECT id, -1 FROM encounters WHERE status = 'live';
