"""Move reviews for the bot (no Discord): the engine's review of one seat of a finished game,
run one decision at a time in a worker process below the live tables' AI, kept in storage per
game and seat, and limited per person so that reviews cannot starve live games.

Live tables go first, strictly: a review's next decision goes to its worker only when no live
search waits or runs (``live_quiet``), one decision of one review at a time, so a live search
shares the machine with at most the one decision (a fraction of a second) already under way, at
the lowest priority. On a bot whose AI workers never rest, a review waits for them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta
from typing import Any

from bot.errors import UserError
from bot.replays.book import ReplayedGame
from bot.settings import Settings
from bot.storage import Storage
from engine.errors import ActionParseError
from engine.replay import Replay
from engine.review import WORLDS, Judgement, decisions, judge_saved
from engine.words import _, ngettext

log = logging.getLogger(__name__)

REVIEW_NICENESS = 19  # the lowest priority: below the bot and the AI's workers (niceness 10)
REVIEW_SEED = 0
WINDOW = timedelta(hours=1)

Progress = Callable[[int, int], Awaitable[None]]
"""Told ``(done, total)`` after each decision judged."""

Quiet = Callable[[], Awaitable[None]]
"""Returns once no live table's search waits or runs (``AiPlayers.quiet``)."""


class Reviewer:
    """Reviews a seat's moves (``review``), in one worker process of its own at the lowest
    priority, each decision once ``live_quiet`` says the live tables' searches are done (none
    with ``ai_processes`` 0: in the bot's process, for tests)."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        clock: Callable[[], datetime],
        live_quiet: Quiet,
    ) -> None:
        self.storage = storage
        self.live_quiet = live_quiet
        self.per_hour = settings.reviews_per_hour
        self.in_process = settings.ai_processes == 0
        self.clock = clock
        self.worlds = WORLDS  # the review's budget (engine.review; tests make it smaller)
        self._started: dict[int, deque[datetime]] = defaultdict(deque)
        self._running: set[int] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._one_decision = asyncio.Lock()  # one decision of one review in the worker at a time

    async def kept(self, game: ReplayedGame, seat: int) -> list[Judgement] | None:
        """The stored review of ``seat``; None: not made yet, damaged in storage, or kept
        but not fitting its game's record (``misfit``, logged): ``make`` makes it anew."""
        found = await self.storage.reviews.review(game.table_id, seat, REVIEW_SEED, self.worlds)
        if found is None:
            return None
        why = misfit(found, game.replay, seat)
        if why is None:
            return found
        log.warning(
            "table %s: seat %d's kept move review does not fit its game's record (%s); made anew",
            game.table_id,
            seat,
            why,
        )
        return None

    async def make(
        self, game: ReplayedGame, seat: int, user_id: int, progress: Progress
    ) -> list[Judgement]:
        """``seat``'s review made now for ``user_id`` (counted against the person's reviews
        per hour; one at a time) and stored over any kept one (ask ``kept`` first). UserError
        when the person may not start one now, or the workers failed."""
        self._admit(user_id)
        self._running.add(user_id)
        try:
            judged = await self.judge_all(game, seat, progress)
        finally:
            self._running.discard(user_id)
        await self.storage.reviews.keep(game.table_id, seat, REVIEW_SEED, self.worlds, judged)
        return judged

    def _admit(self, user_id: int) -> None:
        """Count a new review for ``user_id``, or say why they may not start one now."""
        if user_id in self._running:
            raise UserError(_("Your other review is still running; this one can start after it."))
        now = self.clock()
        started = self._started[user_id]
        while started and now - started[0] >= WINDOW:
            started.popleft()
        if len(started) >= self.per_hour:
            if not self.per_hour:
                raise UserError(_("Move reviews are turned off on this bot."))
            raise UserError(
                ngettext(
                    "You have started {count} review in the last hour, the most allowed; "
                    "try again later (a review already made is shown at any time).",
                    "You have started {count} reviews in the last hour, the most allowed; "
                    "try again later (a review already made is shown at any time).",
                    self.per_hour,
                ).format(count=self.per_hour)
            )
        started.append(now)

    async def judge_all(self, game: ReplayedGame, seat: int, progress: Progress) -> list[Judgement]:
        """``seat``'s review made now, decision by decision (no stored review is read or kept,
        no limit counted: ``make`` does that)."""
        record = json.dumps(game.record, sort_keys=True)
        total = len(decisions(game.replay, seat))
        judged = []
        for ordinal in range(total):
            judged.append(Judgement.from_json(await self._judge(record, seat, ordinal)))
            await progress(ordinal + 1, total)
        return judged

    async def _judge(self, record: str, seat: int, ordinal: int) -> dict[str, Any]:
        """One decision judged by the worker, once no live search waits or runs; a broken
        worker is replaced and the review ends with a plain answer (the person may ask again)."""
        if self.in_process:
            return judge_saved(record, seat, ordinal, REVIEW_SEED, self.worlds)
        try:
            async with self._one_decision:
                await self.live_quiet()
                job = self.pool().submit(
                    judge_saved, record, seat, ordinal, REVIEW_SEED, self.worlds
                )
                return await asyncio.wrap_future(job)
        except BrokenProcessPool:
            log.exception("the review's worker process broke; starting a new one")
            self.close()
            raise UserError(
                _("The review stopped because its worker failed; please try again.")
            ) from None

    def pool(self) -> ProcessPoolExecutor:
        """The review's worker process (spawned, at the lowest priority)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                1, mp_context=context, initializer=os.nice, initargs=(REVIEW_NICENESS,)
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker (at shutdown); a review under way is dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def misfit(judged: Sequence[Judgement], replay: Replay, seat: int) -> str | None:
    """Why a kept review, well formed, cannot be shown with its game's record (a step the
    record lacks or that was not the seat's move, a move text that does not parse), or None
    if it fits. The reason names steps, never a move (it goes to the log)."""
    for found in judged:
        if not 0 < found.step < len(replay.steps):
            return f"step {found.step} is no move of the record"
        step = replay.steps[found.step]
        if step.seat != seat or step.action != found.chosen:
            return f"step {found.step} is not the move of seat {seat} it names"
        try:
            replay.game.parse_action(found.best)
        except ActionParseError:
            return f"step {found.step}'s best move does not parse"
    return None
