-- PostgreSQL twin of bot/store/migrations/0022_state_version.sql (issue 15): the version the
-- live row's stored state is at when older than the row's; NULL: at the row's version.
ALTER TABLE encounters ADD COLUMN state_version BIGINT;
