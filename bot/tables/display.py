"""Showing running tables without flooding Discord: hand DMs promptly, each table message at
most once per ``table_edit_seconds``, one ping per turn (each person's ``TurnPing``), the end
once, and the tables shown anew all at once (after a restart, a reconnection) through a queue
paced at ``redraws_per_second``.

``Presenter`` is what the Discord side implements (``bot.tables.presenter``); it returns what
it posted anew, and this module reports that to the session (``TableSession.posted``).

When Discord does not answer (``DiscordUnavailable``), each update is tried again after
``retry_delay``, a bounded number of times, and each try draws the table as it is then: the
latest state wins, and an edit a newer one superseded is never sent. The outage is logged
once (``Outage``). Any other failure of an update is logged once per table and kind; the
table goes on, and its next change tries again.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.preferences import PingKind, TurnPing, TurnPings
from bot.storage import BrokenGame
from bot.tables import backoff
from bot.tables.backoff import DiscordUnavailable, Outage, retry_delay
from bot.tables.records import Clock, RoundEnd, Spawn
from bot.tables.session import TableSession, working_on
from engine.core import Event

if TYPE_CHECKING:
    from bot.tables.lobby import Lobby

log = logging.getLogger(__name__)

T = TypeVar("T")

# How often an update (a table edit, a hand DM, a ping, a notice) is tried while Discord does
# not answer: about two minutes with retry_delay's waits; the table's next change tries again.
UPDATE_TRIES = 8
# A game's end posted in its channel: tried for about eight minutes (its result is saved
# before it is posted, so nothing is lost if it never lands).
ENDING_TRIES = 20


class Missed(enum.Enum):
    """An update that did not happen: given up on, superseded, or failed (and logged)."""

    MISSED = "missed"


MISSED = Missed.MISSED


class ChannelLost(Exception):
    """The table's channel is gone (``gone``: deleted, or the bot removed from its server),
    or the bot may no longer see or post in it (permissions taken away)."""

    def __init__(self, message: str, *, gone: bool) -> None:
        super().__init__(message)
        self.gone = gone


class MemberGone(Exception):
    """A DM to a seated person failed because they are no longer a member of the server."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} left the server")
        self.user_id = user_id


class Presenter(Protocol):
    """What the Discord side does when a lobby or table changes. A call that cannot reach
    the table's channel at all raises ChannelLost (the display then has the game ended or
    paused)."""

    async def lobby_closed(self, lobby: Lobby, reason: Event) -> None:
        """The lobby ended without a game (expired; ``reason`` says so)."""

    async def show_lobby(self, lobby: Lobby) -> bool:
        """Show the lobby as it is now in its message (after a restart, or a change made
        without a click); False when that message or its channel is gone or closed to the
        bot."""

    async def table_changed(self, session: TableSession) -> int | None:
        """Post or edit the table message; returns the id of a message posted anew."""

    async def hand_changed(self, session: TableSession, seat: int) -> tuple[int | None] | None:
        """Send or edit the seat's hand DM; returns ``(new message id,)`` when one was sent
        anew, ``(None,)`` when the person's DMs are closed, None when edited in place; raises
        MemberGone when the DM failed because the person left the server."""

    async def hand_closed(self, session: TableSession, seat: int) -> None:
        """Edit a seat's hand DM one last time when the AI took the seat: no cards, no
        controls."""

    async def notice(self, session: TableSession, notice: Event) -> None:
        """Say ``notice`` in the table's channel."""

    async def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        """Post a hand's or round's end (its scores and the cards turned up) in the channel,
        where it stays when the table has moved on."""

    async def table_paused(self, session: TableSession) -> None:
        """Tell the players and the server's owner by DM that the table is paused (the bot
        may no longer post in its channel), what brings it back and when it ends."""

    async def post_ending(self, session: TableSession) -> int | None:
        """The game ended: post the results (returning that message's id) or why it
        stopped (None) in the table's channel."""

    async def table_ended(self, session: TableSession, results_id: int | None) -> None:
        """The game ended and its end was posted (as ``results_id`` when it has results) or
        could not be: the open Hand views and the hand DMs lose their controls."""

    async def restore_failed(self, broken: BrokenGame) -> None:
        """Tell the channel its game could not be restored (the reason goes to the log only)."""

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the person is still a member of the server (True when Discord cannot
        say)."""

    async def ping(self, session: TableSession, seat: int, direct: bool) -> int | None:
        """Tell the seat's person it is their turn: a mention of them alone in the table's
        channel (returning its message id), or a new DM when ``direct`` (None; a mention
        when their DMs are closed)."""

    async def unping(self, session: TableSession, message_id: int) -> None:
        """Take a turn's ping away once the turn is over (it did its work)."""


