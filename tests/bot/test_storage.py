"""Storage on real SQLite files and a real PostgreSQL server (the tests taking ``storage`` or
``database_url`` run on both): migrations, running games across a crash, racing writers,
finishing transactions, broken rows, scoreboards, stats, ratings and seasons."""

from __future__ import annotations

import asyncio
import io
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Collection
from contextlib import redirect_stdout
from datetime import datetime, timedelta
from itertools import groupby
from pathlib import Path
from typing import Any, cast

import asyncpg
import pytest
from openskill.models import PlackettLuce

from bot.boards.ratings import (
    PROVISIONAL_GAMES,
    Ratings,
    SeasonTally,
    lowest_score_wins,
    rate_games,
    rating_text,
    shown_rating,
)
from bot.storage import (
    READ_IN_TURNS,
    ActionRecord,
    BrokenGame,
    FinishedGame,
    FinishedSeat,
    LoadedGame,
    PlacedSeat,
    RevisionConflictError,
    SavedEvent,
    SavedGame,
    SavedLobby,
    SeatRecord,
    Shards,
    Storage,
    StorageError,
)
from bot.storage.migrations import MIGRATIONS_DIR, load_migrations
from bot.storage.results import PLAYER_TOTALS
from bot.storage.running import SqlRunningGames
from bot.tables import restore
from bot.tables.records import SessionContext
from bot.tables.restore import restore_lobbies
from engine.ai import agent
from engine.cli import main as engine_main
from engine.core import Game, State, make_rng
from engine.registry import games
from engine.runner import step
from tests.bot.records import GUILD, START, finished

OTHER_GUILD = 200


# -- helpers ---------------------------------------------------------------------------------
def seats_for(players: int, ai: Collection[int] = ()) -> list[SeatRecord]:
    return [
        SeatRecord(user_id=None, name=f"AI {seat}", is_ai=True)
        if seat in ai
        else SeatRecord(user_id=1000 + seat, name=f"player {seat}", is_ai=False)
        for seat in range(players)
    ]


def saved(
    state: State,
    table_id: str = "t1",
    revision: int = 0,
    actions: list[tuple[int, str]] | None = None,
    **changes: Any,
) -> SavedGame:
    game = SavedGame(
        table_id=table_id,
        guild_id=GUILD,
        channel_id=10,
        host_id=1000,
        game_id=state.game.id,
        options=dict(state.options),
        seed=state.seed,
        seats=seats_for(state.players),
        state=state.to_json(),
        revision=revision,
        actions=ActionRecord.of(actions or []),
        table_message_id=555,
        deadline=START + timedelta(minutes=2),
        started_at=START,
    )
    return game.model_copy(update=changes)


async def running_games(storage: Storage) -> list[SavedGame | BrokenGame]:
    """The running games as saved (each read-back state checked against its saved JSON)."""
    games: list[SavedGame | BrokenGame] = []
    for game in await storage.running.load():
        if isinstance(game, LoadedGame):
            assert game.state.to_json() == game.saved.state
            games.append(game.saved)
        else:
            games.append(game)
    return games


def count(path: Path, sql: str, *parameters: object) -> int:
    """A figure read with plain sqlite3, from outside the Storage under test."""
    with sqlite3.connect(path) as connection:
        return int(connection.execute(sql, parameters).fetchone()[0])


async def count_in(url: str, sql: str) -> int:
    """A figure read from outside the Storage under test, in either dialect."""
    if not url.startswith("postgresql://"):
        return count(Path(url), sql)
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval(sql))
    finally:
        await connection.close()


# what a row that breaks a constraint raises: SQLite's driver error, or on PostgreSQL the
# storage's own (asyncpg's error as its cause)
INTEGRITY_ERRORS = (sqlite3.IntegrityError, StorageError)


@pytest.fixture
async def storage(database_url: str) -> Any:
    """A new database of each dialect in turn (SQLite, then PostgreSQL)."""
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


# -- opening and migrations ------------------------------------------------------------------
async def test_open_sets_wal_and_foreign_keys(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "deep" / "dir" / "cardroom.db")
    try:
        assert (tmp_path / "deep" / "dir" / "cardroom.db").exists()
        assert await storage.pragma("journal_mode") == "wal"
        assert await storage.pragma("foreign_keys") == 1
    finally:
        await storage.close()


async def test_migrations_from_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    path.touch()
    storage = await Storage.open(path)
    latest = len(list(MIGRATIONS_DIR.glob("[0-9][0-9][0-9]_*.sql")))
    assert await storage.schema_version() == latest >= 2
    await storage.close()
    with sqlite3.connect(path) as connection:
        versions = [row[0] for row in connection.execute("SELECT version FROM schema_migrations")]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert connection.execute("PRAGMA user_version").fetchone()[0] == latest
    assert versions == list(range(1, latest + 1))
    assert {"running_games", "finished_games", "finished_seats", "replay_records", "seasons"} <= (
        tables
    )
    again = await Storage.open(path)  # opening a migrated file changes nothing
    assert await again.schema_version() == latest
    await again.close()
    assert count(path, "SELECT COUNT(*) FROM schema_migrations") == latest


