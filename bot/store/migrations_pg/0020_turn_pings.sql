-- PostgreSQL twin of bot/store/migrations/0020_turn_pings.sql: each turn ping's message (with
-- its buttons) and the turn_seq it was posted for.
CREATE TABLE turn_pings (
    message_id   BIGINT PRIMARY KEY,
    encounter_id BIGINT NOT NULL REFERENCES encounters (id),
    channel_id   BIGINT NOT NULL,
    turn_seq     BIGINT NOT NULL
);

CREATE INDEX turn_pings_by_channel ON turn_pings (channel_id);