class TableDisplay:
    """The pending updates of every table."""

    def __init__(
        self,
        presenter: Presenter,
        clock: Clock,
        spawn: Spawn,
        edit_seconds: float,
        lost: Callable[[TableSession, bool], None],
        member_left: Callable[[int, int], None],
        turn_pings: TurnPings,
        redraws_per_second: float,
    ) -> None:
        self.presenter = presenter
        self.clock = clock
        self.spawn = spawn
        self.edit_seconds = edit_seconds
        # told (with ChannelLost.gone) when a table's channel cannot be reached: no request is
        # retried in a loop
        self.lost = lost
        self.member_left = member_left  # (server, user): a DM showed they left the server
        self.turn_pings = turn_pings
        self.outage = Outage(clock)
        self._tables: dict[str, _TableUpdates] = {}
        self._faulted: set[tuple[str, str]] = set()  # (table, update) whose failure was logged
        self.redraw_seconds = 1 / redraws_per_second
        # the tables waiting for their paced redraw (by id, in order): those waiting for a
        # person first, and the task drawing them
        self._urgent: dict[str, TableSession] = {}
        self._later: dict[str, TableSession] = {}
        self._pacing: asyncio.Task[None] | None = None

    def _updates(self, session: TableSession) -> _TableUpdates:
        updates = self._tables.get(session.table_id)
        if updates is None:
            updates = self._tables[session.table_id] = _TableUpdates(self, session)
        return updates

    async def attempt(
        self,
        session: TableSession,
        what: str,
        call: Callable[[], Awaitable[T]],
        *,
        tries: int = UPDATE_TRIES,
        wanted: Callable[[], bool] = lambda: True,
        persistent: bool = False,
    ) -> T | Missed:
        """Run one of the table's updates (``what``) until Discord answers it: again after
        ``retry_delay`` while it does not, at most ``tries`` times and while the update is
        still ``wanted`` (not superseded). MISSED when it did not happen: given up on,
        superseded, its channel lost (the service told), a DM showing that the person left
        the server (told too), or any other failure (logged once per table and update;
        tried again all the same when ``persistent``: a game's end, which its players would
        otherwise never see)."""
        failures = 0
        while True:
            try:
                result = await call()
            except ChannelLost as lost:
                self.lost(session, lost.gone)
                return MISSED
            except MemberGone as gone:  # the AI takes the seat (nobody to tell to use Hand)
                self.member_left(session.guild_id, gone.user_id)
                return MISSED
            except Exception as error:
                if isinstance(error, DiscordUnavailable):
                    self.outage.failed(error)
                else:  # a fault of the bot: the table goes on regardless
                    self._fault(session, what, error)
                    if not persistent:
                        return MISSED
                failures += 1
                if failures >= tries:
                    log.info(
                        "table %s: its %s given up after %d tries", session.table_id, what, tries
                    )
                    return MISSED
                await backoff.wait_to_retry(retry_delay(failures))
                if not wanted():
                    return MISSED
                continue
            self.outage.answered(retried=failures > 0)
            return result

    def _fault(self, session: TableSession, what: str, error: Exception) -> None:
        key = (session.table_id, what)
        if key in self._faulted:
            log.debug("table %s: its %s failed again", session.table_id, what, exc_info=error)
            return
        self._faulted.add(key)
        log.error(
            "table %s: its %s failed; the table goes on", session.table_id, what, exc_info=error
        )

    def redraw(self, session: TableSession) -> None:
        """Show the table anew though it did not change (after a restart or a reconnection):
        in turn with the other tables shown anew, ``redraws_per_second`` of them a second,
        those waiting for a person first (a change of the table meanwhile shows it at once)."""
        table_id = session.table_id
        if any(session.seats[seat].is_human for seat in session.state.waiting_for()):
            self._urgent[table_id] = session
        else:
            self._later[table_id] = session
        if self._pacing is None or self._pacing.done():
            self._pacing = self.spawn(self._paced(), "paced-redraws")

    async def _paced(self) -> None:
        while self._urgent or self._later:
            waiting = self._urgent or self._later
            session = waiting.pop(next(iter(waiting)))
            if session.ended:
                continue
            working_on(session)  # the updates' log lines carry this table's ids
            self.changed(session)
            await asyncio.sleep(self.redraw_seconds)

    def changed(self, session: TableSession) -> None:
        """The table changed: refresh its message and the hand DMs; ping whoever's turn
        began."""
        self._urgent.pop(session.table_id, None)  # shown now: no redraw left to wait for
        self._later.pop(session.table_id, None)
        updates = self._updates(session)
        updates.changed()
        updates.turns()

    def notice(self, session: TableSession, notice: Event) -> None:
        """Say ``notice`` in the table's channel (in the background)."""
        self.in_background(session, "notice", partial(self.presenter.notice, session, notice))

    def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        """Post a hand's or round's end in the table's channel (in the background)."""
        self.in_background(session, "round", partial(self.presenter.round_ended, session, ended))

    def in_background(
        self,
        session: TableSession,
        what: str,
        call: Callable[[], Awaitable[object]],
        name: str | None = None,
    ) -> None:
        """``attempt`` the call in a background task (named ``name``, else after ``what``)."""
        self.spawn(self._attempted(session, what, call), name or f"{what}-{session.table_id}")

    async def _attempted(
        self, session: TableSession, what: str, call: Callable[[], Awaitable[object]]
    ) -> None:
        """``attempt`` as a background task (whose outcome nobody reads; a coroutine that
        is cancelled before it runs creates no other that would never be awaited)."""
        await self.attempt(session, what, call)

    def hand_shown(self, session: TableSession, seat: int) -> None:
        """The seat's DM hand was refreshed by an interaction answer (no edit needed)."""
        self._updates(session).dm_fresh[seat] = session.revision

    def hand_restyled(self, session: TableSession, seat: int) -> None:
        """The seat's person changed how their pictures look: redraw their DM hand, though
        the game has not moved."""
        updates = self._updates(session)
        updates.dm_fresh.pop(seat, None)
        updates.dms_changed()

    def ended(self, session: TableSession, forget: Coroutine[Any, Any, None]) -> None:
        """Show the end, wait for pending updates, then run ``forget``."""
        self.spawn(self._end(session, forget), f"ended-{session.table_id}")

    async def _end(self, session: TableSession, forget: Coroutine[Any, Any, None]) -> None:
        try:
            post = partial(self.presenter.post_ending, session)
            posted = await self.attempt(
                session, "ending", post, tries=ENDING_TRIES, persistent=True
            )
            if posted is MISSED:  # its result, if it has one, is saved all the same
                log.warning(
                    "table %s: its end could not be posted in its channel", session.table_id
                )
            results_id = None if posted is MISSED else posted
            await self.attempt(
                session, "end", partial(self.presenter.table_ended, session, results_id)
            )
        finally:
            updates = self._tables.pop(session.table_id, None)
            if updates is not None:
                await updates.idle()
            self._faulted = {key for key in self._faulted if key[0] != session.table_id}
            await forget


