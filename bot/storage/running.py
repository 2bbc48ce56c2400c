"""Running games: saved with every accepted move, read back at start, set aside or deleted.

``RunningGames`` is what the bot needs from any backend; ``SqlRunningGames`` keeps them in
SQLite or PostgreSQL. A save sends only the actions not yet stored (the database appends them
to the stored list), which keeps a save's cost flat however long the game.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime
from typing import Protocol

from pydantic import ValidationError

from bot.storage.connection import Database, Row, Sql, dump, to_text, written_anyway
from bot.storage.errors import RevisionConflictError, StorageError
from bot.storage.models import (
    ActionRecord,
    BrokenGame,
    LoadedGame,
    SavedGame,
    SeatRecord,
    TableLog,
)
from bot.storage.shards import Shards
from engine.registry import get_game

log = logging.getLogger(__name__)

RUNNING_COLUMNS = (
    "table_id, guild_id, channel_id, host_id, game_id, options, seed, seats, state, revision,"
    " actions, table_message_id, deadline, started_at, saved_at, table_log"
)
# Columns a new game's row leaves out when it has none (NULL), as every game was stored before
# the migration that added them: a game of the server's turn time (013), one that plays in its
# lobby's channel (014).
OPTIONAL_COLUMNS = ("turn_seconds", "parent_channel_id")
# What a game ended without a result keeps of its running row (with when and why it ended).
UNFINISHED_COLUMNS = (
    "table_id, guild_id, channel_id, game_id, options, seed, seats, actions, started_at"
)
# The length of the stored action list, and (SQLite) the check that it can be read: stored
# JSON is text in both dialects; PostgreSQL casts it (its json type refuses bad text anyway).
ACTIONS_LENGTH = {
    "sqlite": "json_array_length(actions)",
    "postgresql": "json_array_length(actions::json)",
}
READ_IN_TURNS = 100
"""Games read back between two turns of the event loop at a start: reading 10,000 takes tens
of seconds on a busy machine, and a loop blocked that long would miss the shard heartbeat
(the server ends a silent lock connection after a minute) and every other task's turn."""
ACTIONS_READABLE = {"sqlite": "json_valid(actions) AND ", "postgresql": ""}
# At a start the stored actions stay JSON text (see ActionRecord): SQLite checks that it is an
# array and counts it, in C, so that no start parses every game's action list. PostgreSQL
# (before 16) has no check that does not fail the whole query on bad text: NULL, and the
# list is parsed in Python instead.
ACTIONS_COUNTED = {
    "sqlite": "CASE WHEN typeof(actions) = 'text' AND json_valid(actions)"
    " AND json_type(actions) = 'array' THEN json_array_length(actions) END",
    "postgresql": "NULL",
}


def on_shards(shards: Shards | None) -> tuple[str, dict[str, int]]:
    """A WHERE clause (and its parameters) keeping the rows of the servers on ``shards``
    (Discord's shard formula on ``guild_id``); none for None or every shard.

    >>> on_shards(Shards(4, (1, 3)))
    (' WHERE (guild_id >> 22) % 4 IN (:shard0, :shard1)', {'shard0': 1, 'shard1': 3})
    """
    if shards is None or len(shards.ids) == shards.count:
        return "", {}
    parameters = {f"shard{n}": shard for n, shard in enumerate(shards.ids)}
    names = ", ".join(f":{name}" for name in parameters)
    return f" WHERE (guild_id >> 22) % {shards.count} IN ({names})", parameters


class RunningGames(Protocol):
    """The running games of a database."""

    async def save(
        self, game: SavedGame, expected: int | None = None, lobby_id: str | None = None
    ) -> None:
        """Store a running game if the stored one is at revision ``expected`` (None: a new
        game, whose open lobby ``lobby_id`` is deleted in the same transaction);
        RevisionConflictError, storing nothing, if another writer saved it since."""

    async def load(self, shards: Shards | None = None) -> list[LoadedGame | BrokenGame]:
        """Every running game (of the servers of ``shards``; None: of all), oldest first; one
        that cannot be read back is a BrokenGame."""

    async def set_aside(self, broken: BrokenGame) -> None:
        """Move a game that cannot be read back out of the running games, unchanged."""

    async def set_paused(self, table_id: str, since: datetime | None) -> None:
        """Record that a running game has been paused since ``since`` (None: it goes on)."""

    async def end_unfinished(self, table_id: str, reason: str, expected: int | None = None) -> None:
        """Move a running game that ended without a result to the unfinished games, with
        ``reason`` (nothing if it is not there); with ``expected``, only if it is at that
        revision (else RevisionConflictError)."""

    async def id_taken(self, table_id: str) -> bool:
        """Whether a running, finished, unfinished or set-aside game has this id."""

    def forget(self, table_id: str) -> None:
        """Drop what this store remembers of a game another store has just removed."""


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


