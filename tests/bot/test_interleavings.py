"""Generated interleavings of lobby and table intents through the real service.

Hypothesis orders Open, Join, Leave, Add AI, Cancel, Start (often twice), moves by every seat,
timeouts, leaving and stopping a game, and a restart; each intent runs as its own task and
``interleave`` lets the event loop run a drawn number of steps, so intents overlap at every
await: each call to storage and to the presenter yields first. After every step: at most one
running game per channel, every table dealt for exactly its seats, no unexpected error; once
everything has settled: no open lobby row beside a running game, and every table live (the
supervisor finds nothing to repair).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from bot.errors import UserError
from bot.preferences import TurnPings
from bot.storage import Storage
from bot.tables.lobby import Lobby
from bot.tables.records import Change, RoundEnd
from bot.tables.service import TableService
from bot.tables.session import TableSession
from engine.choices import HERE, Step, resolve
from engine.core import Action, Event, Game
from tests.bot.conftest import fast_settings
from tests.bot.helpers import SeededDraws

GUILD, CHANNEL = 1, 10
PEOPLE = {101: "ann", 102: "bob", 103: "cara"}
HOST = 101


class Yielding:
    """A store whose every call yields to the event loop first, so other intents run there."""

    def __init__(self, store: object) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._store, name)

        async def yielding(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0)
            return await call(*args, **kwargs)

        return yielding


class FakePresenter:
    """The Discord side, every call yielding once and succeeding."""

    def __init__(self) -> None:
        self.posted = 0

    async def _discord(self) -> None:
        await asyncio.sleep(0)

    async def lobby_closed(self, lobby: Lobby, reason: Event) -> None:
        await self._discord()

    async def show_lobby(self, lobby: Lobby) -> bool:
        await self._discord()
        return True

    async def table_changed(self, session: TableSession) -> int | None:
        await self._discord()
        if session.table_message_id is None:
            self.posted += 1
            return self.posted
        return None

    async def hand_changed(self, session: TableSession, seat: int) -> tuple[int | None] | None:
        await self._discord()
        return None

    async def hand_closed(self, session: TableSession, seat: int) -> None:
        await self._discord()

    async def notice(self, session: TableSession, notice: Event) -> None:
        await self._discord()

    async def table_paused(self, session: TableSession) -> None:
        await self._discord()

    async def post_ending(self, session: TableSession) -> int | None:
        await self._discord()
        return None

    async def table_ended(self, session: TableSession, results_id: int | None) -> None:
        await self._discord()

    async def restore_failed(self, broken: object) -> None:
        await self._discord()

    async def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        await self._discord()

    async def ping(self, session: TableSession, seat: int, direct: bool) -> int | None:
        await self._discord()
        return None

    async def unping(self, session: TableSession, message_id: int) -> None:
        await self._discord()

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        await self._discord()
        return True


def indices_for(game: Game, legal: Sequence[Action], action: Action) -> tuple[int, ...]:
    """The indices a Hand's clicks send to make ``action`` (its confirmation included)."""
    prefix: list[int] = []
    while isinstance(step := resolve(legal, prefix, game.confirmation), Step):
        if step.confirms is not None:
            return (*prefix, HERE)
        depth = len(step.chosen)
        ends = len(action.path) == depth
        prefix.append(
            next(
                choice.index
                for choice in step.choices
                if (choice.index == HERE) == ends and (ends or choice.step == action.path[depth])
            )
        )
    return tuple(prefix)


