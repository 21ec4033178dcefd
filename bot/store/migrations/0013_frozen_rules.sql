-- Rules frozen per encounter (issue 10, decision C): the full tables and the rules version an
-- encounter plays by, stored when it starts (JSON {"version": n, "tables": {...}}), so new
-- defaults or readings apply only to encounters started afterwards. NULL for encounters started
-- before this migration: the bot freezes them at start-up as rules version 1 with the shipped
-- tables and their server changes (rules_overrides), which is what they played by.
ALTER TABLE encounters ADD COLUMN rules TEXT;
