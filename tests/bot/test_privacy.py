"""Privacy and plain names: a seat handed to the AI gets one last hand DM edit without cards
or controls, and nothing of that seat reaches its former player afterwards; names are shown
as written (markdown escaped), never as links or formatting, and ping nobody."""

from __future__ import annotations

import random

import discord
import pytest
import simcord

from bot.app import CardroomBot
from tests.bot.helpers import (
    add_player,
    cards_in,
    components,
    move_by_hand,
    open_table,
    text_of,
)


@pytest.mark.slow
async def test_a_seat_handed_to_the_ai_gets_one_last_dm_and_nothing_more(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    assert cards_in(text_of(ann.user.dm_channel.history()[-1])), "ann's hand came by DM"
    await ann.member.slash(channel, "game leave")
    dms = ann.user.dm_channel.history()
    assert len(dms) == 1
    last = text_of(dms[0])
    assert "The AI plays this seat now" in last and not cards_in(last)
    assert not components(dms[0]), "no controls are left"
    # bob plays on against the AI in ann's seat, through a new deal (fishing deals four)
    rng = random.Random(4)
    deals = table.deals
    while table.deals < deals + 2 and not table.ended:
        if 1 in table.state.waiting_for():
            assert await move_by_hand(bob, channel, table, rng)
        await env.advance_time(1)
    assert [text_of(m) for m in ann.user.dm_channel.history()] == [last]


NITRO = "[Free Nitro](https://example.com) *now*"


async def test_names_are_shown_as_written_never_as_markdown(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, nitro = add_player(env, guild, "ann"), add_player(env, guild, NITRO)
    await open_table(bot, channel, [ann, nitro], "fishing", 0)
    await nitro.member.slash(channel, "game leave")  # a notice with the name in it
    seen = "\n".join(text_of(m) for m in channel.history() if not m.flags.ephemeral)
    escaped = discord.utils.escape_markdown(NITRO)
    assert seen.count(escaped) >= 3, "lobby, table and notice name them"
    assert NITRO not in seen.replace(escaped, ""), "never unescaped: no link, no italics"


async def test_a_name_written_as_a_mention_pings_nobody(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    loud, sneaky = add_player(env, guild, "@everyone"), add_player(env, guild, f"<@{ann.id}>")
    await open_table(bot, channel, [ann, loud, sneaky], "fishing", 0)
    for leaver in (loud, sneaky):  # notices in the channel, with the names as written
        await leaver.member.slash(channel, "game leave")
    sent = list(env.backend.messages[channel.id].values())
    assert any(m.content.startswith(f"<@{ann.id}> left") for m in sent)
    assert any("@everyone left" in m.content for m in sent)
    assert not [m for m in sent if m.mention_everyone or m.ping_role_ids], "the bot may, never does"
    pinged = [m for m in sent if m.ping_user_ids]
    for message in pinged:  # only a turn's ping, naming its one person, pings anyone
        (user_id,) = message.ping_user_ids
        assert message.content == f"<@{user_id}>, it is your turn in **Fishing**."
    assert not [m for m in sent if " left" in m.content and m.ping_user_ids], "names ping nobody"
