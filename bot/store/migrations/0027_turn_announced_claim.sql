-- A start-up's claim on a lost turn's ping is a lease (fix22). Claiming it wrote the turn as
-- shown before the ping was posted (so two processes never both post it): a bot killed in
-- between lost that ping for good. ``claim`` is "<until> <claimer>" (fixed-width UTC text, as
-- ``decisions.claim``) while a process posts the turn's ping, NULL once a post showed it; a
-- claim not confirmed by its post before ``until`` is owed again — at the next start, or by the
-- background loop of any process (bot.ui.turn_pings). The partial index keeps the loop's look
-- for lapsed claims to the few rows that have one.
ALTER TABLE turn_announced ADD COLUMN claim TEXT;

CREATE INDEX turn_announced_claimed ON turn_announced (claim) WHERE claim IS NOT NULL;