class _TableUpdates:
    """Coalesces one table's updates: DMs promptly, the table message at most once per
    interval."""

    def __init__(self, display: TableDisplay, session: TableSession) -> None:
        self.display = display
        self.session = session
        self.dm_dirty = False
        self.table_dirty = False
        self.dm_task: asyncio.Task[None] | None = None
        self.table_task: asyncio.Task[None] | None = None
        self.last_edit: datetime | None = None
        self.dm_fresh: dict[int, int] = {}
        # seat -> the revision its turn began at (a person the game waits for), and the
        # message pinging them for it: a seat is pinged once per turn, not once per change
        self.turn_began: dict[int, int] = {}
        self.pinged: dict[int, int] = {}

    async def idle(self) -> None:
        """Wait until the pending DM and table updates are done."""
        pending = [task for task in (self.dm_task, self.table_task) if task is not None]
        await asyncio.gather(*pending, return_exceptions=True)

    def changed(self) -> None:
        self.dms_changed()
        self.table_dirty = True
        table_id = self.session.table_id
        if self.table_task is None or self.table_task.done():
            self.table_task = self.display.spawn(self._table(), f"table-{table_id}")

    def dms_changed(self) -> None:
        self.dm_dirty = True
        if self.dm_task is None or self.dm_task.done():
            self.dm_task = self.display.spawn(self._dms(), f"dms-{self.session.table_id}")

    def turns(self) -> None:
        """Ping each person whose turn just began (as they chose: now, later, by DM or not
        at all); take away the ping of a turn that is over."""
        session = self.session
        waiting: set[int] = set()
        # during a round's break the next turn has not begun: the table shows the round end
        if not session.ended and not session.paused and session.round_end is None:
            waiting = {seat for seat in session.state.waiting_for() if session.seats[seat].is_human}
        for seat in set(self.turn_began) - waiting:
            del self.turn_began[seat]
            self._unping(seat)
        for seat in waiting - set(self.turn_began):
            self.turn_began[seat] = session.revision
            user_id = session.seats[seat].user_id
            assert user_id is not None, "a person's seat"
            ping = self.display.turn_pings.of(session.guild_id, user_id)
            if ping.kind is not PingKind.NEVER:
                name = f"ping-{session.table_id}-{seat}"
                self.display.spawn(self._ping(seat, session.revision, ping), name)

    async def _ping(self, seat: int, began: int, ping: TurnPing) -> None:
        if ping.kind is PingKind.LATER:
            await asyncio.sleep(ping.delay_seconds)

        def this_turn() -> bool:
            return self.turn_began.get(seat) == began

        if not this_turn():
            return  # that turn is over: no ping
        direct = ping.kind is PingKind.DM
        call = partial(self.display.presenter.ping, self.session, seat, direct)
        posted = await self.display.attempt(self.session, "ping", call, wanted=this_turn)
        if posted is not None and posted is not MISSED:
            self.pinged[seat] = posted
            if not this_turn():  # the turn ended while it was posted
                self._unping(seat)

    def _unping(self, seat: int) -> None:
        message_id = self.pinged.pop(seat, None)
        if message_id is not None:
            name = f"unping-{self.session.table_id}-{seat}"
            call = partial(self.display.presenter.unping, self.session, message_id)
            self.display.in_background(self.session, "unping", call, name)

    async def _dms(self) -> None:
        session, display = self.session, self.display
        while self.dm_dirty:
            self.dm_dirty = False
            for seat, info in enumerate(session.seats):
                if session.ended:
                    return
                if info.user_id is None or info.dm_failed:
                    continue  # an AI seat, or a person whose DMs are closed
                if info.is_ai:  # handed to the AI: one last edit without cards, then nothing
                    if info.dm_message_id is not None:
                        closing = partial(display.presenter.hand_closed, session, seat)
                        if await display.attempt(session, "hand DM", closing) is not MISSED:
                            await session.posted(dm_closed=seat)
                    continue
                if self.dm_fresh.get(seat) == session.revision and info.dm_deal == session.deals:
                    continue
                changing = partial(display.presenter.hand_changed, session, seat)
                posted = await display.attempt(
                    session, "hand DM", changing, wanted=lambda: not session.ended
                )
                if posted is MISSED:
                    continue
                if posted is not None:
                    await session.posted(dm=(seat, posted[0]))
                self.dm_fresh[seat] = session.revision

    async def _table(self) -> None:
        interval = self.display.edit_seconds
        while self.table_dirty:
            if self.last_edit is not None and interval > 0:
                wait = interval - (self.display.clock() - self.last_edit).total_seconds()
                if wait > 0:
                    await asyncio.sleep(wait)
            posted = await self.display.attempt(self.session, "table message", self._edit_table)
            if posted is MISSED:
                return  # the next change tries again
            if posted is not None:
                await self.session.posted(table_message=posted)

    async def _edit_table(self) -> int | None:
        # each try draws the table as it is then: a change made meanwhile needs no edit more
        self.table_dirty = False
        self.last_edit = self.display.clock()
        return await self.display.presenter.table_changed(self.session)
