-- PostgreSQL twin of bot/store/migrations/0023_turn_ping_deadline.sql: each turn ping's text as
-- posted and the deadline words in it, so the ping is edited when its deadline moves.
ALTER TABLE turn_pings ADD COLUMN content TEXT COLLATE "C";
ALTER TABLE turn_pings ADD COLUMN deadline_words TEXT COLLATE "C";
