"""Injected faults at every boundary of the tables: each call the service makes to storage
(every method of the stores' protocols), to Discord (every method of ``Presenter``) and to the
AI's worker pool, met by an exception (of several types, expected or not), a hang past its
timeout and a lost reply (the call's effect happens, the caller sees an error).

The call sites are read from the code: a protocol method that no scenario reaches and that is
not named in ``ELSEWHERE`` fails ``test_every_boundary_call_site_is_covered`` by name. Each
case runs the same story under the real ``TableService`` (real SQLite storage, a recording
presenter in Discord's place, a pool in the workers' place): a lobby that survives a restart
and whose host leaves the server; a game of three seats where one person leaves and the host
stops it; a game against a searching AI with a timeout, a pause and a restart, played to its
end. Then, with the faults off, a restart reads what was stored. It must hold that:

- every intent got a plain answer (done, or a private message such as "try again");
- every table is live after settling (the supervisor finds nothing to repair);
- every move a player was told was accepted is in the stored game after the restart;
- the finished game's result is stored once, the stopped game is stored as unfinished once,
  and both ends were shown in the channel.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from bot.errors import SaveFailed, StaleMove, UserError
from bot.preferences import TurnPings
from bot.settings import Settings
from bot.storage import (
    OpenLobbies,
    Preferences,
    Results,
    Reviews,
    RunningGames,
    Storage,
    StorageError,
)
from bot.storage.connection import Sql
from bot.storage.models import SavedGame
from bot.tables import backoff, thinking, timers
from bot.tables.backoff import DiscordUnavailable
from bot.tables.display import Presenter
from bot.tables.lobby import Lobby
from bot.tables.records import FINISHED, Change, EndKind, RoundEnd
from bot.tables.service import TableService
from bot.tables.session import TableSession
from bot.tables.supervisor import STUCK_SECONDS
from engine.core import Event
from tests.bot.conftest import fast_settings
from tests.bot.helpers import SeededDraws
from tests.bot.test_interleavings import indices_for
from tests.bot.test_storage_faults import Hook, connection_reset, hook

T = TypeVar("T")
GUILD, CHANNEL, OTHER_CHANNEL = 1, 10, 11
ANN, BOB = 101, 102
NAMES = {ANN: "ann", BOB: "bob"}
MOVE_SAVED = ContextVar("move_saved", default=0)  # the number of the person's move saved now
HANG_SECONDS = 0.02
"""How long an injected hang lasts before its timeout fires (real seconds: the tables' clock
is the test's own, so a hang costs no turn time)."""

STORES: dict[str, type] = {
    "running": RunningGames,
    "results": Results,
    "lobbies": OpenLobbies,
    "preferences": Preferences,
    "reviews": Reviews,
}
ELSEWHERE = {
    **dict.fromkeys(
        [
            "results.replay_record",
            "results.replayed",
            "results.current_season",
            "results.reset_season",
            "results.game_ids",
            "results.played",
            "results.season_places",
            "results.score_places",
            "results.player_totals",
            "results.history",
            "reviews.review",
            "reviews.keep",
            "preferences.deck_styles",
            "preferences.deck_style",
            "preferences.set_deck_style",
            "preferences.set_turn_ping",
            "preferences.set_server_turn_ping",
        ],
        "read or written by a command or button only, never by a running table: any error "
        "there becomes the clicker's private answer (bot.answers); tests/bot/test_boards.py, "
        "test_replays.py and test_deck_style.py answer refusals",
    ),
    **dict.fromkeys(
        [
            "preferences.languages",
            "preferences.language",
            "preferences.set_language",
            "preferences.server_languages",
            "preferences.set_server_language",
        ],
        "read once as the process starts (Languages.load) and by /language, written by "
        "/language and /cardroom language: a table only asks the choices held in memory, and a "
        "failed read or save is the clicker's private answer; tests/bot/test_languages.py",
    ),
    **dict.fromkeys(
        ["preferences.server_table_threads", "preferences.set_server_table_threads"],
        "read once as the process starts (TableThreads.load, beside TurnPings.load) and written "
        "by /cardroom settings: a table only asks the choice held in memory; "
        "tests/bot/test_threads.py keeps a table in its channel when threads are refused",
    ),
}
"""Boundary calls no table makes, and why they need no table scenario."""


def async_methods(protocol: type) -> list[str]:
    """The coroutine methods a protocol declares: the calls across that boundary."""
    return sorted(
        name
        for name, member in vars(protocol).items()
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    )


def storage_sites() -> list[str]:
    """Every storage call site, ``store.method``."""
    return [
        f"{store}.{name}" for store, protocol in STORES.items() for name in async_methods(protocol)
    ]


DISCORD_SITES = [f"presenter.{name}" for name in async_methods(Presenter)]
AI_SITES = ["pool.submit", "ai.move"]


# -- faults ------------------------------------------------------------------------------------
class Injected(Exception):
    """An error nobody expects (a bug, a driver's own type)."""


EXCEPTIONS: dict[str, Callable[[], BaseException]] = {
    "storage-error": lambda: StorageError("injected: the database refused"),
    "connection-reset": lambda: ConnectionResetError("injected: connection reset"),
    "runtime-error": lambda: RuntimeError("injected: a bug"),
    "unexpected": lambda: Injected("injected: an error of no known type"),
}
FAULTS = [*EXCEPTIONS, "hang", "lost-reply"]


@dataclass
class Faults:
    """Which call site fails, how, and at which of its calls (counted from 1)."""

    site: str = ""
    fault: str = ""
    at: frozenset[int] = frozenset({1, 3})
    calls: dict[str, int] = field(default_factory=dict)
    injected: int = 0
    on: bool = True

    def due(self, site: str) -> str | None:
        """Count a call of ``site``; the fault to inject in it, if any."""
        self.calls[site] = self.calls.get(site, 0) + 1
        if self.on and site == self.site and self.calls[site] in self.at:
            self.injected += 1
            return self.fault
        return None

    async def around(self, site: str, call: Callable[[], Awaitable[Any]]) -> Any:
        """Make ``call`` through the fault due at this call of ``site``."""
        fault = self.due(site)
        if fault is None:
            return await call()
        if fault == "hang":  # no answer; the caller's or the driver's timeout fires
            await asyncio.sleep(HANG_SECONDS)
            raise TimeoutError("injected: no answer in time")
        if fault == "lost-reply":
            await call()
            raise ConnectionResetError("injected: the reply was lost")
        raise EXCEPTIONS[fault]()


class FaultyStore:
    """A store whose every call passes through the faults."""

    def __init__(self, name: str, store: object, faults: Faults) -> None:
        self._name = name
        self._store = store
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._store, name)
        if not inspect.iscoroutinefunction(call):
            return call

        async def faulty(*args: Any, **kwargs: Any) -> Any:
            return await self._faults.around(f"{self._name}.{name}", lambda: call(*args, **kwargs))

        return faulty


