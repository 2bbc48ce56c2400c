"""The AI's workers are shared fairly: servers take turns (one server's many searches delay
another server's search by one search at most), a server's waiting searches are bounded, a
search that waits too long gives way to the normal level's move, and move reviews run only
while no live search waits or runs. Order and queue positions are counted, never time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from bot.ops.metrics import REGISTRY
from bot.replays.book import ReplayedGame
from bot.replays.reviewing import Reviewer
from bot.storage import Storage
from bot.tables import thinking
from bot.tables.thinking import AiPlayers
from engine.core import Action, State
from engine.replay import Replay, played_record
from tests.bot.conftest import fast_settings
from tests.bot.test_liveness import hard_seat, normal_move

BUSY, OTHER = 1, 2  # two servers


class HeldPool:
    """Stands in for the worker processes: notes each job handed to it in ``started`` (one
    order shared by every pool of a test) and runs it only when the test calls ``finish``."""

    def __init__(self, started: list[str], name: Callable[[tuple[Any, ...]], str]) -> None:
        self.started = started
        self.name = name
        self.held: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        """Note the job; its future is answered by ``finish``."""
        future: Future[Any] = Future()
        self.held.append((future, function, args))
        self.started.append(self.name(args))
        return future

    def finish(self) -> None:
        """Run the oldest job held and answer it."""
        future, function, args = self.held.pop(0)
        future.set_result(function(*args))


def search_pool(ai: AiPlayers, started: list[str], monkeypatch: pytest.MonkeyPatch) -> HeldPool:
    """``ai``'s workers replaced by a held pool naming each search by its seed."""
    pool = HeldPool(started, lambda args: str(args[4]))  # decide(game, state, seat, level, seed…)
    monkeypatch.setattr(ai, "pool", lambda: pool)
    return pool


async def passes(count: int = 50) -> None:
    """Let the event loop run ``count`` passes (whatever was ready has run)."""
    for _ in range(count):
        await asyncio.sleep(0)


async def until(condition: Callable[[], bool]) -> None:
    """Let the event loop run until ``condition`` holds (a bounded number of passes)."""
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def finish_each(pool: HeldPool, started: list[str], done: Callable[[], bool]) -> None:
    """Finish the pool's jobs one at a time, letting the next start after each, until none
    is held (or ``done``)."""
    while pool.held:
        count = len(started)
        pool.finish()
        await until(lambda count=count: len(started) > count or done())  # type: ignore[misc]


def searching(
    ai: AiPlayers, state: State, seat: int, seed: str, server: int
) -> asyncio.Future[Action | None]:
    """A hard seat's move for a table of ``server``, under way."""
    return asyncio.ensure_future(ai.move(state, seat, "hard", seed, server))


def skipped(reason: str) -> float:
    """Searches skipped for ``reason`` so far in this process."""
    value = REGISTRY.get_sample_value("cardroom_ai_searches_skipped_total", {"reason": reason})
    return value or 0.0


async def test_a_busy_server_delays_another_servers_search_by_one_search_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ai, state, seat = hard_seat(tmp_path)  # one worker
    started: list[str] = []
    pool = search_pool(ai, started, monkeypatch)
    busy = [searching(ai, state, seat, f"busy {n}", BUSY) for n in range(6)]
    await until(lambda: ai.turns.waiting() == 5)
    other = searching(ai, state, seat, "other", OTHER)
    await until(lambda: ai.turns.waiting() == 6)
    assert started == ["busy 0"]
    await finish_each(pool, started, lambda: not ai.turns.running)
    after_asked = started[1:]  # what started after the other server's search was asked for
    assert after_asked.index("other") == 1, "one busy search went first, then the other's"
    assert after_asked == ["busy 1", "other", "busy 2", "busy 3", "busy 4", "busy 5"]
    for move in [*busy, other]:
        assert await move in state.legal_actions(seat)


