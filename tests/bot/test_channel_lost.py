"""A table whose channel is gone or closed to the bot, and the bot removed from a server.

A channel gone for good (deleted, Unknown Channel) or a server the bot was removed from ends
its tables once, without a result, recorded with why; a channel whose permissions were taken
away pauses its table (players and the server's owner told by DM) until they come back, or
ends it when the pause runs out. Nothing keeps asking Discord for a channel that refuses
(403s count toward Discord's invalid-request limit) and nothing of an ended table keeps
running.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from unittest import mock

import discord
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.app import CardroomBot
from bot.i18n import catalog
from bot.storage import LoadedGame
from bot.tables.records import Ending, EndKind
from bot.tables.service import CHANNEL_DELETED, CHANNEL_LOST, GUILD_LEFT, PAUSE_RAN_OUT
from bot.tables.session import TableSession
from bot.ui import permission_list
from engine.words import speaking
from tests.bot.helpers import (
    Player,
    add_player,
    kill_and_restart,
    last_notice,
    move_buttons,
    move_by_hand,
    open_table,
    release,
    table_message,
    text_of,
)


def unfinished(bot: CardroomBot) -> list[tuple[str, str]]:
    """The games recorded as ended without a result: (table id, why)."""
    with sqlite3.connect(bot.storage.url.sqlite_path) as db:
        return db.execute("SELECT table_id, reason FROM unfinished_games").fetchall()


def requests_to(env: simcord.Env, channel: simcord.ChannelHandle) -> int:
    return len([r for r in env.http_requests if f"/channels/{channel.id}" in r.path])


def last_dm(player: Player) -> str:
    return text_of(player.user.dm_channel.history()[-1])


def dms_saying(player: Player, text: str) -> int:
    """How many of the player's DMs (as they read now) say ``text``."""
    return len([m for m in player.user.dm_channel.history() if text in text_of(m)])


def still_running(table: TableSession) -> list[str]:
    """The tasks still working for a table (drivers, displays, pauses)."""
    return [t.get_name() for t in asyncio.all_tasks() if table.table_id in t.get_name()]


def mover(table: TableSession, players: list[Player]) -> Player:
    seat = table.state.waiting_for()[0]
    return next(p for p in players if p.id == table.seats[seat].user_id)


async def assert_ended_for_good(
    env: simcord.Env, bot: CardroomBot, channel: simcord.ChannelHandle, table: TableSession
) -> None:
    """Ended, forgotten and quiet: nothing more asked of its channel, nothing left running."""
    assert table.ended and channel.id not in bot.tables.by_channel
    assert await bot.storage.running.load() == [], "no running game is left"
    asked = requests_to(env, channel)
    await env.advance_time(bot.settings.turn_seconds * 3 + bot.settings.paused_table_seconds)
    assert requests_to(env, channel) == asked, "nothing asked of the channel after the end"
    assert still_running(table) == []
    assert table.table_id not in bot.tables.tables