@dataclass
class Shown:
    """What the recording presenter showed: (call, table or lobby id, text)."""

    calls: list[tuple[str, str, str]] = field(default_factory=list)

    def of(self, kind: str, key: str) -> list[str]:
        return [text for call, where, text in self.calls if call == kind and where == key]


class RecordingPresenter:
    """Discord's side: each call passes through the faults, then records what it showed."""

    def __init__(self, faults: Faults, shown: Shown) -> None:
        self.faults = faults
        self.shown = shown
        self.next_id = 1000

    def _posted(self) -> int:
        self.next_id += 1
        return self.next_id

    async def _call(self, name: str, key: str, text: str, result: T = None) -> T:  # type: ignore[assignment]
        async def effect() -> T:
            await asyncio.sleep(0)
            self.shown.calls.append((name, key, text))
            return result

        try:
            shown: T = await self.faults.around(f"presenter.{name}", effect)
        except (OSError, TimeoutError) as error:  # as DiscordPresenter's reaching_discord has it
            raise DiscordUnavailable(str(error)) from error
        return shown

    async def lobby_closed(self, lobby: Lobby, reason: Event) -> None:
        await self._call("lobby_closed", lobby.lobby_id, reason.text)

    async def show_lobby(self, lobby: Lobby) -> bool:
        return bool(await self._call("show_lobby", lobby.lobby_id, "", True))

    async def table_changed(self, session: TableSession) -> int | None:
        posted = self._posted() if session.table_message_id is None else None
        return await self._call("table_changed", session.table_id, str(session.revision), posted)

    async def hand_changed(self, session: TableSession, seat: int) -> tuple[int | None] | None:
        fresh = session.seats[seat].dm_message_id is None
        posted = (self._posted(),) if fresh else None
        return await self._call("hand_changed", session.table_id, str(seat), posted)

    async def hand_closed(self, session: TableSession, seat: int) -> None:
        await self._call("hand_closed", session.table_id, str(seat))

    async def notice(self, session: TableSession, notice: Event) -> None:
        await self._call("notice", session.table_id, notice.text)

    async def round_ended(self, session: TableSession, ended: RoundEnd) -> None:
        await self._call("round_ended", session.table_id, ended.scores.text)

    async def table_paused(self, session: TableSession) -> None:
        await self._call("table_paused", session.table_id, "paused")

    async def post_ending(self, session: TableSession) -> int | None:
        assert session.ending is not None
        return await self._call(
            "post_ending", session.table_id, session.ending.kind.value, self._posted()
        )

    async def table_ended(self, session: TableSession, results_id: int | None) -> None:
        await self._call("table_ended", session.table_id, str(results_id))

    async def restore_failed(self, broken: object) -> None:
        await self._call("restore_failed", getattr(broken, "table_id", ""), "damaged")

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return bool(await self._call("is_member", str(user_id), "", True))

    async def ping(self, session: TableSession, seat: int, direct: bool) -> int | None:
        return await self._call("ping", session.table_id, str(seat), self._posted())

    async def unping(self, session: TableSession, message_id: int) -> None:
        await self._call("unping", session.table_id, str(message_id))


