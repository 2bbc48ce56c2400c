"""The timers of running tables: AI moves, turn timeouts and the out-of-turn window closing.

One driver task per table sleeps until the next thing due at the table's current revision,
then asks the session (``ai_move``, ``time_out``); a committed change reschedules the driver
through the service, so a driver never outlives the position it was planned for. A save that
fails is retried after ``retry_delay``, so the table never stops moving.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.errors import GameMovedElsewhere, SaveFailed
from bot.settings import Settings
from bot.tables.records import Change, Clock, Spawn
from bot.tables.session import TableSession, working_on

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 1.0
RETRY_MOST_SECONDS = 30.0
LEFT_THE_SERVER = "left the server"


def retry_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failed save in a row before trying again:
    about 1 s, then twice as long each time up to 30 s, less up to a fifth at random. An outage
    of the database fails every table's saves at once: the doubling keeps hundreds of tables
    from hammering it every second, and the random share keeps them from all coming back at
    the same moment when it recovers."""
    base = min(RETRY_MOST_SECONDS, RETRY_FIRST_SECONDS * 2.0 ** min(failures - 1, 16))
    return base * random.uniform(0.8, 1.0)


class TableTimers:
    """The driver task of every running table."""

    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        spawn: Spawn,
        window_closed: Callable[[TableSession], None],
        committed: Callable[[TableSession, Change], None],
        is_member: Callable[[int, int], Awaitable[bool]],
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.spawn = spawn
        self.window_closed = window_closed
        self.committed = committed
        # (server, user) → still a member? Asked when a person's time runs out: without the
        # privileged members intent, that is when the bot finds out that they left the server
        self.is_member = is_member
        self.drivers: dict[str, asyncio.Task[None]] = {}

    def schedule(self, session: TableSession, failed_saves: int = 0) -> None:
        """Plan the table's next AI move, timeout or window end (replacing the old plan);
        ``failed_saves``: how many of the driver's saves have just failed in a row."""
        self.cancel(session)
        if session.ended or session.state.is_over:
            return
        name = f"driver-{session.table_id}"
        run = self._run(session, session.revision, failed_saves)
        self.drivers[session.table_id] = self.spawn(run, name)

    def cancel(self, session: TableSession) -> None:
        """Stop the table's driver (unless it is the task asking)."""
        driver = self.drivers.pop(session.table_id, None)
        if driver is not None and driver is not asyncio.current_task():
            driver.cancel()

    def close(self) -> None:
        """Stop every driver (at shutdown)."""
        for driver in self.drivers.values():
            driver.cancel()
        self.drivers.clear()

    def plan(self, session: TableSession) -> list[tuple[datetime, int, str]]:
        """What is due at the table, soonest first: (when, seat, "ai" | "timeout" | "window")."""
        now = self.clock()
        ai_at = now + timedelta(seconds=self.settings.ai_delay_seconds)
        window_end = session.window_end
        plan: list[tuple[datetime, int, str]] = []
        for seat in session.optional_seats():
            if session.seats[seat].is_ai and (session.revision, seat) not in session.declined:
                plan.append((ai_at, seat, "ai"))
        for seat in session.state.waiting_for():
            if not session.seats[seat].is_human:
                plan.append((max(ai_at, window_end) if window_end else ai_at, seat, "ai"))
            elif seat in session.deadlines:
                plan.append((session.deadlines[seat], seat, "timeout"))
        if window_end is not None and window_end > now:
            plan.append((window_end, -1, "window"))
        plan.sort(key=lambda item: (item[0], item[2] != "ai", item[1]))
        return plan

    async def _run(self, session: TableSession, revision: int, failed_saves: int) -> None:
        working_on(session)
        for when, seat, kind in self.plan(session):
            wait = (when - self.clock()).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            if session.ended or session.revision != revision:
                return
            if kind == "window":
                self.window_closed(session)
                continue
            try:
                if kind == "ai":
                    change = await session.ai_move(seat, revision)
                    if change is None:
                        continue  # the AI passed its out-of-turn chance
                else:
                    change = await self._time_out(session, seat, revision)
                if change is not None:
                    self.committed(session, change)
                return
            except GameMovedElsewhere:  # the session has stopped and told the service
                return
            except SaveFailed:
                failures = failed_saves + 1
                delay = retry_delay(failures)
                log.warning(
                    "table %s: save failed (%d in a row); retrying in %.1f s",
                    session.table_id,
                    failures,
                    delay,
                )
                await asyncio.sleep(delay)
                self.schedule(session, failures)
                return

    async def _time_out(self, session: TableSession, seat: int, revision: int) -> Change | None:
        """The seat's time ran out: a person who left the server is handed to the AI at once
        (no point waiting for two more timeouts); otherwise the timeout move."""
        user_id = session.seats[seat].user_id
        if user_id is not None and not await self.is_member(session.guild_id, user_id):
            if session.ended or session.revision != revision or not session.seats[seat].is_human:
                return None
            return await session.leave(user_id, LEFT_THE_SERVER)
        return await session.time_out(seat, revision)
