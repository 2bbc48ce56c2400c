-- Version 11: a game is never both running and unfinished.
--
-- Before this version, ending a game without a result copied its running row to
-- unfinished_games and then deleted it in a second statement, and a save landing in between
-- (PostgreSQL) kept the game running beside its unfinished copy; every later stop of that
-- game then failed on the copy's primary key. The running row is the game as it goes on, so
-- the stale copy goes. (Ending is one DELETE … RETURNING and an INSERT of what it returned
-- now, in one transaction.)

DELETE FROM unfinished_games WHERE table_id IN (SELECT table_id FROM running_games);
