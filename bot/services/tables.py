"""Lobbies and running tables: seats, turns, timers, AI seats and saving.

Every change to a table happens under its ``asyncio.Lock`` and carries the revision it was
decided at, so a stale or double click can never apply a second move. Each accepted action is
saved (``Storage.running.save``) before the caller answers the player; the end of a game is one
``Storage.results.finish``. The Discord side is told about changes through ``Presenter``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.errors import UserError
from bot.render.text import fill_names
from bot.seat_names import ai_seat_name
from bot.settings import Settings
from bot.storage import (
    BrokenGame,
    FinishedGame,
    FinishedSeat,
    LoadedGame,
    SavedGame,
    SeatRecord,
    Storage,
)
from engine.core import Action, Event, Game, OptionValue, State
from engine.errors import EngineError, SavedStateError, SetupError
from engine.registry import get_game
from engine.runner import agent_move

log = logging.getLogger(__name__)

MAX_TIMEOUTS = 3
LOG_LENGTH = 40
REMATCHES_KEPT = 1000  # Rematch offers of the latest finished games, across all servers
Clock = Callable[[], datetime]


def utcnow() -> datetime:
    """The current time (UTC, aware)."""
    return datetime.now(UTC)


class StaleMove(UserError):
    """A click made at an older revision (another move came first, or a double click)."""

    def __init__(self) -> None:
        super().__init__("That move is no longer possible.")


@dataclass
class Seat:
    """One seat: a person (by user id) or an AI."""

    user_id: int | None
    name: str
    is_ai: bool = False
    dm_message_id: int | None = None
    dm_failed: bool = False
    dm_hand: int = -1  # the hand number the DM message shows (a new hand gets a new DM)
    timeouts_in_a_row: int = 0

    @property
    def is_human(self) -> bool:
        """A person plays this seat (not the AI, not handed to the AI)."""
        return not self.is_ai and self.user_id is not None

    def record(self) -> SeatRecord:
        """The stored form."""
        return SeatRecord(
            user_id=self.user_id,
            name=self.name,
            is_ai=self.is_ai,
            dm_message_id=self.dm_message_id,
            dm_failed=self.dm_failed,
            timeouts_in_a_row=self.timeouts_in_a_row,
        )


@dataclass
class Lobby:
    """A table being gathered in a channel."""

    lobby_id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: Game
    options: dict[str, OptionValue]
    seats: list[Seat]
    message_id: int | None = None
    expiry: asyncio.Task[None] | None = None
    closed: bool = False

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or None."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)


@dataclass
class LoggedEvent:
    """An event in the table log with the revision it happened at."""

    event: Event
    revision: int


@dataclass
class Table:
    """A running game."""

    table_id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: Game
    options: dict[str, OptionValue]
    seed: int
    seats: list[Seat]
    state: State
    started_at: datetime
    revision: int = 0
    actions: list[tuple[int, str]] = field(default_factory=list)
    table_message_id: int | None = None
    table_posted_at: datetime | None = None
    deadlines: dict[int, datetime] = field(default_factory=dict)
    window_end: datetime | None = None
    hand: int = 0  # counts "deal" events: a new hand or round
    log: deque[LoggedEvent] = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    summaries: list[str] = field(default_factory=list)
    ended: bool = False
    end_reason: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None
    declined: set[tuple[int, int]] = field(default_factory=set)  # (revision, seat) AI passes

    @property
    def names(self) -> list[str]:
        """Seat names, by seat."""
        return [seat.name for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user plays (or played, before it went to the AI), or None."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def optional_seats(self) -> tuple[int, ...]:
        """Seats with out-of-turn actions only (snaps) just now."""
        waiting = set(self.state.waiting_for())
        return tuple(seat for seat in self.state.to_act() if seat not in waiting)

    def window_left(self, now: datetime) -> float:
        """Seconds the out-of-turn window stays open (0 when none is)."""
        if self.window_end is None or not self.optional_seats():
            return 0.0
        return max(0.0, (self.window_end - now).total_seconds())

    def saved(self) -> SavedGame:
        """The stored form of the running game."""
        return SavedGame(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            game_id=self.game.id,
            options=dict(self.options),
            seed=self.seed,
            seats=[seat.record() for seat in self.seats],
            state=self.state.to_json(),
            revision=self.revision,
            actions=list(self.actions),
            table_message_id=self.table_message_id,
            deadline=min(self.deadlines.values()) if self.deadlines else None,
            started_at=self.started_at,
        )


@dataclass(frozen=True)
class Rematch:
    """What a Rematch button needs after the game is gone."""

    guild_id: int
    channel_id: int
    game: Game
    options: dict[str, OptionValue]
    seats: tuple[Seat, ...]


class Presenter(Protocol):
    """What the Discord side does when a lobby or table changes."""

    async def lobby_changed(self, lobby: Lobby) -> None:
        """Edit the lobby message."""

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        """The lobby ended without a game (cancelled or expired)."""

    async def table_changed(self, table: Table) -> None:
        """Post or edit the table message (called at most once per edit interval)."""

    async def hand_changed(self, table: Table, seat: int) -> None:
        """Send or edit the seat's hand DM (sets ``dm_failed`` when DMs are closed)."""

    async def notice(self, table: Table, text: str) -> None:
        """Say something in the table's channel."""

    async def table_ended(self, table: Table) -> None:
        """The game ended: post the results (over) or why it stopped."""

    async def restore_failed(self, broken: BrokenGame) -> None:
        """Tell the channel its game could not be restored (the reason goes to the log only)."""


