"""Running games: saved with every accepted move, read back at start, set aside or deleted.

``RunningGames`` is what the bot needs from any backend; ``SqliteRunningGames`` is the SQLite
one. A save sends only the actions not yet stored (SQLite appends them to the stored list),
which keeps a save's cost flat however long the game.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Protocol

import aiosqlite
from pydantic import ValidationError

from bot.storage.connection import Database, dump, to_text
from bot.storage.errors import RevisionConflictError, StorageError
from bot.storage.models import (
    ActionRecord,
    BrokenGame,
    LoadedGame,
    SavedGame,
    SeatRecord,
    TableLog,
)
from engine.registry import get_game

RUNNING_COLUMNS = (
    "table_id, guild_id, channel_id, host_id, game_id, options, seed, seats, state, revision,"
    " actions, table_message_id, deadline, started_at, saved_at, table_log"
)


class RunningGames(Protocol):
    """The running games of a database."""

    async def save(
        self, game: SavedGame, expected: int | None = None, lobby_id: str | None = None
    ) -> None:
        """Store a running game if the stored one is at revision ``expected`` (None: a new
        game, whose open lobby ``lobby_id`` is deleted in the same transaction);
        RevisionConflictError, storing nothing, if another writer saved it since."""

    async def load(self) -> list[LoadedGame | BrokenGame]:
        """Every running game, oldest first; one that cannot be read back is a BrokenGame."""

    async def set_aside(self, broken: BrokenGame) -> None:
        """Move a game that cannot be read back out of the running games, unchanged."""

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


def _action_record(row: aiosqlite.Row) -> ActionRecord:
    if row["action_count"] is None:
        raise StorageError("actions: not a JSON array")
    return ActionRecord(row["actions"], row["action_count"])


class SqliteRunningGames:
    """Running games in SQLite's ``running_games`` (and ``set_aside_games``)."""

    def __init__(self, database: Database) -> None:
        self._db = database
        self._saved_actions: dict[str, int] = {}  # table id: actions known to be stored

    async def save(
        self, game: SavedGame, expected: int | None = None, lobby_id: str | None = None
    ) -> None:
        """Store a running game in one statement (its own transaction), if the stored one is
        still at revision ``expected`` (None: a new game, with no row yet; its open lobby
        ``lobby_id``, if given, is deleted in the same transaction: a lobby never outlives
        its start).

        Raises RevisionConflictError, storing nothing, when it is not: another writer saved
        the game since (or finished or removed it). Only the actions not yet saved by this
        store are sent; SQLite appends them to the stored list, which keeps a save's cost flat
        however long the game.
        """
        async with self._db.lock:
            if lobby_id is None or expected is not None:
                self._saved_actions[game.table_id] = await self._write_or_refuse(game, expected)
                return
            async with self._db.transaction():
                stored = await self._write_or_refuse(game, expected)
                await self._db.execute("DELETE FROM open_lobbies WHERE lobby_id = ?", (lobby_id,))
            self._saved_actions[game.table_id] = stored

    async def _write_or_refuse(self, game: SavedGame, expected: int | None) -> int:
        """Write the game (see ``save``); the number of its actions now stored."""
        known = self._saved_actions.get(game.table_id, 0) if expected is not None else 0
        if not 0 <= known <= len(game.actions):
            known = 0
        stored = await self._write(game, expected, known)
        if stored is None and known:
            stored = await self._write(game, expected, 0)  # the row was not as remembered
        if stored is None:
            self._saved_actions.pop(game.table_id, None)
            raise RevisionConflictError(
                f"table {game.table_id}: another writer saved this game first (this save"
                f" expected {'no saved game' if expected is None else f'revision {expected}'})"
            )
        return stored

    async def _write(self, game: SavedGame, expected: int | None, known: int) -> int | None:
        """Insert ``game`` (``expected`` None) or update the row at revision ``expected``,
        sending its actions from index ``known`` on (0: all of them).

        Returns the number of actions stored, or None when nothing was written (a row there
        already, or not at ``expected``, or a stored action list that is not ``known`` long).
        """
        values = {
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
            "table_message_id": game.table_message_id,
            "deadline": to_text(game.deadline),
            "started_at": to_text(game.started_at),
            "saved_at": to_text(datetime.now(UTC)),
            "table_log": None if game.table_log is None else dump(game.table_log),
        }
        if expected is None:
            rows = await self._db.fetchall(
                f"INSERT INTO running_games ({RUNNING_COLUMNS}) VALUES (:table_id, :guild_id,"
                " :channel_id, :host_id, :game_id, :options, :seed, :seats, :state, :revision,"
                " :actions, :table_message_id, :deadline, :started_at, :saved_at, :table_log)"
                " ON CONFLICT (table_id) DO NOTHING RETURNING json_array_length(actions)",
                values,
            )
        else:
            rows = await self._db.fetchall(
                """
                UPDATE running_games SET
                    guild_id = :guild_id, channel_id = :channel_id, host_id = :host_id,
                    game_id = :game_id, options = :options, seed = :seed, seats = :seats,
                    state = :state, revision = :revision,
                    actions = CASE
                        WHEN :known = 0 OR actions = '[]' THEN :actions
                        WHEN :actions = '[]' THEN actions
                        ELSE substr(actions, 1, length(actions) - 1) || ',' || substr(:actions, 2)
                    END,
                    table_message_id = :table_message_id, deadline = :deadline,
                    started_at = :started_at, saved_at = :saved_at, table_log = :table_log
                WHERE table_id = :table_id AND revision = :expected
                    AND (:known = 0
                        OR (json_valid(actions) AND json_array_length(actions) = :known))
                RETURNING json_array_length(actions)
                """,
                {**values, "expected": expected, "known": known},
            )
        return next((int(row[0]) for row in rows), None)

    async def load(self) -> list[LoadedGame | BrokenGame]:
        """Every running game, oldest first; one that cannot be read back is a BrokenGame.

        A game is broken when a column is not valid JSON or the wrong shape, its game id is
        unknown, or the engine refuses its state (wrong schema, malformed, wrong seat count).
        The state is parsed here, once: a LoadedGame carries it.
        """
        async with self._db.lock:
            # the stored actions stay JSON text (see ActionRecord): SQLite checks it is an
            # array and counts it, in C, so that no start parses every game's action list
            rows = await self._db.fetchall(
                "SELECT *, CASE WHEN typeof(actions) = 'text' AND json_valid(actions)"
                " AND json_type(actions) = 'array'"
                " THEN json_array_length(actions) END AS action_count"
                " FROM running_games ORDER BY started_at, table_id"
            )
        return [self._read(row) for row in rows]

    @staticmethod
    def _read(row: aiosqlite.Row) -> LoadedGame | BrokenGame:
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
                actions=_action_record(row),
                table_message_id=row["table_message_id"],
                deadline=row["deadline"],
                started_at=row["started_at"],
                table_log=(
                    None
                    if row["table_log"] is None
                    else TableLog.model_validate_json(row["table_log"])
                ),
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
        async with self._db.lock, self._db.transaction():
            self.forget(broken.table_id)
            await self._db.execute(
                f"INSERT INTO set_aside_games ({RUNNING_COLUMNS}, error, set_aside_at)"
                f" SELECT {RUNNING_COLUMNS}, ?, ? FROM running_games WHERE table_id = ?",
                (broken.error, to_text(datetime.now(UTC)), broken.table_id),
            )
            await self._db.execute(
                "DELETE FROM running_games WHERE table_id = ?", (broken.table_id,)
            )

    async def end_unfinished(self, table_id: str, reason: str, expected: int | None = None) -> None:
        """Move a running game that ended without a result to ``unfinished_games`` with
        ``reason``, in one transaction (nothing if it is not there); with ``expected``, only
        if it is at that revision: RevisionConflictError if another writer saved or removed
        it first."""
        async with self._db.lock, self._db.transaction():
            self.forget(table_id)
            await self._db.execute(
                "INSERT INTO unfinished_games (table_id, guild_id, channel_id, game_id, options,"
                " seed, seats, actions, started_at, ended_at, reason)"
                " SELECT table_id, guild_id, channel_id, game_id, options, seed, seats, actions,"
                " started_at, :ended_at, :reason FROM running_games"
                " WHERE table_id = :id AND (:expected IS NULL OR revision = :expected)",
                {
                    "id": table_id,
                    "expected": expected,
                    "reason": reason,
                    "ended_at": to_text(datetime.now(UTC)),
                },
            )
            rows = await self._db.fetchall(
                "DELETE FROM running_games WHERE table_id = ? AND (? IS NULL OR revision = ?)"
                " RETURNING table_id",
                (table_id, expected, expected),
            )
        if expected is not None and not rows:
            raise RevisionConflictError(
                f"table {table_id}: another writer saved or ended this game first"
                f" (stopping it expected revision {expected})"
            )

    async def id_taken(self, table_id: str) -> bool:
        """Whether a running, finished, unfinished or set-aside game has this id."""
        async with self._db.lock:
            row = await self._db.fetchone(
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
