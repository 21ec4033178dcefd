-- The live row's state is rewritten only when the log keeps a snapshot (issue 15): every
-- ``snapshot_every`` versions, when the fight ends, for changes that cannot be replayed, and
-- whenever who is in the fight or who controls them changes. ``state_version`` is the version
-- the stored ``state`` is at when older than ``version``; the changes after it are replayed from
-- the log with their recorded dice (bot.services.replay). NULL: the state is at ``version``, as
-- in every row written before.
ALTER TABLE encounters ADD COLUMN state_version INTEGER;
