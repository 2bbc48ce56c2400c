-- Version 15: clicks on a hand DM handed from the process that received them to the process
-- that runs the game.
--
-- Discord sends every DM interaction to shard 0. When the game of a clicked hand DM is run by
-- another process (its server on a shard of that process), the process of shard 0
-- acknowledges the click and stores it here for the owner of the shard, which takes it
-- (deleting the row), plays it and answers through the interaction's token. A row lives no
-- longer than the token (expires_at, Unix seconds: 15 minutes after the click).

CREATE TABLE forwarded_clicks (
    interaction_id BIGINT PRIMARY KEY,
    shard_id       INTEGER NOT NULL CHECK (shard_id >= 0),
    table_id       TEXT NOT NULL,
    interaction    TEXT NOT NULL,
    expires_at     BIGINT NOT NULL
);

CREATE INDEX forwarded_clicks_by_shard ON forwarded_clicks (shard_id);
