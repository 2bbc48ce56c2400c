-- Version 13: how each person is told that it
-- is their turn, each server's default, and each table's turn time.
--
-- turn_pings: a person's own choice, kept across restarts and servers. server_turn_pings: what
-- a server admin chose for the people of that server who never chose. ping is 'now' (a
-- mention in the table's channel when the turn begins), 'later' (the same mention after
-- delay_seconds, only if the turn is still theirs), 'dm' (a new direct message instead of a
-- mention) or 'never'.

CREATE TABLE turn_pings (
    user_id BIGINT PRIMARY KEY,
    ping TEXT NOT NULL CHECK (ping IN ('now', 'later', 'dm', 'never')),
    delay_seconds INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE server_turn_pings (
    guild_id BIGINT PRIMARY KEY,
    ping TEXT NOT NULL CHECK (ping IN ('now', 'later', 'dm', 'never')),
    delay_seconds INTEGER NOT NULL DEFAULT 0
);

-- The turn time a lobby's host chose (seconds; NULL: stored before this version, when every
-- table used the server's TURN_SECONDS), kept with the lobby and the running game it became.
ALTER TABLE open_lobbies ADD COLUMN turn_seconds INTEGER;
ALTER TABLE running_games ADD COLUMN turn_seconds INTEGER;
ALTER TABLE set_aside_games ADD COLUMN turn_seconds INTEGER;
