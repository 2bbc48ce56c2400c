-- Version 5: fair records, and results that can be read from where a reader left off.
--
-- finished_seats.left_early: the person in this seat left the game (by /game leave, by timing
-- out, by leaving the server) and the AI finished it. The seat keeps the person's user id, so
-- their record counts the game as a loss (last place), never the AI's result as theirs. Under
-- earlier versions such a seat was written as an AI seat with the person's user id: those rows
-- are marked here.
--
-- finished_games.recorded: 1, 2, 3 … in the order games were written (the order they ended).
-- Ratings are cached and brought up to date by reading only the games recorded since; older
-- rows are numbered by end time.

ALTER TABLE finished_seats ADD COLUMN left_early INTEGER NOT NULL DEFAULT 0
    CHECK (left_early IN (0, 1));
UPDATE finished_seats SET left_early = 1 WHERE is_ai = 1 AND user_id IS NOT NULL;

ALTER TABLE finished_games ADD COLUMN recorded INTEGER;
UPDATE finished_games SET recorded = numbered.n
FROM (SELECT table_id, ROW_NUMBER() OVER (ORDER BY ended_at, table_id) AS n
      FROM finished_games) AS numbered
WHERE numbered.table_id = finished_games.table_id;
CREATE UNIQUE INDEX finished_games_recorded ON finished_games (recorded);
-- what ratings read: a server's games of one game recorded after a given one
CREATE INDEX finished_games_game_recorded ON finished_games (guild_id, game_id, recorded);

DROP TRIGGER finish_game_insert;
CREATE TRIGGER finish_game_insert INSTEAD OF INSERT ON finish_game
BEGIN
    DELETE FROM running_games WHERE table_id = NEW.table_id;
    INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,
        started_at, ended_at, has_ai, summary, season, recorded)
    VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game_id, NEW.options, NEW.seed,
        NEW.started_at, NEW.ended_at, NEW.has_ai, NEW.summary,
        (SELECT COALESCE(MAX(season), 1) FROM seasons
         WHERE guild_id = NEW.guild_id AND game_id = NEW.game_id),
        (SELECT COALESCE(MAX(recorded), 0) + 1 FROM finished_games));
    INSERT INTO finished_seats (table_id, seat, user_id, name, is_ai, score, place, left_early)
    SELECT NEW.table_id, json_extract(value, '$.seat'), json_extract(value, '$.user_id'),
        json_extract(value, '$.name'), json_extract(value, '$.is_ai'),
        json_extract(value, '$.score'), json_extract(value, '$.place'),
        json_extract(value, '$.left_early')
    FROM json_each(NEW.seats)
    ORDER BY key;
    INSERT INTO replay_records (table_id, record) VALUES (NEW.table_id, NEW.record);
END;
