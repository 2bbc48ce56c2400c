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
import secrets
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.errors import GameMovedElsewhere, SaveFailed, UserError
from bot.settings import Settings
from bot.storage import Shards, Storage
from bot.tables.display import Presenter, TableDisplay
from bot.tables.lobby import Lobby
from bot.tables.records import Change, Clock, Seat, SessionContext
from bot.tables.restore import restore_sessions
from bot.tables.session import TableSession
from bot.tables.thinking import AiPlayers
from bot.tables.timers import RETRY_SECONDS, TableTimers
from engine.choices import Step
from engine.core import Game, OptionValue
from engine.errors import SetupError
from engine.registry import get_game

log = logging.getLogger(__name__)

CHANNEL_LOST = "The bot can no longer reach this table's channel, so the game ended."
SHARD_LOST = (
    "This game stops here: this Cardroom process lost its hold on this server's games (its"
    " database connection dropped), so another process may run it now. Nothing was lost up to"
    " the last move shown."
)
# Discord sends every DM click to shard 0: a hand DM's click on a game another process runs
# lands in the process of shard 0, which cannot play it
OVER_OR_ELSEWHERE = (
    "This game is over, or another Cardroom process runs it: play it with the Hand button in"
    " its channel."
)
SHARD_NOT_HERE = (
    "This server's games are run by another Cardroom process just now; try again in a minute."
)
REMATCHES_KEPT = 1000  # Rematch offers of the latest finished games, across all servers


def utcnow() -> datetime:
    """The current time (UTC, aware)."""
    return datetime.now(UTC)


class Draws(Protocol):
    """Where deal seeds and table and lobby ids come from."""

    def seed(self) -> int:
        """A new game's seed (the engine derives every shuffle from it)."""

    def table_id(self) -> str:
        """A new table or lobby id (16 lower-case hex digits)."""


class SecretDraws:
    """Seeds and ids from the operating system's secure source (``secrets``). One generator
    behind them all (a Mersenne Twister) could be recovered from enough visible ids, and with
    it every future deck; these cannot. 64-bit ids are also checked against every stored game
    before use."""

    def seed(self) -> int:
        """63 random bits."""
        return secrets.randbits(63)

    def table_id(self) -> str:
        """64 random bits in hex."""
        return secrets.token_hex(8)


@dataclass(frozen=True)
class Rematch:
    """What a Rematch button needs after the game is gone."""

    guild_id: int
    channel_id: int
    game: Game
    options: dict[str, OptionValue]
    players: frozenset[int]  # user ids of the people who played it


