"""Storage under injected faults, on real SQLite files and the throwaway PostgreSQL server: a
save racing the end of a game, a peer holding a lock, a frozen finish, a reply lost after the
COMMIT, a failed COMMIT. Each fault is injected where it happens: between two statements of a
transaction, in another connection, or by dropping the connection after its statement."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import simcord
from pydantic import ValidationError

from bot.app import CardroomBot
from bot.storage import LoadedGame, RevisionConflictError, Storage, StorageError
from bot.storage.connection import NO_PARAMETERS, Parameters, Row, Sql
from bot.storage.postgresql import PostgresSql, SessionLimits
from bot.storage.sqlite import SqliteDatabase
from bot.tables.hand_view import hand_message
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    click_through,
    open_hand,
    open_table,
    text_of,
)
from tests.bot.records import GUILD, finished
from tests.bot.test_storage import count_in, saved

Hook = Callable[[Sql, str], Awaitable[None]]
QUICK = SessionLimits(statement=5, lock=0.3, idle_in_transaction=5, reply=1)
"""Short limits, so that a fault shows within a test (each still far above a healthy save)."""


class HookedSql:
    """A store's connection with a hook run after (or before) each of its statements: the
    place a fault (another writer, a frozen process, a dropped connection) is injected."""

    def __init__(self, sql: Sql, hook: Hook, before: bool) -> None:
        self._sql = sql
        self._hook = hook
        self._before = before

    async def _run(self, sql: str, statement: Callable[[], Awaitable[Any]]) -> Any:
        if self._before:
            await self._hook(self._sql, sql)
        result = await statement()
        if not self._before:
            await self._hook(self._sql, sql)
        return result

    async def execute(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> None:
        await self._run(sql, lambda: self._sql.execute(sql, parameters))

    async def fetchall(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Sequence[Row]:
        rows: Sequence[Row] = await self._run(sql, lambda: self._sql.fetchall(sql, parameters))
        return rows

    async def fetchone(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Row | None:
        return await self._run(sql, lambda: self._sql.fetchone(sql, parameters))

    async def run_script(self, script: str) -> None:
        await self._sql.run_script(script)


def hook(
    monkeypatch: pytest.MonkeyPatch,
    storage: Storage,
    kind: str,
    run: Hook,
    *,
    before: bool = False,
) -> None:
    """Run ``run`` after (or before) each statement of the storage's ``kind`` blocks
    (``session`` or ``transaction``) from now on."""
    database = storage._database
    original: Callable[[], AbstractAsyncContextManager[Sql]] = getattr(database, kind)

    @asynccontextmanager
    async def hooked() -> AsyncIterator[Sql]:
        async with original() as sql:
            yield HookedSql(sql, run, before)

    monkeypatch.setattr(database, kind, hooked)


async def execute_in(url: str, sql: str, *parameters: object) -> None:
    """Run a statement from outside the Storage under test, in either dialect."""
    if not url.startswith("postgresql://"):
        with sqlite3.connect(url) as lite:
            lite.execute(sql, parameters)
        return
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(sql, *parameters)
    finally:
        await connection.close()


# -- ending a game without a result ---------------------------------------------------------
async def test_a_save_racing_the_end_of_a_game_never_leaves_it_running_and_unfinished(
    monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    """Another writer's save lands after each statement of the end (on PostgreSQL from
    another pooled connection; SQLite's writers take turns): the game ends up running or
    unfinished, never both, and the owner's stop that lost the race works when it is
    made again."""
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, table_id="t1"))
    racing: list[asyncio.Task[None]] = []

    async def another_writer_saves(_: Sql, __: str) -> None:
        if not racing:
            racing.append(asyncio.create_task(storage.running.save(saved(state, revision=1), 0)))
            await asyncio.wait(racing, timeout=0.5)  # it may have to wait for the end's lock

    try:
        hook(monkeypatch, storage, "transaction", another_writer_saves)
        try:
            await storage.running.end_unfinished("t1", "stopped by the host", expected=0)
            ended = True
        except RevisionConflictError:
            ended = False
        monkeypatch.undo()
        (race,) = racing
        try:
            await race
            saved_again = True
        except RevisionConflictError:
            saved_again = False
        running = await count_in(database_url, "SELECT COUNT(*) FROM running_games")
        unfinished = await count_in(database_url, "SELECT COUNT(*) FROM unfinished_games")
        assert (running, unfinished) == ((0, 1) if ended else (1, 0))
        assert ended != saved_again, "exactly one of the two writers won"
        if not ended:  # the owner stops it again, at the revision now stored
            await storage.running.end_unfinished("t1", "stopped by the host", expected=1)
        assert await storage.running.load() == []
        assert await count_in(database_url, "SELECT COUNT(*) FROM unfinished_games") == 1
    finally:
        await storage.close()


async def test_a_game_left_running_and_unfinished_by_older_code_can_be_stopped(
    database_url: str,
) -> None:
    """Migration 011 drops the stale copy that the racing end of older code left beside the
    running game, so that the owner's next stop is not refused by its primary key."""
    storage = await Storage.open(database_url, up_to=10)
    await storage.running.save(saved(games()["fishing"].new_state(2, 7), table_id="t1"))
    await storage.close()
    await execute_in(
        database_url,
        "INSERT INTO unfinished_games (table_id, guild_id, channel_id, game_id, options, seed,"
        " seats, actions, started_at, ended_at, reason)"
        " VALUES ('t1', 1, 10, 'fishing', '{}', 7, '[]', '[]', '2026', '2026', 'raced')",
    )
    storage = await Storage.open(database_url)
    try:
        await storage.running.end_unfinished("t1", "stopped by the host", expected=0)
        assert await storage.running.load() == []
    finally:
        await storage.close()
    assert (
        await count_in(
            database_url,
            "SELECT COUNT(*) FROM unfinished_games WHERE reason = 'stopped by the host'",
        )
        == 1
    )


