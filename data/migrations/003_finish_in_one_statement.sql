-- Version 3: finishing a game is one INSERT into the view finish_game, whose trigger deletes
-- the running row and writes the game (in its server's current season), one row per seat (from
-- the JSON list in ``seats``) and the replay record. One statement is one transaction: if any
-- row fails a constraint, nothing of it stays. (One statement also means one trip to the
-- database thread instead of six.)

CREATE VIEW finish_game AS
SELECT
    NULL AS table_id, NULL AS guild_id, NULL AS channel_id, NULL AS game_id, NULL AS options,
    NULL AS seed, NULL AS started_at, NULL AS ended_at, NULL AS has_ai, NULL AS summary,
    NULL AS seats,   -- JSON list of {"seat","user_id","name","is_ai","score","place"}
    NULL AS record   -- JSON replay record
WHERE 0;

CREATE TRIGGER finish_game_insert INSTEAD OF INSERT ON finish_game
BEGIN
    DELETE FROM running_games WHERE table_id = NEW.table_id;
    INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,
        started_at, ended_at, has_ai, summary, season)
    VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game_id, NEW.options, NEW.seed,
        NEW.started_at, NEW.ended_at, NEW.has_ai, NEW.summary,
        (SELECT COALESCE(MAX(season), 1) FROM seasons
         WHERE guild_id = NEW.guild_id AND game_id = NEW.game_id));
    INSERT INTO finished_seats (table_id, seat, user_id, name, is_ai, score, place)
    SELECT NEW.table_id, json_extract(value, '$.seat'), json_extract(value, '$.user_id'),
        json_extract(value, '$.name'), json_extract(value, '$.is_ai'),
        json_extract(value, '$.score'), json_extract(value, '$.place')
    FROM json_each(NEW.seats)
    ORDER BY key;
    INSERT INTO replay_records (table_id, record) VALUES (NEW.table_id, NEW.record);
END;
