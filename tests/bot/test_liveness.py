"""No table stops for good: whatever fails in a table's driver (an AI move, the member check
at a deadline) is retried, an AI that failed is replaced by the normal level's move, and the
supervisor repairs a table left without a driver. The players see the game go on."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot
from bot.ops import metrics
from bot.settings import Settings
from bot.tables import thinking, timers
from bot.tables.session import TableSession
from bot.tables.thinking import AiPlayers
from engine.ai import decide
from engine.core import Action, State
from engine.registry import get_game
from tests.bot.conftest import fast_settings
from tests.bot.helpers import Player, add_player, move_by_hand, open_table
from tests.bot.records import GUILD


async def until(
    env: simcord.Env,
    table: TableSession,
    player: Player,
    channel: simcord.ChannelHandle,
    done: Callable[[], bool],
    seconds: float = 600,
) -> None:
    """Play ``player``'s turns and let time pass (3 s a step) until ``done``."""
    rng = random.Random(7)
    for _ in range(int(seconds / 3)):
        if done() or table.ended:
            return
        if 0 in table.state.waiting_for():
            await move_by_hand(player, channel, table, rng)
        else:
            await env.advance_time(3)
    raise AssertionError("the table stood still")


def ai_moves(table: TableSession) -> int:
    """How many moves the AI seat (seat 1) made."""
    return sum(seat == 1 for seat, _ in table.actions)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The supervisor checks every 30 s of simulated time, as it does by default."""
    return fast_settings(tmp_path, supervisor_seconds=30)


@pytest.mark.slow
async def test_an_ai_move_that_raises_is_replaced_by_the_normal_levels_move(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    move = bot.tables.ai.move
    levels: list[str] = []
    servers: set[int] = set()

    def failing_once(
        state: State, seat: int, level: str, seed: str, server: int
    ) -> Awaitable[Action | None]:
        levels.append(level)
        servers.add(server)
        if len(levels) == 1:
            raise RuntimeError("the AI broke")
        return move(state, seat, level, seed, server)

    repairs = metrics.repairs("driver-error")
    with mock.patch.object(bot.tables.ai, "move", side_effect=failing_once):
        table = await open_table(bot, channel, [ann], "fishing", 1, ai_level="easy")
        await until(env, table, ann, channel, lambda: ai_moves(table) >= 2)
    assert levels[:2] == ["easy", "normal"], "its failed move was the normal level's"
    assert levels[2] == "easy", "then it plays at its own level again"
    assert servers == {guild.id}, "its searches wait in line as the table's server's"
    assert metrics.repairs("driver-error") == repairs + 1


async def test_a_member_check_that_raises_at_a_deadline_still_times_the_seat_out(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(3)
    assert 0 in table.state.waiting_for()
    broken = OSError("connection reset")
    with mock.patch.object(bot.tables.timers, "is_member", side_effect=broken) as is_member:
        await env.advance_time(bot.settings.turn_seconds + 3)
    assert is_member.called
    assert table.seats[0].timeouts_in_a_row == 1, "ann's time ran out: her timeout move"
    assert table.seats[0].is_human, "she keeps her seat (she may still be a member)"


async def test_the_supervisor_restarts_a_table_whose_driver_died(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(3)
    revision = table.revision
    bot.tables.timers.drivers[table.table_id].cancel()  # dies, as no code path should let it
    repairs = metrics.repairs("no-driver")
    await env.advance_time(bot.settings.turn_seconds + 3 * bot.settings.supervisor_seconds)
    assert metrics.repairs("no-driver") == repairs + 1
    assert table.revision > revision, "ann's time ran out and the game went on"
    assert table.seats[0].timeouts_in_a_row == 1


def hard_seat(tmp_path: Path, workers: int = 1) -> tuple[AiPlayers, State, int]:
    """AI players with ``workers`` workers, a fishing deal and the seat to move."""
    ai = AiPlayers(fast_settings(tmp_path, ai_processes=workers))
    game = get_game("fishing")
    state = game.new_state(2, 11, game.resolve_options({}))
    return ai, state, state.waiting_for()[0]


async def test_one_broken_search_does_not_cancel_other_tables_searches(tmp_path: Path) -> None:
    ai, state, seat = hard_seat(tmp_path, workers=2)  # both searches have their turn at once
    pool = ThreadPoolExecutor(1)
    ai._pool = pool  # type: ignore[assignment]
    release = threading.Event()
    pool.submit(release.wait)  # the worker is busy: the next search waits in the queue
    queued = asyncio.ensure_future(ai.move(state, seat, "hard", "other table", GUILD))
    await asyncio.sleep(0)
    with mock.patch.object(pool, "submit", side_effect=BrokenProcessPool("killed")):
        fallback = await ai.move(state, seat, "hard", "this table", GUILD)
    assert fallback == normal_move(ai, state, seat, "this table")
    release.set()
    assert await queued in state.legal_actions(seat), "the other table's search finished"


async def test_a_failed_search_plays_the_normal_levels_move(tmp_path: Path) -> None:
    ai, state, seat = hard_seat(tmp_path)
    failed: Future[Any] = Future()
    failed.set_exception(RuntimeError("a worker raised"))
    pool = mock.Mock(submit=mock.Mock(return_value=failed))
    ai._pool = pool
    assert await ai.move(state, seat, "hard", "seed", GUILD) == normal_move(ai, state, seat, "seed")
    assert ai._pool is pool, "a pool that did not break is kept"


def normal_move(ai: AiPlayers, state: State, seat: int, seed: str) -> Action | None:
    """The normal level's move for ``seat``."""
    found = decide(state.game.id, state.to_json(), seat, "normal", seed, ai.budget)
    return None if found is None else state.game.parse_action(found)


async def test_a_member_check_that_never_answers_still_times_the_seat_out(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    """Discord's reply to the member check is lost: after MEMBER_CHECK_SECONDS the person
    counts as a member and their timeout is played."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(3)

    async def lost_reply(guild_id: int, user_id: int) -> bool:
        await asyncio.sleep(3600)
        return False

    with mock.patch.object(bot.tables.timers, "is_member", side_effect=lost_reply):
        await env.advance_time(bot.settings.turn_seconds + timers.MEMBER_CHECK_SECONDS + 3)
    assert table.seats[0].timeouts_in_a_row == 1 and table.seats[0].is_human


async def test_a_search_that_hangs_plays_the_normal_levels_move(tmp_path: Path) -> None:
    ai, state, seat = hard_seat(tmp_path)
    never: Future[Any] = Future()  # a worker that hung, or whose reply was lost
    ai._pool = mock.Mock(submit=mock.Mock(return_value=never))
    with mock.patch.object(thinking, "SEARCH_TIMEOUT_SECONDS", 0.01):
        assert await ai.move(state, seat, "hard", "seed", GUILD) == normal_move(
            ai, state, seat, "seed"
        )
