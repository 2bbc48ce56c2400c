-- Version 10: a table paused because its channel is closed to the bot stays paused across a
-- restart: when the pause began (NULL: not paused), so that the players are not told again
-- and the pause still runs out on time. A game set aside keeps it too (set aside unchanged).

ALTER TABLE running_games ADD COLUMN paused_since TEXT;
ALTER TABLE set_aside_games ADD COLUMN paused_since TEXT;
