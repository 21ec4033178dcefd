-- Reserved: number 17 belongs to the standing-reactions branch (issue 17), merged separately.
-- This file only keeps the numbers without a gap on the away branch; delete it when the
-- standing branch's 0017 merges (the away-players table is 0018).
SELECT 1;
