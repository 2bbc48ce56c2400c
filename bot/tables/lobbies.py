"""Every open lobby of the bot: opening one (one game or lobby per channel), each change saved
before it is shown, the idle expiry, closing, and bringing them back after a restart.

The rules of gathering are ``bot.tables.lobby``; dealing a started lobby into a table is the
service's (``TableService.start``), whose first save of the game deletes the lobby's row.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TypeVar

from bot.errors import SaveFailed, UserError
from bot.settings import Settings
from bot.storage import Shards, Storage
from bot.tables import backoff
from bot.tables.backoff import retry_delay
from bot.tables.display import Presenter
from bot.tables.lobby import Lobby, LobbyStatus, ServerLanguage
from bot.tables.records import Seat, Spawn
from bot.tables.restore import restore_lobbies
from engine.core import Event
from engine.errors import SetupError
from engine.registry import get_game
from engine.words import N_, _

log = logging.getLogger(__name__)
T = TypeVar("T")

HOST_LEFT = Event(N_("This lobby closed because its host left the server."), "closed")
EXPIRED = N_("This lobby expired after {minutes} idle minutes.")
SHARD_NOT_HERE = N_("The bot is restarting for this server: try again in a minute.")


class Lobbies:
    """The open lobbies, by id; ``by_channel`` (channel id → lobby or table id) is shared
    with the service's tables, so that a channel has one game or lobby at a time."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        presenter: Presenter,
        spawn: Spawn,
        by_channel: dict[int, str],
        new_id: Callable[[], str],
        running_hosts: Callable[[int], list[int]],
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.presenter = presenter
        self.spawn = spawn
        self.by_channel = by_channel
        self.new_id = new_id
        self.running_hosts = running_hosts  # server → the host of each of its running games
        self.by_id: dict[str, Lobby] = {}
        self.lost_shards: Shards | None = None  # shards this process held and lost

    # -- finding -------------------------------------------------------------------------------
    def get(self, lobby_id: str) -> Lobby:
        """An open lobby; raises UserError when it is gone."""
        lobby = self.by_id.get(lobby_id)
        if lobby is None or lobby.closed:
            raise UserError(_("This lobby is closed."))
        return lobby

    def in_channel(self, channel_id: int) -> Lobby | None:
        """The open lobby of a channel, if it has one."""
        key = self.by_channel.get(channel_id)
        return self.by_id.get(key) if key else None

    def in_guild(self, guild_id: int) -> list[Lobby]:
        """The open lobbies of a server."""
        return [lobby for lobby in self.by_id.values() if lobby.guild_id == guild_id]

    # -- opening and changing ------------------------------------------------------------------
    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game_id: str,
        options: dict[str, object],
        turn_seconds: int | None = None,
        *,
        language: str = "en",
        host_language: str | None = None,
    ) -> Lobby:
        """Open a lobby in a channel (one game per channel) and save it, its turns
        ``turn_seconds`` long (None: the server's TURN_SECONDS), speaking ``language`` in
        public (its host reads ``host_language``); raises UserError if it cannot
        (SaveFailed: nothing opened)."""
        if channel_id in self.by_channel:
            raise UserError(
                _("This channel already has a game or a lobby; finish it or use another channel.")
            )
        if self.lost_shards is not None and self.lost_shards.owns(guild_id):
            raise UserError(_(SHARD_NOT_HERE))
        self._check_caps(guild_id, host_id)
        try:
            game = get_game(game_id)
            resolved = game.resolve_options(options)
        except SetupError as error:
            raise UserError(_("{reason}.").format(reason=error)) from None
        seats = [Seat(host_id, host_name, language=host_language)]
        lobby = Lobby(self.new_id(), guild_id, channel_id, host_id, game, resolved, seats)
        lobby.language = language
        lobby.turn_seconds = turn_seconds or self.settings.turn_seconds
        self._add(lobby)  # before the save: a second start in the channel is refused
        try:
            await self._save(lobby)
        except SaveFailed:
            # its row may be stored all the same (a reply lost): forgotten, or it would hold
            # the channel's next lobby off and come back at a restart
            self.close(lobby)
            raise
        return lobby

    def _check_caps(self, guild_id: int, host_id: int) -> None:
        """Refuse a new table beyond the server's or the member's share (settings named)."""
        hosts = [lobby.host_id for lobby in self.in_guild(guild_id)]
        hosts += self.running_hosts(guild_id)
        most = self.settings.max_tables_per_server
        if len(hosts) >= most:
            raise UserError(
                _(
                    "This server already has {count} open or running tables, the most it may "
                    "(the bot's MAX_TABLES_PER_SERVER setting); finish one first."
                ).format(count=most)
            )
        most = self.settings.max_tables_per_member
        if hosts.count(host_id) >= most:
            raise UserError(
                _(
                    "You already host {count} open or running tables, the most one member may "
                    "(the bot's MAX_TABLES_PER_MEMBER setting); finish one first."
                ).format(count=most)
            )

    def _add(self, lobby: Lobby) -> None:
        self.by_id[lobby.lobby_id] = lobby
        self.by_channel[lobby.channel_id] = lobby.lobby_id
        self.touch(lobby)

    async def _save(self, lobby: Lobby) -> None:
        try:
            await self.storage.lobbies.save(lobby.saved())
        except Exception as error:
            log.exception("lobby %s: a change could not be saved", lobby.lobby_id)
            raise SaveFailed() from error

    async def change(self, lobby: Lobby, change: Callable[[], T]) -> T:
        """Make ``change`` (join, leave, add an AI, set its level) and save the lobby; if
        the save fails, the seats are put back as they were and SaveFailed is raised. Only an
        open lobby changes (UserError otherwise, changing nothing)."""
        lobby.check_open()
        async with lobby.lock:
            seats = [replace(seat) for seat in lobby.seats]
            made = change()  # refuses, changing nothing, if a start began meanwhile
            try:
                await self._save(lobby)
            except SaveFailed:
                lobby.seats[:] = seats
                raise
        self.touch(lobby)
        return made

    @asynccontextmanager
    async def starting(self, lobby: Lobby, user_id: int) -> AsyncIterator[None]:
        """Hold the lobby in ``starting`` while the body deals and saves its game: from the
        first moment every other click is refused, changes already in flight finish first
        (and the start is checked again after them); if the body fails, the lobby is open
        again, else it is gone (its row went with the game's first save)."""
        lobby.begin_start(user_id)
        try:
            async with lobby.lock:
                lobby.check_start(user_id)
                yield
        except BaseException:
            lobby.start_failed()
            if not lobby.closed:
                self.touch(lobby)
            raise
        self.drop(lobby, LobbyStatus.STARTED)

    async def posted(self, lobby: Lobby, message_id: int) -> None:
        """The lobby's message was posted: note its id (saved, so that a restarted bot shows
        the lobby there again; if that save fails, the lobby works until a restart)."""
        lobby.message_id = message_id
        async with lobby.lock:
            if lobby.status is not LobbyStatus.OPEN:  # dealt or closed meanwhile: no row
                return
            try:
                await self.storage.lobbies.save(lobby.saved())
            except Exception:
                log.exception("lobby %s: could not save its message id", lobby.lobby_id)

    def touch(self, lobby: Lobby) -> None:
        """The lobby was used: its idle expiry starts again."""
        if lobby.expiry is not None:
            lobby.expiry.cancel()
        lobby.expiry = self.spawn(self._expire(lobby), f"lobby-expiry-{lobby.lobby_id}")

    async def _expire(self, lobby: Lobby) -> None:
        await asyncio.sleep(self.settings.lobby_idle_seconds)
        if lobby.status is LobbyStatus.OPEN:  # a lobby being dealt is a start's to end
            self.close(lobby, cancel_expiry=False)
            minutes = round(self.settings.lobby_idle_seconds / 60)
            expired = Event(EXPIRED, "closed", args=(("minutes", str(minutes)),))
            await self.presenter.lobby_closed(lobby, expired)

    # -- closing -------------------------------------------------------------------------------
    def cancel(self, lobby: Lobby, user_id: int) -> None:
        """The host cancels the lobby (refused while it is being dealt)."""
        lobby.check_host(user_id, N_("Only the host can cancel this lobby."))
        lobby.check_open()
        self.close(lobby)

    def close(self, lobby: Lobby, *, cancel_expiry: bool = True) -> None:
        """Close the lobby, free its channel and forget its stored row (in the background,
        retried until done: a closed lobby must not come back at a restart)."""
        self.drop(lobby, cancel_expiry=cancel_expiry)
        self.spawn(self._forget(lobby.lobby_id), f"lobby-forget-{lobby.lobby_id}")

    def drop(
        self,
        lobby: Lobby,
        status: LobbyStatus = LobbyStatus.CANCELLED,
        *,
        cancel_expiry: bool = True,
    ) -> None:
        """Close the lobby in memory only (its stored row is gone already, or never was)."""
        lobby.status = status
        self.by_id.pop(lobby.lobby_id, None)
        if self.by_channel.get(lobby.channel_id) == lobby.lobby_id:
            del self.by_channel[lobby.channel_id]
        if cancel_expiry and lobby.expiry is not None:
            lobby.expiry.cancel()

    async def _forget(self, lobby_id: str) -> None:
        failures = 0
        while True:
            try:
                await self.storage.lobbies.delete(lobby_id)
                return
            except Exception:
                failures += 1
                log.exception("lobby %s: could not forget it; trying again", lobby_id)
                await backoff.wait_to_retry(retry_delay(failures))

    def member_left(self, guild_id: int, user_id: int) -> None:
        """A person left the server: they leave its lobbies; a lobby they host closes."""
        for lobby in self.in_guild(guild_id):
            if lobby.status is not LobbyStatus.OPEN:  # being dealt: the table handles it
                continue
            if lobby.host_id == user_id:
                self.close(lobby)
                self.spawn(self.presenter.lobby_closed(lobby, HOST_LEFT), "lobby-host-left")
            elif lobby.seat_of(user_id) is not None:
                self.spawn(self._leave(lobby, user_id), f"lobby-left-{lobby.lobby_id}")

    async def _leave(self, lobby: Lobby, user_id: int) -> None:
        await self.change(lobby, lambda: lobby.leave(user_id))
        await self.presenter.show_lobby(lobby)

    def shards_lost(self, shards: Shards) -> None:
        """This process lost ``shards``: drop their lobbies from memory (their stored rows stay:
        another process may run them now) and refuse new lobbies on their servers."""
        self.lost_shards = shards
        for lobby in [each for each in self.by_id.values() if shards.owns(each.guild_id)]:
            self.drop(lobby)

    def close_all(self) -> None:
        """Stop every idle expiry (at shutdown; the lobbies stay stored for the next start)."""
        for lobby in self.by_id.values():
            if lobby.expiry is not None:
                lobby.expiry.cancel()

    # -- restart -------------------------------------------------------------------------------
    async def restore(
        self, server_language: ServerLanguage, shards: Shards | None = None
    ) -> list[str]:
        """Bring back the saved open lobbies (of the servers on ``shards``; None: all), after
        the running tables, whose channels they cannot share, each in its language
        (``restored_language``); returns the problems found."""
        lobbies, problems = await restore_lobbies(self.storage, server_language, shards)
        for lobby in lobbies:
            if lobby.channel_id in self.by_channel:  # its channel has a game: it cannot start
                problems.append(f"lobby {lobby.lobby_id}: its channel has a game")
                self.close(lobby)
                continue
            self._add(lobby)
            self.spawn(self._show_restored(lobby), f"lobby-restored-{lobby.lobby_id}")
        return problems

    async def _show_restored(self, lobby: Lobby) -> None:
        """Show a restored lobby in its message again; drop it if that is gone."""
        if not await self.presenter.show_lobby(lobby):
            log.warning("lobby %s: its channel or message is gone; dropped", lobby.lobby_id)
            self.close(lobby)