async def test_migration_from_version_1_keeps_results_in_season_1(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    old = await Storage.open(path, up_to=1)
    assert await old.schema_version() == 1
    await old.close()
    with sqlite3.connect(path) as connection:  # a game written by the version-1 bot
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(
            "INSERT INTO finished_games (table_id, guild_id, channel_id, game_id, options, seed,"
            " started_at, ended_at, has_ai, summary) VALUES ('old', ?, 10, 'fishing', '{}', 3,"
            " '2025-12-01T10:00:00.000000+00:00', '2025-12-01T10:30:00.000000+00:00', 0, '[]')",
            (GUILD,),
        )
        connection.executemany(
            "INSERT INTO finished_seats VALUES ('old', ?, ?, ?, 0, ?, ?)",
            [(0, 1, "ann", 21, 1), (1, 2, "bob", 12, 2)],
        )
        connection.execute("INSERT INTO replay_records VALUES ('old', '{\"game\": \"fishing\"}')")
        assert "season" not in {
            row[1] for row in connection.execute("PRAGMA table_info(finished_games)")
        }

    storage = await Storage.open(path)
    try:
        assert await storage.schema_version() >= 2
        board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
        assert [(row.user_id, row.season, row.games, row.wins) for row in board] == [
            (1, 1, 1, 1),
            (2, 1, 1, 0),
        ]
        assert (await storage.results.history(GUILD))[0].season == 1
        assert await storage.results.replay_record("old") == {"game": "fishing"}
        await storage.results.finish(finished("new", {1: 2, 2: 1}, minute=60 * 24 * 400))
        assert [
            row.games for row in await Ratings(storage.results).scoreboard(GUILD, "fishing")
        ] == [2, 2]
    finally:
        await storage.close()


async def test_migration_from_the_previous_version_keeps_running_games(database_url: str) -> None:
    latest = len(list(MIGRATIONS_DIR.glob("[0-9][0-9][0-9]_*.sql")))
    old = await Storage.open(database_url, up_to=latest - 1)
    game = saved(games()["fishing"].new_state(2, 7), table_id="kept")
    await old.running.save(game)
    await old.close()

    storage = await Storage.open(database_url)
    try:
        assert await storage.schema_version() == latest
        assert await running_games(storage) == [game]
    finally:
        await storage.close()


async def test_a_failing_migration_changes_nothing(tmp_path: Path, database_url: str) -> None:
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, migrations)
    latest = len(list(migrations.glob("*.sql")))
    (migrations / f"{latest + 1:03d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises((sqlite3.OperationalError, StorageError)):
        await Storage.open(database_url, migrations=migrations)
    if database_url.startswith("postgresql://"):
        tables = "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = "
    else:
        tables = "SELECT COUNT(*) FROM sqlite_master WHERE name = "
    assert await count_in(database_url, tables + "'half_done'") == 0
    assert await count_in(database_url, tables + "'seasons'") == 1
    assert await count_in(database_url, "SELECT MAX(version) FROM schema_migrations") == latest


async def test_a_database_from_newer_code_is_refused(tmp_path: Path, database_url: str) -> None:
    await (await Storage.open(database_url)).close()
    older = tmp_path / "older"
    (older / "postgresql").mkdir(parents=True)
    for first in ("001_initial.sql", "postgresql/001_initial.sql"):
        (older / first).write_text((MIGRATIONS_DIR / first).read_text())
    with pytest.raises(StorageError, match="newer than this code"):
        await Storage.open(database_url, migrations=older)


def test_every_dialect_has_every_migration_under_one_name() -> None:
    """A migration written for one dialect only (in data/migrations/<dialect>/) must have
    its counterpart for the other, under the same number and name."""
    sqlite, postgresql = (load_migrations(MIGRATIONS_DIR, d) for d in ("sqlite", "postgresql"))
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]
    assert len(sqlite) == len(list(MIGRATIONS_DIR.glob("[0-9][0-9][0-9]_*.sql")))


def test_a_dialect_script_replaces_the_shared_one(tmp_path: Path) -> None:
    (tmp_path / "postgresql").mkdir()
    (tmp_path / "001_first.sql").write_text("-- both")
    (tmp_path / "postgresql" / "001_first.sql").write_text("-- postgresql")
    (tmp_path / "postgresql" / "002_second.sql").write_text("-- postgresql only")
    assert [m.sql for m in load_migrations(tmp_path, "sqlite")] == ["-- both"]
    postgresql = load_migrations(tmp_path, "postgresql")
    assert [m.sql for m in postgresql] == ["-- postgresql", "-- postgresql only"]
    (tmp_path / "004_fourth.sql").write_text("-- a gap")
    with pytest.raises(StorageError, match=r"postgresql migrations .* 1, 2, 3 …: \[1, 2, 4\]"):
        load_migrations(tmp_path, "postgresql")


# -- running games ---------------------------------------------------------------------------
async def test_save_and_load_round_trip(storage: Storage) -> None:
    state = games()["fishing"].new_state(2, 7)
    game = saved(state, actions=[], seats=seats_for(2, ai={1}))
    await storage.running.save(game)
    assert await running_games(storage) == [game]
    state.apply(state.to_act()[0], state.legal_actions(state.to_act()[0])[0])
    moved = saved(state, revision=1, actions=[(0, "x")], deadline=None, table_message_id=None)
    await storage.running.save(moved, expected=0)
    assert await running_games(storage) == [moved]


async def test_a_save_that_expects_another_revision_is_refused(storage: Storage) -> None:
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, revision=5))
    for late, expected in [(4, 3), (6, 4), (6, None), (5, None)]:  # older, or not as stored
        with pytest.raises(RevisionConflictError, match="another writer saved this game first"):
            await storage.running.save(saved(state, revision=late, table_message_id=1), expected)
    await storage.running.save(saved(state, revision=5, table_message_id=2), 5)  # as stored: ok
    (loaded,) = await running_games(storage)
    assert isinstance(loaded, SavedGame)
    assert (loaded.revision, loaded.table_message_id) == (5, 2)
    with pytest.raises(RevisionConflictError):
        await storage.running.end_unfinished("t1", "stopped", expected=4)
    with pytest.raises(RevisionConflictError):
        await storage.results.finish(finished("t1", {1: 1, 2: 2}), expected=4)
    assert await running_games(storage) == [loaded]
    await storage.results.finish(finished("t1", {1: 1, 2: 2}), expected=5)
    assert await running_games(storage) == []
    with pytest.raises(RevisionConflictError):  # gone: a late save does not bring it back
        await storage.running.save(saved(state, revision=6), 5)
    assert await running_games(storage) == []


