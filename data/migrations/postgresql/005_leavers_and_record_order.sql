-- Version 5 for PostgreSQL (see ../005_leavers_and_record_order.sql): fair records
-- (finished_seats.left_early) and finished_games.recorded, 1, 2, 3 … in the order games were
-- written; the finish_game trigger writes both.

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

CREATE OR REPLACE FUNCTION finish_game_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- two processes finishing games at once would both take the same next number: the
    -- transaction-scoped lock makes them take turns (the unique index would refuse the second)
    PERFORM pg_advisory_xact_lock(1128354373);  -- any fixed key will do
    DELETE FROM running_games WHERE table_id = NEW.table_id;
    INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,
        started_at, ended_at, has_ai, summary, season, recorded)
    VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game_id, NEW.options, NEW.seed,
        NEW.started_at, NEW.ended_at, NEW.has_ai, NEW.summary,
        (SELECT COALESCE(MAX(season), 1) FROM seasons
         WHERE guild_id = NEW.guild_id AND game_id = NEW.game_id),
        (SELECT COALESCE(MAX(recorded), 0) + 1 FROM finished_games));
    INSERT INTO finished_seats (table_id, seat, user_id, name, is_ai, score, place, left_early)
    SELECT NEW.table_id, (seat ->> 'seat')::integer, (seat ->> 'user_id')::bigint,
        seat ->> 'name', (seat ->> 'is_ai')::boolean::integer, (seat ->> 'score')::integer,
        (seat ->> 'place')::integer, COALESCE((seat ->> 'left_early')::boolean, false)::integer
    FROM json_array_elements(NEW.seats::json) WITH ORDINALITY AS seats (seat, n)
    ORDER BY n;
    INSERT INTO replay_records (table_id, record) VALUES (NEW.table_id, NEW.record);
    RETURN NEW;
END;
$$;
