"""The one place with SQL: running games, finished games, scoreboards, stats and history.

One aiosqlite connection per Storage, in WAL mode with foreign keys on and synchronous=NORMAL
(a committed transaction survives the bot being killed; WAL keeps readers off the writer's
way). The schema is built by the numbered scripts in ``data/migrations/``, each applied once,
in order, in its own transaction, and recorded in ``schema_migrations``. A lock serialises the
connection's users so that no statement of one task lands inside another task's transaction.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite
from pydantic import ValidationError
from pydantic_core import to_json

from bot.services.ratings import DEFAULT, lowest_score_wins, rate_games
from bot.storage.models import (
    BrokenGame,
    FinishedGame,
    FinishedSeat,
    HistoryRow,
    SavedGame,
    ScoreRow,
    SeatRecord,
    StatsRow,
    as_utc,
)
from engine.registry import games, get_game

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


RUNNING_COLUMNS = (
    "table_id, guild_id, channel_id, host_id, game_id, options, seed, seats, state, revision,"
    " actions, table_message_id, deadline, started_at, saved_at"
)


class StorageError(Exception):
    """Something the storage layer refuses or cannot do."""


class StaleRevisionError(StorageError):
    """A save of a game older than the one already stored (a late or repeated save)."""


class Migration(NamedTuple):
    """One numbered schema script."""

    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The scripts ``NNN_name.sql`` of ``directory`` in version order; versions run 1, 2, 3 …"""
    found = []
    for path in directory.iterdir():
        match = MIGRATION_NAME.match(path.name)
        if match:
            found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    found.sort()
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations in {directory} must be numbered 1, 2, 3 …: {versions}")
    return found


def to_text(moment: datetime | None) -> str | None:
    """A time as stored: ISO 8601 in UTC with microseconds (so text order is time order)."""
    return None if moment is None else as_utc(moment).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    """A stored time back."""
    return datetime.fromisoformat(text)


def dump(value: object) -> str:
    """Compact JSON text (pydantic's fast encoder; models become objects, tuples arrays)."""
    return to_json(value).decode()


