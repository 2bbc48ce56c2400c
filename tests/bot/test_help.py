"""A way in for newcomers: /help and How to play in every lobby (the rules, privately);
each game's pitch in the slash menu is checked with its start command (test_table_flow)."""

from __future__ import annotations

import simcord

from bot.app import CardroomBot
from bot.text import suit_symbols
from engine.registry import games
from tests.bot.helpers import add_player, assert_within_discord_limits, components, text_of


async def test_help_tells_a_newcomer_what_cardroom_is_its_games_and_how_to_start(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    result = await ann.member.slash(channel, "help")
    assert result.ephemeral and result.response is not None
    text = text_of(result.response)
    assert "Card games to play together" in text
    for game in games().values():
        assert f"**{game.name}** ({game.player_count_text()} players): " in text
        assert suit_symbols(game.pitch) in text
    assert "/game start" in text and "**Join**" in text and "**Start**" in text
    assert "/game rules" in text and "**How to play**" in text
    assert_within_discord_limits(result.response)


async def test_how_to_play_shows_anyone_the_rules_privately(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, cara = add_player(env, guild, "ann"), add_player(env, guild, "cara")
    started = await ann.member.slash(channel, "game start cambio")
    lobby = started.response
    assert lobby is not None
    assert "How to play" in [item.get("label") for item in components(lobby)]
    result = await cara.member.click(lobby, label="How to play")  # not even seated
    assert result.ephemeral and result.response is not None
    text = text_of(result.response)
    assert "# Cambio" in text and "## Your turn" in text and "Table options" in text
    # the same text as /game rules gives
    rules = await cara.member.slash(channel, "game rules", game="cambio")
    assert rules.response is not None and text_of(rules.response) == text
    assert "cara" not in text_of(channel.history()[-1]), "the lobby is unchanged"


async def test_a_lobby_footer_shows_no_lobby_id(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    started = await ann.member.slash(channel, "game start fishing")
    assert started.response is not None
    (lobby_id,) = bot.tables.lobbies.by_id
    text = text_of(started.response)
    assert lobby_id not in text
    assert "closes after 10 minutes without a click" in text