async def test_two_writers_racing_for_a_game_one_wins_the_other_gets_a_conflict(
    database_url: str,
) -> None:
    """Two stores on one database (two processes), both with the game at revision 3."""
    state = games()["fishing"].new_state(2, 7)
    first = await Storage.open(database_url)
    await first.running.save(saved(state, revision=3))
    if first.file_lock:
        first.file_lock.release()  # stands for a second process the lock did not keep out
    second = await Storage.open(database_url)
    try:
        outcomes = await asyncio.gather(
            first.running.save(saved(state, revision=4, table_message_id=1), 3),
            second.running.save(saved(state, revision=4, table_message_id=2), 3),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == [
            "NoneType",
            "RevisionConflictError",
        ]
        (stored,) = await running_games(second)
        assert isinstance(stored, SavedGame)
        winner = 1 if outcomes[0] is None else 2
        assert (stored.revision, stored.table_message_id) == (4, winner)
    finally:
        await second.close()
        await first.close()


def lobby_row(lobby_id: str, channel_id: int, guild_id: int = 1) -> SavedLobby:
    seats = [SeatRecord(user_id=7, name="ann", is_ai=False)]
    return SavedLobby(
        lobby_id=lobby_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=7,
        game_id="fishing",
        options={"target": 21},
        seats=seats,
        message_id=None,
    )


async def test_a_lobby_that_cannot_be_read_back_is_dropped_and_the_others_come_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    for row in (lobby_row("good", 10), lobby_row("gone", 11), lobby_row("bad", 12)):
        await storage.lobbies.save(row)
    await storage.close()
    with sqlite3.connect(path) as db:  # a game no longer installed; damaged seats
        db.execute("UPDATE open_lobbies SET game_id = 'no such game' WHERE lobby_id = 'gone'")
        db.execute("UPDATE open_lobbies SET seats = '[{' WHERE lobby_id = 'bad'")
    storage = await Storage.open(path)
    try:
        lobbies, problems = await restore_lobbies(storage, lambda _guild: None)
        assert [lobby.lobby_id for lobby in lobbies] == ["good"]
        assert lobbies[0].options["target"] == 21 and lobbies[0].seats[0].name == "ann"
        assert [problem.split(":")[0] for problem in problems] == ["lobby bad", "lobby gone"]
        assert await storage.lobbies.load() == ([lobby_row("good", 10)], []), "dropped for good"
    finally:
        await storage.close()


async def test_a_process_restores_only_the_lobbies_of_its_shards(storage: Storage) -> None:
    for shard in range(4):
        await storage.lobbies.save(lobby_row(f"on{shard}", 10 + shard, guild_id=shard << 22))
    lobbies, _ = await storage.lobbies.load(Shards(4, (1, 3)))
    assert sorted(lobby.lobby_id for lobby in lobbies) == ["on1", "on3"]


async def test_a_lobby_saved_in_a_channel_replaces_a_closed_ones_row_there(
    storage: Storage,
) -> None:
    # the closed lobby's row is forgotten in the background: a new lobby may come first
    await storage.lobbies.save(lobby_row("closed", 10))
    await storage.lobbies.save(lobby_row("other", 11))
    await storage.lobbies.save(lobby_row("new", 10))
    await storage.lobbies.save(lobby_row("new", 10))  # its own row stays
    lobbies, _ = await storage.lobbies.load()
    assert sorted(lobby.lobby_id for lobby in lobbies) == ["new", "other"]


async def test_a_started_lobby_goes_in_the_same_transaction_as_the_first_save(
    storage: Storage,
) -> None:
    await storage.lobbies.save(lobby_row("l1", 10))
    await storage.lobbies.save(lobby_row("l2", 11))
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, table_id="t1", channel_id=10), None, "l1")
    lobbies, _ = await storage.lobbies.load()
    assert [lobby.lobby_id for lobby in lobbies] == ["l2"]
    # a first save that is refused (the id is taken) leaves the lobby where it was
    with pytest.raises(RevisionConflictError):
        await storage.running.save(saved(state, table_id="t1", channel_id=11), None, "l2")
    lobbies, _ = await storage.lobbies.load()
    assert [lobby.lobby_id for lobby in lobbies] == ["l2"]


async def test_a_game_ended_without_a_result_is_kept_with_why(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "cardroom.db")
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, table_id="a", actions=[(0, "x")]))
    await storage.running.save(saved(state, table_id="b"))
    await storage.running.end_unfinished("a", "The channel was deleted.")
    await storage.running.end_unfinished("nothing", "no such game")
    assert [game.table_id for game in await running_games(storage)] == ["b"]
    assert await storage.running.id_taken("a"), "an unfinished game's id is never used again"
    await storage.close()
    with sqlite3.connect(tmp_path / "cardroom.db") as db:
        rows = db.execute("SELECT table_id, seed, actions, reason FROM unfinished_games").fetchall()
    assert rows == [("a", 7, '[[0,"x"]]', "The channel was deleted.")]


