-- Version 11 (13 once 011 and 012 of other branches land): how each person is told that it is their turn, and each server's default.
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
