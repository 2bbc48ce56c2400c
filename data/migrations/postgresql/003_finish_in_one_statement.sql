-- Version 3 for PostgreSQL (see ../003_finish_in_one_statement.sql): finishing a game is one
-- INSERT into the view finish_game, whose INSTEAD OF trigger (a PL/pgSQL function here) deletes
-- the running row and writes the game, one row per seat and the replay record. The view's
-- columns are typed so that the bot sends the same values as to SQLite.

CREATE VIEW finish_game AS
SELECT
    NULL::text AS table_id, NULL::bigint AS guild_id, NULL::bigint AS channel_id,
    NULL::text AS game_id, NULL::text AS options, NULL::bigint AS seed,
    NULL::text AS started_at, NULL::text AS ended_at, NULL::integer AS has_ai,
    NULL::text AS summary,
    NULL::text AS seats,   -- JSON list of {"seat","user_id","name","is_ai","score","place"}
    NULL::text AS record   -- JSON replay record
WHERE false;

CREATE FUNCTION finish_game_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM running_games WHERE table_id = NEW.table_id;
    INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,
        started_at, ended_at, has_ai, summary, season)
    VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game_id, NEW.options, NEW.seed,
        NEW.started_at, NEW.ended_at, NEW.has_ai, NEW.summary,
        (SELECT COALESCE(MAX(season), 1) FROM seasons
         WHERE guild_id = NEW.guild_id AND game_id = NEW.game_id));
    INSERT INTO finished_seats (table_id, seat, user_id, name, is_ai, score, place)
    SELECT NEW.table_id, (seat ->> 'seat')::integer, (seat ->> 'user_id')::bigint,
        seat ->> 'name', (seat ->> 'is_ai')::boolean::integer, (seat ->> 'score')::integer,
        (seat ->> 'place')::integer
    FROM json_array_elements(NEW.seats::json) WITH ORDINALITY AS seats (seat, n)
    ORDER BY n;
    INSERT INTO replay_records (table_id, record) VALUES (NEW.table_id, NEW.record);
    RETURN NEW;
END;
$$;

CREATE TRIGGER finish_game_insert INSTEAD OF INSERT ON finish_game
    FOR EACH ROW EXECUTE FUNCTION finish_game_insert();
