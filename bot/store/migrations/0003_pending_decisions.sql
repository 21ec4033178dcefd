-- The decision an encounter waits on (an attack's reaction, a surrender's outcome): the state
-- version at which it started waiting (buttons carry it, so stale clicks are refused), when its
-- window runs out (indexed: the expiry loop asks for what is due), and the message showing it.
ALTER TABLE encounters ADD COLUMN pending_version INTEGER;
ALTER TABLE encounters ADD COLUMN pending_deadline TEXT;
ALTER TABLE encounters ADD COLUMN prompt_message_id INTEGER;

CREATE INDEX encounters_pending_deadline
    ON encounters (pending_deadline) WHERE status = 'live' AND pending_deadline IS NOT NULL;
