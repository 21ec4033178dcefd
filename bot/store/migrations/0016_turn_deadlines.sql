-- Turn deadlines (issue 17, "Turn deadlines"). A running turn with a deadline is a row of
-- ``decisions`` of kind ``turn`` whose ``ref`` is the state's ``turn_seq`` (the turn it
-- times); the expiry loop fires it once, in the same transaction that ends the turn (or that
-- closes it when the GM is only told). While the encounter is paused the row's ``deadline`` is
-- NULL and ``remaining_s`` keeps the seconds that were left, which ``/gm resume`` gives back.
ALTER TABLE decisions ADD COLUMN remaining_s REAL;