async def test_only_new_actions_are_sent_and_the_list_stays_whole(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    state = games()["fishing"].new_state(2, 7)
    actions: list[tuple[int, str]] = []
    for revision in range(1, 4):
        actions.append((revision % 2, f"move {revision}"))
        expected = revision - 1 if revision > 1 else None
        await storage.running.save(saved(state, revision=revision, actions=list(actions)), expected)
    with sqlite3.connect(path) as connection:  # someone else empties the stored list meanwhile
        connection.execute("UPDATE running_games SET actions = '[]'")
    actions.append((0, "move 4"))
    await storage.running.save(saved(state, revision=4, actions=list(actions)), 3)
    (loaded,) = await running_games(storage)
    assert isinstance(loaded, SavedGame)
    assert loaded.actions == actions
    await storage.running.save(saved(state, revision=5, actions=[(1, "a new list")]), 4)
    await storage.running.save(saved(state, revision=6, actions=[(1, "a new list"), (0, "x")]), 5)
    await storage.close()
    with sqlite3.connect(path) as connection:
        stored = connection.execute("SELECT actions FROM running_games").fetchone()[0]
    assert json.loads(stored) == [[1, "a new list"], [0, "x"]]


@pytest.mark.parametrize(
    ("column", "value", "error"),
    [
        ("state", "{not json", "JSONDecodeError"),
        ("state", '{"game": "fishing", "schema": 999}', "schema"),
        ("game_id", "no_such_game", "no_such_game"),
        ("seats", '[{"name": "x"}]', "ValidationError"),
        ("seats", "7", "TypeError"),
        ("options", '"text"', "ValidationError"),
        ("deadline", "yesterday", "ValidationError"),
        ("seats", '[{"user_id": 1, "name": "only one", "is_ai": false}]', "seats"),
        ("actions", '[[0, "keep"]', "actions"),
        ("actions", '{"0": "keep"}', "actions"),
    ],
)
async def test_a_corrupt_game_comes_back_broken(
    tmp_path: Path, column: str, value: str, error: str
) -> None:
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, table_id="bad"))
    good = saved(state, table_id="good", started_at=START + timedelta(seconds=1))
    await storage.running.save(good)
    await storage.close()
    with sqlite3.connect(path) as connection:
        connection.execute(
            f"UPDATE running_games SET {column} = ? WHERE table_id = 'bad'", (value,)
        )

    storage = await Storage.open(path)
    try:
        broken, loaded = await running_games(storage)
    finally:
        await storage.close()
    assert loaded == good
    assert isinstance(broken, BrokenGame)
    assert (broken.table_id, broken.guild_id, broken.channel_id) == ("bad", GUILD, 10)
    assert error in broken.error


async def test_a_damaged_table_log_reads_as_none_and_the_game_loads(tmp_path: Path) -> None:
    """A game whose saved log is damaged loads as one saved before logs were kept (its log
    rebuilt from its moves at restore: test_restore_details), not as a broken game."""
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state, table_id="damaged"))
    await storage.close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE running_games SET table_log = '{\"events\": []}'")
    storage = await Storage.open(path)
    try:
        (loaded,) = await running_games(storage)
    finally:
        await storage.close()
    assert isinstance(loaded, SavedGame)
    assert loaded.table_id == "damaged" and loaded.table_log is None


