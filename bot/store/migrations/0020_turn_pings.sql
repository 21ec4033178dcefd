-- Turn pings with buttons (issue 17, "Act from the ping"): each message that says it is a
-- combatant's turn and carries End turn / the breather / Attack… is a row here, with the
-- ``turn_seq`` it was posted for. After a change in the channel, the rows whose turn is over
-- (or whose fight ended) lose their buttons — by a click, a typed command, ``/gm next`` or a
-- deadline alike — and go; kept here so a restart does not forget them.
CREATE TABLE turn_pings (
    message_id   INTEGER PRIMARY KEY,
    encounter_id INTEGER NOT NULL REFERENCES encounters (id),
    channel_id   INTEGER NOT NULL,
    turn_seq     INTEGER NOT NULL
);

CREATE INDEX turn_pings_by_channel ON turn_pings (channel_id);
