-- Version 1 for PostgreSQL (see ../001_initial.sql): the same tables, with Discord ids and
-- seeds as BIGINT (PostgreSQL's INTEGER is 32 bits). Times are ISO 8601 text in UTC and JSON
-- columns are text, as in SQLite, so that both dialects store and return the same values.

CREATE TABLE running_games (
    table_id         TEXT PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    host_id          BIGINT NOT NULL,
    game_id          TEXT NOT NULL,
    options          TEXT NOT NULL,            -- JSON object
    seed             BIGINT NOT NULL,
    seats            TEXT NOT NULL,            -- JSON list of SeatRecord
    state            TEXT NOT NULL,            -- JSON: engine State.to_json()
    revision         INTEGER NOT NULL CHECK (revision >= 0),
    actions          TEXT NOT NULL,            -- JSON list of [seat, action text]
    table_message_id BIGINT,
    deadline         TEXT,                     -- the current decision's turn timer
    started_at       TEXT NOT NULL,
    saved_at         TEXT NOT NULL
);

CREATE INDEX running_games_channel ON running_games (guild_id, channel_id);

CREATE TABLE finished_games (
    table_id   TEXT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    game_id    TEXT NOT NULL,
    options    TEXT NOT NULL,                  -- JSON object
    seed       BIGINT NOT NULL,
    started_at TEXT NOT NULL,
    ended_at   TEXT NOT NULL,
    has_ai     INTEGER NOT NULL CHECK (has_ai IN (0, 1)),
    summary    TEXT NOT NULL                   -- JSON list of lines (one per hand or round)
);

CREATE INDEX finished_games_guild_ended ON finished_games (guild_id, ended_at);

CREATE TABLE finished_seats (
    table_id TEXT NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  BIGINT,                           -- NULL for an AI seat
    name     TEXT NOT NULL,
    is_ai    INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    score    INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (table_id, seat),
    CHECK (is_ai = 1 OR user_id IS NOT NULL)
);

CREATE INDEX finished_seats_user ON finished_seats (user_id);

CREATE TABLE replay_records (
    table_id TEXT PRIMARY KEY REFERENCES finished_games (table_id) ON DELETE CASCADE,
    record   TEXT NOT NULL                     -- JSON: {"game","players","seed","options","actions"}
);
