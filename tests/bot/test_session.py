"""The table session's calls are transactions: a failed save leaves the table as it was, the
player is told to try again, the timers go on, and a game's end is recorded before it is
announced (retried until it is); a game saved elsewhere first stops here."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from itertools import pairwise
from typing import Any
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot
from bot.errors import GAME_MOVED, TABLE_MOVED
from bot.storage import FinishedGame, LoadedGame, SavedGame
from bot.tables.backoff import retry_delay
from bot.tables.records import MOVED_ELSEWHERE
from bot.tables.results import saved_game
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.conftest import admin
from tests.bot.helpers import (
    Playthrough,
    add_player,
    click_through,
    open_hand,
    open_table,
    results_message,
    short_options,
    text_of,
)

LOCKED = sqlite3.OperationalError("database is locked")


def everything(table: TableSession) -> tuple[Any, ...]:
    """All a call may change, for comparing before and after."""
    return (
        table.revision,
        list(table.actions),
        table.state.to_json(),
        list(table.log),
        dict(table.deadlines),
        [replace(seat) for seat in table.seats],
        table.window_end,
        table.deals,
        list(table.summaries),
        table.ended,
    )


async def saved_revisions(bot: CardroomBot) -> list[int]:
    """The revision of every running game on disk."""
    loaded = await bot.storage.running.load()
    return [game.saved.revision for game in loaded if isinstance(game, LoadedGame)]


async def test_a_move_whose_save_fails_changes_nothing_and_says_so(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    before = everything(table)
    hand = await open_hand(ann, channel, table)
    seen: list[Any] = []
    with mock.patch.object(bot.storage.running, "save", side_effect=LOCKED):
        moved = await click_through(ann.member, hand, table, random.Random(3), seen)
    assert not moved
    assert "could not be saved just now, so nothing changed" in text_of(seen[-1])
    assert everything(table) == before
    assert await saved_revisions(bot) == [table.revision]
    hand = await open_hand(ann, channel, table)  # storage works again: so does the move
    assert await click_through(ann.member, hand, table, random.Random(3), seen)
    assert table.revision > before[0]


@pytest.mark.slow
async def test_the_ai_tries_again_after_a_failed_save_waiting_longer_each_time(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """A database outage: the AI's move is undone at each failed save and tried again about
    1 s, then 2 s, then 4 s later (less up to a fifth at random), not every second."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    save = bot.storage.running.save
    tries: list[float] = []

    async def down_for_the_ai(game: SavedGame, expected: int | None) -> None:
        if game.revision > 1:  # the AI's answer to ann's move: it fails three times
            tries.append(env.now().timestamp())
            if len(tries) <= 3:
                raise LOCKED
        await save(game, expected)

    with mock.patch.object(bot.storage.running, "save", side_effect=down_for_the_ai):
        hand = await open_hand(ann, channel, table)
        assert await click_through(ann.member, hand, table, random.Random(5), [])
        await env.advance_time(10)
    assert len(tries) == 4, "tried and undone three times, then saved"
    assert table.revision == 2, "the AI moved once, when its save went through"
    assert await saved_revisions(bot) == [2]
    gaps = [later - earlier for earlier, later in pairwise(tries)]
    for gap, most in zip(gaps, [1.0, 2.0, 4.0], strict=True):
        assert 0.8 * most - 0.01 <= gap <= most + 0.01, gaps


def test_a_retry_waits_twice_as_long_each_time_up_to_half_a_minute() -> None:
    """The delays double from 1 s and stop growing at 30 s, each less up to a fifth."""
    for failures, most in [(1, 1.0), (2, 2.0), (3, 4.0), (5, 16.0), (6, 30.0), (500, 30.0)]:
        delays = [retry_delay(failures) for _ in range(200)]
        assert all(0.8 * most <= delay <= most for delay in delays), (failures, delays[:5])
        assert len(set(delays)) > 1, "spread at random, so tables do not retry in step"


async def test_a_stop_that_cannot_be_saved_keeps_the_game(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    boss = admin(env, guild, "boss")  # Manage Server: stops without a result
    before = everything(table)
    with mock.patch.object(bot.storage.running, "end_unfinished", side_effect=LOCKED):
        result = await boss.slash(channel, "game stop")
    assert result.ephemeral and "nothing changed" in text_of(result.response)
    assert everything(table) == before and bot.tables.table_in(channel.id, 0) is table
    result = await boss.slash(channel, "game stop")
    assert table.ended and "stopped" in text_of(result.response)


async def test_the_turn_timer_runs_on_after_a_failed_save(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    revision = table.revision
    hand = await open_hand(ann, channel, table)
    with mock.patch.object(bot.storage.running, "save", side_effect=LOCKED):
        assert not await click_through(ann.member, hand, table, random.Random(3), [])
    await env.advance_time(bot.settings.turn_seconds + 1)
    assert table.revision > revision, "ann's turn timed out: the AI played it"
    assert table.seats[0].timeouts_in_a_row == 1


@pytest.mark.slow
async def test_the_end_is_recorded_before_it_is_announced_and_retried_until_it_is(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "stuck", 1, short_options(games()["stuck"]))
    finish = bot.storage.results.finish
    announced_at_failures: list[bool] = []

    async def failing_twice(game: FinishedGame, expected: int | None = None) -> None:
        if len(announced_at_failures) < 2:
            announced_at_failures.append(results_message(channel) is not None)
            raise LOCKED
        await finish(game, expected)

    with mock.patch.object(bot.storage.results, "finish", side_effect=failing_twice):
        await Playthrough(env, channel, [ann], table, random.Random(1)).to_the_end()
    assert announced_at_failures == [False, False], "no results before the end was saved"
    results = [m for m in channel.history() if "— results" in text_of(m)]
    assert len(results) == 1, "announced once, after the third try saved it"
    assert await bot.storage.results.replay_record(table.table_id) is not None
    assert await saved_revisions(bot) == []


async def test_a_game_another_writer_saved_is_never_overwritten_and_stops_here(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """Another process saved this game since (as a second shard owner would): ann's move is
    refused, the other writer's row stays as it wrote it, and the table stops for good (no
    save retried, no timer, no AI move), its people told once why, in the channel and the
    hand DM."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    before = everything(table)
    theirs = saved_game(table).model_copy(update={"revision": table.revision + 1, "host_id": 4242})
    await bot.storage.running.save(theirs, table.revision)

    seen: list[Any] = []
    hand = await open_hand(ann, channel, table)
    await click_through(ann.member, hand, table, random.Random(3), seen)
    assert GAME_MOVED in text_of(seen[-1])
    assert everything(table)[:4] == before[:4]  # nothing of the move kept
    assert table.ending == MOVED_ELSEWHERE
    assert table.table_id not in bot.tables.tables and channel.id not in bot.tables.by_channel
    await env.advance_time(bot.settings.turn_seconds * 4)  # no timer, no AI, no retry left
    assert table.revision == before[0]
    (stored,) = await bot.storage.running.load()
    assert isinstance(stored, LoadedGame)
    assert (stored.saved.revision, stored.saved.host_id) == (table.revision + 1, 4242)
    # told once in the channel (the table message also shows why, as for a stopped game)
    told = [m for m in channel.history() if TABLE_MOVED in text_of(m)]
    assert [m.id for m in told if m.id != table.table_message_id] == [told[-1].id]
    (dm,) = ann.user.dm_channel.history()
    assert TABLE_MOVED in text_of(dm)
