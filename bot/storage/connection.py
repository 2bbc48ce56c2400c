"""The SQLite connection: opening it with its pragmas, serialising its users, transactions.

One aiosqlite connection per database, in WAL mode with foreign keys on and synchronous=NORMAL
(a committed transaction survives the bot being killed; WAL keeps readers off the writer's
way). A lock serialises the connection's users so that no statement of one task lands inside
another task's transaction: every store takes ``database.lock`` around its statements.
Values cross into SQL as text: times as ISO 8601 in UTC, JSON columns as compact JSON.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic_core import to_json

from bot.storage.errors import StorageError
from bot.storage.models import as_utc


def to_text(moment: datetime | None) -> str | None:
    """A time as stored: ISO 8601 in UTC with microseconds (so text order is time order)."""
    return None if moment is None else as_utc(moment).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    """A stored time back."""
    return datetime.fromisoformat(text)


def dump(value: object) -> str:
    """Compact JSON text (pydantic's fast encoder; models become objects, tuples arrays)."""
    return to_json(value).decode()


class Database:
    """One SQLite connection shared by the stores. Open with ``await Database.open(path)``."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        """Open (creating the directory and file) and set the connection's pragmas."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = aiosqlite.Row
            await (await connection.execute("PRAGMA journal_mode = WAL")).close()
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await (await connection.execute("PRAGMA busy_timeout = 5000")).close()
        except BaseException:
            await connection.close()
            raise
        return cls(connection)

    async def close(self) -> None:
        """Close the connection (saved work is already committed)."""
        async with self.lock:
            await self.connection.close()

    async def pragma(self, name: str) -> Any:
        """A pragma's value (``journal_mode``, ``foreign_keys`` …), for checks."""
        if not name.isidentifier():
            raise StorageError(f"not a pragma name: {name!r}")
        async with self.lock:
            row = await self.fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    def transaction(self) -> Transaction:
        """``async with database.transaction():`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK."""
        return Transaction(self.connection)

    async def execute(self, sql: str, parameters: Iterable[Any] | dict[str, Any] = ()) -> None:
        """Run one statement, discarding any rows."""
        await (await self.connection.execute(sql, _parameters(parameters))).close()

    async def fetchall(
        self, sql: str, parameters: Iterable[Any] | dict[str, Any] = ()
    ) -> list[aiosqlite.Row]:
        """Every row of one statement."""
        async with self.connection.execute(sql, _parameters(parameters)) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(
        self, sql: str, parameters: Iterable[Any] | dict[str, Any] = ()
    ) -> aiosqlite.Row | None:
        """The first row of one statement, or None."""
        async with self.connection.execute(sql, _parameters(parameters)) as cursor:
            return await cursor.fetchone()


def _parameters(parameters: Iterable[Any] | dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
    return parameters if isinstance(parameters, dict) else tuple(parameters)


class Transaction:
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
