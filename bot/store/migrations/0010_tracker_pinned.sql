-- Whether the tracker message is pinned (issue 9 §7): a pinned tracker is edited in place; one
-- the bot could not pin is posted again at the bottom of the channel when a round starts, so it
-- does not scroll away (one tracker message at a time).
ALTER TABLE encounters ADD COLUMN tracker_pinned INTEGER NOT NULL DEFAULT 0;
