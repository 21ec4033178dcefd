-- A turn ping keeps saying when its turn's deadline passes (fix19): the deadline moves when the
-- GM pauses and resumes, and stands still while a decision waits, and the ping's "Turn
-- deadline: in 12 hours" went stale. Each ping's text as posted (``content``) and the deadline
-- words in it (``deadline_words``) are kept, so the ping is edited when those words change.
-- NULL in rows written before: such a ping is not edited.
ALTER TABLE turn_pings ADD COLUMN content TEXT;
ALTER TABLE turn_pings ADD COLUMN deadline_words TEXT;