class TableService:
    """All lobbies and running tables of the bot."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        presenter: Presenter,
        *,
        clock: Clock = utcnow,
        draws: Draws | None = None,
        on_result: Callable[[int, str], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.presenter = presenter
        self.clock = clock
        self.draws = draws or SecretDraws()
        # run in the background with (server, game id) when a game ends with a recorded result
        self.on_result = on_result
        self.lobbies: dict[str, Lobby] = {}
        self.tables: dict[str, TableSession] = {}
        self.by_channel: dict[int, str] = {}  # channel id → lobby or table id
        self.rematches: dict[str, Rematch] = {}
        self._background: set[asyncio.Task[None]] = set()
        self.ai = AiPlayers(settings)
        self.context = SessionContext(storage, settings, clock, self.ai, self._moved)
        self.lost_shards: Shards | None = None  # shards this process held and lost
        self.display = TableDisplay(
            presenter, clock, self.spawn, settings.table_edit_seconds, self.channel_lost
        )
        self.timers = TableTimers(settings, clock, self.spawn, self.display.changed, self.committed)

    # -- finding -------------------------------------------------------------------------------
    def _new_id(self) -> str:
        while True:
            candidate = self.draws.table_id()
            if candidate not in self.tables and candidate not in self.lobbies:
                return candidate

    async def _new_table_id(self) -> str:
        """An id used by no table of this process nor any game stored, running or finished."""
        while True:
            candidate = self._new_id()
            if not await self.storage.running.id_taken(candidate):
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
        if session is None and self.settings.shards.count > 1:
            raise UserError(OVER_OR_ELSEWHERE)
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
    ) -> Lobby:
        """Open a lobby in a channel (one game per channel); raises UserError if it cannot."""
        if channel_id in self.by_channel:
            raise UserError(
                "This channel already has a game or a lobby; finish it or use another channel."
            )
        if self.lost_shards is not None and self.lost_shards.owns(guild_id):
            raise UserError(SHARD_NOT_HERE)
        try:
            game = get_game(game_id)
            resolved = game.resolve_options(options)
        except SetupError as error:
            raise UserError(f"{error}.") from None
        seats = [Seat(host_id, host_name)]
        lobby = Lobby(self._new_id(), guild_id, channel_id, host_id, game, resolved, seats)
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
        lobby.check_start(user_id)
        seed = self.draws.seed()
        try:
            state = lobby.game.new_state(len(lobby.seats), seed, lobby.options)
        except SetupError as error:
            raise UserError(f"Cannot start: {error}.") from None
        session = TableSession(
            await self._new_table_id(),
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
        """Open a new lobby for the same game and options, once, seating only the clicker
        (a player of that game), who hosts it; the others join with the button, so nobody is
        dealt into a game they did not ask for."""
        old = self.rematches.get(table_id)
        if old is None:
            raise UserError("This rematch is no longer available; start a new game instead.")
        if user_id not in old.players:
            raise UserError("Only players of that game can ask for a rematch.")
        options: dict[str, object] = dict(old.options)
        lobby = self.open_lobby(old.guild_id, old.channel_id, user_id, name, old.game.id, options)
        del self.rematches[table_id]
        return lobby

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

    def channel_lost(self, session: TableSession) -> None:
        """The table's channel is gone or closed to the bot: end the game without a result,
        so nothing keeps asking Discord for a channel that refuses (403s get a bot banned)."""
        self.spawn(self._abandon(session), f"abandon-{session.table_id}")

    async def _abandon(self, session: TableSession) -> None:
        while True:
            try:
                change = await session.abandon(CHANNEL_LOST)
            except SaveFailed:
                await asyncio.sleep(RETRY_SECONDS)
                continue
            except GameMovedElsewhere:  # the session has stopped and told us
                return
            if change is not None:
                log.warning("table %s: its channel is lost; the game ended", session.table_id)
                self.committed(session, change)
            return

    def channel_gone(self, channel_id: int) -> None:
        """A channel was deleted: its lobby closes and its table ends."""
        key = self.by_channel.get(channel_id)
        lobby = self.lobbies.get(key) if key else None
        if lobby is not None:
            self.close_lobby(lobby)
        session = self.tables.get(key) if key else None
        if session is not None:
            self.channel_lost(session)

    def guild_gone(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: its lobbies close, its tables end."""
        for lobby in [lobby for lobby in self.lobbies.values() if lobby.guild_id == guild_id]:
            self.close_lobby(lobby)
        for session in [s for s in self.tables.values() if s.guild_id == guild_id]:
            self.channel_lost(session)

    def _moved(self, table_id: str) -> None:
        """A table found its game saved elsewhere first and stopped: show its end (the
        channel and the hand DMs say why, once) and forget it. Nothing is saved."""
        session = self.tables.get(table_id)
        if session is not None:
            self.committed(session, Change(views=frozenset(range(len(session.seats))), ended=True))

    def shards_lost(self, shards: Shards) -> None:
        """This process no longer holds ``shards`` (its lock connection dropped): stop driving
        their servers' tables (nothing saved: another process may own them now), close their
        lobbies and refuse new ones there."""
        self.lost_shards = shards
        for lobby in [each for each in self.lobbies.values() if shards.owns(each.guild_id)]:
            self.close_lobby(lobby)
        for session in [each for each in self.tables.values() if shards.owns(each.guild_id)]:
            self.spawn(self._lose(session), f"lose-{session.table_id}")

    async def _lose(self, session: TableSession) -> None:
        if await session.lose(SHARD_LOST):
            self.committed(session, Change(views=frozenset(range(len(session.seats))), ended=True))

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
            if self.on_result is not None:
                self.spawn(
                    self.on_result(session.guild_id, session.game.id),
                    f"result-{session.table_id}",
                )
            self.rematches[session.table_id] = Rematch(
                session.guild_id,
                session.channel_id,
                session.game,
                dict(session.options),
                frozenset(seat.user_id for seat in session.seats if seat.user_id is not None),
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
    async def restore(self, shards: Shards | None = None) -> list[str]:
        """Resume the running games saved in storage (those of the servers on ``shards``;
        None: all); returns the problems found."""
        sessions, broken = await restore_sessions(self.storage, self.context, shards)
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
