-- PostgreSQL twin of bot/store/migrations/0027_turn_announced_claim.sql: a start-up's claim on
-- a lost turn's ping ("<until> <claimer>", NULL once a post showed the turn), owed again when it
-- lapses unconfirmed (compared as text, like SQLite: COLLATE "C").
ALTER TABLE turn_announced ADD COLUMN claim TEXT COLLATE "C";

CREATE INDEX turn_announced_claimed ON turn_announced (claim) WHERE claim IS NOT NULL;