def _table_log(table_id: str, column: str | bytes | None) -> TableLog | None:
    """A running game's ``table_log`` column read back. None, as for a game saved before the
    log was kept, when there is none or it is damaged (not a table log): the restore then
    rebuilds the log from the game's moves, and the game itself goes on rather than being set
    aside. The damage is logged for the host without the column's words (it may hold a card
    nobody saw)."""
    if column is None:
        return None
    try:
        return TableLog.model_validate_json(column)
    except ValidationError as error:
        log.warning(
            "table %s: its saved log could not be read back (%s); rebuilt from its moves",
            table_id,
            "not JSON" if error.errors()[0]["type"] == "json_invalid" else "not a table log",
        )
        return None


def _action_record(text: object, counted: int | None) -> ActionRecord:
    """The stored actions as a record, counted by the database (None: parsed here to count
    them, which also refuses text that is not a JSON array)."""
    if counted is None:
        try:
            listed = json.loads(text) if isinstance(text, str) else None
        except ValueError as error:
            raise StorageError(f"actions: not JSON ({error})") from None
        if not isinstance(listed, list):
            raise StorageError("actions: not a JSON array")
        counted = len(listed)
    assert isinstance(text, str)
    return ActionRecord(text, counted)


class SqlRunningGames:
    """Running games in the database's ``running_games`` (and ``set_aside_games``)."""

    def __init__(self, database: Database) -> None:
        self._db = database
        self._saved_actions: dict[str, int] = {}  # table id: actions known to be stored
        self._length = length = ACTIONS_LENGTH[database.dialect]
        self._update = f"""
            UPDATE running_games SET
                guild_id = :guild_id, channel_id = :channel_id,
                parent_channel_id = :parent_channel_id, host_id = :host_id,
                game_id = :game_id, options = :options, seed = :seed, seats = :seats,
                state = :state, revision = :revision,
                actions = CASE
                    WHEN :known = 0 OR actions = '[]' THEN CAST(:actions AS TEXT)
                    WHEN :actions = '[]' THEN actions
                    ELSE substr(actions, 1, length(actions) - 1) || ',' || substr(:actions, 2)
                END,
                table_message_id = :table_message_id, deadline = :deadline,
                started_at = :started_at, saved_at = :saved_at, table_log = :table_log
            WHERE table_id = :table_id AND revision = :expected
                AND (:known = 0 OR ({ACTIONS_READABLE[database.dialect]}{length} = :known))
            RETURNING {length}
            """

    async def save(
        self, game: SavedGame, expected: int | None = None, lobby_id: str | None = None
    ) -> None:
        """Store a running game in one statement (its own transaction), if the stored one is
        still at revision ``expected`` (None: a new game, with no row yet; its open lobby
        ``lobby_id``, if given, is deleted in the same transaction: a lobby never outlives
        its start).

        Raises RevisionConflictError, storing nothing, when it is not: another writer saved
        the game since (or finished or removed it). A save that fails otherwise (the
        connection dropped, no reply in time) is settled by reading the stored row: if it is
        the one this save wrote, its COMMIT went through and only the reply was lost, so the
        save returns as done; if not, the error is raised (nothing was stored).

        Only the actions not yet saved by this store are sent; SQLite appends them to the
        stored list, which keeps a save's cost flat however long the game.
        """
        starts_lobby = lobby_id is not None and expected is None
        saved_at = to_text(datetime.now(UTC))  # also tells this save's row from any other
        try:
            # one statement commits on its own; a started lobby's delete must go with it
            async with self._db.transaction() if starts_lobby else self._db.session() as sql:
                known = self._saved_actions.get(game.table_id, 0) if expected is not None else 0
                if not 0 <= known <= len(game.actions):
                    known = 0
                stored = await self._write(sql, game, expected, known, saved_at)
                if stored is None and known:
                    # the row was not as remembered
                    stored = await self._write(sql, game, expected, 0, saved_at)
                if stored is None:
                    self._saved_actions.pop(game.table_id, None)
                    raise RevisionConflictError(
                        f"table {game.table_id}: another writer saved this game first (this"
                        " save expected"
                        f" {'no saved game' if expected is None else f'revision {expected}'})"
                    )
                if starts_lobby:
                    await sql.execute(
                        "DELETE FROM open_lobbies WHERE lobby_id = :lobby_id",
                        {"lobby_id": lobby_id},
                    )
        except RevisionConflictError:
            raise
        except Exception as error:
            self._saved_actions.pop(game.table_id, None)  # the next save sends every action
            if not await written_anyway(
                self._db,
                error,
                f"table {game.table_id}: a save",
                "SELECT 1 FROM running_games WHERE table_id = :table_id"
                " AND revision = :revision AND saved_at = :saved_at",
                {"table_id": game.table_id, "revision": game.revision, "saved_at": saved_at},
            ):
                raise
            return
        self._saved_actions[game.table_id] = stored

    async def _write(
        self, sql: Sql, game: SavedGame, expected: int | None, known: int, saved_at: str
    ) -> int | None:
        """Insert ``game`` (``expected`` None) or update the row at revision ``expected``,
        sending its actions from index ``known`` on (0: all of them), stamped ``saved_at``.

        Returns the number of actions stored, or None when nothing was written (a row there
        already, or not at ``expected``, or a stored action list that is not ``known`` long).
        """
        values = {
            "table_id": game.table_id,
            "guild_id": game.guild_id,
            "channel_id": game.channel_id,
            "parent_channel_id": game.parent_channel_id,
            "host_id": game.host_id,
            "game_id": game.game_id,
            "options": dump(game.options),
            "seed": game.seed,
            "seats": dump(game.seats),
            "state": dump(game.state),
            "revision": game.revision,
            "actions": dump(game.actions[known:]),
            "table_message_id": game.table_message_id,
            "deadline": to_text(game.deadline),
            "started_at": to_text(game.started_at),
            "saved_at": saved_at,
            "table_log": None if game.table_log is None else dump(game.table_log),
        }
        if expected is None:
            given = {
                column: getattr(game, column)
                for column in OPTIONAL_COLUMNS
                if getattr(game, column) is not None
            }
            rows = await sql.fetchall(self._insert(tuple(given)), {**values, **given})
        else:
            rows = await sql.fetchall(
                self._update, {**values, "expected": expected, "known": known}
            )
        return next((int(row[0]) for row in rows), None)

    def _insert(self, optional: tuple[str, ...]) -> str:
        """The INSERT of a new game's row with ``optional`` columns (of OPTIONAL_COLUMNS)."""
        columns = [*RUNNING_COLUMNS.split(", "), *optional]
        return (
            f"INSERT INTO running_games ({', '.join(columns)})"
            f" VALUES ({', '.join(f':{column}' for column in columns)})"
            f" ON CONFLICT (table_id) DO NOTHING RETURNING {self._length}"
        )

    async def load(self, shards: Shards | None = None) -> list[LoadedGame | BrokenGame]:
        """Every running game (of the servers on ``shards``; None: all), oldest first; one
        that cannot be read back is a BrokenGame.

        A game is broken when a column is not valid JSON or the wrong shape, its game id is
        unknown, or the engine refuses its state (wrong schema, malformed, wrong seat count).
        The state is parsed here, once: a LoadedGame carries it.
        """
        where, parameters = on_shards(shards)
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                f"SELECT *, {ACTIONS_COUNTED[self._db.dialect]} AS action_count"
                f" FROM running_games{where} ORDER BY started_at, table_id",
                parameters,
            )
        loaded: list[LoadedGame | BrokenGame] = []
        for first in range(0, len(rows), READ_IN_TURNS):
            if first:
                await asyncio.sleep(0)  # the other tasks' turn (see READ_IN_TURNS)
            loaded += map(self._read, rows[first : first + READ_IN_TURNS])
        return loaded

    @staticmethod
    def _read(row: Row) -> LoadedGame | BrokenGame:
        table_id = str(row["table_id"])
        try:
            game = SavedGame(
                table_id=table_id,
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                parent_channel_id=row["parent_channel_id"],
                host_id=row["host_id"],
                game_id=row["game_id"],
                options=json.loads(row["options"]),
                seed=row["seed"],
                seats=[SeatRecord.model_validate(seat) for seat in json.loads(row["seats"])],
                state=json.loads(row["state"]),
                revision=row["revision"],
                actions=_action_record(row["actions"], row["action_count"]),
                table_message_id=row["table_message_id"],
                deadline=row["deadline"],
                started_at=row["started_at"],
                paused_since=row["paused_since"],
                turn_seconds=row["turn_seconds"],
                table_log=_table_log(table_id, row["table_log"]),
            )
            state = get_game(game.game_id).state_from_json(game.state)
            if state.players != len(game.seats):
                raise StorageError(
                    f"the state has {state.players} seats but the table {len(game.seats)}"
                )
        except Exception as error:  # a bad row must never stop the others from loading
            return BrokenGame(
                table_id=table_id,
                guild_id=_int_or_none(row["guild_id"]),
                channel_id=_int_or_none(row["channel_id"]),
                error=f"{type(error).__name__}: {describe_error(error)}",
            )
        return LoadedGame(game, state)

    async def set_aside(self, broken: BrokenGame) -> None:
        """Move a running game that cannot be read back to ``set_aside_games``, unchanged."""
        async with self._db.transaction() as sql:
            self.forget(broken.table_id)
            await sql.execute(
                f"INSERT INTO set_aside_games ({RUNNING_COLUMNS}, paused_since, turn_seconds,"
                " parent_channel_id, error, set_aside_at)"
                f" SELECT {RUNNING_COLUMNS}, paused_since, turn_seconds, parent_channel_id,"
                " CAST(:error AS TEXT), CAST(:now AS TEXT)"
                " FROM running_games WHERE table_id = :table_id",
                {
                    "error": broken.error,
                    "now": to_text(datetime.now(UTC)),
                    "table_id": broken.table_id,
                },
            )
            await sql.execute(
                "DELETE FROM running_games WHERE table_id = :table_id",
                {"table_id": broken.table_id},
            )

    async def set_paused(self, table_id: str, since: datetime | None) -> None:
        """Record that a running game has been paused since ``since`` (None: it goes on).
        Not a save of the game: its revision and state stay as they are."""
        async with self._db.transaction() as sql:
            await sql.execute(
                "UPDATE running_games SET paused_since = :since WHERE table_id = :table_id",
                {"since": to_text(since), "table_id": table_id},
            )

    async def end_unfinished(self, table_id: str, reason: str, expected: int | None = None) -> None:
        """Move a running game that ended without a result to ``unfinished_games`` with
        ``reason``, in one transaction (nothing if it is not there); with ``expected``, only
        if it is at that revision: RevisionConflictError if another writer saved or removed
        it first, with nothing written.

        The running row is deleted first, at that revision, and the copy made of what the
        DELETE returned: a save racing the end either lands before (the DELETE then finds
        another revision) or waits for the row and finds it gone, so the game is never both
        running and unfinished. A conflict or a failed copy rolls the DELETE back. A lost
        reply is settled as for ``save``: by reading whether the copy is stored.
        """
        ended_at = to_text(datetime.now(UTC))  # also tells this end's row from any other
        try:
            await self._end_unfinished(table_id, reason, expected, ended_at)
        except RevisionConflictError:
            raise
        except Exception as error:
            if not await written_anyway(
                self._db,
                error,
                f"table {table_id}: ending it without a result",
                "SELECT 1 FROM unfinished_games WHERE table_id = :table_id"
                " AND ended_at = :ended_at AND NOT EXISTS"
                " (SELECT 1 FROM running_games WHERE table_id = :table_id)",
                {"table_id": table_id, "ended_at": ended_at},
            ):
                raise

    async def _end_unfinished(
        self, table_id: str, reason: str, expected: int | None, ended_at: str
    ) -> None:
        async with self._db.transaction() as sql:
            self.forget(table_id)
            ended = await sql.fetchone(
                "DELETE FROM running_games WHERE table_id = :table_id"
                " AND (CAST(:expected AS INTEGER) IS NULL OR revision = :expected)"
                f" RETURNING {UNFINISHED_COLUMNS}",
                {"table_id": table_id, "expected": expected},
            )
            if ended is None:
                if expected is None:
                    return
                raise RevisionConflictError(
                    f"table {table_id}: another writer saved or ended this game first"
                    f" (stopping it expected revision {expected})"
                )
            await sql.execute(
                f"INSERT INTO unfinished_games ({UNFINISHED_COLUMNS}, ended_at, reason)"
                " VALUES (:table_id, :guild_id, :channel_id, :game_id, :options, :seed, :seats,"
                " :actions, :started_at, :ended_at, :reason)",
                {
                    **dict(zip(UNFINISHED_COLUMNS.split(", "), ended, strict=True)),
                    "ended_at": ended_at,
                    "reason": reason,
                },
            )

    async def id_taken(self, table_id: str) -> bool:
        """Whether a running, finished, unfinished or set-aside game has this id."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT EXISTS (SELECT 1 FROM running_games WHERE table_id = :id)"
                " OR EXISTS (SELECT 1 FROM finished_games WHERE table_id = :id)"
                " OR EXISTS (SELECT 1 FROM unfinished_games WHERE table_id = :id)"
                " OR EXISTS (SELECT 1 FROM set_aside_games WHERE table_id = :id)",
                {"id": table_id},
            )
        return bool(row and row[0])

    def forget(self, table_id: str) -> None:
        """Drop the count of stored actions of a game (its row is gone or replaced)."""
        self._saved_actions.pop(table_id, None)