class FaultyPool:
    """The AI's worker pool: each search runs at once in this process, through the faults
    (a hang: the search never answers; a lost reply: it ran, its answer went missing)."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        job: Future[Any] = Future()
        fault = self.faults.due("pool.submit")
        if fault in EXCEPTIONS:
            raise EXCEPTIONS[fault]()
        if fault == "hang":
            return job  # never done: the search's timeout fires
        result = function(*args)
        if fault == "lost-reply":
            job.set_exception(BrokenProcessPool("injected: a worker died with its answer"))
        else:
            job.set_result(result)
        return job

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing runs in the background."""


# -- the story ---------------------------------------------------------------------------------
@dataclass
class Told:
    """What the players were told: each intent's answer, and the moves accepted."""

    answers: list[tuple[str, str]] = field(default_factory=list)
    unexpected: list[tuple[str, BaseException]] = field(default_factory=list)
    accepted: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    restarts: list[BaseException] = field(default_factory=list)  # failed process starts


class Story:
    """The service under faults, driven through the story's intents."""

    def __init__(self, tmp_path: Path, faults: Faults, **settings: Any) -> None:
        self.faults = faults
        self.shown = Shown()
        self.told = Told()
        self.now = datetime(2026, 1, 1, tzinfo=UTC)
        self.settings: Settings = fast_settings(
            tmp_path, turn_seconds=60, ai_processes=1, supervisor_seconds=0, **settings
        )
        self.draws = SeededDraws("boundaries")
        self.storage: Storage
        self.service: TableService
        self.reached: set[str] = set()  # the call sites the story called

    async def open(self) -> None:
        self.storage = await Storage.open(
            self.settings.database_url, limits=self.settings.database_limits
        )
        for name in STORES:
            real = getattr(self.storage, name)
            setattr(self.storage, name, FaultyStore(name, real, self.faults))
        await self.start_service()

    async def start_service(self) -> None:
        """A process starts: the preferences are read and the games restored. A start that
        fails is a process that exits: the next one starts from what is stored."""
        for _ in range(5):
            presenter = RecordingPresenter(self.faults, self.shown)
            try:
                pings = await TurnPings.load(self.storage.preferences)
            except Exception as error:
                self.told.restarts.append(error)
                continue
            self.service = TableService(
                self.settings,
                self.storage,
                presenter,
                clock=lambda: self.now,
                draws=self.draws,
                turn_pings=pings,
            )
            self.service.ai._pool = FaultyPool(self.faults)  # type: ignore[assignment]
            self.service.ai.move = self.faulty_ai(self.service.ai.move)  # type: ignore[method-assign]
            try:
                await self.service.restore(lambda _guild: None)
            except Exception as error:
                self.told.restarts.append(error)
                await self.service.close()
                continue
            return
        raise AssertionError("the process never started")

    def faulty_ai(self, move: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """The AI's move through the faults (a hang: an answer that never comes, which the
        supervisor finds)."""

        def ai_move(*args: Any) -> Awaitable[Any]:
            fault = self.faults.due("ai.move")
            if fault == "hang":
                return asyncio.get_running_loop().create_future()
            if fault is not None:
                raise RuntimeError("injected: the AI failed")
            return move(*args)

        return ai_move

    async def restart(self) -> None:
        """The process stops (after what is under way) and a new one restores the games."""
        await self.settle()
        await self.service.close()
        await self.start_service()

    async def until_done(self, intent: str, call: Callable[[], Awaitable[Any]]) -> Any:
        """A person's intent, tried again while they are told to try again (each answer is
        noted; anything but a plain answer is an unexpected error)."""
        for _ in range(20):
            try:
                done = await call()
            except SaveFailed as refused:
                self.told.answers.append((intent, refused.message))
                continue
            except UserError as refused:
                self.told.answers.append((intent, refused.message))
                raise
            except Exception as error:
                self.told.unexpected.append((intent, error))
                continue
            self.told.answers.append((intent, "done"))
            return done
        raise AssertionError(f"{intent}: never done")

    async def settle(self) -> None:
        """Let the background work (displays, drivers, hangs) run its course."""
        for _ in range(10):
            await asyncio.sleep(HANG_SECONDS)

    # -- intents ---------------------------------------------------------------------------
    async def open_lobby(self, game_id: str, options: dict[str, object]) -> Lobby:
        lobbies = self.service.lobbies
        return await self.until_done(  # type: ignore[no-any-return]
            "open", lambda: lobbies.open(GUILD, CHANNEL, ANN, NAMES[ANN], game_id, options)
        )

    async def change_lobby(self, intent: str, lobby: Lobby, change: Callable[[], Any]) -> None:
        await self.until_done(intent, lambda: self.service.lobbies.change(lobby, change))

    async def start(self, lobby: Lobby) -> TableSession:
        async def acknowledge() -> None:
            await asyncio.sleep(0)

        session: TableSession = await self.until_done(
            "start", lambda: self.service.start(lobby.lobby_id, ANN, acknowledge)
        )
        self.service.show(session)
        return session

    async def move(self, session: TableSession, user_id: int) -> None:
        """The person makes their first legal move (asked again after a refusal)."""

        async def choose() -> None:
            seat = session.seat_for(user_id)
            actions = session.state.legal_actions(seat)
            path = indices_for(session.game, actions, actions[0])
            try:
                _, chosen = await self.service.choose(
                    session.table_id, user_id, session.revision, path
                )
            except StaleMove:
                return  # the AI or a timeout moved first: look again
            if isinstance(chosen.outcome, Change):
                self.told.accepted[session.table_id] = list(session.actions)

        await self.until_done("move", choose)

    def time_runs_out(self, session: TableSession) -> None:
        """The turn clocks run out: the table's driver wakes at once."""
        self.now += timedelta(seconds=self.settings.turn_seconds + 1)
        self.service.timers.schedule(session)

    async def play(self, session: TableSession, moves: int | None) -> None:
        """Ann and Bob move when it is their turn, the AI between, until ``moves`` of theirs
        are made (None: until the game ends)."""
        made = 0
        for _ in range(2000):
            if session.ended or (moves is not None and made >= moves):
                return
            waiting = [seat for seat in session.state.waiting_for() if session.seats[seat].is_human]
            if waiting and not session.paused:
                user_id = session.seats[waiting[0]].user_id
                assert user_id is not None
                await self.move(session, user_id)
                made += 1
            else:
                await self.wait_for_the_table(session)
        raise AssertionError(f"table {session.table_id} stood still: {self.faults}")

    async def wait_for_the_table(self, session: TableSession) -> None:
        """Let the AI (or a retry) move; a table that stands still for long is what the
        supervisor is for: its time passes and it checks twice."""
        revision = session.revision
        for _ in range(100):
            await asyncio.sleep(0.001)
            if session.revision != revision or session.ended:
                return
        self.now += timedelta(seconds=STUCK_SECONDS + 1)
        self.service.supervisor.check()
        self.service.supervisor.check()

    def table(self, table_id: str) -> TableSession:
        """The session of a table in the current process."""
        return self.service.tables[table_id]

    async def story(self) -> tuple[str, str]:
        """The whole story; returns the ids of the stopped and the finished table."""
        # a lobby that survives a restart; Bob leaves the server, then its host does
        lobby = await self.open_lobby("twentytwo", {})
        await self.change_lobby("join", lobby, lambda: lobby.join(BOB, NAMES[BOB]))
        await self.plant_a_damaged_game()
        await self.restart()
        self.service.member_left(GUILD, BOB)
        await self.settle()
        self.service.member_left(GUILD, ANN)
        await self.settle()
        # three seats; Bob leaves the game, the host stops it
        lobby = await self.open_lobby("twentytwo", {})
        await self.change_lobby("join", lobby, lambda: lobby.join(BOB, NAMES[BOB]))
        await self.change_lobby("add AI", lobby, lambda: lobby.add_ai(ANN, "normal"))
        stopped = await self.start(lobby)
        await self.play(stopped, 3)
        await self.until_done("leave", lambda: self.service.leave(CHANNEL, BOB))
        await self.play(stopped, 2)
        await self.until_done("stop", lambda: self.service.stop(CHANNEL, ANN, True, "ann"))
        await self.settle()
        # against a searching AI: a timeout, a pause, a restart, to the end
        lobby = await self.open_lobby("fishing", {"target": 11})
        await self.change_lobby("add AI", lobby, lambda: lobby.add_ai(ANN, "hard"))
        finished = await self.start(lobby)
        await self.play(finished, 2)
        while ANN not in self.waiting_people(finished):
            await asyncio.sleep(0.001)
        self.time_runs_out(finished)
        await self.settle()
        self.service.pause(finished)
        await self.settle()
        self.service.resume(finished)
        await self.play(finished, 2)
        table_id = finished.table_id
        await self.restart()
        await self.play(self.table(table_id), None)
        await self.settle()
        return stopped.table_id, table_id

    def waiting_people(self, session: TableSession) -> list[int | None]:
        return [
            session.seats[seat].user_id
            for seat in session.state.waiting_for()
            if session.seats[seat].is_human
        ]

    async def plant_a_damaged_game(self) -> None:
        """A running game in another channel that cannot be read back (set aside at the
        restart, its channel told)."""
        async with self.storage._database.transaction() as sql:
            await sql.execute(
                "INSERT INTO running_games (table_id, guild_id, channel_id, host_id, game_id,"
                " options, seed, seats, state, revision, actions, table_message_id, deadline,"
                " started_at, saved_at, table_log) VALUES ('damaged', :guild, :channel, 1,"
                " 'fishing', '{}', 1, '[]', 'not json', 0, '[]', NULL, NULL, '2026', '2026',"
                " NULL)",
                {"guild": GUILD, "channel": OTHER_CHANNEL},
            )

    async def close(self) -> None:
        await self.service.close()
        await self.storage.close()

    # -- what was stored -------------------------------------------------------------------
    async def stored_actions(self, table: str, table_id: str) -> list[list[Any]]:
        async with self.storage._database.session() as sql:
            rows = await sql.fetchall(
                f"SELECT actions FROM {table} WHERE table_id = :id", {"id": table_id}
            )
        return [json.loads(row[0]) for row in rows]


def boundary_cases() -> Iterator[Any]:
    """(site, fault) for every boundary call site a table reaches and every fault."""
    sites = [s for s in storage_sites() if s not in ELSEWHERE] + DISCORD_SITES + AI_SITES
    for site in sites:
        for fault in FAULTS:
            yield pytest.param(site, fault, id=f"{site}-{fault}")


async def run_story(
    tmp_path: Path, faults: Faults, before: Callable[[Story], None] | None = None, **settings: Any
) -> Story:
    """The story under ``faults`` (``before``: what to do to the story's storage first),
    checked."""
    story = Story(tmp_path, faults, **settings)
    await story.open()
    if before is not None:
        before(story)
    try:
        stopped, finished = await story.story()
        story.reached = set(faults.calls)
        await check(story, stopped, finished)
    finally:
        await story.close()
    return story


async def check(story: Story, stopped: str, finished: str) -> None:
    """The invariant and what the players were told, then what a restart finds stored."""
    assert not story.told.unexpected, story.told.unexpected
    for session in story.service.tables.values():
        if not session.ended:
            assert story.service.supervisor.problem(session) is None, session.table_id
    ended = story.service.tables.get(finished)
    assert ended is None or ended.ending == FINISHED
    # shown at least once (a post whose reply was lost is posted again)
    assert set(story.shown.of("post_ending", stopped)) == {EndKind.STOPPED.value}
    assert set(story.shown.of("post_ending", finished)) == {EndKind.FINISHED.value}
    story.faults.on = False
    await story.restart()
    assert finished not in story.service.tables and stopped not in story.service.tables
    (record,) = await story.stored_actions("unfinished_games", stopped)
    assert await story.stored_actions("running_games", stopped) == []
    accepted = story.told.accepted[stopped]
    assert [tuple(each) for each in record[: len(accepted)]] == accepted
    replay = await story.storage.results.replay_record(finished)
    assert replay is not None, "the result was recorded"
    history = await story.storage.results.history(GUILD)
    assert [game.table_id for game in history].count(finished) == 1
    accepted = story.told.accepted[finished]
    assert [tuple(each) for each in replay["actions"][: len(accepted)]] == accepted


async def test_every_boundary_call_site_is_reached_or_named_elsewhere(tmp_path: Path) -> None:
    """The story without faults calls every boundary call site of a table; a site added to a
    protocol is either reached by it or named in ELSEWHERE with its reason (this fails naming
    it otherwise)."""
    reached = (await run_story(tmp_path, Faults(on=False))).reached
    table_sites = {s for s in storage_sites() if s not in ELSEWHERE}
    table_sites |= {*DISCORD_SITES, *AI_SITES}
    assert sorted(table_sites - reached) == [], "never reached by the story"
    assert sorted(reached & set(ELSEWHERE)) == [], "a table calls these: out of ELSEWHERE"
    assert set(ELSEWHERE) <= set(storage_sites()), "named but no longer a call site"


async def inject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: str, fault: str) -> None:
    """The story with ``fault`` at ``site`` (its first and third calls), with every timeout
    and retry short."""
    monkeypatch.setattr(timers, "MEMBER_CHECK_SECONDS", HANG_SECONDS)
    monkeypatch.setattr(thinking, "SEARCH_TIMEOUT_SECONDS", HANG_SECONDS)
    monkeypatch.setattr(backoff, "RETRY_FIRST_SECONDS", 0.002)
    faults = Faults(site, fault)
    await run_story(tmp_path, faults)
    assert faults.injected, f"{site} was never called"