class TableService:
    """All lobbies and running tables of the bot."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        presenter: Presenter,
        *,
        clock: Clock = utcnow,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.presenter = presenter
        self.clock = clock
        self.rng = rng or random.Random(secrets.randbits(64))
        self.lobbies: dict[str, Lobby] = {}
        self.tables: dict[str, Table] = {}
        self.by_channel: dict[int, str] = {}  # channel id → lobby or table id
        self.rematches: dict[str, Rematch] = {}
        self._flushers: dict[str, _Flusher] = {}
        self._background: set[asyncio.Task[None]] = set()
        # perf_counter() when the last accepted move's database work began and ended (for
        # benchmarks); read it right after act() returns, before another move can replace it
        self.last_save: tuple[float, float] = (0.0, 0.0)

    # -- small helpers -------------------------------------------------------------------------
    def _new_id(self) -> str:
        while True:
            candidate = f"{self.rng.getrandbits(40):010x}"
            if candidate not in self.tables and candidate not in self.lobbies:
                return candidate

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""

        async def guarded() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background work %s failed", name)

        task = asyncio.get_running_loop().create_task(guarded(), name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(lambda _: coro.close())  # cancelled before it ever ran
        return task

    def table(self, table_id: str) -> Table:
        """A running table; raises UserError when it is over or unknown."""
        table = self.tables.get(table_id)
        if table is None or table.ended:
            raise UserError("This game is over.")
        return table

    def table_in(self, channel_id: int) -> Table:
        """The running table of a channel; raises UserError when there is none."""
        key = self.by_channel.get(channel_id)
        table = self.tables.get(key) if key else None
        if table is None or table.ended:
            raise UserError("There is no game running in this channel.")
        return table

    def lobby(self, lobby_id: str) -> Lobby:
        """An open lobby; raises UserError when it is gone."""
        lobby = self.lobbies.get(lobby_id)
        if lobby is None or lobby.closed:
            raise UserError("This lobby is closed.")
        return lobby

    # -- lobbies -------------------------------------------------------------------------------
    def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game_id: str,
        options: dict[str, object],
        seats: Sequence[Seat] | None = None,
    ) -> Lobby:
        """Open a lobby in a channel (one game per channel); raises UserError if it cannot."""
        if channel_id in self.by_channel:
            raise UserError(
                "This channel already has a game or a lobby; finish it or use another channel."
            )
        try:
            game = get_game(game_id)
            resolved = game.resolve_options(options)
        except SetupError as error:
            raise UserError(f"{error}.") from None
        lobby = Lobby(
            self._new_id(),
            guild_id,
            channel_id,
            host_id,
            game,
            resolved,
            [Seat(host_id, host_name)] if seats is None else [_fresh(s) for s in seats],
        )
        self.lobbies[lobby.lobby_id] = lobby
        self.by_channel[channel_id] = lobby.lobby_id
        self._touch(lobby)
        return lobby

    def _touch(self, lobby: Lobby) -> None:
        if lobby.expiry is not None:
            lobby.expiry.cancel()
        lobby.expiry = self.spawn(self._expire(lobby), f"lobby-expiry-{lobby.lobby_id}")

    async def _expire(self, lobby: Lobby) -> None:
        await asyncio.sleep(self.settings.lobby_idle_seconds)
        if not lobby.closed:
            self._close_lobby(lobby, cancel_expiry=False)
            minutes = round(self.settings.lobby_idle_seconds / 60)
            await self.presenter.lobby_closed(lobby, f"expired after {minutes} idle minutes")

    def _close_lobby(self, lobby: Lobby, *, cancel_expiry: bool = True) -> None:
        lobby.closed = True
        self.lobbies.pop(lobby.lobby_id, None)
        if self.by_channel.get(lobby.channel_id) == lobby.lobby_id:
            del self.by_channel[lobby.channel_id]
        if cancel_expiry and lobby.expiry is not None:
            lobby.expiry.cancel()

    def join(self, lobby_id: str, user_id: int, name: str) -> Lobby:
        """Take a seat in the lobby."""
        lobby = self.lobby(lobby_id)
        if lobby.seat_of(user_id) is not None:
            raise UserError("You are already seated at this table.")
        if len(lobby.seats) >= max(lobby.game.player_counts):
            raise UserError(f"The table is full ({max(lobby.game.player_counts)} seats).")
        lobby.seats.append(Seat(user_id, name))
        self._touch(lobby)
        return lobby

    def leave_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        """Leave the lobby (the host cancels instead)."""
        lobby = self.lobby(lobby_id)
        seat = lobby.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if user_id == lobby.host_id:
            raise UserError("You are the host: use Cancel to close the lobby.")
        del lobby.seats[seat]
        self._touch(lobby)
        return lobby

    def add_ai(self, lobby_id: str, user_id: int) -> Lobby:
        """Add an AI seat (anyone seated may)."""
        lobby = self.lobby(lobby_id)
        if lobby.seat_of(user_id) is None:
            raise UserError("Only players seated at this table can add an AI.")
        if len(lobby.seats) >= max(lobby.game.player_counts):
            raise UserError(f"The table is full ({max(lobby.game.player_counts)} seats).")
        name = ai_seat_name(seat.name for seat in lobby.seats)
        lobby.seats.append(Seat(None, name, is_ai=True))
        self._touch(lobby)
        return lobby

    def cancel_lobby(self, lobby_id: str, user_id: int) -> Lobby:
        """Close the lobby (host only)."""
        lobby = self.lobby(lobby_id)
        if user_id != lobby.host_id:
            raise UserError("Only the host can cancel this lobby.")
        self._close_lobby(lobby)
        return lobby

    async def start(self, lobby_id: str, user_id: int) -> Table:
        """Deal the game (host only; the game's player range); the lobby becomes a table."""
        lobby = self.lobby(lobby_id)
        if user_id != lobby.host_id:
            raise UserError("Only the host can start the game.")
        seed = self.rng.getrandbits(63)
        try:
            state = lobby.game.new_state(len(lobby.seats), seed, lobby.options)
        except SetupError as error:
            raise UserError(f"Cannot start: {error}.") from None
        self._close_lobby(lobby)
        table = Table(
            self._new_id(),
            lobby.guild_id,
            lobby.channel_id,
            lobby.host_id,
            lobby.game,
            dict(state.options),
            seed,
            lobby.seats,
            state,
            self.clock(),
        )
        _log_opening(table)
        self.tables[table.table_id] = table
        self.by_channel[table.channel_id] = table.table_id
        self._after_change(table, acted=())
        await self.storage.running.save(table.saved())
        return table

    def begin(self, table: Table) -> None:
        """Start showing the table and driving its timers (after the caller answered)."""
        self._flusher(table).changed()
        self._drive(table)

    # -- moves ---------------------------------------------------------------------------------
    async def act(self, table: Table, user_id: int, revision: int, action: Action) -> list[Event]:
        """A person's move at ``revision``; raises StaleMove or UserError, changing nothing."""
        seat = self.seat_for(table, user_id)
        async with table.lock:
            if table.ended:
                raise UserError("This game is over.")
            if revision != table.revision:
                raise StaleMove()
            self.check_window(table, seat)
            if action not in table.state.legal_actions(seat):
                raise StaleMove()
            table.seats[seat].timeouts_in_a_row = 0
            return await self._apply(table, seat, action)

    def seat_for(self, table: Table, user_id: int) -> int:
        """The seat a person plays at this table; raises UserError otherwise."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if table.seats[seat].is_ai:
            raise UserError("Your seat was handed to the AI for the rest of this game.")
        return seat

    def check_window(self, table: Table, seat: int) -> None:
        """Refuse the waited-for seat's move while others may still act out of turn."""
        left = table.window_left(self.clock())
        if left > 0 and seat in table.state.waiting_for():
            raise UserError(
                f"Others may still act out of turn (snap) for {left:.0f} more seconds; "
                "try again then."
            )

    async def _apply(self, table: Table, seat: int, action: Action) -> list[Event]:
        """Apply under the lock: log, save (or finish) before returning, then schedule."""
        events = table.state.apply(seat, action)
        _record(table, seat, action.text, events)
        self._after_change(table, acted=(seat,))
        saving = time.perf_counter()
        if table.state.is_over:
            await self._finish(table)
        else:
            await self.storage.running.save(table.saved())
            self._drive(table)
        self.last_save = (saving, time.perf_counter())
        self._flusher(table).changed()
        return events

    def _after_change(self, table: Table, acted: Sequence[int]) -> None:
        """Open or close the out-of-turn window and set the turn deadlines."""
        now = self.clock()
        if table.optional_seats():
            if table.window_end is None:
                table.window_end = now + timedelta(seconds=self.window_seconds(table))
        else:
            table.window_end = None
        start = max(now, table.window_end) if table.window_end else now
        waiting = set(table.state.waiting_for())
        for seat in list(table.deadlines):
            if seat not in waiting or seat in acted:
                del table.deadlines[seat]
        for seat in waiting:
            if table.seats[seat].is_human and seat not in table.deadlines:
                table.deadlines[seat] = start + timedelta(seconds=self.settings.turn_seconds)

    def window_seconds(self, table: Table) -> float:
        """How long out-of-turn actions stay open: the game's snap_seconds, else the setting."""
        value = table.options.get("snap_seconds")
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return self.settings.optional_window_seconds

    # -- the driver: AI moves, timeouts, the window closing --------------------------------------
    def _drive(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.driver is not None and table.driver is not current:
            table.driver.cancel()
        if table.ended or table.state.is_over:
            table.driver = None
            return
        table.driver = self.spawn(
            self._run_driver(table, table.revision), f"driver-{table.table_id}"
        )

    def _plan(self, table: Table) -> list[tuple[datetime, int, str]]:
        now = self.clock()
        ai_at = now + timedelta(seconds=self.settings.ai_delay_seconds)
        plan: list[tuple[datetime, int, str]] = []
        waiting = table.state.waiting_for()
        for seat in table.optional_seats():
            if table.seats[seat].is_ai and (table.revision, seat) not in table.declined:
                plan.append((ai_at, seat, "ai"))
        for seat in waiting:
            if not table.seats[seat].is_human:
                when = max(ai_at, table.window_end) if table.window_end else ai_at
                plan.append((when, seat, "ai"))
            elif seat in table.deadlines:
                plan.append((table.deadlines[seat], seat, "timeout"))
        if table.window_end is not None and table.window_end > now:
            plan.append((table.window_end, -1, "window"))
        plan.sort(key=lambda item: (item[0], item[2] != "ai", item[1]))
        return plan

    async def _run_driver(self, table: Table, revision: int) -> None:
        for when, seat, kind in self._plan(table):
            wait = (when - self.clock()).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            async with table.lock:
                if table.ended or table.revision != revision:
                    return
                if kind == "window":
                    self._flusher(table).changed()
                    continue
                if kind == "ai" and await self._ai_move(table, seat):
                    return
                if kind == "timeout":
                    await self._timeout(table, seat)
                    return

    def ai_rng(self, table: Table, seat: int) -> random.Random:
        """The AI's generator for this seat and revision: a restarted game plays the same."""
        return random.Random(f"{table.seed}/ai/{seat}/{table.revision}")

    async def _ai_move(self, table: Table, seat: int) -> bool:
        agent = table.game.heuristic_agent()
        action = agent_move(table.state, seat, agent, self.ai_rng(table, seat))
        if action is None:
            table.declined.add((table.revision, seat))
            return False
        await self._apply(table, seat, action)
        return True

    async def _timeout(self, table: Table, seat: int) -> None:
        info = table.seats[seat]
        info.timeouts_in_a_row += 1
        action = table.state.timeout_action(seat)
        if action is None:
            action = agent_move(
                table.state, seat, table.game.heuristic_agent(), self.ai_rng(table, seat)
            )
        handed = info.timeouts_in_a_row >= MAX_TIMEOUTS
        if handed:
            info.is_ai = True
        if action is not None:
            await self._apply(table, seat, action)
        if handed and not table.ended:
            self.spawn(
                self.presenter.notice(
                    table,
                    f"{info.name} ran out of time {MAX_TIMEOUTS} times in a row: "
                    "the AI plays their seat for the rest of the game.",
                ),
                f"notice-{table.table_id}",
            )
            await self._end_if_no_humans(table)

    async def _end_if_no_humans(self, table: Table) -> None:
        if table.ended or any(seat.is_human for seat in table.seats):
            return
        await self._stop(table, "No players are left at the table, so the game ends.")

    # -- leaving, stopping and the end ---------------------------------------------------------
    async def leave(self, table: Table, user_id: int) -> None:
        """A player leaves a running game: the AI takes the seat; no humans left ends it."""
        seat = self.seat_for(table, user_id)
        async with table.lock:
            if table.ended:
                raise UserError("This game is over.")
            table.seats[seat].is_ai = True
            table.deadlines.pop(seat, None)
            if not any(s.is_human for s in table.seats):
                await self._end_if_no_humans(table)
                return
            await self.storage.running.save(table.saved())
            self._drive(table)
            self._flusher(table).changed()

    async def stop(self, table: Table, user_id: int, may_manage: bool, name: str) -> None:
        """Stop a game without a result (host or Manage Server)."""
        if user_id != table.host_id and not may_manage:
            raise UserError("Only the host or someone with Manage Server can stop this game.")
        async with table.lock:
            if table.ended:
                raise UserError("This game is over.")
            await self._stop(table, f"{name} stopped the game.")

    async def _stop(self, table: Table, reason: str) -> None:
        table.ended = True
        table.end_reason = reason
        self._release(table)
        await self.storage.running.delete(table.table_id)
        self._flusher(table).changed()
        self.spawn(self._ended(table), f"ended-{table.table_id}")

    def _release(self, table: Table) -> None:
        table.deadlines.clear()
        if table.driver is not None and table.driver is not asyncio.current_task():
            table.driver.cancel()
        table.driver = None
        if self.by_channel.get(table.channel_id) == table.table_id:
            del self.by_channel[table.channel_id]

    async def _finish(self, table: Table) -> None:
        table.ended = True
        table.end_reason = "over"
        self._release(table)
        await self.storage.results.finish(self.finished(table))
        self.rematches[table.table_id] = Rematch(
            table.guild_id, table.channel_id, table.game, dict(table.options), tuple(table.seats)
        )
        while len(self.rematches) > REMATCHES_KEPT:  # the oldest offers go first
            del self.rematches[next(iter(self.rematches))]
        self.spawn(self._ended(table), f"ended-{table.table_id}")

    async def _ended(self, table: Table) -> None:
        """Show the end, then forget the table: a bot that runs for months must not keep every
        game it ever hosted (a click on its buttons still gets "This game is over")."""
        try:
            await self.presenter.table_ended(table)
        finally:
            flusher = self._flushers.get(table.table_id)
            if flusher is not None:
                await flusher.idle()
            self._flushers.pop(table.table_id, None)
            if self.tables.get(table.table_id) is table:
                del self.tables[table.table_id]

    def finished(self, table: Table) -> FinishedGame:
        """The stored result of a game that is over."""
        scores = table.state.scores()
        places = places_of(scores, table.state.winners())
        return FinishedGame(
            table_id=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            game_id=table.game.id,
            options=dict(table.options),
            seed=table.seed,
            started_at=table.started_at,
            ended_at=self.clock(),
            seats=[
                FinishedSeat(
                    seat=index,
                    user_id=seat.user_id,
                    name=seat.name,
                    is_ai=seat.is_ai or seat.user_id is None,
                    score=scores[index],
                    place=places[index],
                )
                for index, seat in enumerate(table.seats)
            ],
            record={
                "game": table.game.id,
                "players": table.state.players,
                "seed": table.seed,
                "options": dict(table.options),
                "actions": [list(action) for action in table.actions],
            },
            summary=list(table.summaries),
        )

    def rematch(self, table_id: str, user_id: int, name: str) -> Lobby:
        """Open a new lobby with the same seats and options; the clicker hosts it."""
        old = self.rematches.get(table_id)
        if old is None:
            raise UserError("This rematch is no longer available; start a new game instead.")
        if not any(seat.user_id == user_id for seat in old.seats):
            raise UserError("Only players of that game can ask for a rematch.")
        seats = [_fresh(seat) for seat in old.seats]
        for seat in seats:  # seats handed to the AI go back to their players
            seat.is_ai = seat.user_id is None
        host = next(i for i, s in enumerate(seats) if s.user_id == user_id)
        seats.insert(0, seats.pop(host))
        lobby = self.open_lobby(
            old.guild_id, old.channel_id, user_id, name, old.game.id, dict(old.options), seats
        )
        return lobby

    # -- showing ---------------------------------------------------------------------------------
    def _flusher(self, table: Table) -> _Flusher:
        flusher = self._flushers.get(table.table_id)
        if flusher is None:
            flusher = self._flushers[table.table_id] = _Flusher(self, table)
        return flusher

    def hand_shown(self, table: Table, seat: int) -> None:
        """Note that the seat's DM hand was refreshed by an interaction answer."""
        self._flusher(table).dm_fresh[seat] = table.revision

    async def save_between_moves(self, table: Table) -> None:
        """Save a table whose messages changed between moves (a new hand DM, closed DMs, the
        table message posted anew), so that a restart edits the messages people see last."""
        async with table.lock:
            if not table.ended:
                await self.storage.running.save(table.saved())

    # -- restoring after a restart -----------------------------------------------------------------
    async def restore(self) -> list[str]:
        """Load the running games saved in storage and resume them; returns problems found."""
        problems: list[str] = []
        for saved in await self.storage.running.load():
            if isinstance(saved, LoadedGame):
                try:
                    table = self._table_from_saved(saved)
                except (SetupError, SavedStateError) as error:
                    saved = BrokenGame(
                        table_id=saved.saved.table_id,
                        guild_id=saved.saved.guild_id,
                        channel_id=saved.saved.channel_id,
                        error=f"{type(error).__name__}: {error}",
                    )
                else:
                    self.tables[table.table_id] = table
                    self.by_channel[table.channel_id] = table.table_id
                    self._drive(table)
                    self._flusher(table).changed()
                    continue
            problems.append(f"table {saved.table_id}: {saved.error}")
            # set aside, so the next start does not report it again and nothing is lost
            await self.storage.running.set_aside(saved)
            if saved.channel_id is not None:
                self.spawn(self.presenter.restore_failed(saved), f"broken-{saved.table_id}")
        return problems

    def _table_from_saved(self, loaded: LoadedGame) -> Table:
        saved, state = loaded.saved, loaded.state
        game = state.game
        seats = [
            Seat(
                s.user_id,
                s.name,
                s.is_ai,
                s.dm_message_id,
                s.dm_failed,
                timeouts_in_a_row=s.timeouts_in_a_row,
            )
            for s in saved.seats
        ]
        table = Table(
            saved.table_id,
            saved.guild_id,
            saved.channel_id,
            saved.host_id,
            game,
            dict(saved.options),
            saved.seed,
            seats,
            state,
            saved.started_at,
            revision=saved.revision,
            actions=[(int(seat), str(text)) for seat, text in saved.actions],
            table_message_id=saved.table_message_id,
        )
        _replay_log(table)
        for info in seats:  # the hand DM shows the current hand: edit it, do not send anew
            info.dm_hand = table.hand if info.dm_message_id else -1
        table.log.append(
            LoggedEvent(Event("The game resumes after a restart.", "info"), table.revision)
        )
        self._after_change(table, acted=())
        if saved.deadline is not None:
            for seat in table.deadlines:
                table.deadlines[seat] = saved.deadline
        return table

    async def close(self) -> None:
        """Cancel timers and background work (at shutdown)."""
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
        for lobby in self.lobbies.values():
            if lobby.expiry is not None:
                lobby.expiry.cancel()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)


class _Flusher:
    """Coalesces a table's updates: DMs promptly, the table message at most once per interval."""

    def __init__(self, service: TableService, table: Table) -> None:
        self.service = service
        self.table = table
        self.dm_dirty = False
        self.table_dirty = False
        self.dm_task: asyncio.Task[None] | None = None
        self.table_task: asyncio.Task[None] | None = None
        self.last_edit: datetime | None = None
        self.dm_fresh: dict[int, int] = {}

    async def idle(self) -> None:
        """Wait until the pending DM and table updates are done."""
        pending = [task for task in (self.dm_task, self.table_task) if task is not None]
        await asyncio.gather(*pending, return_exceptions=True)

    def changed(self) -> None:
        self.dm_dirty = self.table_dirty = True
        if self.dm_task is None or self.dm_task.done():
            self.dm_task = self.service.spawn(self._dms(), f"dms-{self.table.table_id}")
        if self.table_task is None or self.table_task.done():
            self.table_task = self.service.spawn(self._tables(), f"table-{self.table.table_id}")

    async def _dms(self) -> None:
        table = self.table
        while self.dm_dirty:
            self.dm_dirty = False
            if table.ended:
                return
            seats = [info.record() for info in table.seats]
            for seat, info in enumerate(table.seats):
                if info.user_id is None or info.dm_failed:
                    continue
                if info.is_ai and info.dm_message_id is None:
                    continue
                if self.dm_fresh.get(seat) == table.revision and info.dm_hand == table.hand:
                    continue
                await self.service.presenter.hand_changed(table, seat)
                self.dm_fresh[seat] = table.revision
            if [info.record() for info in table.seats] != seats:
                await self.service.save_between_moves(table)

    async def _tables(self) -> None:
        interval = self.service.settings.table_edit_seconds
        while self.table_dirty:
            if self.last_edit is not None and interval > 0:
                wait = interval - (self.service.clock() - self.last_edit).total_seconds()
                if wait > 0:
                    await asyncio.sleep(wait)
            self.table_dirty = False
            self.last_edit = self.service.clock()
            posted = self.table.table_message_id
            await self.service.presenter.table_changed(self.table)
            if self.table.table_message_id != posted:
                await self.service.save_between_moves(self.table)


def _log_opening(table: Table) -> None:
    """The log of a game just dealt: it begins, and what happened while it was set up."""
    table.log.append(LoggedEvent(Event(f"{table.game.name} begins.", "deal"), 0))
    table.log.extend(LoggedEvent(event, 0) for event in table.state.opening_events())


def _record(table: Table, seat: int, text: str, events: Sequence[Event]) -> None:
    """Note an applied action: the next revision, the replay record, the log, hands ended."""
    table.revision += 1
    table.actions.append((seat, text))
    for event in events:
        table.log.append(LoggedEvent(event, table.revision))
        if event.kind == "deal":
            table.hand += 1
        elif event.kind == "hand_end":
            table.summaries.append(fill_names(event.text, table.names))


def _replay_log(table: Table) -> None:
    """Rebuild a restored table's log, hand count and hand summaries by playing its actions
    again from its seed (the engine is deterministic). If they do not lead to its saved state,
    the saved state stays and the log and summaries start empty."""
    state, revision, actions = table.state, table.revision, table.actions
    try:
        deck = state.deck_plan.to_json()  # a game dealt from a given deck replays from it
        table.state = table.game.new_state(len(table.seats), table.seed, table.options, deck)
        table.revision, table.actions = 0, []
        _log_opening(table)
        for seat, text in actions:
            _record(table, seat, text, table.state.apply_text(seat, text))
        if table.revision == revision and table.state.to_json() == state.to_json():
            return
    except EngineError:
        pass
    log.warning("table %s: its actions do not replay to its saved state", table.table_id)
    table.log.clear()
    table.summaries.clear()
    table.state, table.revision, table.actions, table.hand = state, revision, actions, 0


def _fresh(seat: Seat) -> Seat:
    return Seat(seat.user_id, seat.name, is_ai=seat.is_ai)


def places_of(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Places by score: winners first (1); the rest ranked in the winners' direction.

    >>> places_of([10, 25, 25, 3], [1, 2])
    [3, 1, 1, 4]
    >>> places_of([4, -1, 9], [1])
    [2, 1, 3]
    """
    if not scores:
        return []
    winner_scores = [scores[seat] for seat in winners] or [max(scores)]
    others = [s for i, s in enumerate(scores) if i not in winners]
    high_wins = not others or min(winner_scores) >= max(others)
    key: Callable[[int], int] = (lambda s: -s) if high_wins else (lambda s: s)
    places: list[int] = []
    for seat, score in enumerate(scores):
        if seat in winners:
            places.append(1)
            continue
        better = len(winners) + sum(
            1 for i, s in enumerate(scores) if i not in winners and key(s) < key(score)
        )
        places.append(better + 1)
    return places
