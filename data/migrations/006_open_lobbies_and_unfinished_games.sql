-- Version 6: open lobbies, kept across a restart, and games that ended without a result.
--
-- open_lobbies: a lobby being gathered, saved with every change (seats, AI levels) so that a
-- restarted bot brings it back with its message and buttons. Starting the game deletes the
-- row in the same transaction as the game's first save, so a lobby never outlives its start.
--
-- unfinished_games: a running game that ended without a result (stopped by its host, its
-- channel deleted or closed to the bot, the bot removed from the server, no people left),
-- with why. It changes no rating, stat or history; its seed and actions replay it.
-- Written in SQL that SQLite and PostgreSQL both accept.

CREATE TABLE open_lobbies (
    lobby_id   TEXT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL UNIQUE,     -- one game (or lobby) per channel
    host_id    BIGINT NOT NULL,
    game_id    TEXT NOT NULL,
    options    TEXT NOT NULL,              -- JSON object
    seats      TEXT NOT NULL,              -- JSON list of SeatRecord
    message_id BIGINT,                     -- the lobby message (None until it is posted)
    saved_at   TEXT NOT NULL
);

CREATE TABLE unfinished_games (
    table_id   TEXT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    game_id    TEXT NOT NULL,
    options    TEXT NOT NULL,              -- JSON object
    seed       BIGINT NOT NULL,
    seats      TEXT NOT NULL,              -- JSON list of SeatRecord
    actions    TEXT NOT NULL,              -- JSON list of [seat, action text]
    started_at TEXT NOT NULL,
    ended_at   TEXT NOT NULL,
    reason     TEXT NOT NULL
);

CREATE INDEX unfinished_games_guild ON unfinished_games (guild_id, ended_at);