@pytest.mark.slow
@pytest.mark.parametrize(("site", "fault"), list(boundary_cases()))
async def test_a_fault_at_a_boundary_loses_nothing_and_freezes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: str, fault: str
) -> None:
    await inject(tmp_path, monkeypatch, site, fault)


@pytest.mark.parametrize(
    ("site", "fault"),
    [
        ("running.id_taken", "runtime-error"),
        ("lobbies.save", "lost-reply"),
        ("presenter.post_ending", "connection-reset"),
        ("presenter.post_ending", "runtime-error"),
        ("running.save", "lost-reply"),
        ("results.finish", "lost-reply"),
        ("running.end_unfinished", "lost-reply"),
    ],
)
async def test_a_fault_the_injector_found_is_handled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: str, fault: str
) -> None:
    """The cases the matrix above failed on before their fixes, in the fast suite."""
    await inject(tmp_path, monkeypatch, site, fault)


class ReplyHeld:
    """Running games whose next save commits, then holds its reply until ``answer`` is set."""

    def __init__(self, running: Any) -> None:
        self._running = running
        self.committed = asyncio.Event()
        self.answer = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._running, name)

    async def save(self, *args: Any) -> None:
        await self._running.save(*args)
        if not self.committed.is_set():
            self.committed.set()
            await self.answer.wait()


