-- Version 4: a running game that cannot be read back (corrupt JSON, an unknown game, a state
-- the engine refuses) is moved here at start, byte for byte, with the reason, and reported once
-- in the log and in its channel. Nothing is lost, and the next start does not report it again.
-- The copied columns have no declared type so that even a row with unreadable ids is kept
-- exactly as it was.

CREATE TABLE set_aside_games (
    table_id, guild_id, channel_id, host_id, game_id, options, seed, seats, state, revision,
    actions, table_message_id, deadline, started_at, saved_at,
    error        TEXT NOT NULL,
    set_aside_at TEXT NOT NULL
);
