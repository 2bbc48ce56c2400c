-- Version 18: the language an open lobby speaks in public, kept with it.
--
-- open_lobbies.language: fixed when the lobby opens (its server's, or in a DM its opener's)
-- and the language its table then speaks. NULL for a lobby saved before this version, which
-- is read back in its host's language, as it was then.

ALTER TABLE open_lobbies ADD COLUMN language TEXT;
