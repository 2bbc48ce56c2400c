-- Version 14: tables that play in a thread of their own, and each server's choice of it.
--
-- running_games.channel_id is where a table plays: its thread, when it has one. The channel
-- that thread belongs to (where its lobby was, and where its result is posted) is
-- parent_channel_id; NULL for a table that plays in its channel, as every table did before.
-- set_aside_games keeps the same columns as running_games.
ALTER TABLE running_games ADD COLUMN parent_channel_id BIGINT;
ALTER TABLE set_aside_games ADD COLUMN parent_channel_id BIGINT;

-- Whether a server's tables play in threads (1) or in the lobby's channel (0), as a server
-- admin chose in /cardroom settings; a server with no row has the bot's default (TABLE_THREADS).
CREATE TABLE server_table_threads (
    guild_id BIGINT PRIMARY KEY,
    threads INTEGER NOT NULL CHECK (threads IN (0, 1))
);