async def test_a_move_cancelled_after_its_commit_stands_and_the_next_one_saves(
    tmp_path: Path,
) -> None:
    """A table's driver is replaced (a new plan, a pause) while its timeout move's save has
    committed but not yet answered: the save runs to its end, so the session knows the
    revision stored, and the next move saves (it is not taken for another process's game)."""
    story = Story(tmp_path, Faults(on=False))
    await story.open()
    try:
        lobby = await story.open_lobby("fishing", {"target": 11})
        await story.change_lobby("add AI", lobby, lambda: lobby.add_ai(ANN, "normal"))
        session = await story.start(lobby)
        while ANN not in story.waiting_people(session):
            await asyncio.sleep(0.001)
        story.service.timers.cancel(session)
        held = ReplyHeld(story.storage.running)
        story.storage.running = held
        (seat,) = session.state.waiting_for()
        timing_out = asyncio.ensure_future(session.time_out(seat, session.revision))
        async with asyncio.timeout(10):  # no save at all: the table stopped before
            await held.committed.wait()
        timing_out.cancel()
        await asyncio.sleep(0.01)
        held.answer.set()
        with pytest.raises(asyncio.CancelledError):
            await timing_out
        assert session.stored_revision == session.revision
        story.service.timers.schedule(session)
        await story.play(session, 2)
        assert not session.ended
    finally:
        await story.close()