# -- time limits and locks (PostgreSQL) ------------------------------------------------------
async def test_a_save_behind_a_peers_lock_fails_in_time_and_changes_nothing(
    postgres_url: str,
) -> None:
    """Another connection holds the game's row in an open transaction: the save gives up
    after the lock timeout with the storage's error (the player's "try again") instead of
    waiting for ever; the stored game is as it was, and the save works once the lock goes."""
    storage = await Storage.open(postgres_url, limits=QUICK)
    state = games()["fishing"].new_state(2, 7)
    peer = await asyncpg.connect(postgres_url)
    try:
        await storage.running.save(saved(state, table_id="t1"))
        holding = peer.transaction()
        await holding.start()
        await peer.execute("SELECT * FROM running_games WHERE table_id = 't1' FOR UPDATE")
        with pytest.raises(StorageError, match="LockNotAvailable") as refused:
            await storage.running.save(saved(state, revision=1), 0)
        assert isinstance(refused.value.__cause__, asyncpg.LockNotAvailableError)
        await holding.rollback()
        (stored,) = await storage.running.load()
        assert isinstance(stored, LoadedGame) and stored.saved.revision == 0
        await storage.running.save(saved(state, revision=1), 0)
    finally:
        await peer.close()
        await storage.close()


async def test_every_pooled_session_has_the_time_limits(postgres_url: str) -> None:
    storage = await Storage.open(postgres_url, limits=QUICK)
    try:
        async with storage._database.session() as sql:
            row = await sql.fetchone(
                "SELECT current_setting('statement_timeout'), current_setting('lock_timeout'),"
                " current_setting('idle_in_transaction_session_timeout')"
            )
        assert row is not None and tuple(row) == ("5s", "300ms", "5s")
    finally:
        await storage.close()


def test_the_time_limits_are_settings_with_defaults(tmp_path: Path) -> None:
    assert fast_settings(tmp_path).database_limits == SessionLimits()
    chosen = fast_settings(
        tmp_path,
        database_statement_timeout_seconds=20,
        database_lock_timeout_seconds=0.5,
        database_idle_transaction_seconds=60,
        database_reply_timeout_seconds=25,
    )
    assert chosen.database_limits == SessionLimits(20, 0.5, 60, 25)
    with pytest.raises(ValidationError, match="database_lock_timeout_seconds"):
        fast_settings(tmp_path, database_lock_timeout_seconds=0)


@pytest.mark.slow
async def test_a_server_that_stops_answering_fails_the_save_after_the_reply_timeout(
    postgres_url: str,
) -> None:
    """The server's process for the pool's connection is frozen (a hung link: nothing drops,
    nothing answers): the save fails after the reply timeout instead of hanging."""
    storage = await Storage.open(postgres_url, pool_size=1, limits=QUICK)
    state = games()["fishing"].new_state(2, 7)
    try:
        await storage.running.save(saved(state, table_id="t1"))
        async with storage._database.session() as sql:
            row = await sql.fetchone("SELECT pg_backend_pid()")
        assert row is not None
        backend = row[0]
        os.kill(backend, signal.SIGSTOP)
        try:
            with pytest.raises(StorageError):
                await storage.running.save(saved(state, revision=1), 0)
        finally:
            os.kill(backend, signal.SIGCONT)
    finally:
        await storage.close()