class Interleavings(RuleBasedStateMachine):
    """Lobby and table intents in one channel, overlapping at every await."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.loop = asyncio.new_event_loop()
        self.now = datetime(2026, 1, 1, tzinfo=UTC)
        self.settings = fast_settings(Path(self.folder.name), turn_seconds=10)
        self.storage: Storage = self.run(Storage.open(self.settings.database_url))
        for name in ("running", "results", "lobbies"):
            setattr(self.storage, name, Yielding(getattr(self.storage, name)))
        self.draws = SeededDraws("interleavings")
        self.service: TableService = self.run(self.new_service())
        self.intents: list[asyncio.Task[None]] = []
        self.errors: list[BaseException] = []

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(coro)

    async def new_service(self) -> TableService:
        service = TableService(
            self.settings,
            self.storage,
            FakePresenter(),
            clock=lambda: self.now,
            draws=self.draws,
            turn_pings=await TurnPings.load(self.storage.preferences),
        )
        await service.restore(lambda _guild: None)
        return service

    def launch(self, intent: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Start an intent as its own task; a refusal (UserError) is a fine outcome."""

        async def guarded() -> None:
            try:
                await intent()
            except UserError:
                pass
            except Exception as error:
                self.errors.append(error)

        self.intents.append(self.loop.create_task(guarded()))
        self.run(asyncio.sleep(0.001))  # it begins, as do those under way

    def lobby(self) -> Lobby | None:
        """The channel's open lobby."""
        return self.service.lobbies.in_channel(CHANNEL)

    def running(self) -> list[TableSession]:
        """The tables still playing."""
        return [s for s in self.service.tables.values() if not s.ended]

    # -- lobby intents -------------------------------------------------------------------------
    @rule(game=st.sampled_from(["twentytwo", "swazi"]), seated=st.booleans())
    def open_lobby(self, game: str, seated: bool) -> None:
        """The host opens a lobby (``seated``: and bob joins at once, so it may start)."""

        async def intent() -> None:
            lobby = await self.service.lobbies.open(GUILD, CHANNEL, HOST, PEOPLE[HOST], game, {})
            if seated:
                await self.service.lobbies.change(lobby, lambda: lobby.join(102, PEOPLE[102]))

        self.launch(intent)

    @rule(user=st.sampled_from(sorted(PEOPLE)), what=st.sampled_from(["join", "leave", "ai"]))
    def change_lobby(self, user: int, what: str) -> None:
        async def intent() -> None:
            lobby = self.lobby()
            if lobby is None:
                return
            changes = {
                "join": lambda: lobby.join(user, PEOPLE[user]),
                "leave": lambda: lobby.leave(user),
                "ai": lambda: lobby.add_ai(user, "normal"),
            }
            await self.service.lobbies.change(lobby, changes[what])

        self.launch(intent)

    @rule()
    def cancel(self) -> None:
        async def intent() -> None:
            lobby = self.lobby()
            if lobby is not None:
                self.service.lobbies.cancel(lobby, HOST)

        self.launch(intent)

    @rule(times=st.integers(1, 2))
    def start(self, times: int) -> None:
        async def intent() -> None:
            lobby = self.lobby()
            if lobby is None:
                return
            session = await self.service.start(lobby.lobby_id, HOST, self.discord_answer)
            self.service.show(session)

        for _ in range(times):
            self.launch(intent)

    async def discord_answer(self) -> None:
        await asyncio.sleep(0)

    # -- table intents -------------------------------------------------------------------------
    @rule(pick=st.integers(0, 1000))
    def move(self, pick: int) -> None:
        async def intent() -> None:
            for session in self.running():
                for seat in session.state.to_act():
                    user = session.seats[seat].user_id
                    if user is None or session.seats[seat].is_ai:
                        continue
                    actions = session.state.legal_actions(seat)
                    action = actions[pick % len(actions)]
                    path = indices_for(session.game, actions, action)
                    chosen = await session.choose(user, session.revision, path)
                    if isinstance(chosen.outcome, Change):
                        self.service.committed(session, chosen.outcome)
                    return

        self.launch(intent)

    @rule()
    def time_passes(self) -> None:
        """Every turn clock runs out: each table's driver wakes at once."""
        self.now += timedelta(seconds=self.settings.turn_seconds + 1)

        async def wake() -> None:
            for session in self.running():
                if not session.paused:
                    self.service.timers.schedule(session)

        self.run(wake())

    @rule(user=st.sampled_from(sorted(PEOPLE)), stop=st.booleans())
    def leave_or_stop(self, user: int, stop: bool) -> None:
        async def intent() -> None:
            if stop:
                await self.service.stop(CHANNEL, user, False, PEOPLE[user])
            else:
                await self.service.leave(CHANNEL, user)

        self.launch(intent)

    @rule()
    def restart(self) -> None:
        """The process stops (after what was under way) and a new one restores the games."""
        self.settle()
        self.run(self.service.close())
        self.service = self.run(self.new_service())

    # -- interleaving and checks -----------------------------------------------------------------
    @rule(steps=st.integers(1, 30))
    def interleave(self, steps: int) -> None:
        """Let the event loop run ``steps`` rounds: intents advance to their next await."""

        async def rounds() -> None:
            for _ in range(steps):
                await asyncio.sleep(0)

        self.run(rounds())

    def settle(self) -> None:
        """Let every launched intent finish, and what it started run."""

        async def all_done() -> None:
            await asyncio.gather(*self.intents)
            for _ in range(5):  # the displays and drivers they spawned
                await asyncio.sleep(0.002)

        self.run(all_done())
        self.intents.clear()

    @rule()
    def settled(self) -> None:
        """Everything settles, then: no lobby row beside a running game, every table live."""
        self.settle()
        lobbies, _ = self.run(self.storage.lobbies.load())
        if self.running():
            assert [lobby.lobby_id for lobby in lobbies] == []
        for session in self.running():
            assert self.service.supervisor.problem(session) is None, session.table_id

    @invariant()
    def one_game_per_channel_dealt_for_its_seats(self) -> None:
        assert not self.errors, self.errors
        running = self.running()
        assert len(running) <= 1, [s.table_id for s in running]
        for session in running:
            assert len(session.seats) == session.state.players

    def teardown(self) -> None:
        async def stop() -> None:
            await self.service.close()
            for task in self.intents:
                task.cancel()
            await asyncio.gather(*self.intents, return_exceptions=True)
            await self.storage.close()

        self.run(stop())
        self.loop.close()
        self.folder.cleanup()


Interleavings.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # shrinking a failing run of overlapping tasks takes minutes: the steps are printed as found
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
test_lobby_and_table_intents_interleaved = pytest.mark.slow(Interleavings.TestCase)