# -- PostgreSQL: a peer killed just after a COMMIT, a peer holding a lock ------------------
class MovesCounted:
    """Running games whose saves of a person's move are counted (``MOVE_SAVED`` says which
    is being saved, to a hook below it)."""

    def __init__(self, running: Any) -> None:
        self._running = running
        self.moves = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._running, name)

    async def save(self, game: SavedGame, expected: int | None = None, *args: Any) -> None:
        seat = game.actions[-1][0] if len(game.actions) else None
        if expected == game.revision - 1 and seat is not None and not game.seats[seat].is_ai:
            self.moves += 1
            counted = MOVE_SAVED.set(self.moves)
            try:
                return await self._running.save(game, expected, *args)  # type: ignore[no-any-return]
            finally:
                MOVE_SAVED.reset(counted)
        return await self._running.save(game, expected, *args)  # type: ignore[no-any-return]


def killed_after_commit(url: str, nth: int, killed: list[str]) -> Hook:
    """After the save of the ``nth`` move a person makes has committed, its server session
    is ended from another connection (``pg_terminate_backend``): the save's reply is lost."""
    reset = connection_reset(url)

    async def hook_(sql: Sql, statement: str) -> None:
        if MOVE_SAVED.get() == nth and "UPDATE running_games" in statement:
            killed.append(statement)
            await reset(sql, statement)

    return hook_


