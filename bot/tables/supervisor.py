"""The liveness of running tables, checked and repaired in each process.

Every running table is at every moment in one of five states: waiting for a person whose
clock runs, waiting for an AI seat with a deadline, showing a round's end until a deadline
(the break before the next deal; each person's clock is set to start at its end) (all three:
a live driver task in ``TableTimers`` that acts when the first thing is due), paused with a
reason (its channel closed to the bot: its players told, a pause-end task in the service; or
its shard's gateway disconnected: nobody there can move, and every clock waits for it), or
ended and recorded. The drivers keep a table in those states themselves
(``bot.tables.timers`` retries whatever fails); the supervisor is the second line: every
``SUPERVISOR_SECONDS`` (a setting) it looks at each table and repairs one that broke the
invariant for two checks in a row (a table being started or shown is briefly without a
driver): it logs once, restarts the table's clock (a fresh turn for each waiting person) and
its driver. Each repair is counted by kind
(``cardroom_supervisor_repairs_total``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from bot.ops import metrics
from engine.words import N_

if TYPE_CHECKING:
    from bot.tables.session import TableSession
    from bot.tables.timers import TableTimers

log = logging.getLogger(__name__)

# A driver that has not acted this long after its time holds an await that never ends
# (every await it makes is bounded well below this: the AI's search, the member check)
STUCK_SECONDS = 120.0
CLOCK_RESTARTED = N_("The table's clock was restarted.")


class Watched(Protocol):
    """What the supervisor watches (the table service): its running tables, their drivers
    and the pauses it holds."""

    @property
    def tables(self) -> Mapping[str, TableSession]:
        """The running tables, by id."""

    @property
    def timers(self) -> TableTimers:
        """The tables' drivers."""

    def spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``coroutine`` in the background, owned by the service."""

    def pause_held(self, table_id: str) -> bool:
        """Whether a paused table's pause is held (its end is scheduled)."""

    def keep_paused(self, session: TableSession) -> None:
        """Hold a paused table still until its channel opens or the pause runs out."""

    @property
    def resting(self) -> set[str]:
        """The tables resting where the bot is no member (every token expired): still until
        a click brings them back."""


class Supervisor:
    """Checks the liveness of every table of a service, and repairs what broke."""

    def __init__(self, service: Watched, seconds: float) -> None:
        self.service = service
        self.seconds = seconds
        self.suspects: set[str] = set()  # tables found broken at the last check
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Check every ``seconds`` from now on (once per process; never if 0)."""
        if self.task is None and self.seconds > 0:
            self.task = self.service.spawn(self._watch(), "supervisor")

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                self.check()
            except Exception:  # the supervisor itself must never stop
                log.exception("the supervisor's check failed")

    def check(self) -> None:
        """Repair every table that broke the invariant at this check and the last."""
        broken: set[str] = set()
        for session in list(self.service.tables.values()):
            problem = self.problem(session)
            if problem is None:
                continue
            broken.add(session.table_id)
            if session.table_id in self.suspects:
                self._repair(session, problem)
        self.suspects = broken

    def problem(self, session: TableSession) -> str | None:
        """What keeps the table from being live (a repair kind), or None."""
        if session.ended or session.state.is_over:
            return None
        if session.paused:
            return None if self.service.pause_held(session.table_id) else "pause"
        timers = self.service.timers
        if timers.held(session):  # its shard is disconnected: its clocks wait for it
            return None
        if session.table_id in self.service.resting:  # still until a click brings it back
            return None
        humans = [s for s in session.state.waiting_for() if session.seats[s].is_human]
        if any(seat not in session.deadlines for seat in humans):
            return "no-clock"
        driver = timers.drivers.get(session.table_id)
        if driver is None or driver.done():
            return "no-driver"
        due = timers.due.get(session.table_id)
        late = due is not None and timers.clock() - due > timedelta(seconds=STUCK_SECONDS)
        # a driver in the middle of a save is left to it (storage bounds its own waits):
        # cancelling it there would undo nothing of what it changed in memory
        return "stuck-driver" if late and not session.lock.locked() else None

    def _repair(self, session: TableSession, problem: str) -> None:
        metrics.repaired(problem)
        log.error("table %s is not live (%s); repaired", session.table_id, problem)
        if problem == "pause":
            self.service.keep_paused(session)
            return
        if problem == "no-clock":
            session.resume(CLOCK_RESTARTED)
        self.service.timers.schedule(session)
