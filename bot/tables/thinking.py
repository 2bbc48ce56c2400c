"""How AI seats decide: the heuristic at once, in the bot's process (it takes microseconds);
the levels that search (hard, and easy's few playouts) in a pool of worker processes sized to
the machine, so a search never holds up the event loop and people's moves stay fast.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.ops import metrics
from bot.settings import Settings
from engine.ai import agent, decide
from engine.ai.search import Budget
from engine.core import Action, Game, State, StateAgent
from engine.runner import agent_move

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
"""The levels a lobby offers, weakest first (engine.ai also has random, for tests)."""

DEFAULT_LEVEL = "normal"

WORKER_NICENESS = 10  # how much lower the searching workers' priority is than the bot's
# A search answers within its budget (a fraction of a second); one that has not after this
# long is lost (a worker hung, or its reply went missing) and the normal level moves instead
SEARCH_TIMEOUT_SECONDS = 30.0


class AiPlayers:
    """The AI seats' moves, and the worker processes that search."""

    def __init__(self, settings: Settings) -> None:
        self.budget = Budget(rollouts=settings.ai_think_rollouts, seconds=settings.ai_think_seconds)
        self.processes = (
            settings.ai_processes if settings.ai_processes is not None else os.cpu_count() or 1
        )
        self._pool: ProcessPoolExecutor | None = None  # started at the first search

    def move(self, state: State, seat: int, level: str, seed: str) -> Awaitable[Action | None]:
        """The move of ``level`` for ``seat`` (None: it declines an optional move), seeded by
        ``seed``. The state is read now; a search goes on after this returns."""
        player = agent(state.game, level, self.budget)
        if isinstance(player, StateAgent) and self.processes:
            return self._searched(state.game, state.to_json(), seat, level, seed)
        done = asyncio.get_running_loop().create_future()
        try:
            with metrics.AI_DECISION_SECONDS.labels(level).time():
                done.set_result(agent_move(state, seat, player, random.Random(seed)))
        except Exception:
            if level == DEFAULT_LEVEL:
                raise  # nothing to fall back to: the table's driver handles it
            log.exception("the %s AI failed for seat %d; the normal level moves", level, seat)
            return self.move(state, seat, DEFAULT_LEVEL, seed)
        return done

    async def _searched(
        self, game: Game, saved: dict[str, Any], seat: int, level: str, seed: str
    ) -> Action | None:
        """A worker's move; if the search failed, hung or the workers broke (one was
        killed), the normal level's move at once, and a fresh pool for the next search if
        this one broke: a table never stops for want of one."""
        pool = self.pool()
        try:
            with (
                metrics.AI_DECISION_SECONDS.labels(level).time(),
                metrics.AI_QUEUE_DEPTH.labels(level).track_inprogress(),
            ):
                job = pool.submit(decide, game.id, saved, seat, level, seed, self.budget)
                async with asyncio.timeout(SEARCH_TIMEOUT_SECONDS):
                    found = await asyncio.wrap_future(job)
        except Exception as error:  # failed, broke or hung past its time
            log.exception("the %s AI's search failed for seat %d; normal moves", level, seat)
            if isinstance(error, BrokenProcessPool):  # a worker was killed: a fresh pool next
                self._replace(pool)
            found = decide(game.id, saved, seat, DEFAULT_LEVEL, seed, self.budget)
        return None if found is None else game.parse_action(found)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Let go of a broken pool (the next search starts a fresh one). Every search in it
        has failed already; searches other tables queued in a newer pool are untouched."""
        if self._pool is broken:
            self._pool = None
        broken.shutdown(wait=False)

    def pool(self) -> ProcessPoolExecutor:
        """The worker processes (started by spawning: the bot's own threads and loop are not
        copied into them), at a lower priority than the bot, so people's moves go first."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=os.nice, initargs=(WORKER_NICENESS,)
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers (at shutdown); searches under way are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
