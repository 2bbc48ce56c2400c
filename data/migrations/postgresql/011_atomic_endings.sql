-- Version 11 for PostgreSQL (see ../011_atomic_endings.sql): the same repair, and no
-- process-wide lock when a game finishes.
--
-- The finish_game trigger took one advisory lock for every finish of every server, so that two
-- finishes could not both number their game MAX(recorded) + 1: one process frozen in the middle
-- of a finish blocked every finish of every shard. Now a sequence numbers the games (unique
-- without a lock), and a transaction-scoped lock per server and game keeps a server's games of
-- one game numbered in the order they commit, which ratings rely on (they read "the games
-- recorded after game N" of one server and game). A frozen finish holds up only the finishes
-- of its own server and game, for at most the sessions' lock_timeout.

DELETE FROM unfinished_games WHERE table_id IN (SELECT table_id FROM running_games);

CREATE SEQUENCE finished_games_recorded_order;
SELECT setval('finished_games_recorded_order', COALESCE(MAX(recorded), 0) + 1, false)
FROM finished_games;

CREATE OR REPLACE FUNCTION finish_game_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- the first key is the old lock's; the second picks the server and game (two that share
    -- a hash only take turns)
    PERFORM pg_advisory_xact_lock(1128354373, hashtext(NEW.guild_id::text || '/' || NEW.game_id));
    DELETE FROM running_games WHERE table_id = NEW.table_id;
    INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,
        started_at, ended_at, has_ai, summary, season, recorded)
    VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game_id, NEW.options, NEW.seed,
        NEW.started_at, NEW.ended_at, NEW.has_ai, NEW.summary,
        (SELECT COALESCE(MAX(season), 1) FROM seasons
         WHERE guild_id = NEW.guild_id AND game_id = NEW.game_id),
        nextval('finished_games_recorded_order'));
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
