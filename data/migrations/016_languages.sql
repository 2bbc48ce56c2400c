-- Version 16: the language Cardroom speaks, as people and server admins chose it.
--
-- player_languages.language: the language of a person's private answers and views (their
-- Hand, hand DM, ephemeral answers), chosen with /language; a person without a row reads the
-- language of their Discord client. server_languages.language: the language of a server's
-- public tables and results, chosen by an admin with /cardroom language; a server without a
-- row reads its own Discord locale. Languages are Babel's identifiers ('pt_BR'); the bot
-- checks them against the languages it ships, so a new language needs no migration.

CREATE TABLE player_languages (
    user_id BIGINT PRIMARY KEY,
    language TEXT NOT NULL
);

CREATE TABLE server_languages (
    guild_id BIGINT PRIMARY KEY,
    language TEXT NOT NULL
);
