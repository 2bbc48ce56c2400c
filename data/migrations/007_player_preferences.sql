-- Version 7: what each person chose for themselves, kept across restarts and servers.
--
-- player_preferences.deck_style: how suits are coloured in that person's private pictures
-- (their Hand and hand DM): 'standard' (red and black) or 'four_colour'. A person without a
-- row sees the standard deck; the public table picture is always standard.

CREATE TABLE player_preferences (
    user_id BIGINT PRIMARY KEY,
    deck_style TEXT NOT NULL CHECK (deck_style IN ('standard', 'four_colour'))
);
