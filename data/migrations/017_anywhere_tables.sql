-- Version 17: tables where the bot is not a member (a group DM, a DM between two people, a
-- server that has not invited it).
--
-- There the bot can only answer interactions: the table message belongs to one interaction
-- (message_token, which may edit it until message_expires) and the freshest interaction
-- of its channel (fresh_token, until fresh_expires) may post it anew. Tokens live 15
-- minutes; both are kept so that a restart goes on showing the table while one is alive.
-- asleep: every token was about to expire, the table said so and its clocks stand still
-- until a click brings it back. Times are Unix seconds.

CREATE TABLE anywhere_tables (
    table_id        TEXT PRIMARY KEY,
    channel_id      BIGINT NOT NULL,
    message_id      BIGINT,
    message_token   TEXT,
    message_expires BIGINT,
    fresh_token     TEXT,
    fresh_expires   BIGINT,
    asleep          INTEGER NOT NULL DEFAULT 0
);
