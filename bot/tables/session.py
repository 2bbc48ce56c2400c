"""The table session: one running game, with its lock, state, seats, deadlines and log.

It offers one call per intent (``choose`` a step, which plays the move it completes,
``next_round``, ``leave``, ``end``, and for the timers ``ai_move``, ``time_out`` and
``break_over``). Each call is a transaction under the table's lock: the change is made in
memory, then saved (``storage.running.save``; ``storage.results.finish`` at the end,
``storage.running.end_unfinished`` when it ends without a result). The session holds the
change only once the save committed: while it is pending, and after it failed, the session
holds the position last saved, exactly as it was (state, revision, log, deadlines, seats),
and a failed save raises ``SaveFailed``.
A committed call returns a ``Change`` (events, whose views changed, what to post); its caller
(``TableService``, or the timers) has it shown and rescheduled. The Discord side reports the
ids of what it posted through ``posted``, the service a closed channel through ``pause``;
nothing else writes into a session from outside.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.errors import GameMovedElsewhere, NoSuchMove, SaveFailed, StaleMove, UserError
from bot.ops import metrics
from bot.ops.logs import bind_table
from bot.storage import RevisionConflictError
from bot.tables.records import (
    FINISHED,
    MOVED_ELSEWHERE,
    NO_PLAYERS_LEFT,
    Change,
    Chosen,
    Ending,
    LoggedEvent,
    RoundEnd,
    SessionContext,
    TableData,
)
from bot.tables.results import finished_game, saved_game
from bot.tables.snapshot import Snapshot
from engine.ai import heuristic
from engine.choices import NotAMove, StaleChoice, Step, picked_path, resolve
from engine.core import Action, Event
from engine.errors import EngineError
from engine.runner import agent_move
from engine.words import N_, _, ngettext

log = logging.getLogger(__name__)

MAX_TIMEOUTS = 3
RESTARTED = N_("The game resumes after a restart.")
NOT_A_MOVE = N_("Those choices together are not a move; choose again.")
# how a person left, said in the table's channel
LEFT = N_("{player} left; the AI plays their seat.")
PAUSED = N_(
    "This game is paused: the bot may no longer post in its channel. It goes on where it "
    "stopped as soon as a server admin gives the bot its permissions there back."
)


Write = Callable[[int | None], Awaitable[None]]
"""A save read from the session, written over the stored revision it is given."""


@dataclass
class SaveAttempt:
    """A change a save tried to store: the revision it wrote, the ending it stored (None: the
    game went on), the change, and the table as it was then (kept for an ending only)."""

    revision: int
    ending: Ending | None
    change: Change
    ended: Snapshot | None


@dataclass(eq=False)
class TableSession(TableData):
    """A running game and the calls that change it: its data (``TableData``, which the
    stored forms and the undo snapshot read), the table's lock, and what every session
    shares (``context``)."""

    context: SessionContext = field(kw_only=True)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, kw_only=True)
    # the last change whose save failed without an answer: it may be stored all the same
    # (its reply lost while the database could not be read to settle it), see ``_save``
    unsettled: SaveAttempt | None = field(default=None, kw_only=True)

    # -- reading -----------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        """Whether the table waits for its channel to open to the bot again."""
        return self.paused_since is not None

    @property
    def names(self) -> list[str]:
        """Seat names, by seat."""
        return [seat.name for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user plays (or played, before it went to the AI), or None."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def seat_for(self, user_id: int) -> int:
        """The seat a person plays at this table; raises UserError otherwise."""
        if self.ended:
            raise UserError(_("This game is over."))
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError(_("You are not seated at this table."))
        if self.seats[seat].is_ai:
            raise UserError(_("Your seat was handed to the AI for the rest of this game."))
        return seat

    def optional_seats(self) -> tuple[int, ...]:
        """Seats with out-of-turn actions only (snaps) just now."""
        waiting = set(self.state.waiting_for())
        return tuple(seat for seat in self.state.to_act() if seat not in waiting)

    def window_left(self, now: datetime) -> float:
        """Seconds the out-of-turn window stays open (0 when none is)."""
        if self.window_end is None or not self.optional_seats():
            return 0.0
        return max(0.0, (self.window_end - now).total_seconds())

    def window_seconds(self) -> float:
        """How long out-of-turn actions stay open: the game's say, else the bot's setting."""
        seconds = self.game.out_of_turn_seconds(self.options)
        return self.context.settings.optional_window_seconds if seconds is None else seconds

    def is_stale(self, seat: int, revision: int) -> bool:
        """Whether a view of ``seat`` drawn at ``revision`` no longer shows its legal actions."""
        return not self.options_changed.get(seat, 0) <= revision <= self.revision

    # -- the intents -------------------------------------------------------------------------
    async def choose(
        self, user_id: int, revision: int, path: Sequence[int], picked: Sequence[int] | None = None
    ) -> Chosen:
        """A step of a move chosen in a view drawn at ``revision``: the next step to offer,
        or the move it completes, committed. Under the table's lock, once each: the seat is
        checked, the view's staleness (StaleMove when the seat's legal actions changed since)
        and the indices resolved against the seat's legal actions. ``picked``: the members
        chosen together at the step ``path`` leads to (``engine.choices.Pick``); a set that
        is no move is refused (``NOT_A_MOVE``)."""
        async with self.lock:
            seat = self.seat_for(user_id)
            if self.is_stale(seat, revision):
                raise StaleMove()
            legal = self.state.legal_actions(seat)
            try:
                if picked is not None:
                    path = picked_path(self.game, legal, path, picked)
                target = resolve(legal, path, self.game.confirmation)
            except StaleChoice:
                raise StaleMove() from None
            except NotAMove:
                raise NoSuchMove(_(NOT_A_MOVE)) from None
            if isinstance(target, Step):
                return Chosen(seat, target)
            if self.paused:
                raise UserError(_(PAUSED))
            left = self.window_left(self.context.clock())
            if left > 0 and seat in self.state.waiting_for():
                seconds = math.ceil(left)
                wait = ngettext(
                    "Others may still play out of turn for {count} second: make your move "
                    "after that.",
                    "Others may still play out of turn for {count} seconds: make your move "
                    "after that.",
                    seconds,
                )
                raise UserError(wait.format(count=seconds))

            def move() -> Change:
                self.seats[seat].timeouts_in_a_row = 0
                return self._apply(seat, target)

            return Chosen(seat, await self._commit(move))

    async def next_round(self, user_id: int, revision: int) -> Change | None:
        """A seated person pressed Next round on the round end held since ``revision``: the
        table moves on to the next deal (None when it had already)."""
        self.seat_for(user_id)
        async with self.lock:
            if self.paused:
                raise UserError(_(PAUSED))
            return await self._move_on(revision)

    async def break_over(self, revision: int) -> Change | None:
        """The round end held since ``revision`` has been shown its while: the table moves
        on to the next deal (None when it had already)."""
        async with self.lock:
            if self.ended or self.paused:
                return None
            return await self._move_on(revision)

    async def _move_on(self, revision: int) -> Change | None:
        held = self.round_end
        if held is None or held.revision != revision:
            return None

        def move_on() -> Change:
            rounds = self._end_break()
            self._after_change(acted=())
            return Change(views=self._all_seats(), rounds=rounds)

        return await self._commit(move_on)

    async def ai_move(self, seat: int, revision: int, level: str | None = None) -> Change | None:
        """The AI's move for ``seat`` if the game is still at ``revision`` and it wants one
        (at ``level``: the seat's own unless given, as when its own failed).
        A searching level thinks outside the table's lock (in the context's worker processes);
        its move counts only if nothing moved meanwhile."""
        async with self.lock:
            if self.ended or self.paused or self.revision != revision:
                return None
            thinking = self.context.ai.move(
                self.state, seat, level or self.seats[seat].level, self.ai_seed(seat), self.guild_id
            )
        action = await thinking
        async with self.lock:
            if self.ended or self.paused or self.revision != revision:
                return None
            if action is None:
                self.declined.add((self.revision, seat))
                return None
            return await self._commit(lambda: self._apply(seat, action))

    async def time_out(self, seat: int, revision: int) -> Change | None:
        """The seat's time ran out at ``revision``: its timeout move (or the AI's) is made;
        after ``MAX_TIMEOUTS`` in a row the AI keeps the seat."""
        async with self.lock:
            if self.ended or self.paused or self.revision != revision:
                return None
            return await self._commit(lambda: self._time_out(seat))

    async def leave(self, user_id: int, how: str = LEFT) -> Change:
        """A player leaves (``how``: the notice saying so, ``LEFT``, the timers'
        ``LEFT_THE_SERVER``, with the ``{player}`` who left): the AI takes the seat; with no
        people left the game ends."""
        seat = self.seat_for(user_id)
        async with self.lock:
            if self.ended:
                raise UserError(_("This game is over."))

            def hand_over() -> Change:
                self.seats[seat].is_ai = True
                self.deadlines.pop(seat, None)
                name = self.seats[seat].name
                if self._end_if_no_humans():
                    return Change(views=self._all_seats(), ended=True)
                return Change(
                    views=self._all_seats(),
                    notices=(Event(how, "notice", args=(("player", name),)),),
                )

            return await self._commit(hand_over)

    def check_may_stop(self, user_id: int, may_manage: bool) -> None:
        """Only the host or someone with Manage Server may stop the game (UserError)."""
        if user_id != self.host_id and not may_manage:
            raise UserError(_("Only the host or someone with Manage Server can stop this game."))

    async def end(self, ending: Ending) -> Change:
        """End the game without a result, for ``ending``'s reason (stopped, its channel lost,
        this process no longer its owner…): stored as an unfinished game, unless the game
        may be another process's now (then only no longer driven here). Raises UserError when
        it had ended already."""
        async with self.lock:
            if self.ended:
                raise UserError(_("This game is over."))
            return await self._commit(lambda: self._end(ending))

    async def begin(self, lobby_id: str) -> None:
        """Save the game just dealt from lobby ``lobby_id``, whose stored row goes in the same
        transaction (raises SaveFailed; nothing else to undo then)."""
        self._after_change(acted=())
        try:
            await self.context.storage.running.save(saved_game(self), None, lobby_id)
            self.stored_revision = self.revision
        except Exception as error:
            log.exception("table %s: the first save failed", self.table_id)
            raise SaveFailed() from error

    async def posted(
        self,
        *,
        table_message: int | None = None,
        dm: tuple[int, int | None] | None = None,
        dm_closed: int | None = None,
        thread: int | None = None,
    ) -> None:
        """What the Discord side posted: a new table message, a seat's new hand DM (its
        message id, or None when that person's DMs are closed), the last edit of the hand
        DM of a seat handed to the AI (never edited again), or the thread the table plays in
        from now on (it was dealt in its lobby's channel). Saved, so that after a restart
        the bot edits the messages people see last, in the thread; a failed save only loses
        that until the next move's save."""
        async with self.lock:
            if thread is not None:
                self.parent_channel_id, self.channel_id = self.channel_id, thread
            if table_message is not None:
                self.table_message_id = table_message
                self.table_posted_at = self.context.clock()
            if dm is not None:
                seat, message_id = dm
                info = self.seats[seat]
                if message_id is None:
                    info.dm_failed = True
                else:
                    info.dm_message_id = message_id
                    info.dm_deal = self.deals
            if dm_closed is not None:
                self.seats[dm_closed].dm_message_id = None
            if self.ended:
                return
            try:
                await self._write(self._save())
                self.stored_revision = self.revision
            except RevisionConflictError:
                if self.unsettled is None or self.unsettled.ended is None:
                    self._moved()
                else:
                    self.context.on_ended(self.table_id, self._end_as_stored(self.unsettled))
            except Exception:
                log.exception("table %s: could not save the posted message ids", self.table_id)

    def ai_seed(self, seat: int) -> str:
        """The seed of the AI's generator for this seat and revision: a restarted game plays
        the same."""
        return f"{self.seed}/ai/{seat}/{self.revision}"

    # -- the transaction ---------------------------------------------------------------------
    async def _commit(self, make: Callable[[], Change]) -> Change:
        """Make the change, save it, and only then show it: while the save is pending the
        session shows the position last saved (a Hand click meanwhile never shows a move
        that a failed save undoes); on failure that position stays."""
        before = Snapshot.of(self)
        options_before = self._options()
        moves_before = len(self.actions)
        try:
            change = make()
            self._note_changed_options(options_before)
            if self.state.is_over and not self.ended:
                self._end(FINISHED)
                change = replace(change, ended=True)
            made = Snapshot.of(self, copy_state=False)
            write = self._save()  # reads the new position now
        except (UserError, EngineError):
            before.restore(self)
            raise
        except Exception as error:
            before.restore(self)
            log.exception("table %s: a change could not be made; undone", self.table_id)
            raise SaveFailed() from error
        ended = made if self.ending is not None else None  # what a lost reply may have stored
        attempted = SaveAttempt(self.revision, self.ending, change, ended)
        before.restore(self)
        try:
            with metrics.SAVE_SECONDS.time():
                await to_the_end(self._write(write))
        except asyncio.CancelledError:  # the save ran to its end all the same: it stands
            self._show_saved(made)
            raise
        except Exception as error:
            conflict = isinstance(error, RevisionConflictError)
            metrics.save_failed(error, conflict=conflict)
            if conflict and self.unsettled is not None and self.unsettled.ended is not None:
                return self._end_as_stored(self.unsettled)
            if conflict:  # retrying could never succeed
                self._moved()
                raise GameMovedElsewhere() from error
            self.unsettled = attempted
            log.exception("table %s: a change could not be saved; undone", self.table_id)
            raise SaveFailed() from error
        self._show_saved(made)
        finished = change.ended and self.ending is not None and self.ending.finished
        metrics.game_saved(self.game.id, len(self.actions) - moves_before, finished)
        log.debug("table %s: revision %d saved", self.table_id, self.revision)
        return change

    def _show_saved(self, made: Snapshot) -> None:
        """The change ``made`` is stored: the session shows it from now on."""
        made.restore(self)
        if self.ending is None:
            self.stored_revision = self.revision

    def _end_as_stored(self, unsettled: SaveAttempt) -> Change:
        """The game's row is gone and the last save that failed without an answer was its
        end: that end was stored (only its reply was lost). The table ends as it did then,
        so that what its players see is what the database holds."""
        assert unsettled.ended is not None and unsettled.ending is not None
        log.warning("table %s: its unanswered end was stored; it ends so", self.table_id)
        unsettled.ended.restore(self)
        self._end(unsettled.ending)
        self.unsettled = None
        return unsettled.change

    def _moved(self) -> None:
        """The stored game is not the one this session last saved: another writer saved it
        first. Stop driving it (it is not saved again, nor deleted) and tell the service."""
        log.warning("table %s: saved elsewhere first; this process stops driving it", self.table_id)
        self.context.on_ended(self.table_id, self._end(MOVED_ELSEWHERE))

    def _save(self) -> Write | None:
        """The save of the session as it is now (read at once, written over a revision
        when called): the running game, or at its end the result or the unfinished game;
        None when nothing is saved (the game may be another process's now)."""
        storage = self.context.storage
        ending = self.ending
        if ending is None:
            return partial(storage.running.save, saved_game(self))
        if ending.finished:
            return partial(storage.results.finish, finished_game(self, self.context.clock()))
        if ending.stored_here:
            return partial(storage.running.end_unfinished, self.table_id, ending.text)
        return None

    async def _write(self, write: Write | None) -> None:
        """Write over the row this session last saved or loaded; if that row is not there,
        over the one a save whose answer never came may have written (its reply lost while
        the database could not be read to settle it: that change was undone here and its
        players told to try again, so this one replaces it)."""
        if write is None:
            return
        try:
            await write(self.stored_revision)
        except RevisionConflictError:
            unsettled = self.unsettled
            if unsettled is None or unsettled.revision == self.stored_revision:
                raise
            log.warning("table %s: saving over an unanswered save", self.table_id)
            await write(unsettled.revision)
        self.unsettled = None  # a row was there to save over: no unanswered end was stored

    # -- in memory ---------------------------------------------------------------------------
    def _options(self) -> dict[int, tuple[Action, ...]]:
        """The legal actions of every seat that has any."""
        return {seat: tuple(self.state.legal_actions(seat)) for seat in self.state.to_act()}

    def _note_changed_options(self, before: dict[int, tuple[Action, ...]]) -> None:
        """Mark the seats whose legal actions a change altered (an acting seat always: its
        own move), so their older views are stale and the others' are not."""
        after = self._options()
        for seat in before.keys() | after.keys():
            if before.get(seat, ()) != after.get(seat, ()):
                self.options_changed[seat] = self.revision

    def _apply(self, seat: int, action: Action) -> Change:
        rounds = self._end_break()  # a move during the break: that player has moved on
        events = self.state.apply(seat, action)
        self.record(seat, action.text, events)
        rounds += self._hold_round_end(events)
        self._after_change(acted=(seat,))
        return Change(events=tuple(events), views=self._all_seats(), rounds=rounds)

    def _hold_round_end(self, events: Sequence[Event]) -> tuple[RoundEnd, ...]:
        """The hand or round that ``events`` ended while the game goes on: held on the
        table for the break (nobody's clock runs meanwhile), or with no break (none is set,
        or only AI seats are still in the game: nobody would press Next round) returned to
        be shown in the channel at once."""
        scores = [event for event in events if event.kind == "hand_end"]
        if not scores or self.state.is_over:
            return ()
        ended = RoundEnd(scores[-1], self.state.last_reveal, self.revision, self._break_end())
        people_in = any(
            info.is_human and self.state.is_in(seat) for seat, info in enumerate(self.seats)
        )
        if not self.context.settings.round_break_seconds or not people_in:
            return (ended,)
        self.round_end = ended
        return ()

    def _break_end(self) -> datetime:
        """When a round end's break that begins now is over."""
        seconds = self.context.settings.round_break_seconds
        return self.context.clock() + timedelta(seconds=seconds)

    def _end_break(self) -> tuple[RoundEnd, ...]:
        """End the round end's break, if one is held (returned, to be kept in the channel):
        the turn clocks, set to run from the break's end, run from now instead."""
        held = self.round_end
        if held is None:
            return ()
        self.round_end = None
        self.deadlines.clear()
        return (held,)

    def _time_out(self, seat: int) -> Change:
        info = self.seats[seat]
        info.timeouts_in_a_row += 1
        action = self.state.timeout_action(seat)
        if action is None:
            normal = heuristic(self.game)  # a quick move for a person who is away
            action = agent_move(self.state, seat, normal, random.Random(self.ai_seed(seat)))
        handed = info.timeouts_in_a_row >= MAX_TIMEOUTS
        if handed:
            info.is_ai = True
        change = self._apply(seat, action) if action is not None else Change()
        if not handed or self.state.is_over:
            return change
        notice = Event(
            N_(
                "{player} ran out of time {count} times in a row: the AI plays their seat for "
                "the rest of the game."
            ),
            "notice",
            args=(("player", info.name), ("count", str(MAX_TIMEOUTS))),
        )
        ended = self._end_if_no_humans()
        return replace(change, notices=(notice,), ended=ended, views=self._all_seats())

    def _end_if_no_humans(self) -> bool:
        if any(seat.is_human for seat in self.seats):
            return False
        self._end(NO_PLAYERS_LEFT)
        return True

    def _end(self, ending: Ending) -> Change:
        """The one way a game ends, whatever ``ending`` says: no turn runs any more, and
        every seat's view changes."""
        self.ending = ending
        self.deadlines.clear()
        return Change(views=self._all_seats(), ended=True)

    def _all_seats(self) -> frozenset[int]:
        return frozenset(range(len(self.seats)))

    def record(self, seat: int, text: str, events: Sequence[Event]) -> None:
        """Note an applied action: the next revision, the replay record, the log, deals and
        the summaries of hands that ended."""
        self.revision += 1
        self.options_changed[seat] = self.revision
        self.actions = self.actions.plus(seat, text)
        for event in events:
            self.log.append(LoggedEvent(event, self.revision))
            if event.kind == "deal":
                self.deals += 1
            elif event.kind == "hand_end":
                self.summaries.append(event)

    def log_opening(self) -> None:
        """The log of a game just dealt: it begins, and what happened while it was set up."""
        begins = Event(N_("{game} begins."), "deal", args=(("game", self.game.name),))
        self.log.append(LoggedEvent(begins, 0))
        self.log.extend(LoggedEvent(event, 0) for event in self.state.opening_events())

    def _after_change(self, acted: Sequence[int]) -> None:
        """Open or close the out-of-turn window and set the turn deadlines."""
        now = self.context.clock()
        if self.optional_seats():
            if self.window_end is None:
                self.window_end = now + timedelta(seconds=self.window_seconds())
        else:
            self.window_end = None
        start = max(now, self.window_end) if self.window_end else now
        if self.round_end is not None:  # the turn begins when the table shows the deal
            start = max(start, self.round_end.until)
        waiting = set(self.state.waiting_for())
        for seat in list(self.deadlines):
            if seat not in waiting or seat in acted:
                del self.deadlines[seat]
        turn = timedelta(seconds=self.turn_seconds or self.context.settings.turn_seconds)
        for seat in waiting:
            if self.seats[seat].is_human and seat not in self.deadlines:
                self.deadlines[seat] = start + turn

    def pause(self, since: datetime) -> None:
        """The bot may no longer post in the table's channel (since ``since``): no move,
        timeout or AI move is made until ``resume``."""
        self.paused_since = since

    def resume(self, note: str) -> None:
        """Go on after a restart or a pause (``note`` says which, in the log): every waiting
        seat gets a whole turn from now (the time the game stood still is nobody's fault, so
        it never counts as a timeout), and views drawn before stay good only at the current
        revision."""
        self.paused_since = None
        self.log.append(LoggedEvent(Event(note, "info"), self.revision))
        if self.round_end is not None:  # its whole break again, as each turn gets
            self.round_end = replace(self.round_end, until=self._break_end())
        self.deadlines.clear()
        self._after_change(acted=())
        self.options_changed = dict.fromkeys(range(len(self.seats)), self.revision)


async def to_the_end(saving: Coroutine[Any, Any, None]) -> None:
    """Await a save to its end even when the awaiting task is cancelled meanwhile (a table's
    driver replaced by a new plan, or stopped by a pause): cut off half way, its COMMIT could
    land with nobody noting it, and the table's next save would find the game saved
    "elsewhere". The cancellation goes on once the save is done; a save that failed raises
    its own error instead, so that the change is undone."""
    saving_task = asyncio.ensure_future(saving)
    try:
        await asyncio.shield(saving_task)
    except asyncio.CancelledError:
        await asyncio.wait([saving_task])
        failed = None if saving_task.cancelled() else saving_task.exception()
        if failed is not None:
            raise failed from None
        raise


def working_on(session: TableSession) -> TableSession:
    """Mark the current task (and those it starts) as working for ``session``: its log lines
    carry the table's ids."""
    bind_table(session.guild_id, session.channel_id, session.table_id)
    return session