def describe_error(error: Exception) -> str:
    """One line saying what is wrong (for a validation error: where, and what)."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(map(str, first["loc"])) or error.title
        return f"{where}: {first['msg']} ({error.error_count()} error(s))"
    text = str(error).strip()
    return text.splitlines()[0] if text else "no details"


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


class Storage:
    """Cardroom's database. Open with ``await Storage.open(path)``; close with ``close()``."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._saved_actions: dict[str, int] = {}  # table id: actions known to be stored

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        migrations: Path = MIGRATIONS_DIR,
        up_to: int | None = None,
    ) -> Storage:
        """Open (creating the directory and file) and migrate to the latest, or ``up_to``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = aiosqlite.Row
            await (await connection.execute("PRAGMA journal_mode = WAL")).close()
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await (await connection.execute("PRAGMA busy_timeout = 5000")).close()
            storage = cls(connection)
            await storage.migrate(load_migrations(migrations), up_to)
        except BaseException:
            await connection.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (saved work is already committed)."""
        async with self._lock:
            await self._db.close()

    async def migrate(self, migrations: Sequence[Migration], up_to: int | None = None) -> None:
        """Apply the migrations not yet recorded, each in one transaction.

        Raises StorageError for a database migrated by newer code (a version not in
        ``migrations``) rather than run an old schema's queries on it.
        """
        async with self._lock:
            await self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in await self._fetchall("SELECT version FROM schema_migrations")}
            unknown = done - {migration.version for migration in migrations}
            if unknown:
                raise StorageError(
                    f"the database has schema version {max(unknown)}, newer than this code knows"
                    f" ({len(migrations)}): run a newer Cardroom or use another file"
                )
            for migration in migrations:
                if migration.version in done or (up_to is not None and migration.version > up_to):
                    continue
                # executescript runs the whole script; BEGIN/COMMIT make it all or nothing.
                script = (
                    f"BEGIN IMMEDIATE;\n{migration.sql}\n;"
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
                    f"({migration.version}, '{migration.name}', '{to_text(datetime.now(UTC))}');"
                    f"\nPRAGMA user_version = {migration.version};\nCOMMIT;"
                )
                try:
                    await self._db.executescript(script)
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        """The highest migration applied."""
        async with self._lock:
            row = await self._fetchone("SELECT MAX(version) FROM schema_migrations")
        return int(row[0] or 0) if row else 0

    async def pragma(self, name: str) -> Any:
        """A pragma's value (``journal_mode``, ``foreign_keys`` …), for checks."""
        if not name.isidentifier():
            raise StorageError(f"not a pragma name: {name!r}")
        async with self._lock:
            row = await self._fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    # -- running games -------------------------------------------------------------------------
    async def save_game(self, game: SavedGame) -> None:
        """Insert or update a running game in one statement (its own transaction).

        Raises StaleRevisionError, storing nothing, for a revision lower than the stored one.
        Only the actions not yet saved by this Storage are sent; SQLite appends them to the
        stored list, which keeps a save's cost flat however long the game.
        """
        async with self._lock:
            known = self._saved_actions.get(game.table_id, 0)
            if not 0 <= known <= len(game.actions):
                known = 0
            stored = await self._upsert_running(game, known)
            if stored != len(game.actions) and known:
                stored = await self._upsert_running(game, 0)  # the row was not as remembered
            if stored is None:
                self._saved_actions.pop(game.table_id, None)
                raise StaleRevisionError(
                    f"table {game.table_id}: revision {game.revision} is older than the saved one"
                )
            self._saved_actions[game.table_id] = stored

    async def _upsert_running(self, game: SavedGame, known: int) -> int | None:
        """Write ``game`` sending its actions from index ``known`` on (0: all of them).

        Returns the number of actions stored, or None when nothing was written (an older
        revision, or a stored action list that is not ``known`` long).
        """
        rows = await self._db.execute_fetchall(
            """
            INSERT INTO running_games (table_id, guild_id, channel_id, host_id, game_id,
                options, seed, seats, state, revision, actions, table_message_id, deadline,
                started_at, saved_at)
            VALUES (:table_id, :guild_id, :channel_id, :host_id, :game_id, :options, :seed,
                :seats, :state, :revision, :actions, :table_message_id, :deadline, :started_at,
                :saved_at)
            ON CONFLICT (table_id) DO UPDATE SET
                guild_id = excluded.guild_id, channel_id = excluded.channel_id,
                host_id = excluded.host_id, game_id = excluded.game_id,
                options = excluded.options, seed = excluded.seed, seats = excluded.seats,
                state = excluded.state, revision = excluded.revision,
                actions = CASE
                    WHEN :known = 0 OR running_games.actions = '[]' THEN excluded.actions
                    WHEN excluded.actions = '[]' THEN running_games.actions
                    ELSE substr(running_games.actions, 1, length(running_games.actions) - 1)
                        || ',' || substr(excluded.actions, 2)
                END,
                table_message_id = excluded.table_message_id, deadline = excluded.deadline,
                started_at = excluded.started_at, saved_at = excluded.saved_at
            WHERE excluded.revision >= running_games.revision
                AND (:known = 0 OR (json_valid(running_games.actions)
                    AND json_array_length(running_games.actions) = :known))
            RETURNING json_array_length(actions)
            """,
            {
                "table_id": game.table_id,
                "guild_id": game.guild_id,
                "channel_id": game.channel_id,
                "host_id": game.host_id,
                "game_id": game.game_id,
                "options": dump(game.options),
                "seed": game.seed,
                "seats": dump(game.seats),
                "state": dump(game.state),
                "revision": game.revision,
                "actions": dump(game.actions[known:]),
                "known": known,
                "table_message_id": game.table_message_id,
                "deadline": to_text(game.deadline),
                "started_at": to_text(game.started_at),
                "saved_at": to_text(datetime.now(UTC)),
            },
        )
        return next((int(row[0]) for row in rows), None)

    async def load_running_games(self) -> list[SavedGame | BrokenGame]:
        """Every running game, oldest first; one that cannot be read back is a BrokenGame.

        A game is broken when a column is not valid JSON or the wrong shape, its game id is
        unknown, or the engine refuses its state (wrong schema, malformed, wrong seat count).
        """
        async with self._lock:
            rows = await self._fetchall("SELECT * FROM running_games ORDER BY started_at, table_id")
        return [self._read_running(row) for row in rows]

    @staticmethod
    def _read_running(row: aiosqlite.Row) -> SavedGame | BrokenGame:
        table_id = str(row["table_id"])
        try:
            game = SavedGame(
                table_id=table_id,
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                host_id=row["host_id"],
                game_id=row["game_id"],
                options=json.loads(row["options"]),
                seed=row["seed"],
                seats=[SeatRecord.model_validate(seat) for seat in json.loads(row["seats"])],
                state=json.loads(row["state"]),
                revision=row["revision"],
                actions=json.loads(row["actions"]),
                table_message_id=row["table_message_id"],
                deadline=row["deadline"],
                started_at=row["started_at"],
            )
            state = get_game(game.game_id).state_from_json(game.state)
            if state.players != len(game.seats):
                raise StorageError(
                    f"the state has {state.players} seats but the table {len(game.seats)}"
                )
        except Exception as error:  # a bad row must never stop the others from loading
            message = describe_error(error)
            return BrokenGame(
                table_id=table_id,
                guild_id=_int_or_none(row["guild_id"]),
                channel_id=_int_or_none(row["channel_id"]),
                error=f"{type(error).__name__}: {message}",
            )
        return game

    async def set_aside(self, broken: BrokenGame) -> None:
        """Move a running game that cannot be read back to ``set_aside_games``, unchanged."""
        async with self._lock, self._transaction():
            self._saved_actions.pop(broken.table_id, None)
            await self._db.execute(
                f"INSERT INTO set_aside_games ({RUNNING_COLUMNS}, error, set_aside_at)"
                f" SELECT {RUNNING_COLUMNS}, ?, ? FROM running_games WHERE table_id = ?",
                (broken.error, to_text(datetime.now(UTC)), broken.table_id),
            )
            await self._db.execute(
                "DELETE FROM running_games WHERE table_id = ?", (broken.table_id,)
            )

    async def delete_game(self, table_id: str) -> None:
        """Forget a running game stopped without a result (nothing if it is not there)."""
        async with self._lock:
            self._saved_actions.pop(table_id, None)
            await self._db.execute("DELETE FROM running_games WHERE table_id = ?", (table_id,))

    async def finish_game(self, game: FinishedGame) -> None:
        """Write a finished game in ONE transaction, all or nothing.

        Deletes the running row, inserts the game (in its server's current season), one row per
        seat and the replay record: one INSERT into the view ``finish_game``, whose trigger
        (migration 003) writes the rows. On any failure nothing is written and the running row
        stays.
        """
        async with self._lock:
            self._saved_actions.pop(game.table_id, None)
            await self._db.execute(
                """
                INSERT INTO finish_game (table_id, guild_id, channel_id, game_id, options, seed,
                    started_at, ended_at, has_ai, summary, seats, record)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    game.table_id,
                    game.guild_id,
                    game.channel_id,
                    game.game_id,
                    dump(game.options),
                    game.seed,
                    to_text(game.started_at),
                    to_text(game.ended_at),
                    game.has_ai,
                    dump(game.summary),
                    dump(game.seats),
                    dump(game.record),
                ),
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    async def finished_record(self, table_id: str) -> dict[str, Any] | None:
        """The replay record of a finished game (for ``python -m engine replay``), or None."""
        async with self._lock:
            row = await self._fetchone(
                "SELECT record FROM replay_records WHERE table_id = ?", (table_id,)
            )
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        return record

    # -- seasons -------------------------------------------------------------------------------
    async def current_season(self, guild_id: int, game_id: str) -> int:
        """The season new results of ``game_id`` on this server go to (1 until a reset)."""
        async with self._lock:
            return await self._current_season(guild_id, game_id)

    async def _current_season(self, guild_id: int, game_id: str) -> int:
        row = await self._fetchone(
            "SELECT COALESCE(MAX(season), 1) FROM seasons WHERE guild_id = ? AND game_id = ?",
            (guild_id, game_id),
        )
        return int(row[0]) if row else 1

    async def reset_season(self, guild_id: int, game_id: str | None = None) -> int:
        """Start a new season of ``game_id`` (None: of every game); returns its number.

        Nothing is deleted: older seasons stay queryable with ``scoreboard(season=…)``. With
        None every registered or recorded game moves on, and the highest new number is returned.
        """
        async with self._lock, self._transaction():
            if game_id is None:
                rows = await self._fetchall(
                    "SELECT game_id FROM finished_games WHERE guild_id = ?"
                    " UNION SELECT game_id FROM seasons WHERE guild_id = ?",
                    (guild_id, guild_id),
                )
                game_ids = sorted({*games(), *(row[0] for row in rows)})
            else:
                game_ids = [game_id]
            started = to_text(datetime.now(UTC))
            newest = 1
            for each in game_ids:
                season = await self._current_season(guild_id, each) + 1
                await self._db.execute(
                    "INSERT INTO seasons (guild_id, game_id, season, started_at)"
                    " VALUES (?, ?, ?, ?)",
                    (guild_id, each, season, started),
                )
                newest = max(newest, season)
        return newest

    # -- scoreboards, stats, history -------------------------------------------------------
    async def scoreboard(
        self, guild_id: int, game_id: str | None = None, season: int | None = None
    ) -> list[ScoreRow]:
        """This server's ranking for ``game_id`` (None: every game, by game id then rank).

        ``season`` None is each game's current season. Players are ranked by rating, then wins,
        then games; AI seats are not listed (see bot/services/ratings.py).
        """
        async with self._lock:
            if game_id is None:
                rows = await self._fetchall(
                    "SELECT DISTINCT game_id FROM finished_games WHERE guild_id = ?"
                    " ORDER BY game_id",
                    (guild_id,),
                )
                game_ids = [row[0] for row in rows]
            else:
                game_ids = [game_id]
            board: list[ScoreRow] = []
            for each in game_ids:
                chosen = (
                    season if season is not None else await self._current_season(guild_id, each)
                )
                board.extend(await self._board(guild_id, each, chosen))
        return board

    async def _board(self, guild_id: int, game_id: str, season: int) -> list[ScoreRow]:
        seats = await self._season_seats(guild_id, game_id, season)
        ratings = rate_games(
            [(seat.user_id, seat.place) for seat in game] for game in seats.values()
        )
        games_played: dict[int, int] = defaultdict(int)
        wins: dict[int, int] = defaultdict(int)
        names: dict[int, str] = {}
        for game in seats.values():
            for seat in game:
                games_played[seat.user_id] += 1
                wins[seat.user_id] += seat.place == 1
                names[seat.user_id] = seat.name
        order = sorted(
            games_played,
            key=lambda user: (-ratings[user].ordinal, -wins[user], -games_played[user], user),
        )
        return [
            ScoreRow(
                user_id=user,
                name=names[user],
                game_id=game_id,
                season=season,
                games=games_played[user],
                wins=wins[user],
                win_rate=wins[user] / games_played[user],
                rating=round(ratings[user].ordinal, 3),
                rank=rank,
            )
            for rank, user in enumerate(order, start=1)
        ]

    async def _season_seats(
        self, guild_id: int, game_id: str, season: int
    ) -> dict[str, list[_RatedSeat]]:
        """The seats with a player of every game of a season, by table, in the order they ended."""
        rows = await self._fetchall(
            """
            SELECT g.table_id, s.user_id, s.name, s.place
            FROM finished_games AS g JOIN finished_seats AS s ON s.table_id = g.table_id
            WHERE g.guild_id = ? AND g.game_id = ? AND g.season = ? AND s.user_id IS NOT NULL
            ORDER BY g.ended_at, g.table_id, s.seat
            """,
            (guild_id, game_id, season),
        )
        seats: dict[str, list[_RatedSeat]] = {}
        for row in rows:
            seats.setdefault(row[0], []).append(_RatedSeat(row[1], row[2], row[3]))
        return seats

    async def stats(self, guild_id: int, user_id: int) -> list[StatsRow]:
        """A player's figures per game on this server: games, wins, best and average score over
        all seasons, and the rating of the current season. One row per game played."""
        async with self._lock:
            rows = await self._fetchall(
                """
                SELECT g.game_id, COUNT(*), SUM(s.place = 1), MAX(s.score), MIN(s.score),
                    AVG(s.score)
                FROM finished_games AS g JOIN finished_seats AS s ON s.table_id = g.table_id
                WHERE g.guild_id = ? AND s.user_id = ?
                GROUP BY g.game_id ORDER BY g.game_id
                """,
                (guild_id, user_id),
            )
            result = []
            for game_id, played, won, highest, lowest, average in rows:
                season = await self._current_season(guild_id, game_id)
                seats = await self._season_seats(guild_id, game_id, season)
                ratings = rate_games(
                    [(s.user_id, s.place) for s in game] for game in seats.values()
                )
                rating = ratings.get(user_id, DEFAULT)
                season_games = sum(
                    any(seat.user_id == user_id for seat in game) for game in seats.values()
                )
                low_wins = lowest_score_wins(await self._results(guild_id, game_id))
                result.append(
                    StatsRow(
                        game_id=game_id,
                        games=played,
                        wins=won,
                        rating=round(rating.ordinal, 3),
                        season=season,
                        season_games=season_games,
                        best_score=lowest if low_wins else highest,
                        average_score=round(average, 3),
                    )
                )
        return result

    async def _results(self, guild_id: int, game_id: str) -> list[list[tuple[int, int]]]:
        """(score, place) of every seat of this server's games of ``game_id``."""
        rows = await self._fetchall(
            """
            SELECT s.table_id, s.score, s.place
            FROM finished_games AS g JOIN finished_seats AS s ON s.table_id = g.table_id
            WHERE g.guild_id = ? AND g.game_id = ?
            """,
            (guild_id, game_id),
        )
        results: dict[str, list[tuple[int, int]]] = {}
        for table_id, score, place in rows:
            results.setdefault(table_id, []).append((score, place))
        return list(results.values())

    async def history(
        self, guild_id: int, limit: int = 10, offset: int = 0, game_id: str | None = None
    ) -> list[HistoryRow]:
        """This server's finished games (of ``game_id``; None: all), newest first, with every
        seat: ``limit`` of them after skipping the ``offset`` newest."""
        async with self._lock:
            games_rows = await self._fetchall(
                "SELECT table_id, game_id, season, ended_at, has_ai, summary FROM finished_games"
                " WHERE guild_id = ? AND (? IS NULL OR game_id = ?)"
                " ORDER BY ended_at DESC, table_id DESC LIMIT ? OFFSET ?",
                (guild_id, game_id, game_id, limit, offset),
            )
            ids = [row[0] for row in games_rows]
            seat_rows = await self._fetchall(
                "SELECT table_id, seat, user_id, name, is_ai, score, place FROM finished_seats"
                f" WHERE table_id IN ({', '.join('?' * len(ids))}) ORDER BY table_id, seat",
                ids,
            )
        seats: dict[str, list[FinishedSeat]] = defaultdict(list)
        for table_id, seat, user_id, name, is_ai, score, place in seat_rows:
            seats[table_id].append(
                FinishedSeat(
                    seat=seat, user_id=user_id, name=name, is_ai=is_ai, score=score, place=place
                )
            )
        return [
            HistoryRow(
                table_id=table_id,
                game_id=game_id,
                season=season,
                ended_at=from_text(ended_at),
                seats=seats[table_id],
                has_ai=bool(has_ai),
                summary=json.loads(summary),
            )
            for table_id, game_id, season, ended_at, has_ai, summary in games_rows
        ]

    # -- helpers -----------------------------------------------------------------------------
    async def _fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._db.execute(sql, tuple(parameters)) as cursor:
            return list(await cursor.fetchall())

    async def _fetchone(self, sql: str, parameters: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._db.execute(sql, tuple(parameters)) as cursor:
            return await cursor.fetchone()


class _RatedSeat(NamedTuple):
    user_id: int
    name: str
    place: int


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` when the block raises."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def __aenter__(self) -> None:
        await self._db.execute("BEGIN IMMEDIATE")

    async def __aexit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            await self._db.execute("COMMIT")
        else:
            await self._db.execute("ROLLBACK")
