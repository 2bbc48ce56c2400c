"""A table whose channel is gone or closed to the bot ends cleanly, once, and nothing keeps
asking Discord for it (403s count toward Discord's invalid-request limit)."""

from __future__ import annotations

import random

import simcord

from bot.app import CardroomBot
from tests.bot.helpers import add_player, move_by_hand, open_table, text_of


async def test_a_table_whose_channel_refuses_the_bot_ends_without_retrying(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    # the bot's permissions in the channel are taken away
    env.inject_error(
        "*",
        f"/channels/{channel.id}/*",
        status=403,
        code=50001,
        message="Missing Access",
        times=None,
    )
    mover = [ann, bob][table.state.waiting_for()[0]]
    assert await move_by_hand(mover, channel, table, random.Random(1))
    assert table.ended and "can no longer reach this table's channel" in table.end_reason
    assert bot.tables.lobby_in(channel.id) is None and channel.id not in bot.tables.by_channel
    assert await bot.storage.running.load() == [], "the running game is deleted"
    asked = len([r for r in env.http_requests if f"/channels/{channel.id}/" in r.path])
    await env.advance_time(bot.settings.turn_seconds * 3)
    again = len([r for r in env.http_requests if f"/channels/{channel.id}/" in r.path])
    assert again == asked, "nothing asked of the channel after the end"
    last_dm = text_of(ann.user.dm_channel.history()[-1])
    assert "can no longer reach this table's channel" in last_dm


async def test_a_deleted_channel_ends_its_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    await bot.get_channel(channel.id).delete()  # type: ignore[union-attr]
    await env.advance_time(1)
    assert table.ended and channel.id not in bot.tables.by_channel
    assert await bot.storage.running.load() == []
