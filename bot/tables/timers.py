"""The timers of running tables: AI moves, turn timeouts, the out-of-turn window closing and
the end of a round's break.

One driver task per table sleeps until the next thing due at the table's current revision,
then asks the session (``ai_move``, ``time_out``); a committed change reschedules the driver
through the service, so a driver never outlives the position it was planned for. Whatever
fails in a driver (a save, an AI move, the member check, anything) is retried after
``retry_delay``, an AI that failed with the normal level's move, so the table never stops
moving; ``bot.tables.supervisor`` watches that every table keeps a driver.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.errors import GameMovedElsewhere, SaveFailed
from bot.ops import metrics
from bot.settings import Settings
from bot.tables import backoff
from bot.tables.backoff import retry_delay
from bot.tables.records import Change, Clock, Spawn
from bot.tables.session import TableSession, working_on
from bot.tables.thinking import DEFAULT_LEVEL
from engine.words import N_

log = logging.getLogger(__name__)

LEFT_THE_SERVER = N_("{player} left the server; the AI plays their seat.")
# Discord's answer to "is this person still a member?" at a deadline; without one in this
# long (or with an error) they count as a member and their timeout is played
MEMBER_CHECK_SECONDS = 10.0


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
        held: Callable[[TableSession], bool],
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.spawn = spawn
        self.window_closed = window_closed
        self.committed = committed
        # (server, user) → still a member? Asked when a person's time runs out: without the
        # privileged members intent, that is when the bot finds out that they left the server
        self.is_member = is_member
        # whether a table's clocks stand still for now (its shard's gateway is disconnected:
        # nobody there can move), so it gets no driver
        self.held = held
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.due: dict[str, datetime] = {}  # table id → when its driver acts next

    def schedule(self, session: TableSession, failures: int = 0, ai_failed: bool = False) -> None:
        """Plan the table's next AI move, timeout or window end (replacing the old plan);
        ``failures``: how many of the driver's tries have just failed in a row;
        ``ai_failed``: the last was an AI move, so the normal level moves instead."""
        self.cancel(session)
        if session.ended or session.state.is_over or self.held(session):
            return
        name = f"driver-{session.table_id}"
        run = self._run(session, session.revision, failures, ai_failed)
        self.drivers[session.table_id] = self.spawn(run, name)

    def cancel(self, session: TableSession) -> None:
        """Stop the table's driver (unless it is the task asking)."""
        self.due.pop(session.table_id, None)
        driver = self.drivers.pop(session.table_id, None)
        if driver is not None and driver is not asyncio.current_task():
            driver.cancel()

    def close(self) -> None:
        """Stop every driver (at shutdown)."""
        for driver in self.drivers.values():
            driver.cancel()
        self.drivers.clear()
        self.due.clear()

    def plan(self, session: TableSession) -> list[tuple[datetime, int, str]]:
        """What is due at the table, soonest first: (when, seat, "ai" | "timeout" | "window"
        | "break"). Nothing is due during a round's break but its end."""
        if session.round_end is not None:
            return [(session.round_end.until, -1, "break")]
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

    async def _run(
        self, session: TableSession, revision: int, failures: int, ai_failed: bool
    ) -> None:
        working_on(session)
        for when, seat, kind in self.plan(session):
            self.due[session.table_id] = when
            wait = (when - self.clock()).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            if session.ended or session.revision != revision:
                return
            if kind == "window":
                self.window_closed(session)
                continue
            try:
                if kind == "break":
                    change = await session.break_over(revision)
                elif kind == "ai":
                    level = DEFAULT_LEVEL if ai_failed else None
                    change = await session.ai_move(seat, revision, level)
                    if change is None:
                        continue  # the AI passed its out-of-turn chance
                else:
                    change = await self._time_out(session, seat, revision)
                if change is not None:
                    self.committed(session, change)
                return
            except GameMovedElsewhere:  # the session has stopped and told the service
                return
            except Exception as error:  # the table must go on: try again a little later
                await self._retry(session, failures + 1, error, ai_failed=kind == "ai")
                return

    async def _retry(
        self, session: TableSession, failures: int, error: Exception, *, ai_failed: bool
    ) -> None:
        """Wait ``retry_delay`` and plan the table anew. A failed save is expected (the
        database may be down) and said in one line; anything else is a fault of the bot:
        logged with its traceback at its first occurrence in a row, counted as a repair, and
        an AI that failed is replaced by the normal level's move."""
        delay = retry_delay(failures)
        table_id = session.table_id
        if isinstance(error, SaveFailed):
            ai_failed = False
            log.warning(
                "table %s: save failed (%d in a row); retrying in %.1f s", table_id, failures, delay
            )
        else:
            metrics.repaired("driver-error")
            if failures == 1:
                log.error("table %s: its driver failed; retrying", table_id, exc_info=error)
            else:
                log.warning("table %s: its driver failed again (%d in a row)", table_id, failures)
        self.due[table_id] = self.clock() + timedelta(seconds=delay)
        await backoff.wait_to_retry(delay)
        self.schedule(session, failures, ai_failed)

    async def _time_out(self, session: TableSession, seat: int, revision: int) -> Change | None:
        """The seat's time ran out: a person who left the server is handed to the AI at once
        (no point waiting for two more timeouts); otherwise the timeout move."""
        user_id = session.seats[seat].user_id
        if user_id is not None and not await self._still_member(session.guild_id, user_id):
            if session.ended or session.revision != revision or not session.seats[seat].is_human:
                return None
            return await session.leave(user_id, LEFT_THE_SERVER)
        return await session.time_out(seat, revision)

    async def _still_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the person is still a member; True when Discord cannot say in time."""
        try:
            async with asyncio.timeout(MEMBER_CHECK_SECONDS):
                return await self.is_member(guild_id, user_id)
        except Exception:
            log.warning("could not check whether user %d is still a member", user_id, exc_info=True)
            return True
