-- Every new command clears the redo history (UPDATE … WHERE undone_by IS NOT NULL AND
-- redo_cleared_by IS NULL). Without an index that scanned the encounter's whole log — every
-- state snapshot — on every command; this partial index holds only the few redoable entries.
CREATE INDEX encounter_log_redoable ON encounter_log (encounter_id, undone_by)
    WHERE undone_by IS NOT NULL AND redo_cleared_by IS NULL;
