-- PostgreSQL twin of bot/store/migrations/0026_standing_set_as.sql: how a standing reaction's
-- setter was the fight's GM (''; 'role:<id>'; 'manage-channels').
ALTER TABLE standing_reactions ADD COLUMN set_as TEXT COLLATE "C" NOT NULL DEFAULT '';
