-- A server's changes to its rulesets' tables (Block bonus, stance effects, …) as JSON keyed by
-- ruleset ({"uttas": {"reactions": {"block": {"dodge_bonus": 3}}}}). An encounter keeps the
-- changes in force when it started, so a fight never changes rules halfway.
ALTER TABLE guild_settings ADD COLUMN rules_overrides TEXT NOT NULL DEFAULT '{}';
ALTER TABLE encounters ADD COLUMN rules_overrides TEXT NOT NULL DEFAULT '{}';
