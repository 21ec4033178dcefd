-- Turn deadlines (issue 17, "Turn deadlines"). A running turn with a deadline is a row of
-- ``decisions`` of kind ``turn`` whose ``ref`` is the state's ``turn_seq`` (the turn it
-- times); the expiry loop fires it once, in the same transaction that ends the turn (or that
-- closes it when the GM is only told). While the encounter is paused the row's ``deadline`` is
-- NULL and ``remaining_s`` keeps the seconds that were left, which ``/gm resume`` gives back.
-- Reminders (issue 17, "Reminders"): ``remind_before_s`` is how long before the deadline the
-- member whose turn it is gets a mention (half the deadline); ``reminded`` says it was sent,
-- so it is sent at most once per turn, across restarts.
ALTER TABLE decisions ADD COLUMN remaining_s REAL;
ALTER TABLE decisions ADD COLUMN remind_before_s INTEGER;
ALTER TABLE decisions ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
