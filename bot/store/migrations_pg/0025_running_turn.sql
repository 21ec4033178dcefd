-- PostgreSQL twin of bot/store/migrations/0025_running_turn.sql: each encounter's running turn
-- beside its state (``turn_seq``, -1 when no turn runs, NULL until the row is next written).
ALTER TABLE encounters ADD COLUMN running_turn BIGINT;
