"""A member who leaves the server is handed to the AI, with the same hand-over as ``/game
leave``: one last card-free edit of their hand DM, and their record counts the game as left.

Without the privileged members intent (the default) the bot finds out when their turn runs
out (it asks Discord whether they are still a member: Unknown Member); with
``MEMBERS_INTENT=true`` it hears it at once, and they leave its lobbies too.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot
from bot.settings import Settings
from bot.tables.presenter import AI_TOOK_THE_SEAT
from bot.tables.results import finished_game
from bot.tables.session import TableSession
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    add_player,
    cards_in,
    components,
    move_by_hand,
    open_table,
    text_of,
)


@pytest.fixture
def settings(tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    """The test settings; ``members_intent`` as the test's parameter (False if none)."""
    return fast_settings(tmp_path, members_intent=getattr(request, "param", False))


def handed_over(
    table: TableSession, player: Player, channel: simcord.ChannelHandle, dm_closed: bool = True
) -> None:
    """The player's seat went to the AI as a leaver's: said in the channel, their hand DM
    closed without cards (when Discord lets the bot edit it), and counted as left in the
    record."""
    seat = table.seat_of(player.id)
    assert seat is not None and table.seats[seat].is_ai
    said = [m for m in channel.history() if "bob left the server" in text_of(m)]
    assert len(said) == 1
    closed = [m for m in player.user.dm_channel.history() if AI_TOOK_THE_SEAT in text_of(m)]
    if dm_closed:
        assert len(closed) == 1
        assert not components(closed[0]) and not cards_in(text_of(closed[0]))
    record = finished_game(table, table.started_at)
    assert record.seats[seat].left_early and record.seats[seat].user_id == player.id


async def test_without_the_intent_a_member_who_left_is_handed_over_at_their_first_timeout(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    assert not bot.intents.members, "no privileged intent by default"
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    if table.seat_of(ann.id) in table.state.waiting_for():
        assert await move_by_hand(ann, channel, table, random.Random(1))
    bob_seat = table.seat_of(bob.id)
    assert bob_seat in table.state.waiting_for()
    guild.remove_member(bob.member)  # the bot is not told (no members intent)
    await env.advance_time(1)
    assert table.seats[bob_seat].is_human
    await env.advance_time(bot.settings.turn_seconds)
    handed_over(table, bob, channel)
    assert table.seats[bob_seat].timeouts_in_a_row == 0, "handed over at once, not after 3"
    # ann, still a member, times out as before: a strike, her seat kept
    ann_seat = table.seat_of(ann.id)
    assert ann_seat is not None
    while ann_seat not in table.state.waiting_for():
        await env.advance_time(2)
    await env.advance_time(bot.settings.turn_seconds + 1)
    assert table.seats[ann_seat].timeouts_in_a_row == 1 and table.seats[ann_seat].is_human


async def test_a_dm_refused_to_someone_who_left_hands_the_seat_over_without_a_ping(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    lobby = (await ann.member.slash(channel, "game start fishing")).response
    assert lobby is not None
    await bob.member.click(lobby, label="Join")
    guild.remove_member(bob.member)  # the bot is not told (no members intent)
    # Discord refuses DMs to someone who shares no server with the bot any more
    await bob.user.send_dm("hi")  # opens bob's DM channel
    env.inject_error(
        "*",
        f"/channels/{bob.user.dm_channel.id}/*",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await ann.member.click(lobby, label="Start")
    table = bot.tables.tables[bot.tables.by_channel[channel.id]]
    await env.advance_time(1)
    handed_over(table, bob, channel, dm_closed=False)
    assert all(seat.timeouts_in_a_row == 0 for seat in table.seats), "before any timeout"
    assert not [m for m in channel.history() if "cannot send you direct messages" in text_of(m)]
    # bob is never pinged (ann may be: her turn's ping)
    assert all(bob.id not in m.ping_user_ids for m in env.backend.messages[channel.id].values())


@pytest.mark.parametrize("settings", [True], indirect=True)
async def test_with_the_intent_a_member_who_left_is_handed_over_at_once(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    assert bot.intents.members
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    cara, dan = add_player(env, guild, "cara"), add_player(env, guild, "dan")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    hosted = guild.create_text_channel("hosted")
    joined = guild.create_text_channel("joined")
    hosted_lobby = await bob.member.slash(hosted, "game start fishing")
    joined_lobby = await cara.member.slash(joined, "game start fishing")
    assert joined_lobby.response is not None and hosted_lobby.response is not None
    for player in (bob, dan):
        await player.member.click(joined_lobby.response, label="Join")
    guild.remove_member(bob.member)
    await env.advance_time(1)
    handed_over(table, bob, channel)
    assert hosted.id not in bot.tables.by_channel, "the lobby bob hosted closed"
    assert "host left the server" in text_of(hosted.history()[-1])
    lobby = bot.tables.lobbies.get(bot.tables.by_channel[joined.id])
    assert [seat.name for seat in lobby.seats] == ["cara", "dan"]
    assert "bob" not in text_of(joined.history()[-1])
    saved, _ = await bot.storage.lobbies.load()
    assert [[seat.name for seat in each.seats] for each in saved] == [["cara", "dan"]]
