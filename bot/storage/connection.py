"""The SQLite connection: opening it with its pragmas, serialising its users, transactions.

One aiosqlite connection per database, in WAL mode with foreign keys on. With synchronous=NORMAL
(the default) a committed transaction survives the bot being killed, and a power cut may lose
the last commits (never corrupting the file); with synchronous=FULL every commit is on disk
before the save returns. WAL keeps readers off the writer's way. The database is held by one
process (``bot/storage/lock.py``) and its files are readable by their owner only: they hold
every running game's hidden cards. A lock serialises the connection's users so that no
statement of one task lands inside another task's transaction: every store takes
``database.lock`` around its statements.
Values cross into SQL as text: times as ISO 8601 in UTC, JSON columns as compact JSON.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite
from pydantic_core import to_json

from bot.storage.errors import StorageError
from bot.storage.lock import DatabaseLock
from bot.storage.models import as_utc


def to_text(moment: datetime | None) -> str | None:
    """A time as stored: ISO 8601 in UTC with microseconds (so text order is time order)."""
    return None if moment is None else as_utc(moment).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    """A stored time back."""
    return datetime.fromisoformat(text)


Synchronous = Literal["normal", "full"]
OWNER_ONLY = 0o600


def dump(value: object) -> str:
    """Compact JSON text (pydantic's fast encoder; models become objects, tuples arrays)."""
    return to_json(value).decode()


class Database:
    """One SQLite connection shared by the stores. Open with ``await Database.open(path)``."""

    def __init__(self, connection: aiosqlite.Connection, file_lock: DatabaseLock) -> None:
        self.connection = connection
        self.lock = asyncio.Lock()
        self.file_lock = file_lock

    @classmethod
    async def open(cls, path: Path | str, synchronous: Synchronous = "normal") -> Database:
        """Take the database's file lock, open it (creating the directory and an owner-only
        file) and set the connection's pragmas. DatabaseInUseError if another process has it."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        file_lock = DatabaseLock.acquire(path)
        try:
            _owner_only(path)
            connection = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            file_lock.release()
            raise
        try:
            connection.row_factory = aiosqlite.Row
            await (await connection.execute("PRAGMA journal_mode = WAL")).close()
            await connection.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await connection.execute("PRAGMA foreign_keys = ON")
            await (await connection.execute("PRAGMA busy_timeout = 5000")).close()
        except BaseException:
            await connection.close()
            file_lock.release()
            raise
        return cls(connection, file_lock)

    async def close(self) -> None:
        """Close the connection (saved work is already committed) and release the file lock."""
        async with self.lock:
            await self.connection.close()
        self.file_lock.release()

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


def _owner_only(path: Path) -> None:
    """Create the database file readable by its owner only, or make an existing one so.

    SQLite creates the -wal and -shm files with the database file's permissions; existing
    ones (from an earlier, looser version) are tightened too.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, OWNER_ONLY))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if each.exists():
            each.chmod(OWNER_ONLY)


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