async def test_a_table_whose_channel_is_unknown_ends_without_retrying(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    env.inject_error(
        "*",
        f"/channels/{channel.id}/*",
        status=404,
        code=10003,
        message="Unknown Channel",
        times=None,
    )
    assert await move_by_hand(mover(table, [ann, bob]), channel, table, random.Random(1))
    await env.advance_time(1)
    assert table.ending == Ending(EndKind.CHANNEL_LOST, CHANNEL_LOST)
    await assert_ended_for_good(env, bot, channel, table)
    assert unfinished(bot) == [(table.table_id, CHANNEL_LOST)]
    assert "can no longer reach this table's channel" in last_dm(ann)


async def test_a_deleted_channel_ends_its_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    await bot.get_channel(channel.id).delete()  # type: ignore[union-attr]
    await env.advance_time(1)
    await assert_ended_for_good(env, bot, channel, table)
    assert unfinished(bot) == [(table.table_id, CHANNEL_DELETED)]
    assert "channel was deleted" in last_dm(ann)


def close_channel(env: simcord.Env, bot: CardroomBot, channel: simcord.ChannelHandle) -> None:
    """An admin takes the bot's View Channel away in the channel (a member overwrite)."""
    assert bot.user is not None
    denied = discord.Permissions(view_channel=True).value
    env.backend.set_overwrite(
        channel.id, Overwrite(target_id=bot.user.id, type=OverwriteType.MEMBER, deny=denied)
    )


async def paused_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> tuple[TableSession, list[Player]]:
    """ann and bob's fishing table, paused: the bot's access to its channel is taken away
    and the next move's table edit is refused (Missing Access)."""
    players = [add_player(env, guild, "ann"), add_player(env, guild, "bob")]
    table = await open_table(bot, channel, players, "fishing", 0)
    close_channel(env, bot, channel)
    assert await move_by_hand(mover(table, players), channel, table, random.Random(1))
    await env.advance_time(1)
    assert table.paused and not table.ended
    return table, players


async def test_permissions_taken_away_pause_the_table_until_they_come_back(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await paused_table(env, bot, guild, channel)
    # a DM names the channel and server in words (a channel mention may not resolve there)
    needed = "**View Channel**, **Send Messages**, **Embed Links** and **Attach Files**"
    for player in players:
        told = last_dm(player)
        assert "is paused" in told and "in **#games** on **Cardroom test**" in told
        assert needed in told and "<#" not in told
    owner_told = text_of(guild.owner.dm_channel.history()[-1])
    assert "in **#games** on your server **Cardroom test**" in owner_told and needed in owner_told
    # nothing moves while paused: no move, no timeout (no strike), nothing asked of the channel
    revision, asked = table.revision, requests_to(env, channel)
    waiting = mover(table, players)
    hand = await waiting.member.click(table_message(channel, table), label="Hand")  # answered
    assert hand.response is not None
    # paused, not "your turn": no deadline, and no move controls that would only be refused
    assert "— paused" in text_of(hand.response) and "Your turn" not in text_of(hand.response)
    assert move_buttons(hand.response) == []
    assert not await move_by_hand(waiting, channel, table, random.Random(2))
    assert "is paused" in text_of(waiting.seen_private[-1])
    await env.advance_time(bot.settings.turn_seconds * 3)
    assert table.revision == revision and table.paused
    assert all(seat.timeouts_in_a_row == 0 for seat in table.seats)
    assert requests_to(env, channel) == asked

    assert bot.user is not None
    env.backend.delete_overwrite(channel.id, bot.user.id)  # the admin gives access back
    await env.advance_time(1)
    assert not table.paused and "goes on" in last_notice(channel)
    assert await move_by_hand(mover(table, players), channel, table, random.Random(3))
    assert table.revision == revision + 1
    # a whole new turn from the resume, then the timer runs again
    await env.advance_time(bot.settings.turn_seconds + 1)
    assert table.revision == revision + 2
    assert not [name for name in still_running(table) if "pause" in name], "called off"


async def test_a_pause_that_runs_out_ends_the_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await paused_table(env, bot, guild, channel)
    await env.advance_time(bot.settings.paused_table_seconds + 1)
    reason = PAUSE_RAN_OUT.format(minutes=round(bot.settings.paused_table_seconds / 60))
    assert table.ending is not None and table.ending.kind is EndKind.CHANNEL_LOST
    assert table.ending.text == reason
    await assert_ended_for_good(env, bot, channel, table)
    assert unfinished(bot) == [(table.table_id, reason)]
    for player in players:
        assert dms_saying(player, reason) == 1


async def test_a_pause_outlasts_a_restart_without_telling_anyone_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await paused_table(env, bot, guild, channel)
    half = bot.settings.paused_table_seconds // 2
    await env.advance_time(half)
    new = await kill_and_restart(env, bot)
    try:
        restored = new.tables.tables[table.table_id]
        assert restored.paused and restored.paused_since == table.paused_since
        asked = requests_to(env, channel)
        await env.advance_time(bot.settings.paused_table_seconds - half - 5)
        assert restored.paused and not restored.ended, "the pause goes on where it was"
        assert requests_to(env, channel) == asked, "nothing asked of the closed channel"
        for person in players:
            assert dms_saying(person, "is paused") == 1, "told once, before the restart"
        owner_dms = guild.owner.dm_channel.history()
        assert len([m for m in owner_dms if "is paused" in text_of(m)]) == 1
        await env.advance_time(10)  # and runs out when it would have without the restart
        reason = PAUSE_RAN_OUT.format(minutes=round(bot.settings.paused_table_seconds / 60))
        assert restored.ending is not None and restored.ending.kind is EndKind.CHANNEL_LOST
        assert restored.ending.text == reason
        assert unfinished(new) == [(table.table_id, reason)]
    finally:
        await release(new)


async def test_a_pause_that_could_not_be_stored_still_holds(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    async def refused(table_id: str, since: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with mock.patch.object(bot.storage.running, "set_paused", refused):
        table, players = await paused_table(env, bot, guild, channel)
    # told as ever, and nothing moves; stored as going on, a restart would pause it anew
    assert all(dms_saying(player, "is paused") == 1 for player in players)
    revision = table.revision
    await env.advance_time(bot.settings.turn_seconds * 3)
    assert table.paused and table.revision == revision
    (stored,) = await bot.storage.running.load()
    assert isinstance(stored, LoadedGame) and stored.saved.paused_since is None


async def test_a_table_paused_before_a_restart_goes_on_once_its_channel_is_open(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, players = await paused_table(env, bot, guild, channel)
    new = await kill_and_restart(env, bot)
    newer = None
    try:
        restored = new.tables.tables[table.table_id]
        assert restored.paused
        assert new.user is not None
        env.backend.delete_overwrite(channel.id, new.user.id)  # the admin gives access back
        await env.advance_time(1)
        assert not restored.paused and "goes on" in last_notice(channel)
        assert await move_by_hand(mover(restored, players), channel, restored, random.Random(3))
        # stored as going on: the next restart finds it playing, its turn timers running
        newer = await kill_and_restart(env, new)
        again = newer.tables.tables[table.table_id]
        assert not again.paused and again.deadlines
    finally:
        await release(*[b for b in (newer, new) if b is not None])


async def test_a_table_whose_channel_opened_while_the_bot_was_down_goes_on_at_the_start(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, _ = await paused_table(env, bot, guild, channel)
    # the admin gives access back while the bot is down: no bot hears of it
    closed = env.backend.get_channel(channel.id)
    closed.overwrites = [o for o in closed.overwrites if o.type != OverwriteType.MEMBER]
    new = await kill_and_restart(env, bot)
    try:
        await env.advance_time(1)
        restored = new.tables.tables[table.table_id]
        assert not restored.paused and "goes on" in last_notice(channel)
    finally:
        await release(new)


async def test_the_bot_removed_from_a_server_ends_its_tables_and_lobbies_once(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 1, ai_level="hard")
    other = guild.create_text_channel("other")
    lobby = await bob.member.slash(other, "game start fishing")
    assert lobby.response is not None and other.id in bot.tables.by_channel
    # removed: first every request about the server is refused, then Discord says so
    for path in (f"/channels/{channel.id}*", f"/channels/{other.id}*", f"/guilds/{guild.id}*"):
        env.inject_error("*", path, status=403, code=50001, message="Missing Access", times=None)
    assert await move_by_hand(mover(table, [ann, bob]), channel, table, random.Random(1))
    await env.advance_time(1)
    env.backend.remove_guild(guild.id)
    await env.advance_time(1)
    assert table.ending == Ending(EndKind.CHANNEL_LOST, GUILD_LEFT)
    await assert_ended_for_good(env, bot, channel, table)
    assert other.id not in bot.tables.by_channel
    assert unfinished(bot) == [(table.table_id, GUILD_LEFT)], "recorded once"
    assert await bot.storage.lobbies.load() == ([], [])
    for player in (ann, bob):
        assert dms_saying(player, GUILD_LEFT) == 1, "told once"


async def test_a_lobby_the_bot_may_not_edit_goes_on_and_its_changer_is_told(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """Permissions taken from the bot in a lobby's channel: a change made elsewhere than on
    the lobby (``/game leave``, ``/game stop``, an AI's level) is made, and the one who made
    it is told privately that the lobby's message could not follow and what the bot needs;
    the lobby's buttons still answer and show it as it is, where the refusal went unsaid."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    started = await ann.member.slash(channel, "game start fishing")
    lobby = started.response
    assert lobby is not None
    await bob.member.click(lobby, label="Join")
    offer = (await ann.member.click(lobby, label="Add AI")).followups[0]
    assert bot.user is not None
    denied = discord.Permissions(view_channel=True).value
    env.backend.set_overwrite(
        channel.id, Overwrite(target_id=bot.user.id, type=OverwriteType.MEMBER, deny=denied)
    )
    shown = text_of(channel.history()[-1])
    needed = "**View Channel**"
    refused = "I could not update the lobby's message"

    chosen = await ann.member.click(offer, label="Hard")
    assert "plays at the **hard** level" in text_of(chosen.response)
    (told,) = chosen.followups
    assert told.flags.ephemeral and refused in text_of(told) and needed in text_of(told)
    left = await bob.member.slash(channel, "game leave")
    assert left.ephemeral and left.response is not None
    assert "You left the lobby." in text_of(left.response)
    assert refused in text_of(left.response) and needed in text_of(left.response)
    assert text_of(channel.history()[-1]) == shown, "the refused edits changed nothing"
    clicked = await ann.member.click(lobby, label="Add AI")  # shown as it is, by the click
    assert clicked.response is not None
    now = text_of(clicked.response)
    assert "🤖 Ada (hard)" in now and "bob" not in now

    stopped = await ann.member.slash(channel, "game stop")
    assert stopped.response is not None
    assert "The lobby is closed." in text_of(stopped.response)
    assert refused in text_of(stopped.response)
    assert channel.id not in bot.tables.lobbies.by_channel


async def test_a_refused_lobby_edit_with_no_permission_missing_names_all_the_bot_needs(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """Discord refuses the lobby's edit though the bot seems to have every permission: the
    one who changed it is told every permission the bot needs there, not an empty list."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    started = await ann.member.slash(channel, "game start fishing")
    assert started.response is not None
    await bob.member.click(started.response, label="Join")
    path = f"/channels/{channel.id}/messages/{started.response.id}"
    env.inject_error("PATCH", path, status=403, code=50013, message="Missing Permissions")
    left = await bob.member.slash(channel, "game leave")
    assert left.response is not None
    # said as the pause DM says them (``permission_list``): one way everywhere
    needed = "**View Channel**, **Send Messages**, **Embed Links** and **Attach Files**"
    assert f"I need {needed} in this channel" in text_of(left.response)


def test_permissions_are_listed_in_the_readers_language() -> None:
    """``permission_list`` names each permission in bold, in the active language, the last
    joined by that language's "and"."""
    assert permission_list(["View Channel"]) == "**View Channel**"
    assert permission_list(["View Channel", "Attach Files"]) == (
        "**View Channel** and **Attach Files**"
    )
    with speaking(catalog("de")):
        said = permission_list(["View Channel", "Send Messages", "Attach Files"])
    assert said.count("**") == 6 and said.count(", ") == 1 and " und " in said
    assert "View Channel" not in said


async def test_a_lobby_whose_message_was_deleted_is_still_stopped_and_left_plainly(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """The lobby's message deleted (Unknown Message): /game leave and /game stop still do
    what they say and answer so, where they answered with an apology after doing it."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    started = await ann.member.slash(channel, "game start fishing")
    assert started.response is not None
    await bob.member.click(started.response, label="Join")
    path = f"/channels/{channel.id}/messages/{started.response.id}"
    env.inject_error("PATCH", path, status=404, code=10008, message="Unknown Message", times=None)
    left = await bob.member.slash(channel, "game leave")
    assert left.response is not None and text_of(left.response) == "You left the lobby."
    stopped = await ann.member.slash(channel, "game stop")
    assert stopped.response is not None and text_of(stopped.response) == "The lobby is closed."
    assert channel.id not in bot.tables.lobbies.by_channel
