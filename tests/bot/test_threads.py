"""A thread per table: the lobby stays in the channel, the table plays in a thread started
from the lobby message, several tables play in one channel at once, and each end is posted
in the channel with its thread archived. Without the bot's thread permissions, or with the
server's setting off, the table plays in the channel as before (one a channel)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any
from unittest import mock

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.app import CardroomBot
from bot.settings import Settings
from bot.storage import LoadedGame, SavedGame
from bot.tables.records import Ending, EndKind
from bot.tables.service import THREAD_DELETED
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.conftest import admin, fast_settings
from tests.bot.helpers import (
    Playthrough,
    add_player,
    kill_and_restart,
    move_by_hand,
    open_table,
    release,
    short_options,
    table_message,
    text_of,
)

FISHING = short_options(games()["fishing"])


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path, table_threads=True)


def allow_the_bot(
    env: simcord.Env, bot: CardroomBot, channel: simcord.ChannelHandle, **flags: bool
) -> None:
    """Give (True) or take away (False) the bot's permissions in ``channel``."""
    assert bot.user is not None
    allowed = discord.Permissions(**{flag: True for flag, on in flags.items() if on})
    denied = discord.Permissions(**{flag: True for flag, on in flags.items() if not on})
    env.backend.set_overwrite(
        channel.id,
        Overwrite(
            target_id=bot.user.id, type=OverwriteType.MEMBER, allow=allowed.value, deny=denied.value
        ),
    )


def refuse_archiving(env: simcord.Env, bot: CardroomBot, channel: simcord.ChannelHandle) -> None:
    """Discord refuses the bot's archiving of its threads there (simcord asks Manage Channels
    for any channel edit, a thread's included; simcord's bot has every permission but
    Administrator, Discord's the invite's)."""
    allow_the_bot(env, bot, channel, manage_channels=False)


def thread_of(channel: simcord.ChannelHandle, table: TableSession) -> simcord.ChannelHandle:
    """The thread of ``channel`` the table plays in."""
    return next(thread for thread in channel.threads if thread.id == table.channel_id)


def archived(env: simcord.Env, thread: simcord.ChannelHandle) -> bool:
    metadata = env.backend.channels[thread.id].thread_metadata
    assert metadata is not None
    return bool(metadata.archived)


def said(channel: simcord.ChannelHandle, text: str) -> list[str]:
    """The channel's messages (as they read now) that say ``text``."""
    return [shown for shown in map(text_of, channel.history()) if text in shown]