async def test_a_server_with_its_most_searches_waiting_plays_the_normal_move_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ai = AiPlayers(fast_settings(tmp_path, ai_processes=1, ai_searches_per_server=2))
    _, state, seat = hard_seat(tmp_path)
    started: list[str] = []
    pool = search_pool(ai, started, monkeypatch)
    busy = [searching(ai, state, seat, f"busy {n}", BUSY) for n in range(3)]
    await until(lambda: ai.turns.waiting() == 2)
    before = skipped("server-queue-full")
    one_too_many = searching(ai, state, seat, "busy 3", BUSY)
    await until(one_too_many.done)  # no worker was freed meanwhile
    assert one_too_many.result() == normal_move(ai, state, seat, "busy 3")
    assert skipped("server-queue-full") == before + 1
    other = searching(ai, state, seat, "other", OTHER)  # another server's queue is its own
    await until(lambda: ai.turns.waiting() == 3)
    await finish_each(pool, started, lambda: not ai.turns.running)
    assert started == ["busy 0", "busy 1", "other", "busy 2"], "busy 3 never searched"
    for move in [*busy, other]:
        assert await move in state.legal_actions(seat)


async def test_a_search_that_waits_too_long_plays_the_normal_move_and_leaves_the_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ai, state, seat = hard_seat(tmp_path)
    started: list[str] = []
    pool = search_pool(ai, started, monkeypatch)
    running = searching(ai, state, seat, "busy 0", BUSY)
    await until(lambda: started == ["busy 0"])
    before = skipped("waited-too-long")
    with mock.patch.object(thinking, "SEARCH_WAIT_SECONDS", 0):
        waited = searching(ai, state, seat, "other", OTHER)
        await until(waited.done)  # while busy 0 still holds the worker
    assert waited.result() == normal_move(ai, state, seat, "other")
    assert skipped("waited-too-long") == before + 1
    assert ai.turns.waiting() == 0, "it left the queue"
    pool.finish()
    assert await running in state.legal_actions(seat)
    await until(lambda: not ai.turns.running)
    assert started == ["busy 0"], "the search given up was never started"


async def test_a_search_whose_table_moved_on_leaves_the_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ai, state, seat = hard_seat(tmp_path)
    started: list[str] = []
    pool = search_pool(ai, started, monkeypatch)
    first = searching(ai, state, seat, "busy 0", BUSY)
    gone = searching(ai, state, seat, "busy 1", BUSY)
    last = searching(ai, state, seat, "other", OTHER)
    await until(lambda: ai.turns.waiting() == 2)
    gone.cancel()  # its table stopped, say
    await until(lambda: ai.turns.waiting() == 1)
    pool.finish()
    await until(lambda: len(started) == 2)
    pool.finish()
    assert started == ["busy 0", "other"]
    assert await first in state.legal_actions(seat) and await last in state.legal_actions(seat)
    quiet = asyncio.ensure_future(ai.quiet())
    await until(quiet.done)  # nothing waits or runs


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    opened = await Storage.open(tmp_path / "cardroom.db")
    yield opened
    await opened.close()


async def test_live_searches_start_before_a_running_reviews_next_decision(
    tmp_path: Path, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live search asked for while a review's decision is judged starts before the review's
    next decision, even one still waiting for the busy worker."""
    ai, state, seat = hard_seat(tmp_path)
    settings = fast_settings(tmp_path, ai_processes=1)
    reviewer = Reviewer(settings, storage, lambda: datetime.now(UTC), ai.quiet)
    reviewer.worlds = 1
    started: list[str] = []
    searches = search_pool(ai, started, monkeypatch)
    judging = HeldPool(started, lambda args: f"review {args[2]}")  # judge_saved(…, ordinal, …)
    monkeypatch.setattr(reviewer, "pool", lambda: judging)
    record = played_record("stuck", 2, 1)
    game = ReplayedGame("t1", record, Replay.of(record), [])

    async def progress(_done: int, _total: int) -> None:
        pass

    review = asyncio.ensure_future(reviewer.judge_all(game, 0, progress))
    await until(lambda: started == ["review 0"])
    live = [searching(ai, state, seat, f"live {n}", BUSY) for n in range(2)]
    await until(lambda: ai.turns.waiting() == 1)  # live 0 runs, live 1 waits for the worker
    judging.finish()  # review 0 judged while live searches wait or run
    await passes()
    searches.finish()
    await until(lambda: len(started) == 3)
    await passes()
    assert started == ["review 0", "live 0", "live 1"], "no review decision meanwhile"
    searches.finish()
    await until(lambda: len(started) == 4)
    assert started[3] == "review 1", "the review goes on once the live searches are done"
    await finish_each(judging, started, review.done)
    assert len(await review) == len(started) - 2
    for move in live:
        assert await move in state.legal_actions(seat)
