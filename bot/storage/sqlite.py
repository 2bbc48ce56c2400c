"""The SQLite database: one aiosqlite connection with its pragmas, shared by the stores.

WAL mode with foreign keys on. With synchronous=NORMAL (the default) a committed transaction
survives the bot being killed, and a power cut may lose the last commits (never corrupting the
file); with synchronous=FULL every commit is on disk before the save returns. WAL keeps readers
off the writer's way. The database is held by one process (``bot/storage/lock.py``) and its
files are readable by their owner only: they hold every running game's hidden cards. A lock
serialises the connection's users so that no statement of one task lands inside another task's
transaction: ``session()`` and ``transaction()`` hold it for their block.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.connection import NO_PARAMETERS, Dialect, Parameters, Row, Synchronous
from bot.storage.errors import StorageError
from bot.storage.lock import DatabaseLock

OWNER_ONLY = 0o600


class SqliteSql:
    """Statements on the SQLite connection (its parameters are named natively)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> None:
        """Run one statement, discarding any rows."""
        await (await self.connection.execute(sql, dict(parameters))).close()

    async def fetchall(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Sequence[Row]:
        """Every row of one statement."""
        async with self.connection.execute(sql, dict(parameters)) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, sql: str, parameters: Parameters = NO_PARAMETERS) -> Row | None:
        """The first row of one statement, or None."""
        async with self.connection.execute(sql, dict(parameters)) as cursor:
            return await cursor.fetchone()

    async def run_script(self, script: str) -> None:
        """Run a script as one transaction: executescript runs the whole script, and BEGIN
        IMMEDIATE … COMMIT make it all or nothing."""
        try:
            await self.connection.executescript(f"BEGIN IMMEDIATE;\n{script}\n;COMMIT;")
        except BaseException:
            if self.connection.in_transaction:
                await self.connection.execute("ROLLBACK")
            raise


class SqliteDatabase:
    """One SQLite connection shared by the stores. Open with ``await SqliteDatabase.open(path)``."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, file_lock: DatabaseLock) -> None:
        self._sql = SqliteSql(connection)
        self._lock = asyncio.Lock()
        self.file_lock = file_lock

    @classmethod
    async def open(cls, path: Path | str, synchronous: Synchronous = "normal") -> SqliteDatabase:
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

    @asynccontextmanager
    async def session(self) -> AsyncIterator[SqliteSql]:
        """The connection, to this block alone; each statement commits on its own."""
        async with self._lock:
            yield self._sql

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteSql]:
        """The connection, to this block alone: ``BEGIN IMMEDIATE`` … ``COMMIT``, or
        ``ROLLBACK`` when the block or the COMMIT raises (a COMMIT that fails, on a full disk
        or a busy file, leaves no transaction open for the next user of the connection: it
        raises StorageError, with nothing of the block written)."""
        async with self._lock:
            connection = self._sql.connection
            await connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._sql
                try:
                    await connection.execute("COMMIT")
                except sqlite3.Error as error:
                    raise StorageError(f"the transaction was not committed: {error}") from error
            except BaseException:
                if connection.in_transaction:
                    await connection.execute("ROLLBACK")
                raise

    def maintenance(self) -> AbstractAsyncContextManager[SqliteSql]:
        """A session (SQLite's have no time limits)."""
        return self.session()

    async def pragma(self, name: str) -> Any:
        """A pragma's value (``journal_mode``, ``foreign_keys`` …), for checks."""
        if not name.isidentifier():
            raise StorageError(f"not a pragma name: {name!r}")
        async with self.session() as sql:
            row = await sql.fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    async def close(self) -> None:
        """Close the connection (saved work is already committed) and release the file lock."""
        async with self._lock:
            await self._sql.connection.close()
        self.file_lock.release()


def _owner_only(path: Path) -> None:
    """Create the database file readable by its owner only, or make an existing one so.

    SQLite creates the -wal and -shm files with the database file's permissions; existing
    ones (from an earlier, looser version) are tightened too.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, OWNER_ONLY))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if each.exists():
            each.chmod(OWNER_ONLY)
