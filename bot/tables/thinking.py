"""How AI seats decide: the heuristic at once, in the bot's process (it takes microseconds);
the levels that search (hard, and easy's few playouts) in a pool of worker processes sized to
the machine, so a search never holds up the event loop and people's moves stay fast.

Every server's tables share the workers, so a search waits for its turn (``Turns``): a free
worker takes the servers with searches waiting in rotation, one search each, so a server with
many tables searching delays another server's table by at most one search of its own. A
server holds at most ``ai_searches_per_server`` searches waiting, and a search waits at most
``SEARCH_WAIT_SECONDS``; past either, the seat plays the normal level's move at once (the
heuristic: microseconds, in the bot's process), which is better than a table standing still
behind searches whose moves would come too late.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
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
# A search still waiting for a worker after this long gives way to the normal level's move: the
# workers cannot keep up (many servers busy at once), and a move seconds late is worse than a
# weaker one now.
SEARCH_WAIT_SECONDS = 5.0


class SearchSkipped(Exception):
    """A search that gets no worker: ``reason`` is ``server-queue-full`` (its server has its
    most searches waiting) or ``waited-too-long``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Turns:
    """Whose search a free worker takes next: the servers with searches waiting in rotation,
    each server's oldest first; at most ``workers`` searches running and ``per_server`` waiting
    a server. ``quiet`` tells when none waits or runs (when a move review may go on)."""

    def __init__(self, workers: int, per_server: int) -> None:
        self.workers = workers
        self.per_server = per_server
        self.running = 0
        # the rotation: the next server to be served first; each one's searches, oldest first
        self._waiting: OrderedDict[int, deque[asyncio.Future[None]]] = OrderedDict()
        self._quiet = asyncio.Event()
        self._quiet.set()

    def waiting(self) -> int:
        """How many searches wait for a worker."""
        return sum(map(len, self._waiting.values()))

    @asynccontextmanager
    async def turn(self, server: int) -> AsyncIterator[None]:
        """Hold a worker for one search of ``server``'s, once its turn comes. SearchSkipped
        at once when the server's queue is full, or when the turn did not come within
        ``SEARCH_WAIT_SECONDS``."""
        self._quiet.clear()
        if self.running < self.workers:
            self.running += 1
        else:
            await self._wait(server)
        try:
            yield
        finally:
            self._release()

    async def _wait(self, server: int) -> None:
        """Wait in ``server``'s queue until ``_release`` hands this search a worker."""
        queue = self._waiting.setdefault(server, deque())
        if len(queue) >= self.per_server:
            raise SearchSkipped("server-queue-full")
        ready = asyncio.get_running_loop().create_future()
        queue.append(ready)
        try:
            async with asyncio.timeout(SEARCH_WAIT_SECONDS):
                await ready
        except BaseException as error:  # waited too long, or cancelled (its table moved on)
            if ready.done() and not ready.cancelled():
                self._release()  # it was handed a worker just as it gave up: pass it on
            else:
                ready.cancel()
                self._forget(server, ready)
            if isinstance(error, TimeoutError):
                raise SearchSkipped("waited-too-long") from None
            raise

    def _release(self) -> None:
        """A worker is free: hand it to the next server in rotation with a search waiting."""
        self.running -= 1
        while self._waiting and self.running < self.workers:
            server, queue = next(iter(self._waiting.items()))
            ready = queue.popleft()
            if queue:
                self._waiting.move_to_end(server)
            else:
                del self._waiting[server]
            if not ready.cancelled():  # one cancelled has not yet taken itself out
                ready.set_result(None)
                self.running += 1
        self._note_quiet()

    def _forget(self, server: int, ready: asyncio.Future[None]) -> None:
        """Take a search that gave up out of its server's queue."""
        queue = self._waiting.get(server)
        if queue is not None and ready in queue:
            queue.remove(ready)
            if not queue:
                del self._waiting[server]
        self._note_quiet()

    def _note_quiet(self) -> None:
        """Wake those waiting for quiet once no search waits or runs."""
        if not self.running and not self._waiting:
            self._quiet.set()

    async def quiet(self) -> None:
        """Return once no search waits or runs (at once if none)."""
        await self._quiet.wait()


class AiPlayers:
    """The AI seats' moves, and the worker processes that search."""

    def __init__(self, settings: Settings) -> None:
        self.budget = Budget(rollouts=settings.ai_think_rollouts, seconds=settings.ai_think_seconds)
        self.processes = (
            settings.ai_processes if settings.ai_processes is not None else os.cpu_count() or 1
        )
        self.turns = Turns(self.processes, settings.ai_searches_per_server)
        self._pool: ProcessPoolExecutor | None = None  # started at the first search

    def move(
        self, state: State, seat: int, level: str, seed: str, server: int
    ) -> Awaitable[Action | None]:
        """The move of ``level`` for ``seat`` (None: it declines an optional move), seeded by
        ``seed``, for a table of ``server`` (searches take turns by server). The state is read
        now; a search goes on after this returns."""
        player = agent(state.game, level, self.budget)
        if isinstance(player, StateAgent) and self.processes:
            return self._searched(state.game, state.to_json(), seat, level, seed, server)
        done = asyncio.get_running_loop().create_future()
        try:
            with metrics.AI_DECISION_SECONDS.labels(level).time():
                done.set_result(agent_move(state, seat, player, random.Random(seed)))
        except Exception:
            if level == DEFAULT_LEVEL:
                raise  # nothing to fall back to: the table's driver handles it
            log.exception("the %s AI failed for seat %d; the normal level moves", level, seat)
            return self.move(state, seat, DEFAULT_LEVEL, seed, server)
        return done

    async def quiet(self) -> None:
        """Return once no search waits for a worker or runs (at once if none): a move review
        judges its next decision only then, so live tables always go first."""
        await self.turns.quiet()

    async def _searched(
        self, game: Game, saved: dict[str, Any], seat: int, level: str, seed: str, server: int
    ) -> Action | None:
        """A worker's move, when ``server``'s turn comes; if the search got no worker in time,
        failed, hung or the workers broke (one was killed), the normal level's move at once,
        and a fresh pool for the next search if this one broke: a table never stops for want
        of one."""
        pool: ProcessPoolExecutor | None = None  # the one this search was handed to
        try:
            with (
                metrics.AI_DECISION_SECONDS.labels(level).time(),
                metrics.AI_QUEUE_DEPTH.labels(level).track_inprogress(),
            ):
                async with self.turns.turn(server):
                    pool = self.pool()
                    job = pool.submit(decide, game.id, saved, seat, level, seed, self.budget)
                    async with asyncio.timeout(SEARCH_TIMEOUT_SECONDS):
                        found = await asyncio.wrap_future(job)
        except SearchSkipped as skipped:  # the workers are busy: expected under load, no error
            metrics.AI_SEARCHES_SKIPPED.labels(skipped.reason).inc()
            found = decide(game.id, saved, seat, DEFAULT_LEVEL, seed, self.budget)
        except Exception as error:  # failed, broke or hung past its time
            log.exception("the %s AI's search failed for seat %d; normal moves", level, seat)
            if isinstance(error, BrokenProcessPool) and pool is not None:
                self._replace(pool)  # a worker was killed: a fresh pool next
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
