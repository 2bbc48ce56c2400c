"""Every running table of the bot, and what happens around a session's changes.

The service finds tables (by id, by channel), deals a started lobby (``bot.tables.lobbies``
keeps the open ones) into a ``TableSession``, and reacts to each committed ``Change``: channel
notices, the batched display (``TableDisplay``), the timers (``TableTimers``) and the end of a
game (a Rematch offer, the results, then forgetting the table). It also handles what Discord
takes away: a channel gone (the table ends) or closed to the bot (the table pauses), the bot
removed from a server, a member who leaves it. Restoring after a restart is
``bot.tables.restore``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from bot.errors import GameMovedElsewhere, SaveFailed, UserError
from bot.preferences import TurnPings
from bot.settings import Settings
from bot.storage import Shards, Storage
from bot.tables import backoff
from bot.tables.backoff import retry_delay
from bot.tables.display import Presenter, TableDisplay
from bot.tables.lobbies import Lobbies
from bot.tables.lobby import Lobby, ServerLanguage
from bot.tables.records import FINISHED, Change, Chosen, Clock, Ending, EndKind, SessionContext
from bot.tables.restore import restore_sessions
from bot.tables.session import TableSession, working_on
from bot.tables.supervisor import Supervisor
from bot.tables.table_index import TableIndex
from bot.tables.thinking import AiPlayers
from bot.tables.timers import LEFT_THE_SERVER, TableTimers
from engine.core import Game, OptionValue
from engine.errors import SetupError
from engine.words import N_, _

log = logging.getLogger(__name__)

CHANNEL_LOST = N_("The bot can no longer reach this table's channel, so the game ended.")
CHANNEL_DELETED = N_("This table's channel was deleted, so the game ended without a result.")
THREAD_DELETED = N_("This table's thread was deleted, so the game ended without a result.")
IN_THREADS = N_(
    "This channel's tables play in threads of their own ({threads}): use the command inside "
    "your table's thread."
)
THREADS_NAMED = 10  # threads a "which table?" answer names
GUILD_LEFT = N_("The bot was removed from this server, so the game ended without a result.")
PAUSE_RAN_OUT = N_(
    "The bot could not see or post in this table's channel for {minutes} minutes, so the "
    "game ended without a result."
)
RESUMED = N_("The game goes on: the bot may post in this channel again.")
RECONNECTED = N_("The game goes on: the bot is connected to Discord again.")
SHARD_LOST = N_(
    "This game is interrupted: the bot lost the link to its saved games. It comes back from the"
    " last move shown when the bot has restarted, usually within a minute; nothing is lost."
)
# with several shard processes, a table unknown here is over, or another process's: a hand
# DM's click on one lands in the process of shard 0 (Discord sends it every DM click), which
# hands it on (bot.tables.dm_clicks) unless the game is stored nowhere
OVER_OR_ELSEWHERE = N_(
    "This game is over, or it cannot be played from here: use the Hand button in its channel."
)
HOST_STOPPED = N_("{player} (the host) stopped playing; the AI plays their seat.")
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
        turn_pings: TurnPings,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.presenter = presenter
        self.clock = clock
        self.draws = draws or SecretDraws()
        # run in the background with (server, game id) when a game ends with a recorded result
        self.on_result = on_result
        self.tables: dict[str, TableSession] = {}
        # channel or thread id → the lobby or table there (a table in a thread leaves its
        # lobby's channel free for the next lobby)
        self.by_channel: dict[int, str] = {}
        self.index = TableIndex()  # the tables by server, by person seated, by thread's channel
        self.rematches: dict[str, Rematch] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._pauses: dict[str, asyncio.Task[None]] = {}  # table id → the end of its pause
        self.disconnected: set[int] = set()  # shards whose gateway connection is down
        # tables resting where the bot is no member (bot.tables.tokens): still, on purpose
        self.resting: set[str] = set()
        self.ai = AiPlayers(settings)
        self.context = SessionContext(storage, settings, clock, self.ai, self._ended_alone)
        self.display = TableDisplay(
            presenter,
            clock,
            self.spawn,
            settings.table_edit_seconds,
            self.channel_lost,
            self.member_left,
            turn_pings,
            settings.redraws_per_second,
        )
        self.timers = TableTimers(
            settings,
            clock,
            self.spawn,
            self.display.changed,
            self.committed,
            presenter.is_member,
            self.held,
        )
        self.lobbies = Lobbies(
            settings, storage, presenter, self.spawn, self.by_channel, self._new_id, self._hosts
        )
        # started with the restored tables
        self.supervisor = Supervisor(self, settings.supervisor_seconds)

    # -- finding -------------------------------------------------------------------------------
    def _hosts(self, guild_id: int) -> list[int]:
        """The host of each running game of a server."""
        return [s.host_id for s in self.in_guild(guild_id) if not s.ended]

    def in_guild(self, guild_id: int) -> list[TableSession]:
        """A server's tables (only those: ``index``)."""
        return self._found(self.index.in_guild(guild_id))

    def _found(self, table_ids: list[str]) -> list[TableSession]:
        return [self.tables[table_id] for table_id in table_ids if table_id in self.tables]

    def _new_id(self) -> str:
        while True:
            candidate = self.draws.table_id()
            if candidate not in self.tables and candidate not in self.lobbies.by_id:
                return candidate

    async def _new_table_id(self) -> str:
        """An id used by no table of this process nor any game stored, running or finished
        (SaveFailed when the database cannot say: nothing is dealt, the lobby stays open)."""
        while True:
            candidate = self._new_id()
            try:
                taken = await self.storage.running.id_taken(candidate)
            except Exception as error:
                log.exception("a new table's id could not be checked")
                raise SaveFailed() from error
            if not taken:
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
            raise UserError(_(OVER_OR_ELSEWHERE))
        if session is None or session.ended:
            raise UserError(_("This game is over."))
        return working_on(session)

    def table_in(self, channel_id: int, user_id: int) -> TableSession:
        """The running table of a channel or thread; in a channel whose tables play in
        threads, the one ``user_id`` is seated at. Raises UserError when there is none, or
        when it cannot tell which (naming the threads)."""
        key = self.by_channel.get(channel_id)
        session = self.tables.get(key) if key else None
        if session is not None and not session.ended:
            return working_on(session)
        in_threads = [
            each
            for each in self.tables.values()
            if each.parent_channel_id == channel_id and not each.ended
        ]
        theirs = [each for each in in_threads if each.seat_of(user_id) is not None]
        if len(theirs) == 1:
            return working_on(theirs[0])
        if in_threads:
            threads = ", ".join(f"<#{each.channel_id}>" for each in in_threads[:THREADS_NAMED])
            raise UserError(_(IN_THREADS).format(threads=threads))
        raise UserError(_("There is no game running in this channel."))

    # -- from lobby to table ---------------------------------------------------------------------
    async def start(
        self,
        lobby_id: str,
        user_id: int,
        acknowledge: Callable[[], Awaitable[object]] | None = None,
    ) -> TableSession:
        """Deal the game and save it (host only); the lobby becomes a table, not yet shown.
        ``acknowledge`` runs once the start is accepted, before dealing. The lobby is held
        in ``starting`` throughout (``Lobbies.starting``): one Start deals one game, and a
        refused start, a failed acknowledgement or a failed save keeps the lobby open."""
        lobby = self.lobbies.get(lobby_id)
        async with self.lobbies.starting(lobby, user_id):
            if acknowledge is not None:
                await acknowledge()
            seed = self.draws.seed()
            try:
                state = lobby.game.new_state(len(lobby.seats), seed, lobby.options)
            except SetupError as error:
                raise UserError(_("Cannot start: {reason}.").format(reason=error)) from None
            session = TableSession(
                await self._new_table_id(),
                lobby.guild_id,
                lobby.channel_id,
                lobby.host_id,
                lobby.game,
                dict(state.options),
                seed,
                list(lobby.seats),
                state,
                self.clock(),
                context=self.context,
                turn_seconds=lobby.turn_seconds,
                language=lobby.language,
            )
            working_on(session)
            session.log_opening()
            await session.begin(lobby.lobby_id)  # its stored row goes with the first save
        self._add(session)
        return session

    def _add(self, session: TableSession) -> None:
        self.tables[session.table_id] = session
        self.by_channel[session.channel_id] = session.table_id
        self.index.add(session)

    async def in_thread(self, session: TableSession, thread_id: int) -> None:
        """The table just dealt plays in ``thread_id`` from now on (a thread of its lobby's
        channel): that channel is free for the next lobby."""
        if self.by_channel.get(session.channel_id) == session.table_id:
            del self.by_channel[session.channel_id]
        self.by_channel[thread_id] = session.table_id
        await session.posted(thread=thread_id)
        self.index.add(session)  # now under its thread's channel too

    def show(self, session: TableSession) -> None:
        """Start showing the table and driving its timers (after the caller answered)."""
        working_on(session)  # the display's and timers' tasks inherit the table's log ids
        self.display.changed(session)
        self.timers.schedule(session)

    async def rematch(
        self,
        table_id: str,
        user_id: int,
        name: str,
        *,
        language: str = "en",
        host_language: str | None = None,
    ) -> Lobby:
        """Open a new lobby for the same game and options, once, seating only the clicker
        (a player of that game), who hosts it; the others join with the button, so nobody is
        dealt into a game they did not ask for. The lobby speaks ``language``, its host reads
        ``host_language``."""
        old = self.rematches.get(table_id)
        if old is None:
            raise UserError(_("This rematch is no longer available; start a new game instead."))
        if user_id not in old.players:
            raise UserError(_("Only players of that game can ask for a rematch."))
        options: dict[str, object] = dict(old.options)
        game_id = old.game.id
        lobby = await self.lobbies.open(
            old.guild_id,
            old.channel_id,
            user_id,
            name,
            game_id,
            options,
            language=language,
            host_language=host_language,
        )
        self.rematches.pop(table_id, None)
        return lobby

    # -- a session's intents, and what follows a committed change --------------------------------
    async def choose(
        self,
        table_id: str,
        user_id: int,
        revision: int,
        path: Sequence[int],
        picked: Sequence[int] | None = None,
    ) -> tuple[TableSession, Chosen]:
        """A step of a move at a table (or the members ``picked`` together there): the next
        step to offer, or the committed move."""
        session = self.table(table_id)
        chosen = await session.choose(user_id, revision, path, picked)
        if isinstance(chosen.outcome, Change):
            self.committed(session, chosen.outcome)
        return session, chosen

    async def next_round(self, table_id: str, user_id: int, revision: int) -> None:
        """A seated person moves the table on from the round end held since ``revision``."""
        session = self.table(table_id)
        change = await session.next_round(user_id, revision)
        if change is not None:
            self.committed(session, change)

    async def leave(self, channel_id: int, user_id: int) -> None:
        """The person leaves the channel's game; the AI takes the seat."""
        session = self.table_in(channel_id, user_id)
        self.committed(session, await session.leave(user_id))

    async def stop(self, channel_id: int, user_id: int, may_manage: bool, name: str) -> bool:
        """Stop the channel's game (Manage Server, or the host when it cannot count against
        them); True if it stopped. A host who plays the game and lacks Manage Server leaves it
        instead (False): the AI takes their seat and it counts as a loss, as /game leave
        does, so stopping a game they are losing is no way out of the result."""
        session = self.table_in(channel_id, user_id)
        seat = session.seat_of(user_id)
        playing = seat is not None and session.seats[seat].is_human
        if playing and not may_manage and user_id == session.host_id:
            self.committed(session, await session.leave(user_id, HOST_STOPPED))
            return False
        session.check_may_stop(user_id, may_manage)
        stopped = Ending(EndKind.STOPPED, N_("{player} stopped the game."), (("player", name),))
        self.committed(session, await session.end(stopped))
        return True

    def channel_lost(self, session: TableSession, gone: bool) -> None:
        """Discord refused the table's channel itself: gone for good (deleted, the bot out of
        the server), the game ends without a result; closed to the bot (permissions taken
        away), it is paused. Either way nothing keeps asking Discord for a channel that
        refuses (403s get a bot banned)."""
        if gone:
            self.end(session, Ending(EndKind.CHANNEL_LOST, CHANNEL_LOST))
        else:
            self.pause(session)

    def end(self, session: TableSession, ending: Ending) -> None:
        """End a table without a result for a reason the bot itself met (its channel lost,
        its pause run out, its shard lost), in the background: retried until saved (when it
        is this process's to save), then shown like any end."""
        log.warning("table %s: %s", session.table_id, ending.text)
        self.spawn(
            self._until_saved(session, partial(session.end, ending)), f"end-{session.table_id}"
        )

    async def _until_saved(
        self, session: TableSession, call: Callable[[], Awaitable[Change]]
    ) -> None:
        """Make a change the bot itself decided on (nobody to ask to try again): retried after
        ``retry_delay`` until it is saved, then shown."""
        failures = 0
        while True:
            try:
                change = await call()
            except SaveFailed:
                failures += 1
                await backoff.wait_to_retry(retry_delay(failures))
                continue
            except (GameMovedElsewhere, UserError):  # the game ended or moved, or the seat
                # went to the AI, meanwhile
                return
            self.committed(session, change)
            return

    def pause(self, session: TableSession) -> None:
        """The bot may no longer see or post in the table's channel: nothing moves (no
        timeout, no AI) until it may again (``resume``); the players and the server's owner
        are told by DM; after ``paused_table_seconds`` the game ends without a result. The
        pause is stored, so that a restart neither tells them again nor starts it over."""
        if session.paused or session.ended:
            return
        session.pause(self.clock())
        log.warning("table %s: its channel is closed to the bot; paused", session.table_id)
        self.spawn(self.presenter.table_paused(session), f"paused-{session.table_id}")
        self.keep_paused(session)
        self.spawn(self._store_pause(session), f"pause-saved-{session.table_id}")

    def pause_held(self, table_id: str) -> bool:
        """Whether a paused table's pause is held (its end is scheduled)."""
        ending = self._pauses.get(table_id)
        return ending is not None and not ending.done()

    def keep_paused(self, session: TableSession) -> None:
        """Hold a paused table still until its channel opens or the pause runs out."""
        self.timers.cancel(session)
        ending = self.spawn(self._pause_runs_out(session), f"pause-end-{session.table_id}")
        self._pauses[session.table_id] = ending

    async def _pause_runs_out(self, session: TableSession) -> None:
        seconds = self.settings.paused_table_seconds
        since = session.paused_since
        if since is None:  # resumed before this began
            return
        left = seconds - (self.clock() - since).total_seconds()
        await asyncio.sleep(max(0.0, left))
        self._pauses.pop(session.table_id, None)
        if session.paused:
            minutes = (("minutes", str(round(seconds / 60))),)
            self.end(session, Ending(EndKind.CHANNEL_LOST, PAUSE_RAN_OUT, minutes))

    async def _store_pause(self, session: TableSession) -> None:
        """Store whether the table is paused, as it is when this runs (under the table's
        lock, so that a pause and a resume in quick succession are stored in order). Not
        retried: should it fail, the pause still holds here, and a restart would only pause
        the table anew (telling the players again) once its channel refuses the bot."""
        async with session.lock:
            if session.ended:
                return
            try:
                await self.storage.running.set_paused(session.table_id, session.paused_since)
            except Exception:
                log.exception("table %s: whether it is paused was not stored", session.table_id)

    def paused_in(self, guild_id: int) -> list[TableSession]:
        """The paused tables of a server."""
        return [session for session in self.in_guild(guild_id) if session.paused]

    def paused_in_channels(self, channel_ids: Iterable[int]) -> list[TableSession]:
        """The paused tables of these channels and of their threads."""
        table_ids: list[str] = []
        for channel_id in channel_ids:
            table_ids += self.index.in_threads_of(channel_id)
            if channel_id in self.by_channel:
                table_ids.append(self.by_channel[channel_id])
        return [session for session in self._found(table_ids) if session.paused]

    def resume(self, session: TableSession) -> None:
        """The bot may post in a paused table's channel again: the game goes on, every
        waiting seat with a whole new turn."""
        if not session.paused or session.ended:
            return
        self._end_pause(session)
        session.resume(RESUMED)
        log.info("table %s: its channel is open to the bot again; resumed", session.table_id)
        self.spawn(self._store_pause(session), f"pause-saved-{session.table_id}")
        self.show(session)

    def held(self, session: TableSession) -> bool:
        """Whether the table's clocks stand still: its shard's gateway is disconnected."""
        return self.settings.shards.of(session.guild_id) in self.disconnected

    def shard_disconnected(self, shard_id: int) -> None:
        """The shard's gateway connection dropped: no click of its servers arrives, so
        nobody at their tables can move; every clock there stops (no timeout, no AI move)
        until it is back (``shard_back``)."""
        if shard_id in self.disconnected:
            return
        self.disconnected.add(shard_id)
        held = [s for s in self.tables.values() if self.held(s) and not s.ended]
        for session in held:
            self.timers.cancel(session)
        # discord.py reconnects by itself, and Discord asks for it every few hours: not a fault
        log.info("shard %d disconnected: %d tables wait for it", shard_id, len(held))

    def shard_back(self, shard_id: int) -> None:
        """The shard's gateway is connected again (resumed, or a new session): at its tables,
        as after a restart, every waiting seat gets a whole new turn (the time nobody could
        move is nobody's fault) and the table is shown anew (paced)."""
        if shard_id not in self.disconnected:
            return
        self.disconnected.discard(shard_id)
        back = [s for s in self.tables.values() if self.settings.shards.of(s.guild_id) == shard_id]
        for session in back:
            if session.ended or session.paused:  # a paused table waits for its channel
                continue
            session.resume(RECONNECTED)
            self.timers.schedule(session)
            self.display.redraw(session)
        log.info("shard %d connected again: %d tables go on", shard_id, len(back))

    def _end_pause(self, session: TableSession) -> None:
        ending = self._pauses.pop(session.table_id, None)
        if ending is not None and ending is not asyncio.current_task():
            ending.cancel()

    def channel_gone(self, channel_id: int) -> None:
        """A channel or thread was deleted: its lobby closes and its table ends, and so do
        the tables in the threads of a deleted channel (they went with it)."""
        lobby = self.lobbies.in_channel(channel_id)
        if lobby is not None:
            self.lobbies.close(lobby)
        for session in list(self.tables.values()):
            if session.ended or channel_id not in (session.channel_id, session.parent_channel_id):
                continue
            thread = session.channel_id == channel_id and session.parent_channel_id is not None
            text = THREAD_DELETED if thread else CHANNEL_DELETED
            self.end(session, Ending(EndKind.CHANNEL_LOST, text))

    def guild_gone(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: its lobbies close, its tables end."""
        for lobby in self.lobbies.in_guild(guild_id):
            self.lobbies.close(lobby)
        for session in self.in_guild(guild_id):
            self.end(session, Ending(EndKind.CHANNEL_LOST, GUILD_LEFT))

    def member_left(self, guild_id: int, user_id: int) -> None:
        """A person left the server (the members intent says so at once; else a failed DM or
        their turn running out shows it): the AI takes their seats; they leave its lobbies
        (a lobby they host closes)."""
        self.lobbies.member_left(guild_id, user_id)
        for session in self._found(self.index.of_member(guild_id, user_id)):
            if session.ended:
                continue
            seat = session.seat_of(user_id)
            if seat is not None and session.seats[seat].is_human:
                hand_over = partial(session.leave, user_id, LEFT_THE_SERVER)
                self.spawn(self._until_saved(session, hand_over), f"left-{session.table_id}")

    def _ended_alone(self, table_id: str, change: Change) -> None:
        """A table ended outside any call (its game saved elsewhere first): shown like any
        committed end."""
        session = self.tables.get(table_id)
        if session is not None:
            self.committed(session, change)

    def shards_lost(self, shards: Shards) -> None:
        """This process no longer holds ``shards`` (its lock connection dropped): stop driving
        their servers' tables (nothing saved: another process may own them now), close their
        lobbies and refuse new ones there."""
        self.lobbies.shards_lost(shards)
        for session in [each for each in self.tables.values() if shards.owns(each.guild_id)]:
            self.end(session, Ending(EndKind.SHARD_LOST, SHARD_LOST))

    def committed(self, session: TableSession, change: Change) -> None:
        """Show a committed change and plan what follows: notices, the display, the timers,
        and at the end a Rematch offer and forgetting the table."""
        for notice in change.notices:
            self.display.notice(session, notice)
        if not change.ended:  # the last hand's scores are in the results
            for ended in change.rounds:
                self.display.round_ended(session, ended)
        self.display.changed(session)
        if not change.ended:
            if not session.paused:  # a paused table's timers wait for its channel
                self.timers.schedule(session)
            return
        self.timers.cancel(session)
        self._end_pause(session)
        if self.by_channel.get(session.channel_id) == session.table_id:
            del self.by_channel[session.channel_id]
        if session.ending == FINISHED:
            if self.on_result is not None:
                self.spawn(
                    self.on_result(session.guild_id, session.game.id),
                    f"result-{session.table_id}",
                )
            self.rematches[session.table_id] = Rematch(
                session.guild_id,
                session.parent_channel_id or session.channel_id,  # where its lobby was
                session.game,
                dict(session.options),
                frozenset(seat.user_id for seat in session.seats if seat.user_id is not None),
            )
            while len(self.rematches) > REMATCHES_KEPT:  # the oldest offers go first
                del self.rematches[next(iter(self.rematches))]

        async def forget() -> None:
            # a bot that runs for months must not keep every game it ever hosted (a click
            # on an old table's buttons still gets "This game is over")
            if self.tables.get(session.table_id) is session:
                del self.tables[session.table_id]
                self.index.drop(session)

        self.display.ended(session, forget())

    # -- restart and shutdown --------------------------------------------------------------------
    async def restore(
        self, server_language: ServerLanguage, shards: Shards | None = None
    ) -> list[str]:
        """Resume the running games and open lobbies saved in storage (those of the servers
        on ``shards``; None: all), each in its language (``restored_language``: the one it
        was saved in, else ``server_language``, else its host's); returns the problems
        found."""
        sessions, broken = await restore_sessions(
            self.storage, self.context, server_language, shards
        )
        for session in sessions:
            self._add(session)
            if session.paused:  # nothing asked of its channel: resumed once it is open
                self.keep_paused(session)
            elif session.table_id not in self.resting:  # (a resting one stays still)
                # playable at once; shown anew in turn, so as not to flood Discord
                working_on(session)
                self.timers.schedule(session)
                self.display.redraw(session)
        for game in broken:
            if game.channel_id is not None:
                self.spawn(self.presenter.restore_failed(game), f"broken-{game.table_id}")
        problems = await self.lobbies.restore(server_language, shards)
        self.supervisor.start()
        return [f"table {game.table_id}: {game.error}" for game in broken] + problems

    async def close(self) -> None:
        """Cancel timers and background work, stop the AI's workers (at shutdown)."""
        self.timers.close()
        self.ai.close()
        self.lobbies.close_all()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
