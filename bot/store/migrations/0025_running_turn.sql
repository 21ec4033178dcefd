-- The running turn of each encounter beside its state (issue 15's write path keeps the state
-- column only with snapshots, so SQL cannot read it there): ``turn_seq`` while a turn runs,
-- -1 when none does, NULL for a row not written since this migration (then read from its
-- state). At start-up the fights whose running turn no posted result showed are found by
-- comparing it with ``turn_announced`` (migration 0024) — before, every live fight was loaded
-- and replayed to learn its turn, which held the gateway back for seconds per thousand fights.
ALTER TABLE encounters ADD COLUMN running_turn INTEGER;