async def test_a_row_with_unreadable_ids_is_still_reported(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    await storage.running.save(saved(games()["fishing"].new_state(2, 7), table_id="bad"))
    await storage.close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE running_games SET guild_id = 'x', channel_id = X'00'")
    storage = await Storage.open(path)
    (broken,) = await running_games(storage)
    await storage.close()
    assert isinstance(broken, BrokenGame)
    assert (broken.table_id, broken.guild_id, broken.channel_id) == ("bad", None, None)


async def test_a_pause_is_stored_apart_from_the_saves(database_url: str) -> None:
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    try:
        await storage.running.save(saved(state))
        since = START + timedelta(minutes=3)
        await storage.running.set_paused("t1", since)
        (loaded,) = await storage.running.load()
        assert isinstance(loaded, LoadedGame) and loaded.saved.paused_since == since
        await storage.running.save(saved(state, revision=1), expected=0)  # a save keeps it
        (loaded,) = await storage.running.load()
        assert isinstance(loaded, LoadedGame) and loaded.saved.paused_since == since
        await storage.running.set_paused("t1", None)
        (loaded,) = await storage.running.load()
        assert isinstance(loaded, LoadedGame) and loaded.saved.paused_since is None
        assert loaded.saved.revision == 1
    finally:
        await storage.close()


async def test_many_games_are_read_back_and_restored_in_turns_with_other_tasks(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start with thousands of saved games must not hold the event loop (the shard
    heartbeat, Discord's gateway) for all of them: it gives way every READ_IN_TURNS games."""
    state = games()["stuck"].new_state(2, 1)
    total = 2 * READ_IN_TURNS + 1
    for number in range(total):
        await storage.running.save(saved(state, f"t{number}"))
    turns = 0

    async def tick() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    read_at: list[int] = []  # the loop's turn when each game was read back, made a session
    made_at: list[int] = []
    read = SqlRunningGames._read

    def counted_read(row: Any) -> LoadedGame | BrokenGame:
        read_at.append(turns)
        return read(row)

    monkeypatch.setattr(SqlRunningGames, "_read", staticmethod(counted_read))
    monkeypatch.setattr(restore, "session_from_saved", lambda *_: made_at.append(turns))
    ticker = asyncio.create_task(tick())
    try:
        _, broken = await restore.restore_sessions(
            storage, cast(SessionContext, None), lambda _guild: None
        )
    finally:
        ticker.cancel()
    assert not broken
    for at in (read_at, made_at):
        assert [len(list(same)) for _, same in groupby(at)] == [READ_IN_TURNS, READ_IN_TURNS, 1]


async def test_a_broken_game_is_set_aside_unchanged_and_not_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    await storage.running.save(saved(games()["fishing"].new_state(2, 7), table_id="bad"))
    await storage.close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE running_games SET channel_id = X'00', state = '{oops'")
        columns = ", ".join(
            row[1] for row in connection.execute("PRAGMA table_info(running_games)")
        )
        (before,) = connection.execute(f"SELECT {columns} FROM running_games").fetchall()

    storage = await Storage.open(path)
    try:
        (broken,) = await running_games(storage)
        assert isinstance(broken, BrokenGame)
        await storage.running.set_aside(broken)
        assert await running_games(storage) == []
    finally:
        await storage.close()
    with sqlite3.connect(path) as connection:
        (after,) = connection.execute(f"SELECT {columns}, error FROM set_aside_games").fetchall()
        assert connection.execute("SELECT COUNT(*) FROM running_games").fetchone() == (0,)
    assert after[: len(before)] == before  # byte for byte, unreadable id included
    assert after[len(before)] == broken.error


# -- a game stopped in the middle resumes to the same end ------------------------------------
def agent_rngs(seed: int, revision: int, players: int) -> tuple[list[random.Random], random.Random]:
    """Agent generators derived from the seed and the revision, as the bot's AI seats use:
    they need no saved state, so a restart cannot change the moves."""
    return (
        [make_rng(seed, "agent", seat, revision) for seat in range(players)],
        make_rng(seed, "order", revision),
    )


def play(game: Game, state: State, actions: list[tuple[int, str]], stop_at: int | None) -> None:
    """Play on with fresh AI agents until the end or until ``stop_at`` actions in all."""
    agents = [agent(game, "ai") for _ in range(state.players)]
    while not state.is_over and (stop_at is None or len(actions) < stop_at):
        rngs, order = agent_rngs(state.seed, len(actions), state.players)
        seat, action = step(state, agents, rngs, order)
        actions.append((seat, action.text))


def finished_from(saved_game: SavedGame, state: State, ended_at: datetime) -> FinishedGame:
    winners = state.winners()
    return FinishedGame(
        table_id=saved_game.table_id,
        guild_id=saved_game.guild_id,
        channel_id=saved_game.channel_id,
        game_id=saved_game.game_id,
        options=saved_game.options,
        seed=saved_game.seed,
        started_at=saved_game.started_at,
        ended_at=ended_at,
        seats=[
            FinishedSeat(
                seat=seat,
                user_id=record.user_id,
                name=record.name,
                is_ai=record.is_ai,
                score=score,
                place=1 if seat in winners else 2,
            )
            for seat, (record, score) in enumerate(
                zip(saved_game.seats, state.scores(), strict=True)
            )
        ],
        record={
            "game": saved_game.game_id,
            "players": state.players,
            "seed": saved_game.seed,
            "options": saved_game.options,
            "actions": [list(action) for action in saved_game.actions],
        },
        summary=[],
    )


GAME_CASES = [
    (game_id, players)
    for game_id, game in games().items()
    for players in sorted({game.player_counts[0], game.player_counts[-1]})
]


@pytest.mark.parametrize(("game_id", "players"), GAME_CASES)
async def test_a_game_interrupted_by_a_crash_ends_as_without_it(
    tmp_path: Path, game_id: str, players: int
) -> None:
    game, seed = games()[game_id], 4242 + players
    whole = game.new_state(players, seed)
    whole_actions: list[tuple[int, str]] = []
    play(game, whole, whole_actions, stop_at=None)
    assert len(whole_actions) >= 2

    # The same game, saved after every move, until the bot dies halfway without any shutdown.
    path = tmp_path / "cardroom.db"
    first = await Storage.open(path)
    state = game.new_state(players, seed)
    actions: list[tuple[int, str]] = []
    record = saved(state, seats=seats_for(players, ai={players - 1}))
    while len(actions) < len(whole_actions) // 2:
        play(game, state, actions, stop_at=len(actions) + 1)
        expected = record.revision if actions[:-1] else None
        record = record.model_copy(
            update={"state": state.to_json(), "revision": len(actions), "actions": list(actions)}
        )
        await first.running.save(record, expected)

    assert first.file_lock is not None  # SQLite's
    first.file_lock.release()  # as the system does when the process dies
    second = await Storage.open(path)  # a new bot on the same file; the first never closed
    (restored,) = await running_games(second)
    assert restored == record
    assert isinstance(restored, SavedGame)
    resumed = game.state_from_json(restored.state)
    resumed_actions = list(restored.actions)
    play(game, resumed, resumed_actions, stop_at=None)

    assert resumed_actions == whole_actions
    assert resumed.to_json() == whole.to_json()
    assert resumed.result() == whole.result()

    done = restored.model_copy(update={"actions": resumed_actions})
    await second.results.finish(finished_from(done, resumed, START + timedelta(hours=1)))
    assert await running_games(second) == []
    replay_file = tmp_path / "record.json"
    replay_file.write_text(json.dumps(await second.results.replay_record(record.table_id)))
    await second.close()
    await first.close()

    out = io.StringIO()
    with redirect_stdout(out):
        assert engine_main(["replay", str(replay_file)]) == 0
    replayed = json.loads(out.getvalue())
    assert replayed["over"] is True
    assert replayed["scores"] == list(whole.scores())
    assert replayed["winners"] == list(whole.winners())


async def test_a_killed_process_leaves_its_last_save(tmp_path: Path) -> None:
    path = tmp_path / "cardroom.db"
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from datetime import datetime, UTC
        from bot.storage import SavedGame, SeatRecord, Storage
        from engine.registry import games

        async def main():
            storage = await Storage.open({str(path)!r})
            state = games()["fishing"].new_state(2, 9)
            actions = []
            for revision in range(1, 6):
                seat = state.to_act()[0]
                action = state.legal_actions(seat)[0]
                state.apply(seat, action)
                actions.append((seat, action.text))
                await storage.running.save(SavedGame(
                    table_id="k", guild_id=1, channel_id=2, host_id=3, game_id="fishing",
                    options=dict(state.options), seed=9,
                    seats=[SeatRecord(user_id=3, name="a", is_ai=False),
                           SeatRecord(user_id=None, name="AI", is_ai=True)],
                    state=state.to_json(), revision=revision, actions=actions,
                    table_message_id=7, deadline=None, started_at=datetime.now(UTC)),
                    revision - 1 if revision > 1 else None)
            print(state.to_json()["turn"], flush=True)
            os._exit(0)  # no close, no checkpoint: as if the process were killed

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    storage = await Storage.open(path)
    try:
        (game,) = await running_games(storage)
    finally:
        await storage.close()
    assert isinstance(game, SavedGame)
    assert game.revision == len(game.actions) == 5
    assert game.state["turn"] == int(done.stdout.strip())
    replayed = games()["fishing"].new_state(2, 9)
    for seat, text in game.actions:
        replayed.apply_text(seat, text)
    assert replayed.to_json() == game.state


# -- finishing -------------------------------------------------------------------------------
async def test_finish_game_writes_everything_and_removes_the_running_game(
    database_url: str,
) -> None:
    storage = await Storage.open(database_url)
    await storage.running.save(saved(games()["fishing"].new_state(2, 7), table_id="f"))
    await storage.results.finish(finished("f", {1: 1, None: 2}))
    await storage.close()
    assert await count_in(database_url, "SELECT COUNT(*) FROM running_games") == 0
    for table in ("finished_games", "replay_records"):
        sql = f"SELECT COUNT(*) FROM {table} WHERE table_id = 'f'"
        assert await count_in(database_url, sql) == 1
    sql = "SELECT COUNT(*) FROM finished_seats WHERE table_id = 'f'"
    assert await count_in(database_url, sql) == 2
    assert await count_in(database_url, "SELECT has_ai FROM finished_games") == 1


async def test_discord_sized_ids_and_names_survive_finishing(storage: Storage) -> None:
    snowflake = 2**63 - 7
    game = finished("big", {snowflake: 1, None: 2})
    game.seats[0].name = 'Zoë "the shark" 🦈'
    await storage.results.finish(game)
    (row,) = await storage.results.history(GUILD)
    assert row.seats == game.seats
    (score,) = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    assert (score.user_id, score.name) == (snowflake, game.seats[0].name)


@pytest.mark.parametrize("fault", ["repeated seat", "player seat without user", "same table twice"])
async def test_a_failure_inside_finish_game_writes_nothing(database_url: str, fault: str) -> None:
    storage = await Storage.open(database_url)
    running = saved(games()["fishing"].new_state(2, 7), table_id="f")
    await storage.running.save(running)
    game = finished("f", {1: 1, 2: 2})
    if fault == "repeated seat":  # the second seat row violates the primary key
        game.seats[1].seat = 0
    elif fault == "player seat without user":  # the seat row violates a CHECK
        game.seats[1].user_id = None
    else:  # the game row itself already exists (written under another running row)
        await storage.results.finish(finished("f", {1: 1, 2: 2}))
        await storage.running.save(running)
    before = await count_in(database_url, "SELECT COUNT(*) FROM finished_seats")
    with pytest.raises(INTEGRITY_ERRORS):
        await storage.results.finish(game)
    assert await running_games(storage) == [running]  # the running row is still there
    await storage.results.finish(finished("g", {1: 1, 2: 2}))  # and the connection still works
    await storage.close()
    assert await count_in(database_url, "SELECT COUNT(*) FROM running_games") == 1
    assert await count_in(database_url, "SELECT COUNT(*) FROM finished_seats") == before + 2
    for table in ("finished_games", "replay_records"):
        written = await count_in(database_url, f"SELECT COUNT(*) FROM {table}")
        assert written == 1 + (fault == "same table twice")


async def test_concurrent_saves_and_finishes_do_not_mix(database_url: str) -> None:
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    bad = finished("bad", {1: 1, 2: 2})
    bad.seats[1].seat = 0

    async def failing() -> None:
        with pytest.raises(INTEGRITY_ERRORS):
            await storage.results.finish(bad)

    await asyncio.gather(
        *(storage.running.save(saved(state, table_id=f"r{n}", revision=n)) for n in range(30)),
        *(failing() for _ in range(5)),
        *(storage.results.finish(finished(f"f{n}", {1: 1, 2: 2}, minute=n)) for n in range(30)),
    )
    await storage.close()
    assert await count_in(database_url, "SELECT COUNT(*) FROM running_games") == 30
    assert await count_in(database_url, "SELECT COUNT(*) FROM finished_games") == 30
    assert await count_in(database_url, "SELECT COUNT(*) FROM finished_seats") == 60


# -- scoreboards, stats, ratings, seasons ----------------------------------------------------
KNOWN_GAMES: list[
    tuple[str, dict[int | None, int]]
] = [  # (table, {user (None: AI): place}) in the order they ended
    ("g1", {1: 1, 2: 2, 3: 3}),
    ("g2", {2: 1, 1: 2}),
    ("g3", {1: 1, 3: 1, 2: 3}),  # a shared win
    ("g4", {3: 1, None: 2}),  # one player against the AI: recorded, rates nobody
    ("g5", {1: 2, 2: 1, None: 3}),
]


async def add_known(storage: Storage) -> None:
    for minute, (table_id, places) in enumerate(KNOWN_GAMES):
        await storage.results.finish(finished(table_id, places, minute=minute))


def expected_ordinals() -> dict[int, float]:
    """The same games rated straight with openskill (players only, in order)."""
    model = PlackettLuce()
    ratings = {user: model.rating() for user in (1, 2, 3)}
    for _, places in KNOWN_GAMES:
        users = [user for user in places if user is not None]
        if len(users) < 2:
            continue
        rated = model.rate([[ratings[u]] for u in users], ranks=[places[u] for u in users])
        for user, (new,) in zip(users, rated, strict=True):
            ratings[user] = new
    return {user: rating.ordinal() for user, rating in ratings.items()}


async def test_scoreboard_on_known_games(storage: Storage) -> None:
    await add_known(storage)
    await storage.results.finish(finished("elsewhere", {1: 2, 9: 1}, guild_id=OTHER_GUILD))
    board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    ordinals = expected_ordinals()
    figures = {row.user_id: (row.games, row.wins) for row in board}
    assert figures == {1: (4, 2), 2: (4, 2), 3: (3, 2)}
    # everyone is provisional (under 5 rated games): ranked by the ordinal among themselves
    assert [row.user_id for row in board] == sorted(ordinals, key=lambda u: -ordinals[u])
    assert [row.rank for row in board] == [1, 2, 3]
    for row in board:
        assert row.rating == shown_rating(ordinals[row.user_id]) and row.provisional
        assert row.win_rate == pytest.approx(row.wins / row.games)
        assert (row.season, row.game_id, row.name) == (1, "fishing", f"user {row.user_id}")
    assert (
        await Ratings(storage.results).scoreboard(GUILD) == board
    )  # every game: only fishing was played
    assert await Ratings(storage.results).scoreboard(GUILD, "twentytwo") == []


@pytest.mark.slow
async def test_boards_of_seasons_and_games_without_results_keep_nothing(
    storage: Storage,
) -> None:
    """``/scoreboard season:N`` for any N, or a game never played, answers an empty board and
    keeps no entry for it: thousands of such questions leave the cache as it was."""
    await add_known(storage)
    ratings = Ratings(storage.results)
    await ratings.scoreboard(GUILD)
    cached = ratings.cached_seasons()
    assert cached == {(GUILD, "fishing", 1): len(KNOWN_GAMES)}
    for season in range(2, 302):
        assert await ratings.scoreboard(GUILD, None, season) == []
        assert await ratings.scoreboard(GUILD, "swazi", season) == []
    assert await ratings.scoreboard(OTHER_GUILD) == []
    assert ratings.cached_seasons() == cached
    assert len(ratings._votes) == 1
    assert not ratings._refreshing, "no lock outlives its refresh"


async def test_many_games_against_the_ai_do_not_top_the_ranking(storage: Storage) -> None:
    await add_known(storage)
    for n in range(40):
        await storage.results.finish(finished(f"farm{n}", {7: 1, None: 2}, minute=100 + n))
    board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    farmer = next(row for row in board if row.user_id == 7)
    assert (farmer.games, farmer.wins, farmer.rating, farmer.provisional) == (40, 40, 1000, True)
    assert board[0].user_id != 7 and board[0].rating > 1000


async def test_stats_per_game(storage: Storage) -> None:
    await add_known(storage)
    # cambio-like results: the lowest score wins (and best means lowest)
    await storage.results.finish(
        finished("c1", {1: 1, 2: 2}, game_id="cambio", scores={1: 3, 2: 20}, minute=10)
    )
    await storage.results.finish(
        finished("c2", {1: 2, 2: 1}, game_id="cambio", scores={1: 9, 2: 5}, minute=11)
    )
    stats = {row.game_id: row for row in await Ratings(storage.results).stats(GUILD, 1)}
    assert set(stats) == {"cambio", "fishing"}
    fishing = stats["fishing"]
    assert (fishing.games, fishing.wins, fishing.season, fishing.season_games) == (4, 2, 1, 4)
    assert fishing.rating == shown_rating(expected_ordinals()[1]) and fishing.provisional
    assert fishing.best_score == 9  # scores are 10 - place: places 1, 2, 1, 2
    assert fishing.average_score == pytest.approx(8.5)
    cambio = stats["cambio"]
    assert (cambio.games, cambio.wins, cambio.best_score, cambio.average_score) == (2, 1, 3, 6)
    assert await Ratings(storage.results).stats(GUILD, 12345) == []
    assert await Ratings(storage.results).stats(OTHER_GUILD, 1) == []


async def test_stats_read_a_players_seats_and_their_games_from_indexes_alone(
    tmp_path: Path,
) -> None:
    """/stats must not read every seat row and game row of a player (at 10,000 games that
    was most of its time): SQLite searches both tables through covering indexes."""
    path = tmp_path / "cardroom.db"
    storage = await Storage.open(path)
    try:
        await add_known(storage)
        assert await storage.results.player_totals(GUILD, 1)
    finally:
        await storage.close()
    with sqlite3.connect(path) as connection:
        plan = [
            row[3]
            for row in connection.execute(
                f"EXPLAIN QUERY PLAN {PLAYER_TOTALS}", {"guild_id": GUILD, "user_id": 1}
            )
        ]
    searches = [step for step in plan if step.startswith(("SEARCH", "SCAN"))]
    assert len(searches) == 2 and all("USING COVERING INDEX" in step for step in searches), plan


async def test_history_lists_the_last_games_with_results(storage: Storage) -> None:
    await add_known(storage)
    history = await storage.results.history(GUILD, limit=3)
    assert [row.table_id for row in history] == ["g5", "g4", "g3"]
    assert [row.has_ai for row in history] == [True, True, False]
    g4 = history[1]
    assert [(s.user_id, s.is_ai, s.place) for s in g4.seats] == [(3, False, 1), (None, True, 2)]
    assert g4.summary == [SavedEvent(revision=0, text="hand 1 of g4", kind="hand_end")]
    assert g4.ended_at == START + timedelta(minutes=3, seconds=30)
    assert len(await storage.results.history(GUILD)) == 5
    assert await storage.results.history(OTHER_GUILD) == []


async def test_a_reset_starts_a_new_season_and_keeps_history(storage: Storage) -> None:
    await add_known(storage)
    await storage.results.finish(finished("t1", {1: 1, 2: 2}, game_id="twentytwo"))
    old_board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    assert await storage.results.current_season(GUILD, "fishing") == 1

    assert await storage.results.reset_season(GUILD, "fishing") == 2
    assert await storage.results.current_season(GUILD, "fishing") == 2
    assert await storage.results.current_season(GUILD, "twentytwo") == 1  # other games go on
    assert await storage.results.current_season(OTHER_GUILD, "fishing") == 1  # other servers too
    assert await Ratings(storage.results).scoreboard(GUILD, "fishing") == []
    assert await Ratings(storage.results).scoreboard(GUILD, "fishing", season=1) == old_board
    assert len(await storage.results.history(GUILD)) == 6
    assert [row.games for row in await Ratings(storage.results).scoreboard(GUILD, "twentytwo")] == [
        1,
        1,
    ]

    await storage.results.finish(finished("s2", {2: 1, 1: 2}, minute=50))
    board = await Ratings(storage.results).scoreboard(GUILD, "fishing")
    assert [(row.user_id, row.games, row.wins, row.season) for row in board] == [
        (2, 1, 1, 2),
        (1, 1, 0, 2),
    ]
    stats = {row.game_id: row for row in await Ratings(storage.results).stats(GUILD, 3)}
    fishing = stats["fishing"]  # user 3 has not played this season: a new player's figures
    assert (fishing.games, fishing.season, fishing.season_games, fishing.rating) == (3, 2, 0, 1000)

    assert await storage.results.reset_season(GUILD) == 3  # every game: fishing 3, the others 2
    assert await storage.results.current_season(GUILD, "twentytwo") == 2
    assert await Ratings(storage.results).scoreboard(GUILD) == []
    assert len(await Ratings(storage.results).scoreboard(GUILD, "fishing", season=2)) == 2
    assert len(await storage.results.history(GUILD, limit=100)) == 7


def test_rate_games_matches_openskill_and_skips_lone_players() -> None:
    ratings = rate_games([[(1, 1), (2, 2)], [(1, 1)], [(2, 1), (1, 2), (3, 2)]])
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    [[b], [a], [c]] = model.rate([[b], [a], [c]], ranks=[1, 2, 2])
    assert ratings[1].ordinal == pytest.approx(a.ordinal())
    assert ratings[2].ordinal == pytest.approx(b.ordinal())
    assert ratings[3].ordinal == pytest.approx(c.ordinal())
    assert [ratings[user].rated_games for user in (1, 2, 3)] == [2, 2, 1]
    assert rate_games([[(5, 1)]])[5].ordinal == pytest.approx(0.0)


def test_ratings_read_on_a_positive_scale_and_settled_ones_rank_first() -> None:
    # Ann wins her only game; Bob and Cy play five games, Bob winning each.
    games = [[(1, 1), (2, 2)], *([[(2, 1), (3, 2)]] * PROVISIONAL_GAMES)]
    tally = SeasonTally()
    for game in games:
        tally.add([PlacedSeat(user, f"user {user}", place) for user, place in game])
    board = tally.board("fishing", 1)
    assert [(row.user_id, row.provisional) for row in board] == [(2, False), (3, False), (1, True)]
    assert board[2].rating > board[1].rating  # a lucky first game ranks after settled players
    ratings = rate_games(games)
    assert ratings[3].ordinal < 0 and board[1].rating == shown_rating(ratings[3].ordinal) > 0
    assert rating_text(board[2].rating, True).endswith("?")


def test_lowest_score_wins_goes_by_the_results() -> None:
    assert lowest_score_wins([[(3, 1), (9, 2)], [(2, 1), (5, 2), (8, 3)]])
    assert not lowest_score_wins([[(21, 1), (9, 2)]])
    assert not lowest_score_wins([])


async def test_a_deck_style_is_replaced_and_kept_and_only_known_styles_are_stored(
    database_url: str,
) -> None:
    storage = await Storage.open(database_url)
    try:
        await storage.preferences.set_deck_style(7, "four_colour")
        await storage.preferences.set_deck_style(8, "four_colour")
        await storage.preferences.set_deck_style(7, "standard")  # changed back: one row each
        with pytest.raises(INTEGRITY_ERRORS):
            await storage.preferences.set_deck_style(9, "rainbow")
    finally:
        await storage.close()
    again = await Storage.open(database_url)
    try:
        assert await again.preferences.deck_styles() == {7: "standard", 8: "four_colour"}
        assert await again.preferences.deck_style(8) == "four_colour"
        assert await again.preferences.deck_style(9) is None  # never chosen
    finally:
        await again.close()


async def test_a_table_in_a_thread_keeps_its_thread_and_channel(storage: Storage) -> None:
    state = games()["fishing"].new_state(2, 7)
    await storage.running.save(saved(state))  # dealt in its lobby's channel
    (dealt,) = await running_games(storage)
    assert isinstance(dealt, SavedGame) and dealt.parent_channel_id is None
    in_thread = saved(state, revision=1, channel_id=2**62 + 1, parent_channel_id=10)
    await storage.running.save(in_thread, expected=0)
    assert await running_games(storage) == [in_thread]


async def test_a_servers_choice_of_threads_is_replaced_and_kept(database_url: str) -> None:
    storage = await Storage.open(database_url)
    try:
        await storage.preferences.set_server_table_threads(2**62, False)
        await storage.preferences.set_server_table_threads(5, False)
        await storage.preferences.set_server_table_threads(5, True)  # changed back: one row
    finally:
        await storage.close()
    again = await Storage.open(database_url)
    try:
        assert await again.preferences.server_table_threads() == {2**62: False, 5: True}
    finally:
        await again.close()
