"""The table session's calls are transactions: a failed save leaves the table as it was."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from typing import Any
from unittest import mock

import simcord

from bot.app import CardroomBot
from bot.storage import LoadedGame, SavedGame
from bot.tables.session import TableSession
from tests.bot.helpers import add_player, click_through, open_hand, open_table, text_of

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


async def test_the_ai_tries_again_after_a_failed_save(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    save = bot.storage.running.save
    failures = 0

    async def failing_for_the_ai(game: SavedGame) -> None:
        nonlocal failures
        if game.revision > 1 and failures < 2:  # the AI's answer to ann's move, twice
            failures += 1
            raise LOCKED
        await save(game)

    with mock.patch.object(bot.storage.running, "save", side_effect=failing_for_the_ai):
        hand = await open_hand(ann, channel, table)
        assert await click_through(ann.member, hand, table, random.Random(5), [])
        await env.advance_time(3)
    assert failures == 2, "the AI's move was tried and undone twice"
    assert table.revision == 2, "the AI moved once its save went through"
    assert await saved_revisions(bot) == [2]


async def test_a_stop_whose_delete_fails_keeps_the_game(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    before = everything(table)
    with mock.patch.object(bot.storage.running, "delete", side_effect=LOCKED):
        result = await ann.member.slash(channel, "game stop")
    assert result.ephemeral and "nothing changed" in text_of(result.response)
    assert everything(table) == before and bot.tables.table_in(channel.id) is table
    result = await ann.member.slash(channel, "game stop")
    assert table.ended and "stopped" in text_of(result.response)
