-- Several decisions open at once (issue 10, "Decisions, generalised"). Until now an encounter
-- had at most one open decision; the engine state now keeps a list of them, each with an id
-- of its own (``DecisionBase.id``), and a row here follows each one:
--
-- * ``ref``: the engine's id of the decision the row follows. Rows from before this
--   migration follow the state's only decision, which loads as number 1.
-- * One open row per (encounter, ref); a row is named by (encounter, opened_version, ref) —
--   buttons carry both, and after an undo brings a decision back it opens a new row at the
--   new version, so a button of the old one is refused.
ALTER TABLE decisions ADD COLUMN ref INTEGER NOT NULL DEFAULT 1;

DROP INDEX decisions_one_open;
DROP INDEX decisions_by_opening;
CREATE UNIQUE INDEX decisions_one_open ON decisions (encounter_id, kind, ref)
    WHERE status = 'open';
CREATE UNIQUE INDEX decisions_by_opening ON decisions (encounter_id, kind, opened_version, ref);
