-- Version 9: /stats reads a player's seats and their games' server and game from indexes
-- alone (covering indexes), instead of every seat row and every game row: at 10,000 finished
-- games it reads a third as much (median 1.3 -> 0.4 ms). The new seats index starts with
-- user_id, as the one it replaces did.

CREATE INDEX finished_seats_user_results
    ON finished_seats (user_id, table_id, place, left_early, score);
DROP INDEX finished_seats_user;
CREATE INDEX finished_games_server_and_game ON finished_games (table_id, guild_id, game_id);
