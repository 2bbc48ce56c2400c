"""Showing running tables without flooding Discord: hand DMs promptly, each table message at
most once per ``table_edit_seconds``, one ping per turn (each person's ``TurnPing``), and the
end once.

``Presenter`` is what the Discord side implements (``bot.tables.presenter``); it returns what
it posted anew, and this module reports that to the session (``TableSession.posted``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from bot.preferences import PingKind, TurnPing, TurnPings
from bot.storage import BrokenGame
from bot.tables.records import Clock, Spawn
from bot.tables.session import TableSession

if TYPE_CHECKING:
    from bot.tables.lobby import Lobby


log = logging.getLogger(__name__)

END_ATTEMPTS = 5  # a table's end is posted at most this many times before giving up
END_RETRY_SECONDS = 2.0  # the wait before the second try, twice as long before the third…


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

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        """The lobby ended without a game (expired)."""

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

    async def notice(self, session: TableSession, text: str) -> None:
        """Say something in the table's channel."""

    async def round_ended(self, session: TableSession, text: str) -> None:
        """Post a hand's or round's scores (a ``hand_end`` event's text) in the channel."""

    async def table_paused(self, session: TableSession) -> None:
        """Tell the players and the server's owner by DM that the table is paused (the bot
        may no longer post in its channel), what brings it back and when it ends."""

    async def table_ended(self, session: TableSession) -> None:
        """The game ended: post the results (over) or why it stopped."""

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
        self._tables: dict[str, _TableUpdates] = {}

    def _updates(self, session: TableSession) -> _TableUpdates:
        updates = self._tables.get(session.table_id)
        if updates is None:
            updates = self._tables[session.table_id] = _TableUpdates(self, session)
        return updates

    def changed(self, session: TableSession) -> None:
        """The table changed: refresh its message and the hand DMs; ping whoever's turn
        began."""
        updates = self._updates(session)
        updates.changed()
        updates.turns()

    def notice(self, session: TableSession, text: str) -> None:
        """Say something in the table's channel (in the background)."""
        posting = self.presenter.notice(session, text)
        self.spawn(self._in_channel(session, posting), f"notice-{session.table_id}")

    def round_ended(self, session: TableSession, text: str) -> None:
        """Post a hand's or round's scores in the table's channel (in the background)."""
        posting = self.presenter.round_ended(session, text)
        self.spawn(self._in_channel(session, posting), f"round-{session.table_id}")

    async def _in_channel(self, session: TableSession, posting: Coroutine[Any, Any, None]) -> None:
        try:
            await posting
        except ChannelLost as lost:
            self.lost(session, lost.gone)

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
            await self._show_end(session)
        finally:
            updates = self._tables.pop(session.table_id, None)
            if updates is not None:
                await updates.idle()
            await forget

    async def _show_end(self, session: TableSession) -> None:
        """Post the end, tried again a few times when Discord fails (the players would
        otherwise never see the result; one whose reply was lost may be posted twice)."""
        for attempt in range(1, END_ATTEMPTS + 1):
            try:
                await self.presenter.table_ended(session)
                return
            except Exception:
                if attempt == END_ATTEMPTS:
                    raise
                log.warning("table %s: its end could not be shown; again", session.table_id)
                await asyncio.sleep(END_RETRY_SECONDS * 2 ** (attempt - 1))


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
        if not session.ended and not session.paused:
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
        if self.turn_began.get(seat) != began:
            return  # that turn is over: no ping
        direct = ping.kind is PingKind.DM
        try:
            posted = await self.display.presenter.ping(self.session, seat, direct)
        except ChannelLost as lost:
            self.display.lost(self.session, lost.gone)
            return
        if posted is not None:
            self.pinged[seat] = posted
            if self.turn_began.get(seat) != began:  # the turn ended while it was posted
                self._unping(seat)

    def _unping(self, seat: int) -> None:
        message_id = self.pinged.pop(seat, None)
        if message_id is not None:
            name = f"unping-{self.session.table_id}-{seat}"
            self.display.spawn(self.display.presenter.unping(self.session, message_id), name)

    async def _dms(self) -> None:
        session = self.session
        while self.dm_dirty:
            self.dm_dirty = False
            if session.ended:
                return
            for seat, info in enumerate(session.seats):
                if info.user_id is None or info.dm_failed:
                    continue  # an AI seat, or a person whose DMs are closed
                if info.is_ai:  # handed to the AI: one last edit without cards, then nothing
                    if info.dm_message_id is not None:
                        await self.display.presenter.hand_closed(session, seat)
                        await session.posted(dm_closed=seat)
                    continue
                if self.dm_fresh.get(seat) == session.revision and info.dm_deal == session.deals:
                    continue
                try:
                    posted = await self.display.presenter.hand_changed(session, seat)
                except ChannelLost as lost:  # telling a closed-DMs player in the channel failed
                    self.display.lost(session, lost.gone)
                    return
                except MemberGone as gone:  # the AI takes the seat (nobody to tell to use Hand)
                    self.display.member_left(session.guild_id, gone.user_id)
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
            self.table_dirty = False
            self.last_edit = self.display.clock()
            try:
                posted = await self.display.presenter.table_changed(self.session)
            except ChannelLost as lost:
                self.display.lost(self.session, lost.gone)
                return
            if posted is not None:
                await self.session.posted(table_message=posted)
