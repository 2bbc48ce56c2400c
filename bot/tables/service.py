"""Every lobby and running table of the bot, and what happens around a session's changes.

The service finds tables (by id, by channel), gathers lobbies (with their idle expiry), deals
a started lobby into a ``TableSession``, and reacts to each committed ``Change``: channel
notices, the batched display (``TableDisplay``), the timers (``TableTimers``) and the end of a
game (a Rematch offer, the results, then forgetting the table). Restoring after a restart is
``bot.tables.restore``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.errors import UserError
from bot.settings import Settings
from bot.storage import Storage
from bot.tables.display import Presenter, TableDisplay
from bot.tables.lobby import Lobby
from bot.tables.records import Change, Clock, Seat, SessionContext
from bot.tables.restore import restore_sessions
from bot.tables.session import TableSession
from bot.tables.thinking import AiPlayers
from bot.tables.timers import TableTimers
from engine.choices import Step
from engine.core import Game, OptionValue
from engine.errors import SetupError
from engine.registry import get_game

log = logging.getLogger(__name__)

REMATCHES_KEPT = 1000  # Rematch offers of the latest finished games, across all servers


def utcnow() -> datetime:
    """The current time (UTC, aware)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Rematch:
    """What a Rematch button needs after the game is gone."""

    guild_id: int
    channel_id: int
    game: Game
    options: dict[str, OptionValue]
    seats: tuple[Seat, ...]


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
        self.tables: dict[str, TableSession] = {}
        self.by_channel: dict[int, str] = {}  # channel id → lobby or table id
        self.rematches: dict[str, Rematch] = {}
        self._background: set[asyncio.Task[None]] = set()
        self.ai = AiPlayers(settings)
        self.context = SessionContext(storage, settings, clock, self.ai)
        self.display = TableDisplay(presenter, clock, self.spawn, settings.table_edit_seconds)
        self.timers = TableTimers(settings, clock, self.spawn, self.display.changed, self.committed)

    # -- finding -------------------------------------------------------------------------------
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

    def table(self, table_id: str) -> TableSession:
        """A running table; raises UserError when it is over or unknown."""
        session = self.tables.get(table_id)
        if session is None or session.ended:
            raise UserError("This game is over.")
        return session

    def table_in(self, channel_id: int) -> TableSession:
        """The running table of a channel; raises UserError when there is none."""
        key = self.by_channel.get(channel_id)
        session = self.tables.get(key) if key else None
        if session is None or session.ended:
            raise UserError("There is no game running in this channel.")
        return session

    def lobby(self, lobby_id: str) -> Lobby:
        """An open lobby; raises UserError when it is gone."""
        lobby = self.lobbies.get(lobby_id)
        if lobby is None or lobby.closed:
            raise UserError("This lobby is closed.")
        return lobby

    def lobby_in(self, channel_id: int) -> Lobby | None:
        """The open lobby of a channel, if it has one."""
        key = self.by_channel.get(channel_id)
        return self.lobbies.get(key) if key else None

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
        seated = [Seat(host_id, host_name)] if seats is None else [s.fresh() for s in seats]
        lobby = Lobby(self._new_id(), guild_id, channel_id, host_id, game, resolved, seated)
        self.lobbies[lobby.lobby_id] = lobby
        self.by_channel[channel_id] = lobby.lobby_id
        self.touch(lobby)
        return lobby

    def touch(self, lobby: Lobby) -> None:
        """The lobby was used: its idle expiry starts again."""
        if lobby.expiry is not None:
            lobby.expiry.cancel()
        lobby.expiry = self.spawn(self._expire(lobby), f"lobby-expiry-{lobby.lobby_id}")

    async def _expire(self, lobby: Lobby) -> None:
        await asyncio.sleep(self.settings.lobby_idle_seconds)
        if not lobby.closed:
            self.close_lobby(lobby, cancel_expiry=False)
            minutes = round(self.settings.lobby_idle_seconds / 60)
            await self.presenter.lobby_closed(lobby, f"expired after {minutes} idle minutes")

    def close_lobby(self, lobby: Lobby, *, cancel_expiry: bool = True) -> None:
        """Close the lobby and free its channel."""
        lobby.closed = True
        self.lobbies.pop(lobby.lobby_id, None)
        if self.by_channel.get(lobby.channel_id) == lobby.lobby_id:
            del self.by_channel[lobby.channel_id]
        if cancel_expiry and lobby.expiry is not None:
            lobby.expiry.cancel()

    async def start(self, lobby_id: str, user_id: int) -> TableSession:
        """Deal the game and save it (host only); the lobby becomes a table, not yet shown.
        A refused start or a failed save keeps the lobby open."""
        lobby = self.lobby(lobby_id)
        lobby.check_host(user_id, "start the game")
        seed = self.rng.getrandbits(63)
        try:
            state = lobby.game.new_state(len(lobby.seats), seed, lobby.options)
        except SetupError as error:
            raise UserError(f"Cannot start: {error}.") from None
        session = TableSession(
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
            self.context,
        )
        session.log_opening()
        await session.begin()
        self.close_lobby(lobby)
        self.tables[session.table_id] = session
        self.by_channel[session.channel_id] = session.table_id
        return session

    def show(self, session: TableSession) -> None:
        """Start showing the table and driving its timers (after the caller answered)."""
        self.display.changed(session)
        self.timers.schedule(session)

    def rematch(self, table_id: str, user_id: int, name: str) -> Lobby:
        """Open a new lobby with the same seats and options; the clicker hosts it."""
        old = self.rematches.get(table_id)
        if old is None:
            raise UserError("This rematch is no longer available; start a new game instead.")
        if not any(seat.user_id == user_id for seat in old.seats):
            raise UserError("Only players of that game can ask for a rematch.")
        seats = [seat.fresh() for seat in old.seats]
        for seat in seats:  # seats handed to the AI go back to their players
            seat.is_ai = seat.user_id is None
        host = next(i for i, s in enumerate(seats) if s.user_id == user_id)
        seats.insert(0, seats.pop(host))
        return self.open_lobby(
            old.guild_id, old.channel_id, user_id, name, old.game.id, dict(old.options), seats
        )

    # -- a session's intents, and what follows a committed change --------------------------------
    async def choose(
        self, table_id: str, user_id: int, revision: int, path: Sequence[int]
    ) -> tuple[TableSession, Step | Change]:
        """A step of a move at a table: the next step to offer, or the committed move."""
        session = self.table(table_id)
        chosen = await session.choose(user_id, revision, path)
        if isinstance(chosen, Change):
            self.committed(session, chosen)
        return session, chosen

    async def leave(self, channel_id: int, user_id: int) -> None:
        """The person leaves the channel's game; the AI takes the seat."""
        session = self.table_in(channel_id)
        self.committed(session, await session.leave(user_id))

    async def stop(self, channel_id: int, user_id: int, may_manage: bool, name: str) -> None:
        """Stop the channel's game (host or Manage Server)."""
        session = self.table_in(channel_id)
        self.committed(session, await session.stop(user_id, may_manage, name))

    def committed(self, session: TableSession, change: Change) -> None:
        """Show a committed change and plan what follows: notices, the display, the timers,
        and at the end a Rematch offer and forgetting the table."""
        for notice in change.notices:
            self.display.notice(session, notice)
        self.display.changed(session)
        if not change.ended:
            self.timers.schedule(session)
            return
        self.timers.cancel(session)
        if self.by_channel.get(session.channel_id) == session.table_id:
            del self.by_channel[session.channel_id]
        if session.end_reason == "over":
            self.rematches[session.table_id] = Rematch(
                session.guild_id,
                session.channel_id,
                session.game,
                dict(session.options),
                tuple(session.seats),
            )
            while len(self.rematches) > REMATCHES_KEPT:  # the oldest offers go first
                del self.rematches[next(iter(self.rematches))]
        self.display.ended(session, self._forget(session))

    async def _forget(self, session: TableSession) -> None:
        """A bot that runs for months must not keep every game it ever hosted (a click on an
        old table's buttons still gets "This game is over")."""
        if self.tables.get(session.table_id) is session:
            del self.tables[session.table_id]

    # -- restart and shutdown --------------------------------------------------------------------
    async def restore(self) -> list[str]:
        """Resume the running games saved in storage; returns the problems found."""
        sessions, broken = await restore_sessions(self.storage, self.context)
        for session in sessions:
            self.tables[session.table_id] = session
            self.by_channel[session.channel_id] = session.table_id
            self.show(session)
        for game in broken:
            if game.channel_id is not None:
                self.spawn(self.presenter.restore_failed(game), f"broken-{game.table_id}")
        return [f"table {game.table_id}: {game.error}" for game in broken]

    async def close(self) -> None:
        """Cancel timers and background work, stop the AI's workers (at shutdown)."""
        self.timers.close()
        self.ai.close()
        for lobby in self.lobbies.values():
            if lobby.expiry is not None:
                lobby.expiry.cancel()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