@pytest.mark.parametrize("nth", [2, 30])
async def test_postgresql_a_save_whose_session_is_killed_after_its_commit_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, postgres_url: str, nth: int
) -> None:
    """The whole story on PostgreSQL, the server session of one save (in the stopped game,
    or the finished one) ended just after its COMMIT: the save is settled by the stored
    revision, so the move stands, no one is told to try again, and nothing is lost."""
    killed: list[str] = []

    def kill(story: Story) -> None:
        story.storage.running = MovesCounted(story.storage.running)
        hook(monkeypatch, story.storage, "session", killed_after_commit(postgres_url, nth, killed))

    story = await run_story(tmp_path, Faults(on=False), kill, database_url=postgres_url)
    assert len(killed) == 1, "the session was killed"
    assert ("move", SaveFailed().message) not in story.told.answers, "the move stood at once"


async def test_postgresql_a_move_behind_a_peers_lock_is_refused_in_time_then_made(
    tmp_path: Path, postgres_url: str
) -> None:
    """Another connection holds the game's row in an open transaction: Ann's move gives up
    after the lock timeout and she is told to try again; the table stays live; once the
    lock goes her move is made, and it is stored."""
    story = Story(
        tmp_path, Faults(on=False), database_url=postgres_url, database_lock_timeout_seconds=0.2
    )
    await story.open()
    peer = await asyncpg.connect(postgres_url)
    try:
        lobby = await story.open_lobby("fishing", {"target": 11})
        await story.change_lobby("add AI", lobby, lambda: lobby.add_ai(ANN, "normal"))
        session = await story.start(lobby)
        await story.play(session, 2)
        while ANN not in story.waiting_people(session):
            await asyncio.sleep(0.001)
        holding = peer.transaction()
        await holding.start()
        await peer.execute(
            "SELECT 1 FROM running_games WHERE table_id = $1 FOR UPDATE", session.table_id
        )
        revision = session.revision
        (seat,) = session.state.waiting_for()
        actions = session.state.legal_actions(seat)
        path = indices_for(session.game, actions, actions[0])
        with pytest.raises(SaveFailed):
            await story.service.choose(session.table_id, ANN, revision, path)
        assert session.revision == revision
        assert story.service.supervisor.problem(session) is None, "the table is live"
        await holding.rollback()
        await story.play(session, 3)
        accepted = list(session.actions)
        table_id = session.table_id
        await story.restart()
        assert list(story.table(table_id).actions)[: len(accepted)] == accepted
    finally:
        await peer.close()
        await story.close()
