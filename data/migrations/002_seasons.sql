-- Version 2: scoreboard seasons. A reset starts a new season for a server and game; finished
-- games keep the season they were played in, so older seasons stay queryable. Games recorded
-- under version 1 belong to season 1.

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    game_id    TEXT NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 2),  -- season 1 needs no row
    started_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, game_id, season)
);

ALTER TABLE finished_games ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);

CREATE INDEX finished_games_season ON finished_games (guild_id, game_id, season, ended_at);