async def test_two_tables_play_in_two_threads_of_one_channel_and_both_end_there(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    first = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    # the first table plays in its thread: the channel takes the next lobby at once
    second = await open_table(bot, channel, [bob], "fishing", 1, FISHING)
    assert first.parent_channel_id == second.parent_channel_id == channel.id
    assert first.channel_id != second.channel_id and channel.id not in bot.tables.by_channel
    threads = [thread_of(channel, first), thread_of(channel, second)]
    assert [thread.name for thread in threads] == [
        f"Fishing · {', '.join(table.names)}" for table in (first, second)
    ]
    assert str(threads[0].name).startswith("Fishing · ann, ")
    for table, thread in zip((first, second), threads, strict=True):
        # the lobby message started the thread and now points into it
        starter = next(m for m in channel.history() if m.id == thread.id)
        assert f"plays in <#{thread.id}>" in text_of(starter)
        assert "## Fishing" in text_of(table_message(thread, table))
    assert not said(channel, "to play"), "no table message in the channel"
    rng = random.Random(7)
    plays = [
        Playthrough(env, thread, [player], table, rng)
        for thread, player, table in zip(threads, (ann, bob), (first, second), strict=True)
    ]
    for _ in range(4000):
        if first.ended and second.ended:
            break
        for play in plays:
            if not play.table.ended:
                await play.step()
    await env.advance_time(1)
    assert first.ending == second.ending == Ending(EndKind.FINISHED)
    for thread in threads:
        assert said(thread, "Fishing — results"), "the end is shown in the thread"
        link = f"https://discord.com/channels/{guild.id}/{thread.id}/"
        over = said(channel, link)
        assert len(over) == 1 and "Fishing — over" in over[0], "a short result in the channel"
        assert archived(env, thread)
    assert len(said(channel, "Rematch")) == 2, "each Rematch is in the channel"
    assert not said(threads[0], "Rematch") and not said(threads[1], "Rematch")


async def test_without_the_thread_permissions_the_table_plays_in_the_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    allow_the_bot(env, bot, channel, create_public_threads=False)
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    opened = await ann.member.slash(channel, "game start fishing")
    note = text_of(opened.followups[0])
    assert opened.followups[0].flags.ephemeral, "only the host reads about permissions"
    assert "**Create Public Threads**" in note and "Send Messages in Threads" not in note
    await ann.member.slash(channel, "game stop")
    table = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    assert table.channel_id == channel.id and table.parent_channel_id is None
    # no thread asked of Discord, which would refuse it (refusals count against the bot)
    assert not [r for r in env.http_requests if r.path.endswith("/threads")]
    assert channel.threads == [] and "## Fishing" in text_of(table_message(channel, table))
    refused = await bob.member.slash(channel, "game start fishing")
    assert refused.ephemeral and "already" in text_of(refused.response), "one table a channel"
    assert await move_by_hand(ann, channel, table, random.Random(3))


async def test_with_the_server_setting_off_tables_play_in_the_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    boss = admin(env, guild, "boss")
    answer = await boss.slash(channel, "cardroom settings", threads=False)
    assert "Tables play in the channel" in text_of(answer.response)
    ann = add_player(env, guild, "ann")
    opened = await ann.member.slash(channel, "game start fishing")
    assert opened.followups == [], "no word about permissions the server does not want"
    await ann.member.slash(channel, "game stop")
    new = await kill_and_restart(env, bot)  # the choice is stored
    try:
        table = await open_table(new, channel, [ann], "fishing", 1, FISHING)
        assert table.channel_id == channel.id and channel.threads == []
    finally:
        await release(bot, new)


async def test_a_table_in_a_thread_comes_back_in_its_thread_after_a_restart(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    old = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    thread = thread_of(channel, old)
    new = await kill_and_restart(env, bot)
    try:
        table = new.tables.tables[old.table_id]
        assert (table.channel_id, table.parent_channel_id) == (thread.id, channel.id)
        assert new.tables.by_channel == {thread.id: table.table_id}
        revision = table.revision
        while table.revision == revision:  # ann moves in the thread, as before the restart
            if not table.state.waiting_for():
                await env.advance_time(6)
                continue
            assert await move_by_hand(ann, thread, table, random.Random(5))
        assert "## Fishing" in text_of(table_message(thread, table))
        other = await ann.member.slash(channel, "game start fishing")
        assert "new table" in text_of(other.response), "the channel is free for a lobby"
    finally:
        await release(bot, new)


async def test_a_deleted_thread_ends_its_table_like_a_deleted_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    thread = thread_of(channel, table)
    env.backend.delete_channel(thread.id)  # an admin deletes it
    await env.advance_time(1)
    assert table.ending == Ending(EndKind.CHANNEL_LOST, THREAD_DELETED)
    assert await bot.storage.running.load() == [] and bot.tables.by_channel == {}
    with sqlite3.connect(bot.storage.url.sqlite_path) as db:
        stored = db.execute("SELECT table_id, reason FROM unfinished_games").fetchall()
    assert stored == [(table.table_id, THREAD_DELETED)]
    assert said(channel, THREAD_DELETED), "the channel is told why it ended"
    assert THREAD_DELETED in text_of(ann.user.dm_channel.history()[-1])


async def test_commands_in_the_channel_act_on_the_callers_own_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob, cid = (add_player(env, guild, name) for name in ("ann", "bob", "cid"))
    first = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    second = await open_table(bot, channel, [bob], "fishing", 1, FISHING)
    hand = await ann.member.slash(channel, "game hand")
    assert hand.ephemeral and "Your hand" in text_of(hand.response)
    which = await cid.member.slash(channel, "game hand")
    answer = text_of(which.response)
    assert f"<#{first.channel_id}>" in answer and f"<#{second.channel_id}>" in answer
    left = await bob.member.slash(thread_of(channel, second), "game leave")
    assert "AI plays your seat" in text_of(left.response)
    assert second.seats[0].is_ai and not first.seats[0].is_ai
    await cid.member.slash(channel, "game stop")
    assert not first.ended, "someone seated nowhere stops nothing"
    await cid.member.slash(channel, "game start fishing")  # a lobby ann does not sit in
    left = await ann.member.slash(channel, "game leave")
    assert "AI plays your seat" in text_of(left.response) and first.seats[0].is_ai
    assert bot.tables.lobbies.in_channel(channel.id) is not None, "the lobby stays"


async def test_a_thread_discord_refuses_leaves_the_table_in_the_channel(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    env.inject_error("POST", f"/channels/{channel.id}/messages/*/threads")
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    assert table.channel_id == channel.id and table.parent_channel_id is None
    assert "The table follows below" in text_of(channel.history()[0])
    assert await move_by_hand(ann, channel, table, random.Random(2))


@pytest.mark.parametrize("archive", [True, False])
async def test_a_stopped_table_ends_in_its_thread_and_in_the_channel(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    archive: bool,
) -> None:
    """Stopped, the thread says so and the channel too; an archive Discord refuses (False)
    changes nothing else."""
    if not archive:
        refuse_archiving(env, bot, channel)
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    thread = thread_of(channel, table)
    stopped = await admin(env, guild, "boss").slash(thread, "game stop")
    assert "The game is stopped" in text_of(stopped.response)
    await env.advance_time(1)
    assert said(thread, "boss stopped the game")
    (over,) = said(channel, f"https://discord.com/channels/{guild.id}/{thread.id}")
    assert "boss stopped the game" in over and "Rematch" not in over
    assert archived(env, thread) is archive
    assert said(ann.user.dm_channel, "boss stopped the game"), "the hand DM is closed"


async def test_a_thread_whose_save_failed_is_stored_with_the_next_move(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """The thread's id could not be saved: the table plays in its thread all the same, and
    the next save (the table message's id) stores it."""
    ann = add_player(env, guild, "ann")
    save = bot.storage.running.save
    failures = iter([OSError("disk full")])

    async def first_update_fails(game: SavedGame, expected: int | None = None, *args: Any) -> None:
        if expected is not None and game.parent_channel_id is not None:
            failure = next(failures, None)
            if failure is not None:
                raise failure
        await save(game, expected, *args)

    with mock.patch.object(bot.storage.running, "save", first_update_fails):
        table = await open_table(bot, channel, [ann], "fishing", 1, FISHING)
    assert next(failures, None) is None, "the thread's save failed"
    thread = thread_of(channel, table)
    assert "## Fishing" in text_of(table_message(thread, table))
    (loaded,) = await bot.storage.running.load()
    assert isinstance(loaded, LoadedGame)
    assert (loaded.saved.channel_id, loaded.saved.parent_channel_id) == (thread.id, channel.id)


async def test_a_paused_table_in_a_thread_goes_on_once_it_may_post_in_threads(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """In a thread the bot needs Send Messages in Threads, not the channel's Send Messages."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0, FISHING)
    thread = thread_of(channel, table)
    allow_the_bot(env, bot, channel, view_channel=False)
    mover = next(p for p in (ann, bob) if table.seat_of(p.id) == table.state.waiting_for()[0])
    assert await move_by_hand(mover, thread, table, random.Random(1))
    await env.advance_time(1)
    assert table.paused
    told = text_of(ann.user.dm_channel.history()[-1])
    assert "game in **#games** on" in told and "**Send Messages in Threads**" in told
    allow_the_bot(env, bot, channel, send_messages=False)  # it may see the channel again
    env.backend.announce_channel_update(channel.id)
    await env.advance_time(1)
    assert not table.paused and not table.ended