async def test_a_frozen_finish_on_one_server_holds_up_no_other_servers_finish(
    monkeypatch: pytest.MonkeyPatch, postgres_url: str
) -> None:
    """One process freezes in the middle of finishing a game (its transaction open, after the
    finish's INSERT): another process finishes a game of another server at once, and one of
    the same server and game waits for its turn (here, past the lock timeout: the storage's
    error, nothing written)."""
    frozen, other = await Storage.open(postgres_url), await Storage.open(postgres_url, limits=QUICK)
    inside, thaw = asyncio.Event(), asyncio.Event()

    async def freeze(_: Sql, statement: str) -> None:
        if "finish_game" in statement:
            inside.set()
            await thaw.wait()

    try:
        hook(monkeypatch, frozen, "transaction", freeze)
        finishing = asyncio.create_task(frozen.results.finish(finished("a", {1: 1, 2: 2})))
        await inside.wait()
        await other.results.finish(finished("b", {1: 1, 2: 2}, guild_id=2 << 22))
        with pytest.raises(StorageError, match="LockNotAvailable"):
            await other.results.finish(finished("c", {1: 1, 2: 2}))
        thaw.set()
        await finishing
        finished_ids = "SELECT string_agg(table_id, ',' ORDER BY table_id) FROM finished_games"
        assert await count_in(postgres_url, "SELECT COUNT(*) FROM finished_games") == 2
        connection = await asyncpg.connect(postgres_url)
        try:
            assert await connection.fetchval(finished_ids) == "a,b"
        finally:
            await connection.close()
    finally:
        thaw.set()
        await frozen.close()
        await other.close()


# -- a reply lost after the COMMIT -----------------------------------------------------------
def connection_reset(url: str) -> Hook:
    """A connection reset after (or before) the next statement, once: on PostgreSQL the
    server's process for the connection is ended from another connection and the store gets
    asyncpg's error; on SQLite the driver's error."""
    done: list[bool] = []

    async def reset(sql: Sql, _: str) -> None:
        if done:
            return
        done.append(True)
        if isinstance(sql, PostgresSql):
            await execute_in(
                url, "SELECT pg_terminate_backend($1)", sql.connection.get_server_pid()
            )
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of it")
        raise sqlite3.OperationalError("disk I/O error")

    return reset


def reset_after_commit(monkeypatch: pytest.MonkeyPatch, storage: Storage, url: str) -> None:
    """The connection of the next transaction resets right after its COMMIT, once."""
    database = storage._database
    original: Callable[[], AbstractAsyncContextManager[Sql]] = database.transaction
    reset = connection_reset(url)

    @asynccontextmanager
    async def hooked() -> AsyncIterator[Sql]:
        async with original() as sql:
            yield sql
        await reset(sql, "COMMIT")

    monkeypatch.setattr(database, "transaction", hooked)


@pytest.mark.parametrize("when", ["after", "before"])
async def test_a_save_whose_reply_is_lost_is_settled_by_the_stored_revision(
    monkeypatch: pytest.MonkeyPatch, database_url: str, when: str
) -> None:
    """The connection resets after the save's statement committed (its reply lost): the save
    counts as done, and the next save, at the revision it wrote, is no conflict. Reset before
    the statement, the save fails (nothing stored) and the next one is made at the old
    revision."""
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    try:
        await storage.running.save(saved(state, table_id="t1", actions=[(0, "a")]))
        reset = connection_reset(database_url)
        hook(monkeypatch, storage, "session", reset, before=when == "before")
        if when == "after":
            await storage.running.save(saved(state, revision=1, actions=[(0, "a"), (1, "b")]), 0)
        else:
            with pytest.raises((StorageError, sqlite3.Error)):
                await storage.running.save(
                    saved(state, revision=1, actions=[(0, "a"), (1, "b")]), 0
                )
        monkeypatch.undo()
        written = 1 if when == "after" else 0
        (stored,) = await storage.running.load()
        assert isinstance(stored, LoadedGame) and stored.saved.revision == written
        moves = [(0, "a"), (1, "b"), (0, "c")][: written + 2]
        await storage.running.save(saved(state, revision=written + 1, actions=moves), written)
        (stored,) = await storage.running.load()
        assert isinstance(stored, LoadedGame) and list(stored.saved.actions) == moves
    finally:
        await storage.close()


