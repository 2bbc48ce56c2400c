"""Start never leaves a half-started table, and /game start checks the bot's permissions in
the channel first, naming the missing ones."""

from __future__ import annotations

import discord
import simcord

from bot.app import CardroomBot
from tests.bot.helpers import add_player, answer, hand_dm, table_message, text_of


def discord_refuses(env: simcord.Env, method: str, path: str) -> None:
    """The next matching request fails as Discord fails an answer that came too late."""
    env.inject_error(method, path, status=404, code=10062, message="Unknown interaction")


async def lobby_with_ai(
    ann: simcord.MemberActor, channel: simcord.ChannelHandle
) -> simcord.ResponseMessage:
    """ann's fishing lobby with one AI seat, ready to start."""
    lobby = answer(await ann.slash(channel, "game start fishing"))
    await ann.click(lobby, label="Add AI")
    return lobby


async def test_a_start_discord_refuses_deals_nothing_and_the_lobby_stays(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    lobby = await lobby_with_ai(ann.member, channel)
    discord_refuses(env, "POST", "/interactions/*/callback")
    await ann.member.click(lobby, label="Start")
    assert not bot.tables.tables, "nothing was dealt"
    assert bot.tables.lobbies.in_channel(channel.id) is not None, "the lobby is still open"
    await ann.member.click(lobby, label="Start")  # and Start works once Discord answers
    table = bot.tables.table_in(channel.id, 0)
    assert table_message(channel, table) is not None


async def test_a_start_whose_answer_fails_still_begins_the_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    lobby = await lobby_with_ai(ann.member, channel)
    discord_refuses(env, "PATCH", "/webhooks/*/messages/@original")
    await ann.member.click(lobby, label="Start")
    table = bot.tables.table_in(channel.id, 0)
    assert "## Fishing" in text_of(table_message(channel, table))
    assert "Your hand" in text_of(hand_dm(ann, table))
    await env.advance_time(bot.settings.turn_seconds + 2)
    assert table.revision > 0, "its timers run"


async def test_start_names_the_permissions_the_bot_lacks_in_the_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle
) -> None:
    me = guild.me
    assert me is not None
    deny = discord.PermissionOverwrite(send_messages=False, attach_files=False)
    channel = guild.create_text_channel("quiet", overwrites={me: deny})
    ann = add_player(env, guild, "ann")
    result = await ann.member.slash(channel, "game start fishing")
    assert result.ephemeral
    text = text_of(result.response)
    assert "Send Messages, Attach Files" in text and "Embed Links" not in text
    assert bot.tables.lobbies.in_channel(channel.id) is None
