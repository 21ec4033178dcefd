-- PostgreSQL twin of bot/store/migrations/0024_turn_announced.sql: the turn each live fight's
-- announcement was last posted for (-1 for fights live before it: never pinged again).
CREATE TABLE turn_announced (
    encounter_id BIGINT PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
    turn_seq     BIGINT NOT NULL
);

INSERT INTO turn_announced (encounter_id, turn_seq)
    SELECT id, -1 FROM encounters WHERE status = 'live';