async def test_a_finish_or_end_whose_reply_is_lost_counts_as_done(
    monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    try:
        for table_id in ("t1", "t2"):
            await storage.running.save(saved(state, table_id=table_id))
        reset_after_commit(monkeypatch, storage, database_url)
        await storage.results.finish(finished("t1", {1: 1, 2: 2}), 0)
        monkeypatch.undo()
        reset_after_commit(monkeypatch, storage, database_url)
        await storage.running.end_unfinished("t2", "stopped by the host", 0)
        monkeypatch.undo()
        assert await storage.running.load() == []
        assert [game.table_id for game in await storage.results.history(GUILD)] == ["t1"]
    finally:
        await storage.close()
    assert await count_in(database_url, "SELECT COUNT(*) FROM finished_games") == 1
    assert await count_in(database_url, "SELECT COUNT(*) FROM unfinished_games") == 1


async def test_a_move_whose_reply_is_lost_after_its_commit_stands(
    monkeypatch: pytest.MonkeyPatch,
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
) -> None:
    """The player's move is committed but its reply lost: the move stands (not undone, no
    "try again", no "saved elsewhere"), and the AI's answer and the next move save as usual."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    before = table.revision
    lost: list[str] = []

    async def lose_the_moves_reply(_: Sql, statement: str) -> None:
        if "UPDATE running_games" in statement and not lost:
            lost.append(statement)
            raise sqlite3.OperationalError("disk I/O error")

    hook(monkeypatch, bot.storage, "session", lose_the_moves_reply)
    seen: list[Any] = []
    hand = await open_hand(ann, channel, table)
    assert await click_through(ann.member, hand, table, random.Random(3), seen)
    assert lost, "the fault was injected"
    assert not any(
        "could not be saved" in text_of(message) or "stopped" in text_of(message)
        for message in seen
    )
    assert table.revision > before and not table.ended
    await env.advance_time(5)  # the AI answers
    hand = await open_hand(ann, channel, table)
    assert await click_through(ann.member, hand, table, random.Random(4), seen)
    assert not table.ended
    stored = [game for game in await bot.storage.running.load() if isinstance(game, LoadedGame)]
    assert [game.saved.revision for game in stored] == [table.revision]


# -- SQLite's COMMIT ---------------------------------------------------------------------------
async def test_a_failed_sqlite_commit_rolls_back_and_leaves_no_transaction_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The COMMIT of a transaction fails once (a full disk, a busy file): the storage's error,
    nothing of it written, and the connection takes the next transaction as usual."""
    storage = await Storage.open(tmp_path / "cardroom.db")
    state = games()["fishing"].new_state(2, 7)
    database = storage._database
    assert isinstance(database, SqliteDatabase)
    connection = database._sql.connection
    execute = connection.execute
    failures = [sqlite3.OperationalError("database or disk is full")]

    def commit_fails_once(sql: str, *parameters: Any) -> Any:
        if sql == "COMMIT" and failures:
            raise failures.pop()
        return execute(sql, *parameters)

    try:
        await storage.running.save(saved(state, table_id="t1"))
        monkeypatch.setattr(connection, "execute", commit_fails_once)
        with pytest.raises(StorageError, match="disk is full"):
            await storage.running.end_unfinished("t1", "stopped by the host", 0)
        assert not connection.in_transaction
        (kept,) = await storage.running.load()
        assert isinstance(kept, LoadedGame) and kept.saved.table_id == "t1"
        await storage.running.end_unfinished("t1", "stopped by the host", 0)
        assert await storage.running.load() == []
    finally:
        await storage.close()


async def test_a_hand_drawn_while_a_move_is_saved_never_shows_the_unsaved_position(
    monkeypatch: pytest.MonkeyPatch,
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
) -> None:
    """Ann's move is being saved when her Hand is drawn (as a Hand click draws it: simcord
    runs one operation at a time, so it is drawn while the save is held); then the save
    fails. That Hand showed the position last saved: the same cards and controls as before
    the move, drawn at its revision."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    if 0 not in table.state.waiting_for():
        await env.advance_time(2)
    before = table.revision

    def drawn() -> tuple[Any, list[str]]:
        message = hand_message(table, 0, bot.tables.clock())
        return message.view.to_components(), message.filenames()  # type: ignore[no-untyped-call]

    saved_position = drawn()
    during: list[tuple[Any, list[str]]] = []

    async def draw_then_fail(_: Sql, statement: str) -> None:
        if "UPDATE running_games" in statement:
            during.append(drawn())
            raise sqlite3.OperationalError("disk I/O error")

    hook(monkeypatch, bot.storage, "session", draw_then_fail, before=True)
    seen: list[Any] = []
    hand = await open_hand(ann, channel, table)
    assert not await click_through(ann.member, hand, table, random.Random(3), seen)
    assert during == [saved_position]
    assert table.revision == before and drawn() == saved_position
    assert any("could not be saved" in text_of(message) for message in seen)
