-- Version 8: a running game keeps what its table shows of the past (its last events, each
-- hand's summary, the number of deals) as JSON, saved with every move, so that a start reads
-- it back instead of replaying every action of every game (10,000 games: minutes of CPU).
-- NULL for a game saved before: that one is replayed once at its next start.

ALTER TABLE running_games ADD COLUMN table_log TEXT;
ALTER TABLE set_aside_games ADD COLUMN table_log TEXT;
