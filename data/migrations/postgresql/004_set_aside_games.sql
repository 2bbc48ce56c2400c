-- Version 4 for PostgreSQL (see ../004_set_aside_games.sql): a running game that cannot be
-- read back is moved here at start, with the reason. PostgreSQL's typed columns cannot hold a
-- row of the wrong types in the first place, so the copy keeps running_games' types.

CREATE TABLE set_aside_games (
    table_id         TEXT,
    guild_id         BIGINT,
    channel_id       BIGINT,
    host_id          BIGINT,
    game_id          TEXT,
    options          TEXT,
    seed             BIGINT,
    seats            TEXT,
    state            TEXT,
    revision         INTEGER,
    actions          TEXT,
    table_message_id BIGINT,
    deadline         TEXT,
    started_at       TEXT,
    saved_at         TEXT,
    error            TEXT NOT NULL,
    set_aside_at     TEXT NOT NULL
);
