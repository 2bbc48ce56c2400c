-- Version 2 for PostgreSQL (see ../002_seasons.sql): scoreboard seasons, guild ids as BIGINT.

CREATE TABLE seasons (
    guild_id   BIGINT NOT NULL,
    game_id    TEXT NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 2),  -- season 1 needs no row
    started_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, game_id, season)
);

ALTER TABLE finished_games ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);

CREATE INDEX finished_games_season ON finished_games (guild_id, game_id, season, ended_at);
